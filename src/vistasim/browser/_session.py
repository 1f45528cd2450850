"""One episode's browser: a context and page restricted to the run's origins, with snapshots.

The simulated user must only reach the product under test: the context's requests go nowhere
but the allowed origins, and the page's navigations are checked hop by hop before the browser
sends them (`_origins.py`); a blocked navigation leaves the page where it was and comes back to
the caller as an action error it can read. A dead browser is different: that is an
infrastructure failure, raised as `BrowserError` so the runner marks the episode errored.
Snapshots capture what a branch needs
to resume the page: URL, cookies, local and session storage, the widget transcript, the form
fields the user changed, the scroll position and the back-history (`_page_state.py`). A page
that answered a form post is not what a GET of its URL shows, so its answer is kept too: the
restore posts again to the URL and answers from the snapshot (the server is not asked), which
also leaves a post entry in the history, as the original had. Restoring rebuilds the history,
opens the URL, puts the fields back and checks that the widget shows the stored transcript; what
cannot be brought back exactly is a `BrowserError` naming it, never a silently different page.
Version 1 snapshots (no fields, scroll, history or posted answers) still restore. Snapshots and
page views are of a settled page: a navigation under way is waited for (`_activity.py`), and a
read that a navigation cut short is taken again.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict
from typing import Any, TypeVar
from urllib.parse import urlsplit

import anyio

from vistasim.browser._actions import StepResult, execute_step
from vistasim.browser._activity import FIRST_BYTE_S, NetworkWatch, replaced_by_navigation
from vistasim.browser._discover import import_playwright
from vistasim.browser._observe import observe_page
from vistasim.browser._origins import OriginGuard, origin_of
from vistasim.browser._page_state import (
    SNAPSHOT_VERSION,
    capture_fields,
    check_restorable,
    navigation_history,
    parse_snapshot,
    restore_fields,
)
from vistasim.browser._types import Navigate, PageView, WebStep
from vistasim.browser._widget import WidgetSelectors, read_chat
from vistasim.errors import BrowserError

__all__ = ["PageSession"]

_CHAT_SETTLE_S = 2.0
"""How long a restored page may take to draw its widget transcript, after its last activity,
before the transcript counts as lost."""
_CHAT_CAP_S = 30.0
_READ_TRIES = 3
"""Reads of a page that a navigation keeps replacing, before the last one is kept."""
T = TypeVar("T")

_RESTORE_SESSION_STORAGE = """
(([origin, items]) => {
  if (location.origin === origin && sessionStorage.length === 0) {
    for (const [key, value] of Object.entries(items)) sessionStorage.setItem(key, value);
  }
})(%s)
"""


_POST_JS = """
([url, method]) => {
  const form = document.createElement("form");
  form.method = method;
  form.action = url;
  (document.body || document.documentElement).appendChild(form);
  form.submit();
}
"""


THUMBNAIL_SCALE = 0.4
"""Screenshots are this fraction of the viewport's size (512 x 320 for the default page)."""


class PageSession:
    """A browser context and page for one episode (make one with `BrowserPool.new_session`)."""

    def __init__(
        self,
        *,
        browser: Any,
        allowed_origins: Sequence[str],
        viewport: tuple[int, int],
        closed_port: int,
    ) -> None:
        """Bind to `browser`; `open()` creates the context.

        Args:
            browser: The Playwright `Browser` the context is made on.
            allowed_origins: Normalized origins the page may reach.
            viewport: Page size in CSS pixels.
            closed_port: A loopback port refusing every connection (`ClosedPort`), where
                requests to other origins end.
        """
        self._browser = browser
        self.allowed_origins = tuple(allowed_origins)
        """Normalized origins this session may load from."""
        self._viewport = {"width": viewport[0], "height": viewport[1]}
        self._context: Any = None
        self._page: Any = None
        self._watch: NetworkWatch | None = None
        self._crashed = False
        self._origins = OriginGuard(self.allowed_origins, closed_port=closed_port)
        self._last: PageView | None = None
        self._devtools: tuple[Any, Any] | None = None
        """The page screenshots are taken of, and its DevTools session."""
        self.widget = WidgetSelectors()
        """The chat widget observations and snapshots read the transcript through."""
        self.closed = False
        """Whether `close()` was called."""

    @property
    def page(self) -> Any:
        """The Playwright `Page` (a new one after `restore()`)."""
        return self._page

    async def open(self, storage_state: dict[str, Any] | None = None) -> None:
        """Create the context (optionally with cookies and storage) and its page."""
        self._context = await self._browser.new_context(
            viewport=self._viewport, storage_state=storage_state, **self._origins.context_options()
        )
        # Slow machines are not wrong: an answer may be slow (waits are bounded by progress).
        self._context.set_default_timeout(30_000)
        self._context.set_default_navigation_timeout(FIRST_BYTE_S * 1000)
        await self._origins.install(self._context)
        self._page = await self._context.new_page()
        await self._origins.watch(self._context, self._page)
        self._page.on("crash", self._on_crash)
        self._page.on("response", self._on_response)
        self._document: Any = None
        """The response that drew the current document."""
        self._document_seen = True
        self._posts: dict[int, dict[str, Any]] = {}
        """The answers of form posts, by the history entry they drew."""
        self._lost_posts = 0
        """Form posts' answers left before a snapshot saw them (their history entries are lost)."""
        self._watch = NetworkWatch(self._page)
        self._crashed = False
        self._last = None

    def _on_crash(self, _page: Any) -> None:
        self._crashed = True

    def _on_response(self, response: Any) -> None:
        # Which request drew the current document: a POST's page is not what a GET shows.
        request = response.request
        if not request.is_navigation_request() or 300 <= response.status < 400:
            return
        if request.frame == self._page.main_frame:
            previous = self._document
            if (
                previous is not None
                and previous.request.method != "GET"
                and not self._document_seen
            ):
                self._lost_posts += 1
            self._document, self._document_seen = response, False

    def refusal(self, url: str) -> str | None:
        """Return why `url` may not be visited in this run, or None if it may."""
        return self._origins.refusal(url)

    async def goto(self, url: str) -> StepResult:
        """Open `url` (on an allowed origin); failures come back as the result's error."""
        return await self.act(Navigate(url=url))

    async def observe(
        self, *, budget_tokens: int = 1200, widget: WidgetSelectors | None = None
    ) -> PageView:
        """Observe the current page within `budget_tokens` (see `observe_page`).

        Args:
            budget_tokens: Most tokens of the rendered view.
            widget: Where the chat widget is, kept for later observations and snapshots
                (default: `self.widget`).

        Raises:
            BrowserError: The browser or the page died.
        """
        if widget is not None:
            self.widget = widget
        chosen = self.widget
        self._last = await self._read_settled(
            "observe the page",
            lambda: observe_page(self._page, budget_tokens=budget_tokens, widget=chosen),
        )
        return self._last

    async def act(self, step: WebStep) -> StepResult:
        """Carry out one web action; a bad target or a blocked origin is an error in the result.

        Raises:
            BrowserError: The browser or the page died.
        """
        last = self._last
        result = await self._guard(
            f"{step.kind} on the page",
            lambda: execute_step(
                self._page,
                step,
                source=last.source if last else "semantic",
                known=last.elements if last else (),
                check_url=self.refusal,
                watch=self._watch,
            ),
        )
        self._check_alive(step.kind)
        blocked = self._origins.take_blocked()
        if blocked:
            error = self.refusal(blocked[0]) or f"navigation to {blocked[0]!r} blocked"
            result = StepResult(
                ok=False, error=error, url=self._page.url, summary=f"failed: {error}"
            )
        return result

    async def snapshot(self) -> bytes:
        """Capture URL, cookies, local and session storage and the widget transcript as JSON."""

        async def capture() -> bytes:
            url = self._page.url
            session_storage: dict[str, str] = {}
            if origin_of(url) is not None:
                session_storage = await self._page.evaluate("() => ({...sessionStorage})")
            state = {
                "version": SNAPSHOT_VERSION,
                "url": url,
                "storage_state": await self._context.storage_state(),
                "session_storage": {"origin": _web_origin(url), "items": session_storage},
                "chat": [asdict(m) for m in await read_chat(self._page, self.widget)],
                "fields": await capture_fields(self._page),
                "scroll": await self._page.evaluate("() => [window.scrollX, window.scrollY]"),
                **await self._history(),
                "lost_posts": self._lost_posts,
            }
            return json.dumps(state, sort_keys=True, separators=(",", ":")).encode()

        return await self._read_settled("snapshot the browser", capture)

    async def _read_settled(self, doing: str, read: Callable[[], Awaitable[T]]) -> T:
        """Read the page once no navigation is under way; again if one replaced it meanwhile.

        A snapshot or a view of a page that is being replaced would be of neither page.
        """
        for tries_left in range(_READ_TRIES - 1, -1, -1):
            if self._watch is not None and self._watch.navigating:
                await self._watch.settle(since=time.monotonic())
            url = self._page.url
            try:
                result = await self._guard(doing, read)
            except BrowserError as exc:
                if tries_left and replaced_by_navigation(exc.__cause__):
                    continue
                raise
            moved = self._page.url != url or (self._watch is not None and self._watch.navigating)
            if not moved or not tries_left:
                return result
        raise AssertionError("unreachable: the last try returns or raises")

    async def _history(self) -> dict[str, Any]:
        """The back-history and the current page's posted answer (if a form post drew it)."""
        entries, current = await navigation_history(self._context, self._page)
        current_id = entries[current][0]
        if not self._document_seen:
            self._document_seen = True
            answer = await self._posted_answer()
            if answer is not None:
                self._posts[current_id] = answer
        back = entries[:current]
        # A new page starts on an `about:blank` entry of its own: that one is not rebuilt.
        if back and back[0][1] == "about:blank":
            back = back[1:]
        return {
            "history": [{"url": url, "document": self._posts.get(i)} for i, url in back],
            "document": self._posts.get(current_id),
        }

    async def _posted_answer(self) -> dict[str, Any] | None:
        response = self._document
        if response is None or response.request.method == "GET" or response.url != self._page.url:
            return None
        answer: dict[str, Any] = {
            "method": response.request.method,
            "status": response.status,
            "content_type": response.headers.get("content-type", "text/html"),
        }
        try:
            answer["body"] = (await response.body()).decode("utf-8")
        except (import_playwright().Error, UnicodeDecodeError) as exc:
            answer["unreadable"] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return answer

    async def restore(self, state: bytes) -> None:
        """Replace this session's context with one built from `snapshot()` bytes, at its URL.

        Raises:
            BrowserError: The bytes are not a browser snapshot, or the browser died; or the page
                cannot be brought back exactly (a form post's answer or a history entry that was
                not kept, a typed field that is not on the restored page, a widget transcript
                the page does not show again), naming what.
        """
        data = parse_snapshot(state)
        check_restorable(data)
        self._check_alive("restore the browser")
        await self._close_context()
        await self._guard("restore the browser", lambda: self._reopen(data), check_first=False)

    async def _reopen(self, data: dict[str, Any]) -> None:
        await self.open(storage_state=data["storage_state"])
        stored = data["session_storage"]
        script = None
        if stored["items"]:
            args = json.dumps([stored["origin"], stored["items"]])
            script = await self._page.add_init_script(_RESTORE_SESSION_STORAGE % args)
        pages = [*data.get("history", []), {"url": data["url"], "document": data.get("document")}]
        for entry in pages:
            if entry["url"] != "about:blank" and self.refusal(entry["url"]) is None:
                await self._open_page(entry["url"], entry["document"])
        if script is not None:
            await script.close()  # later pages must not get the old storage back
        await restore_fields(self._page, data.get("fields", []))
        if data.get("scroll", [0, 0]) != [0, 0]:
            await self._page.evaluate("([x, y]) => window.scrollTo(x, y)", data["scroll"])
        if "chat" in data:
            await self._check_chat(data["chat"])

    async def _open_page(self, url: str, document: dict[str, Any] | None) -> None:
        """Open one page of the snapshot.

        A form post's answer is posted again and answered from the snapshot (the server is not
        asked), so the history holds a post entry there, as it did.
        """
        if document is None:
            await self._page.goto(url, wait_until="domcontentloaded")
            return

        async def answer(route: Any) -> None:
            await route.fulfill(
                status=document["status"],
                headers={"content-type": document["content_type"]},
                body=document["body"].encode("utf-8"),
            )

        await self._page.route(url, answer, times=1)
        try:
            async with self._page.expect_navigation(wait_until="domcontentloaded"):
                await self._page.evaluate(_POST_JS, [url, document.get("method", "POST")])
        finally:
            await self._page.unroute(url, answer)
        entries, current = await navigation_history(self._context, self._page)
        self._posts[entries[current][0]] = document
        self._document_seen = True

    async def _check_chat(self, stored: list[dict[str, str]]) -> None:
        """Wait until the widget shows the stored transcript; a page that does not is an error."""
        started = time.monotonic()
        while True:
            shown = [asdict(m) for m in await read_chat(self._page, self.widget)]
            if shown == stored:
                return
            quiet = self._watch.activity.quiet_for() if self._watch else time.monotonic() - started
            waited = time.monotonic() - started
            if waited >= _CHAT_CAP_S or min(quiet, waited) >= _CHAT_SETTLE_S:
                break
            await anyio.sleep(0.05)
        raise BrowserError(
            f"cannot restore the chat widget's transcript on {self._page.url!r}: the page shows "
            f"{len(shown)} message(s) where the snapshot had {len(stored)} (a transcript the page "
            "keeps only in memory, or on a server whose state is not in the snapshot, does not "
            "come back with the URL, cookies and storage)",
            url=self._page.url,
        )

    async def screenshot(self) -> bytes:
        """Return a JPEG thumbnail of the viewport: 40 % of its size, about 15-30 KB.

        Small enough to keep one after every web action of every episode, and to show in a
        report; Chromium scales it down itself (DevTools protocol), so it costs no image library.
        """

        async def take() -> bytes:
            x, y = await self._page.evaluate("[window.scrollX, window.scrollY]")
            clip = {**self._viewport, "x": x, "y": y, "scale": THUMBNAIL_SCALE}
            if self._devtools is None or self._devtools[0] is not self._page:
                # One DevTools session per page: opening one per shot doubled its cost.
                self._devtools = (self._page, await self._context.new_cdp_session(self._page))
            shot = await self._devtools[1].send(
                "Page.captureScreenshot", {"format": "jpeg", "quality": 60, "clip": clip}
            )
            return base64.b64decode(shot["data"])

        return await self._guard("take a screenshot", take)

    async def close(self) -> None:
        """Close the context; safe to call twice and after the browser died."""
        self.closed = True
        await self._close_context()

    async def _close_context(self) -> None:
        context, self._context = self._context, None
        if context is None:
            return
        with anyio.CancelScope(shield=True):
            try:
                await context.close()
            except import_playwright().Error:
                pass  # the browser is already gone, and the context with it

    def _check_alive(self, doing: str) -> None:
        if self.closed or self._context is None:
            raise BrowserError(f"cannot {doing}: this browser session is closed")
        if not self._browser.is_connected():
            raise BrowserError(
                f"cannot {doing}: the browser process died; this episode is errored "
                "(the next session relaunches the browser)",
                url=self._page.url if self._page else None,
            )
        if self._crashed or self._page.is_closed():
            raise BrowserError(f"cannot {doing}: the page crashed", url=self._page.url)

    async def _guard(
        self, doing: str, call: Callable[[], Awaitable[T]], *, check_first: bool = True
    ) -> T:
        if check_first:
            self._check_alive(doing)
        try:
            return await call()
        except import_playwright().Error as exc:
            self._check_alive(doing)
            raise BrowserError(f"could not {doing}: {str(exc).splitlines()[0]}") from exc


def _web_origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"

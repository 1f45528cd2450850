"""Tell a slow page from a stuck one: when did the page last show signs of work?

On a loaded machine every step of a page takes longer, and a fixed clock (2 s for a click, 10 s
for a page) turns slowness into failures. A wait should instead last while the page is making
progress and give up only once nothing has happened for a while. `PageActivity` records when a
page last did something a person could not see but the browser can: a request starting,
answering or ending, a WebSocket frame (how Streamlit, Chainlit, Shiny, Panel and NiceGUI talk to
their servers), a document loading. `patiently` runs a Playwright step with a short timeout
again and again while the page stays active, up to a cap.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio

from vistasim.browser._discover import import_playwright

__all__ = [
    "FIRST_BYTE_S",
    "SETTLE",
    "NetworkWatch",
    "PageActivity",
    "Patience",
    "patiently",
    "replaced_by_navigation",
]

T = TypeVar("T")

_PAGE_EVENTS = ("request", "response", "requestfinished", "requestfailed", "load",
                "domcontentloaded", "framenavigated")  # fmt: skip
_SOCKET_EVENTS = ("framesent", "framereceived")


@dataclass(frozen=True, kw_only=True)
class Patience:
    """How long a wait lasts: while the page is active, at most `cap_s`, after `quiet_s` idle."""

    first_s: float
    """The first try's timeout; each later try waits twice as long (up to `quiet_s`)."""
    quiet_s: float
    """Give up once the page has done nothing for this long."""
    cap_s: float
    """Never wait longer than this in all, however busy the page is."""


class PageActivity:
    """When a Playwright page last showed activity (requests, WebSocket frames, loads)."""

    def __init__(self, page: Any, *, sockets: bool = True) -> None:
        """Start listening to `page`.

        Args:
            page: A Playwright `Page`.
            sockets: Count WebSocket frames too (a live connection's heartbeats count, so a
                wait for something a page draws once had better leave them out).
        """
        self.last = time.monotonic()
        """`time.monotonic()` of the latest activity (or of the start)."""
        self._page = page
        self._sockets: list[Any] = []
        self._with_sockets = sockets
        for event in _PAGE_EVENTS:
            page.on(event, self._touch)
        if sockets:
            page.on("websocket", self._on_socket)

    def quiet_for(self) -> float:
        """Seconds since the page last did something."""
        return time.monotonic() - self.last

    def touch(self) -> None:
        """Count something seen elsewhere (a changed transcript) as activity."""
        self.last = time.monotonic()

    def close(self) -> None:
        """Stop listening (the page belongs to someone else)."""
        for event in _PAGE_EVENTS:
            self._page.remove_listener(event, self._touch)
        if self._with_sockets:
            self._page.remove_listener("websocket", self._on_socket)
        for socket in self._sockets:
            for event in _SOCKET_EVENTS:
                socket.remove_listener(event, self._touch)
        self._sockets.clear()

    def _touch(self, *_: Any) -> None:
        self.last = time.monotonic()

    def _on_socket(self, socket: Any) -> None:
        self._touch()
        self._sockets.append(socket)
        for event in _SOCKET_EVENTS:
            socket.on(event, self._touch)


def replaced_by_navigation(exc: BaseException | None) -> bool:
    """Whether a Playwright error means the page was replaced under the call (a navigation)."""
    text = str(exc or "")
    return "context was destroyed" in text or "navigation" in text


async def patiently(
    step: Callable[[float], Awaitable[T]], activity: PageActivity, patience: Patience
) -> T:
    """Run `step(timeout_ms)` until it succeeds, again after each timeout while the page works.

    Only for steps that can be run again: waits, trial actions (`click(trial=True)` checks
    that the element would take the click, and does nothing), filling a field. A click or a key
    press that timed out may have acted already (its navigation was slow): run it once, after a
    trial.

    Raises:
        playwright.async_api.TimeoutError: The last try's, once the page was quiet for
            `patience.quiet_s` or `patience.cap_s` passed.
    """
    timeout_error = import_playwright().TimeoutError
    started, wait_s = time.monotonic(), patience.first_s
    while True:
        left = patience.cap_s - (time.monotonic() - started)
        try:
            return await step(max(0.5, min(wait_s, left)) * 1000)
        except timeout_error:
            if left <= wait_s or activity.quiet_for() >= patience.quiet_s:
                raise
            wait_s = min(2 * wait_s, patience.quiet_s)


_NEXT_FRAME_JS = """() => new Promise((done) => {
  requestAnimationFrame(() => setTimeout(done, 0));
  setTimeout(done, 50);  // hidden pages get no animation frames
})"""
SETTLE = Patience(first_s=2.0, quiet_s=2.0, cap_s=20.0)
"""After an action: wait for what it started while the page keeps working (2 s of quiet ends it)."""
FIRST_BYTE_S = 60.0
"""How long a server may take to answer a page (a refused connection fails at once)."""


class NetworkWatch:
    """Track a page's requests in flight and its main-frame navigation, to wait for a settled page.

    Requests that began before an action (a long poll, a stream) are not waited for, or every
    later action would wait out the full timeout. A page is settled when the requests an action
    started are done and no navigation of the main frame is under way: a navigation whose
    answer arrived but whose new document has not replaced the old one yet is still under way
    (observing then would read a page about to vanish).
    """

    def __init__(self, page: Any) -> None:
        """Start tracking the requests of `page`."""
        self.activity = PageActivity(page)
        """When the page last did something."""
        self._page = page
        self._pending: dict[int, float] = {}
        self._navigating = False
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._failed)
        page.on("response", self._answered)
        page.on("framenavigated", self._committed)

    def _is_main_navigation(self, request: Any) -> bool:
        try:
            return bool(request.is_navigation_request() and request.frame == self._page.main_frame)
        except import_playwright().Error:
            return False  # a popup's request has no frame yet: not this page's navigation

    def _started(self, request: Any) -> None:
        self._pending[id(request)] = time.monotonic()
        if self._is_main_navigation(request):
            self._navigating = True

    def _ended(self, request: Any) -> None:
        self._pending.pop(id(request), None)

    def _failed(self, request: Any) -> None:
        self._ended(request)
        if self._is_main_navigation(request):
            self._navigating = False

    def _answered(self, response: Any) -> None:
        # Redirects go on to the next hop; 204 and 205 leave the page where it was.
        if self._is_main_navigation(response.request) and (
            response.status in (204, 205) or not 300 <= response.status < 400
        ):
            self._navigating = response.status not in (204, 205)

    def _committed(self, frame: Any) -> None:
        if frame == self._page.main_frame:
            self._navigating = False

    def busy_since(self, since: float) -> bool:
        """Whether a request that started at or after `since` (monotonic) is still in flight."""
        return any(started >= since for started in self._pending.values())

    @property
    def navigating(self) -> bool:
        """Whether a main-frame navigation is under way (asked for, not yet shown)."""
        return self._navigating

    async def settle(self, *, since: float, patience: Patience = SETTLE) -> None:
        """Wait until the requests started since `since` are done and the page has loaded.

        Waits while the page keeps working: it gives up after `patience.quiet_s` without any
        activity, or `patience.cap_s` in all (the page may keep loading); a main-frame
        navigation is waited for until its server answers (`FIRST_BYTE_S`).

        Args:
            since: `time.monotonic()` when the action began.
            patience: How long to wait.
        """
        error = import_playwright().Error
        started = time.monotonic()

        def waiting() -> bool:
            elapsed = time.monotonic() - started
            if self._navigating:  # a server working on a page shows nothing until it answers
                return elapsed < FIRST_BYTE_S
            return self.activity.quiet_for() < patience.quiet_s and elapsed < patience.cap_s

        with anyio.move_on_after(FIRST_BYTE_S + patience.cap_s):
            try:
                # One frame lets the page's handlers run, so the fetches they start are seen.
                await self._page.evaluate(_NEXT_FRAME_JS)
            except error:
                pass  # a navigation replaced the document: its requests are tracked below
            while True:
                while (self.busy_since(since) or self._navigating) and waiting():
                    await anyio.sleep(0.01)
                try:
                    await patiently(self._dom_loaded, self.activity, patience)
                except error:
                    return  # still loading, closed or crashed: the caller checks the page next
                # A navigation's document request ends before its subresources start.
                if not (self.busy_since(since) or self._navigating) or not waiting():
                    return

    async def _dom_loaded(self, timeout_ms: float) -> None:
        await self._page.wait_for_load_state("domcontentloaded", timeout=timeout_ms)

    def close(self) -> None:
        """Stop listening to the page."""
        self.activity.close()
        for event, listener in (
            ("request", self._started), ("requestfinished", self._ended),
            ("requestfailed", self._failed), ("response", self._answered),
            ("framenavigated", self._committed),
        ):  # fmt: skip
            self._page.remove_listener(event, listener)

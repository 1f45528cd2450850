"""One episode's browser: a context and page restricted to the run's origins, with snapshots.

The simulated user must only reach the product under test, so every request is checked against
the allowed origins and the rest are blocked; a blocked navigation comes back to the caller as an
action error it can read. A dead browser is different: that is an infrastructure failure, raised
as `BrowserError` so the runner marks the episode errored. Snapshots capture what a branch needs
to resume the page: URL, cookies, local and session storage, and the widget transcript.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict
from typing import Any, TypeVar
from urllib.parse import urlsplit

import anyio

from vistasim.browser._actions import NetworkWatch, StepResult, execute_step
from vistasim.browser._discover import import_playwright
from vistasim.browser._observe import observe_page
from vistasim.browser._types import Navigate, PageView, WebStep
from vistasim.browser._widget import WidgetSelectors, read_chat
from vistasim.errors import BrowserError, ConfigError

__all__ = ["PageSession", "normalize_origins", "origin_of"]

SNAPSHOT_VERSION = 1
_ALWAYS_ALLOWED_SCHEMES = ("about", "data", "blob")
_DEFAULT_PORTS = {"http": 80, "https": 443}
T = TypeVar("T")

_RESTORE_SESSION_STORAGE = """
(([origin, items]) => {
  if (location.origin === origin && sessionStorage.length === 0) {
    for (const [key, value] of Object.entries(items)) sessionStorage.setItem(key, value);
  }
})(%s)
"""


def origin_of(url: str) -> str | None:
    """Return `scheme://host:port` of an http(s) URL, with the default port spelled out."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    try:
        port = parts.port or _DEFAULT_PORTS[scheme]
    except ValueError:
        return None
    host = parts.hostname.lower()
    return f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}"


def normalize_origins(origins: Sequence[str]) -> tuple[str, ...]:
    """Normalize allowed origins (`http://127.0.0.1:8000`, paths ignored).

    Raises:
        ConfigError: An entry is not an http(s) URL with a host.
    """
    normalized = []
    for origin in origins:
        found = origin_of(origin)
        if found is None:
            raise ConfigError(
                f"allowed origin {origin!r} is not an http(s) URL with a host; "
                "write it like 'http://127.0.0.1:8000'",
                key="allowed_origins",
            )
        normalized.append(found)
    return tuple(dict.fromkeys(normalized))


class PageSession:
    """A browser context and page for one episode (make one with `BrowserPool.new_session`)."""

    def __init__(
        self, *, browser: Any, allowed_origins: Sequence[str], viewport: tuple[int, int]
    ) -> None:
        """Bind to `browser`; `open()` creates the context."""
        self._browser = browser
        self.allowed_origins = tuple(allowed_origins)
        """Normalized origins this session may load from."""
        self._viewport = {"width": viewport[0], "height": viewport[1]}
        self._context: Any = None
        self._page: Any = None
        self._watch: NetworkWatch | None = None
        self._crashed = False
        self._blocked: list[str] = []
        self._last: PageView | None = None
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
            viewport=self._viewport, storage_state=storage_state
        )
        self._context.set_default_timeout(10_000)
        await self._context.route(_outside(self.allowed_origins), self._route)
        self._page = await self._context.new_page()
        self._page.on("crash", self._on_crash)
        self._watch = NetworkWatch(self._page)
        self._crashed = False
        self._last = None

    def _on_crash(self, _page: Any) -> None:
        self._crashed = True

    def refusal(self, url: str) -> str | None:
        """Return why `url` may not be visited in this run, or None if it may."""
        scheme = urlsplit(url).scheme.lower()
        if scheme in _ALWAYS_ALLOWED_SCHEMES or origin_of(url) in self.allowed_origins:
            return None
        shown = origin_of(url) or url
        return (
            f"navigation to {url!r} is blocked: {shown!r} is not an origin this run allows "
            f"(allowed: {', '.join(self.allowed_origins) or 'none'})"
        )

    async def _route(self, route: Any) -> None:
        request = route.request
        try:
            if self.refusal(request.url) is None:
                await route.continue_()
                return
            if request.is_navigation_request() and request.frame.parent_frame is None:
                self._blocked.append(request.url)
            await route.abort("blockedbyclient")
        except import_playwright().Error:
            pass  # the context closed while the request was waiting; nothing left to route

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
        self._last = await self._guard(
            "observe the page",
            lambda: observe_page(self._page, budget_tokens=budget_tokens, widget=chosen),
        )
        return self._last

    async def act(self, step: WebStep) -> StepResult:
        """Carry out one web action; a bad target or a blocked origin is an error in the result.

        Raises:
            BrowserError: The browser or the page died.
        """
        self._blocked.clear()
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
        if self._blocked:
            error = self.refusal(self._blocked[0]) or f"navigation to {self._blocked[0]!r} blocked"
            await self._leave_blocked_page()
            result = StepResult(
                ok=False, error=error, url=self._page.url, summary=f"failed: {error}"
            )
        return result

    async def _leave_blocked_page(self) -> None:
        # Chromium shows its own error page for the aborted navigation; return to the app.
        if self._page.url.startswith("chrome-error:") or self.refusal(self._page.url):
            try:
                await self._page.go_back(wait_until="domcontentloaded")
            except import_playwright().Error:
                pass  # nothing to go back to; the next observation shows where we are

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
            }
            return json.dumps(state, sort_keys=True, separators=(",", ":")).encode()

        return await self._guard("snapshot the browser", capture)

    async def restore(self, state: bytes) -> None:
        """Replace this session's context with one built from `snapshot()` bytes, at its URL.

        Raises:
            BrowserError: The bytes are not a browser snapshot, or the browser died.
        """
        data = _parse_snapshot(state)
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
        if data["url"] != "about:blank" and self.refusal(data["url"]) is None:
            await self._page.goto(data["url"], wait_until="domcontentloaded")
        if script is not None:
            await script.close()  # later pages must not get the old storage back

    async def screenshot(self) -> bytes:
        """Return a PNG of the viewport."""
        return await self._guard("take a screenshot", lambda: self._page.screenshot(type="png"))

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


def _outside(origins: Sequence[str]) -> re.Pattern[str]:
    """Match URLs outside `origins`, so only those requests pay for interception.

    Playwright evaluates the pattern in its driver: allowed requests never reach Python.
    """
    alternatives = []
    for origin in origins:
        scheme, _, rest = origin.partition("://")
        host, _, port = rest.rpartition(":")
        base = re.escape(f"{scheme}://{host}")
        optional = "?" if _DEFAULT_PORTS[scheme] == int(port) else ""
        alternatives.append(f"{base}(?::{port}){optional}")
    allowed = "|".join(alternatives) or "(?!)"
    schemes = "|".join(f"{s}:" for s in _ALWAYS_ALLOWED_SCHEMES)
    return re.compile(f"^(?!(?:(?:{allowed})(?:[/?#]|$)|{schemes}))")


def _web_origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _parse_snapshot(state: bytes) -> dict[str, Any]:
    try:
        data = json.loads(state)
        if data.get("version") != SNAPSHOT_VERSION:
            raise ValueError(f"version {data.get('version')!r}, expected {SNAPSHOT_VERSION}")
        for key in ("url", "storage_state", "session_storage"):
            data[key]  # noqa: B018 - fail early on a truncated snapshot
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise BrowserError(
            f"not a browser snapshot ({exc}); pass the bytes PageSession.snapshot() returned"
        ) from None
    return data

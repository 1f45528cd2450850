"""One Chromium per worker, launched on first use, shared by the episodes as separate contexts.

Launching Chromium costs most of a second and ~100 MB; a browser context costs a few MB and
isolates cookies and storage. So a worker keeps one browser and gives each episode its own
context (a `PageSession`). If the browser dies, the sessions on it fail with `BrowserError`, and
the next session relaunches it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import TracebackType
from typing import Any

import anyio

from vistasim.browser._discover import LAUNCH_ARGS, find_chromium, import_playwright
from vistasim.browser._origins import ClosedPort, normalize_origins
from vistasim.browser._session import PageSession
from vistasim.errors import BrowserError

__all__ = ["BrowserPool", "Launcher", "launch_chromium"]

Launcher = Callable[..., Awaitable[Any]]
"""`launcher(browser_type, *, executable_path, headless, args) -> Browser` (Playwright types)."""


async def launch_chromium(
    browser_type: Any, *, executable_path: str, headless: bool, args: Sequence[str]
) -> Any:
    """Launch Chromium with Playwright: the default `Launcher`."""
    return await browser_type.launch(
        executable_path=executable_path, headless=headless, args=list(args)
    )


class BrowserPool:
    """Hands out one browser context per episode on a lazily launched Chromium.

    Use it as `async with BrowserPool() as pool: session = await pool.new_session(...)`;
    leaving the block closes every session, the browser and Playwright.
    """

    def __init__(
        self,
        *,
        executable: str | None = None,
        headless: bool = True,
        launcher: Launcher | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        """Prepare a pool; nothing is launched until the first session.

        Args:
            executable: Chromium to launch (config); default: `find_chromium()`'s search.
            headless: Run without a window (the default; servers have no display).
            launcher: Launches the browser; inject one in tests (default: `launch_chromium`).
            environ: Environment for the Chromium search (default: `os.environ`).
        """
        self._executable = executable
        self._headless = headless
        self._launcher = launcher or launch_chromium
        self._environ = environ
        self._playwright: Any = None
        self._browser: Any = None
        self._lock = anyio.Lock()
        self._sessions: list[PageSession] = []
        self._closed_port: ClosedPort | None = None
        self.launches = 0
        """How many times this pool has launched a browser (relaunches after a crash count)."""

    async def __aenter__(self) -> BrowserPool:
        """Return the pool (the browser starts with the first session)."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close the sessions, the browser and Playwright."""
        await self.aclose()

    async def new_session(
        self, *, allowed_origins: Sequence[str], viewport: tuple[int, int] = (1280, 800)
    ) -> PageSession:
        """Open a fresh browser context and page for one episode.

        Args:
            allowed_origins: Origins (`http://127.0.0.1:8000`) the page may load from; requests
                elsewhere never leave the browser. `about:blank` and `data:` URLs are always
                allowed.
            viewport: Page size in CSS pixels.

        Raises:
            BrowserError: No Chromium was found, or it could not start.
        """
        origins = normalize_origins(allowed_origins)
        browser = await self._running_browser()
        if self._closed_port is None:
            self._closed_port = ClosedPort()
        session = PageSession(
            browser=browser,
            allowed_origins=origins,
            viewport=viewport,
            closed_port=self._closed_port.port,
        )
        try:
            await session.open()
        except import_playwright().Error as exc:
            raise BrowserError(f"could not open a browser context: {exc}") from exc
        self._sessions = [s for s in self._sessions if not s.closed] + [session]
        return session

    async def _running_browser(self) -> Any:
        async with self._lock:
            if self._browser is not None and self._browser.is_connected():
                return self._browser
            await self._drop_browser()
            if self._playwright is None:
                self._playwright = await import_playwright().async_playwright().start()
            path = find_chromium(self._executable, environ=self._environ)
            try:
                self._browser = await self._launcher(
                    self._playwright.chromium,
                    executable_path=path,
                    headless=self._headless,
                    args=LAUNCH_ARGS,
                )
            except import_playwright().Error as exc:
                raise BrowserError(
                    f"Chromium at {path!r} did not start: {str(exc).splitlines()[0]}; check that "
                    "it runs (`chromium --headless --version`) or set VISTASIM_CHROMIUM"
                ) from exc
            self.launches += 1
            return self._browser

    async def _drop_browser(self) -> None:
        browser, self._browser = self._browser, None
        if browser is not None:
            with anyio.CancelScope(shield=True):
                try:
                    await browser.close()
                except import_playwright().Error:
                    pass  # already gone: that is why we drop it

    async def aclose(self) -> None:
        """Close every session, the browser and Playwright; safe to call twice."""
        with anyio.CancelScope(shield=True):
            for session in self._sessions:
                await session.close()
            self._sessions = []
            await self._drop_browser()
            if self._closed_port is not None:
                self._closed_port.close()
                self._closed_port = None
            playwright, self._playwright = self._playwright, None
            if playwright is not None:
                await playwright.stop()

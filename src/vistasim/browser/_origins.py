"""Keep a browser context on the run's allowed origins, for every request it makes.

The simulated user must reach only the product under test. Routing a context's requests is not
enough on its own: Playwright routes the first URL of a request only, and the browser follows
redirects by itself, so an allowed page answering 302 to another origin would be followed. The
guard therefore performs each allowed request itself with redirects off, checks every hop of a
redirect chain before the browser may follow it, and only then hands the response over.

A blocked navigation of the main page is answered with HTTP 204 No Content, which leaves the
browser on the page it was on (no error page, no history entry); the URL is kept in `blocked`
so the action that caused it is recorded as failed. Other blocked requests (images, scripts,
frames, popups, web sockets) are aborted. Service workers are blocked when the context is made.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import urljoin, urlsplit

from vistasim.browser._discover import import_playwright
from vistasim.errors import ConfigError

__all__ = ["OriginGuard", "normalize_origins", "origin_of"]

ALWAYS_ALLOWED_SCHEMES = ("about", "data", "blob")
MAX_REDIRECTS = 10
_DEFAULT_PORTS = {"http": 80, "https": 443}
_REDIRECTS = (301, 302, 303, 307, 308)
_BODY_HEADERS = ("content-type", "content-length")


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


def normalize_origins(origins: Sequence[str], *, key: str = "allowed_origins") -> tuple[str, ...]:
    """Normalize allowed origins (`http://127.0.0.1:8000`, paths ignored).

    Raises:
        ConfigError: An entry is not an http(s) URL with a host (`key` names the setting).
    """
    normalized = []
    for origin in origins:
        found = origin_of(origin)
        if found is None:
            raise ConfigError(
                f"allowed origin {origin[:200]!r} is not an http(s) URL with a host; "
                "write it like 'http://127.0.0.1:8000'",
                key=key,
            )
        normalized.append(found)
    return tuple(dict.fromkeys(normalized))


class OriginGuard:
    """Check every request of one browser context against the allowed origins."""

    def __init__(self, allowed_origins: Sequence[str]) -> None:
        self.allowed_origins = tuple(allowed_origins)
        """Normalized origins the context may load from."""
        self.blocked: list[str] = []
        """Main-page navigations blocked since the last `take_blocked()`."""

    def refusal(self, url: str) -> str | None:
        """Return why `url` may not be visited in this run, or None if it may."""
        scheme = urlsplit(url).scheme.lower()
        if scheme in ALWAYS_ALLOWED_SCHEMES or origin_of(url) in self.allowed_origins:
            return None
        shown = origin_of(url) or url[:200]
        return (
            f"navigation to {url[:200]!r} is blocked: {shown!r} is not an origin this run allows "
            f"(allowed: {', '.join(self.allowed_origins) or 'none'})"
        )

    def take_blocked(self) -> list[str]:
        """Return the blocked navigations and forget them."""
        blocked, self.blocked = self.blocked, []
        return blocked

    async def install(self, context: Any) -> None:
        """Route every request and web socket of `context` through this guard."""
        await context.route("**/*", self._route)
        await context.route_web_socket(_outside(self.allowed_origins), _refuse_web_socket)

    async def _route(self, route: Any) -> None:
        try:
            await self._serve(route)
        except import_playwright().Error:
            pass  # the context closed while the request was in flight; nothing left to answer

    async def _serve(self, route: Any) -> None:
        request = route.request
        if self.refusal(request.url) is not None:
            await self._block(route, request.url)
            return
        try:
            response = await route.fetch(max_redirects=0, timeout=0)
        except import_playwright().Error as exc:
            refused = "ECONNREFUSED" in str(exc)  # the page reads the error the browser would give
            await route.abort("connectionrefused" if refused else "failed")
            return
        if _location(request.url, response) is None:
            if request.method == "GET" and request.resource_type == "document":
                # A page the browser loads itself keeps what frameworks set up on it (Streamlit's
                # session and XSRF cookies); the check above already knows it does not redirect.
                await route.continue_()
            else:
                await route.fulfill(response=response)
            return
        await self._serve_redirect(route, response)

    async def _serve_redirect(self, route: Any, response: Any) -> None:
        """Follow a redirect chain hop by hop; let the browser go only where every hop may."""
        request = route.request
        url, method = request.url, request.method
        for _ in range(MAX_REDIRECTS):
            target = _location(url, response)
            if target is None:
                break
            if self.refusal(target) is not None:
                await self._block(route, target)
                return
            url = target
            if response.status == 303 or response.status in (301, 302) and method == "POST":
                method = "GET"  # as browsers do; the body is not sent again
                headers = {k: v for k, v in request.headers.items() if k not in _BODY_HEADERS}
                response = await route.fetch(
                    url=url, method=method, headers=headers, post_data="", max_redirects=0,
                    timeout=0,
                )  # fmt: skip
            else:
                response = await route.fetch(url=url, method=method, max_redirects=0, timeout=0)
        else:
            await route.abort("failed")  # a redirect loop
            return
        if method in ("GET", "HEAD"):
            # The browser asks for the checked final URL itself, so the page has the right URL.
            await route.fulfill(status=303 if method != request.method else 302,
                                headers={"location": url})  # fmt: skip
        else:
            await route.fulfill(response=response)  # never send a non-GET request twice

    async def _block(self, route: Any, url: str) -> None:
        request = route.request
        if request.is_navigation_request() and request.frame.parent_frame is None:
            self.blocked.append(url)
            # 204 leaves the browser on the page it was on: no error page, no history entry.
            await route.fulfill(status=204, body="")
        else:
            await route.abort("blockedbyclient")


def _location(url: str, response: Any) -> str | None:
    if response.status not in _REDIRECTS:
        return None
    location = response.headers.get("location")
    return urljoin(url, location) if location else None


async def _refuse_web_socket(web_socket: Any) -> None:
    # Not connecting to the server is what keeps it from being reached; closing tells the page.
    await web_socket.close(code=1008, reason="origin not allowed in this run")


def _outside(origins: Sequence[str]) -> re.Pattern[str]:
    """Match URLs outside `origins` (web sockets are matched by their http(s) origin)."""
    alternatives = []
    for origin in origins:
        scheme, _, rest = origin.partition("://")
        host, _, port = rest.rpartition(":")
        ws = "wss" if scheme == "https" else "ws"
        base = f"(?:{re.escape(scheme)}|{ws})://{re.escape(host)}"
        optional = "?" if _DEFAULT_PORTS[scheme] == int(port) else ""
        alternatives.append(f"{base}(?::{port}){optional}")
    allowed = "|".join(alternatives) or "(?!)"
    return re.compile(f"^(?!(?:{allowed})(?:[/?#]|$))")

"""Keep a browser context on the run's allowed origins, down to what the browser sends.

The simulated user must reach only the product under test. Checking a copy of each request and
then letting the browser send it again is not enough: what is checked is not what is sent (a
server may answer the two differently), every allowed page is fetched twice, and much of what a
browser sends never passes a request handler at all (redirect hops, favicons, pre-connects,
popups, WebRTC). So the guard works where the browser itself sends, in three layers:

1. The network. Each context's proxy is a loopback port that refuses every connection
   (`ClosedPort`), and only the allowed origins (host and port) bypass it; `<-loopback>` makes
   Chromium tell loopback ports apart instead of bypassing them all. Whatever the browser would
   send elsewhere (a redirect hop, a popup, a favicon, a pre-connect, a WebSocket, WebRTC over
   TCP) fails at that port: no other origin is ever reached, not even its DNS. WebRTC's UDP does
   not use proxies, so the launch flags keep it off (`_discover.LAUNCH_ARGS`).
2. The page's navigations. The page's own DevTools Fetch interception sees each document
   request before the browser sends it, every redirect hop included, and lets the allowed ones
   go on: the browser sends each once, with its own cookies, and keeps what the server answers.
   A disallowed main-page navigation is answered 204 No Content, which leaves the page where it
   was (no error page, no history entry); its URL is kept in `blocked` so the action that
   caused it is recorded as failed.
3. Service workers are blocked when the context is made (they would fetch behind the page's
   back), and WebSockets to other origins are closed with a reason the page can read.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from vistasim.browser._discover import import_playwright
from vistasim.errors import BrowserError, ConfigError

__all__ = ["ClosedPort", "OriginGuard", "normalize_origins", "origin_of"]

ALWAYS_ALLOWED_SCHEMES = ("about", "data", "blob")
_DEFAULT_PORTS = {"http": 80, "https": 443}
_DOCUMENTS = {"urlPattern": "*", "resourceType": "Document", "requestStage": "Request"}


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


class ClosedPort:
    """A loopback port that refuses every connection: where other origins' requests end.

    The socket is bound but never listens, so the port stays ours (nothing else can take it)
    and every connection to it is refused at once.
    """

    def __init__(self) -> None:
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.bind(("127.0.0.1", 0))
        self.port: int = self._socket.getsockname()[1]
        """The refusing port on 127.0.0.1."""

    def close(self) -> None:
        """Release the port."""
        self._socket.close()


class OriginGuard:
    """Keep one browser context on the allowed origins (see the module docstring)."""

    def __init__(self, allowed_origins: Sequence[str], *, closed_port: int) -> None:
        self.allowed_origins = tuple(allowed_origins)
        """Normalized origins the context may load from."""
        self.blocked: list[str] = []
        """Main-page navigations blocked since the last `take_blocked()`."""
        self._closed_port = closed_port

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

    def context_options(self) -> dict[str, Any]:
        """`new_context` options: the refusing proxy, bypassed by the allowed origins only."""
        hosts = [origin.partition("://")[2] for origin in self.allowed_origins]
        return {
            "service_workers": "block",
            "proxy": {
                "server": f"http://127.0.0.1:{self._closed_port}",
                "bypass": ",".join(["<-loopback>", *hosts]),
            },
        }

    async def install(self, context: Any) -> None:
        """Close the context's WebSockets to other origins, with a reason the page can read."""
        await context.route_web_socket(_outside(self.allowed_origins), _refuse_web_socket)

    async def watch(self, context: Any, page: Any) -> None:
        """Check each document request of `page`, redirect hops included, before it is sent.

        Raises:
            BrowserError: The browser does not let us intercept the page's requests.
        """
        try:
            cdp = await context.new_cdp_session(page)
            info = await cdp.send("Target.getTargetInfo")
            navigations = _Navigations(self, cdp, main_frame=info["targetInfo"]["targetId"])
            cdp.on("Fetch.requestPaused", navigations.paused)
            await cdp.send("Fetch.enable", {"patterns": [_DOCUMENTS]})
        except import_playwright().Error as exc:
            raise BrowserError(f"cannot watch the page's navigations: {exc}") from exc


class _Navigations:
    """One page's document requests, paused by the browser until the guard answers."""

    def __init__(self, guard: OriginGuard, cdp: Any, *, main_frame: str) -> None:
        self._guard = guard
        self._cdp = cdp
        self._main_frame = main_frame

    async def paused(self, event: dict[str, Any]) -> None:
        url, request_id = event["request"]["url"], event["requestId"]
        try:
            if self._guard.refusal(url) is None:
                await self._cdp.send("Fetch.continueRequest", {"requestId": request_id})
            elif event.get("frameId") == self._main_frame:
                self._guard.blocked.append(url)
                # 204 leaves the browser on the page it was on: no error page, no history entry.
                await self._cdp.send(
                    "Fetch.fulfillRequest",
                    {"requestId": request_id, "responseCode": 204, "body": ""},
                )
            else:
                await self._cdp.send(
                    "Fetch.failRequest", {"requestId": request_id, "errorReason": "BlockedByClient"}
                )
        except import_playwright().Error:
            pass  # the page closed while the request waited; nothing is left to answer


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

"""One set of HTTP connections per endpoint for a whole run, shared by every episode and role.

Opening an HTTP client builds a connection pool and, for HTTPS, a TLS context: milliseconds of CPU
that a client per episode pays again and again (a quarter of the toolkit's CPU in a 20-episode
run). A run therefore opens one `HttpClients` and every caller of one endpoint (the agent under
test, the simulated user's model, the judge) borrows its clients from it. An endpoint is an origin
(`scheme://host:port`): connections are pooled per origin, whatever the path.

Connections are spread over small pools ("shards") of 16 taken in turn, because the HTTP stack
scans its whole pool on every request: one pool of a hundred connections costs milliseconds a call.
(Smaller shards scan less but, taken in turn, open a connection in each: more connections than
calls in flight.)

Under each client is our own HTTP/1.1 keep-alive transport (`_transport.py`), a fraction of the
CPU per request of `httpx2`'s default one; proxies from the environment still go through
`httpx2`'s proxy transport.

Every client shares one TLS context: building one loads the CA bundle (~0.1 s of CPU), which a
client per shard would pay again and again, the first of them before the run's first model call.
Clients of a plain-`http` origin never do TLS, so they get a context that trusts no CA at all
(built in microseconds): a redirect from such an origin to `https` fails verification rather than
going on unverified.
"""

from __future__ import annotations

import asyncio
import ssl
from dataclasses import dataclass, field
from functools import cache, lru_cache

import anyio.lowlevel
import httpx2

from vistasim.llm._transport import KeepAliveTransport

__all__ = ["HttpClients", "origin"]

CONNECTIONS_PER_CLIENT = 16
"""Connections of one shard; more concurrent callers get more shards."""


def origin(url: str) -> str:
    """Return the `scheme://host:port` that connections to `url` are pooled by.

    >>> origin("http://127.0.0.1:8000/v1/chat/completions")
    'http://127.0.0.1:8000'
    >>> origin("https://api.openai.com/v1")
    'https://api.openai.com:443'
    """
    return _origin(url)


@lru_cache(maxsize=1024)
def _origin(url: str) -> str:
    # Asked on every call of every client (a model call, an agent's request) for a handful of
    # URLs: parsing one each time was ~4 µs.
    parsed = httpx2.URL(url)
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    return f"{parsed.scheme}://{parsed.host}:{port}"


@dataclass
class _Shards:
    clients: list[httpx2.AsyncClient] = field(default_factory=list)
    next: int = 0


class HttpClients:
    """The run's HTTP clients, made on first use and closed once by `aclose()`.

    Args:
        transport: An httpx2 transport for every client (tests use `httpx2.MockTransport`).
        concurrency: Calls in flight to one endpoint when a caller does not say (the run's
            episode concurrency: each episode's agent makes one call at a time).
    """

    def __init__(
        self,
        *,
        transport: httpx2.AsyncBaseTransport | None = None,
        concurrency: int = CONNECTIONS_PER_CLIENT,
    ) -> None:
        self.transport = transport
        self.concurrency = concurrency
        self._by_origin: dict[str, _Shards] = {}
        self._loop: object = None

    def client(self, url: str, *, concurrency: int | None = None) -> httpx2.AsyncClient:
        """Return a client for `url`'s origin, sized for `concurrency` calls in flight.

        Callers pass their own timeouts per request; the clients' defaults are generous.
        """
        # A connection pool belongs to the event loop it was made on; a new loop (a second
        # anyio.run) needs new pools, and the old ones are left to their loop.
        loop = _current_loop()
        if loop != self._loop:
            self._loop, self._by_origin = loop, {}
        key = origin(url)
        # Looked up before `setdefault`: a `_Shards` built for every call (a dataclass and its
        # list) is thrown away on all but the first.
        shards = self._by_origin.get(key) or self._by_origin.setdefault(key, _Shards())
        wanted = max(1, -(-(concurrency or self.concurrency) // CONNECTIONS_PER_CLIENT))
        while len(shards.clients) < wanted:
            shards.clients.append(self._new_client(url))
        shards.next = (shards.next + 1) % len(shards.clients)
        return shards.clients[shards.next]

    @property
    def origins(self) -> list[str]:
        """Return the origins that have clients, sorted (for tests and diagnostics)."""
        return sorted(self._by_origin)

    async def aclose(self) -> None:
        """Close every client made on the running loop."""
        by_origin, self._by_origin = self._by_origin, {}
        if self._loop != _current_loop():
            return
        for shards in by_origin.values():
            for client in shards.clients:
                await client.aclose()

    def _new_client(self, url: str) -> httpx2.AsyncClient:
        plain = httpx2.URL(url).scheme == "http"
        context = _no_ca_context() if plain else _verified_context()
        return httpx2.AsyncClient(
            transport=self.transport
            or KeepAliveTransport(ssl_context=context, max_idle=CONNECTIONS_PER_CLIENT * 2),
            verify=context,
            timeout=600.0,
            follow_redirects=True,
            # No cap on connections (callers have their own limits); the idle ones kept are
            # capped, so a shard's pool stays small enough to scan quickly.
            limits=httpx2.Limits(
                max_connections=None, max_keepalive_connections=CONNECTIONS_PER_CLIENT * 2
            ),
        )


def _current_loop() -> object:
    """The running event loop: asyncio's itself, or anyio's token for another backend.

    Asked on every call of every client: anyio's `current_token()` looks the backend up and
    builds a frozen dataclass each time (~3 µs); on asyncio, its token stands for this loop.
    """
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return anyio.lowlevel.current_token()


@cache
def _verified_context() -> ssl.SSLContext:
    """The one CA-verified TLS context of the process (certifi's bundle, as httpx2 builds it)."""
    return httpx2.create_ssl_context()


def _no_ca_context() -> ssl.SSLContext:
    """A TLS context that verifies certificates and hostnames but trusts no CA: it fails closed."""
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)

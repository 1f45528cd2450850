"""A lean HTTP/1.1 transport under the run's `httpx2` clients: keep-alive, nothing else.

Every user turn of an LLM user is one request to its model, so the client's CPU per request is a
large share of the toolkit's (the engine benchmark: about half of a turn). `httpx2`'s own
transport (`httpcore2` over `h11`) pays for generality on each request: it scans every pooled
connection for readability, opens a cancel scope for each read and write, validates every
header through `h11`'s state machine. Our requests are simple: one JSON body, one answer read
whole by `exchange`, plain HTTP/1.1 to one origin. This transport does just that, under the
same `httpx2.AsyncClient` (redirects, cookies, auth, content decoding and proxies stay the
client's; a proxied URL goes through `httpx2`'s proxy transport as before).

- One connection per request in flight, kept open for the next request when the answer allows
  it (`Connection: close`, HTTP/1.0 or a body read to the end of the stream do not).
- An idle connection is checked before reuse: a readable socket at rest means the server closed
  it (or sent what it should not), so it is dropped, never written to. A request is never sent
  twice: a failure after sending is the caller's to handle, as with `httpx2`'s transport.
- The answer's body is streamed to the caller (`Content-Length`, chunked, or up to the end of
  the stream), so `exchange` keeps its size cap; a connection whose answer was not read to its
  end, or whose reader was cancelled, is closed, not pooled.
- Each connection is an `asyncio.Protocol` of its own on the running loop (not an anyio
  stream: no pass of the event loop after each write, no pausing and resuming the socket's
  reading around each read). The run's clients live on asyncio, anyio's default backend and
  the only one the project runs on.
"""

from __future__ import annotations

import asyncio
import select
import socket
import ssl
from collections.abc import AsyncIterator, Callable
from typing import cast

import httpx2

__all__ = ["KeepAliveTransport", "after_next_request"]

_READ_PAUSE = 1 << 20
"""Unread answer bytes over this pause reading from the socket until the caller reads on."""
_MAX_HEAD = 65536
"""Status line and headers over this are a protocol error (no model answer has such a head)."""

_after_send: list[Callable[[], None]] = []
"""Called once, in order, as the next request of any client of the process is written."""


def after_next_request(callback: Callable[[], None]) -> Callable[[], None]:
    """Call `callback` once, soon after a request has been written (`call_soon` on its loop).

    A run starts what it loads in the background then, not before: the first request goes out
    without sharing the interpreter with it. Returns a function that forgets the callback if it
    has not been called yet (a run that ends first, or whose requests never use this transport).
    """
    _after_send.append(callback)

    def forget() -> None:
        if callback in _after_send:
            _after_send.remove(callback)

    return forget


def _readable(sock: socket.socket) -> bool:
    """Whether bytes, or the end of the stream, wait on `sock`, without waiting.

    poll(), not select(): select() refuses a descriptor above 1,023, and a run with a thousand
    episodes in flight holds more connections than that (every request then failed with
    "filedescriptor out of range"). Where there is no poll() (Windows), select() has no such
    limit.
    """
    if not hasattr(select, "poll"):
        return bool(select.select([sock], [], [], 0)[0])
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


class _Connection(asyncio.Protocol):
    """One connection, as an `asyncio.Protocol`: the event loop hands it what arrives.

    anyio's socket stream resumes and pauses the socket's reading around every `receive` and
    ends every `send` with a pass of the event loop; here reading stays on (paused only when
    a large answer waits unread), a write goes straight to the transport, and a reader waits on
    one future that the next bytes, the end of the stream or an error complete.
    """

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.transport: asyncio.Transport | None = None
        self.sock: socket.socket | None = None
        """The socket under the transport, looked up once (at rest, it is polled)."""
        self._ended = False
        self._error: BaseException | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._drained: asyncio.Future[None] | None = None
        self._reading = True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # Duck-typed, not checked with isinstance: uvloop's transports (Ray's async actors run
        # on uvloop) have every method of `asyncio.Transport` without subclassing it.
        self.transport = cast(asyncio.Transport, transport)
        self.sock = transport.get_extra_info("socket")

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if len(self.buffer) > _READ_PAUSE and self._reading and self.transport is not None:
            self.transport.pause_reading()
            self._reading = False
        self._wake()

    def eof_received(self) -> bool:
        self._ended = True
        self._wake()
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended = True
        self._error = self._error or exc
        self._wake()
        if self._drained is not None and not self._drained.done():
            self._drained.set_result(None)

    def pause_writing(self) -> None:
        self._drained = asyncio.get_running_loop().create_future()

    def resume_writing(self) -> None:
        drained, self._drained = self._drained, None
        if drained is not None and not drained.done():
            drained.set_result(None)

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def at_rest(self) -> bool:
        """Whether nothing arrived since the last answer (no close, no stray bytes)."""
        if self.buffer or self._ended or self.transport is None or self.transport.is_closing():
            return False
        sock = self.sock
        if sock is None or sock.fileno() < 0:
            return False
        return not _readable(sock)

    async def fill(self) -> bool:
        """Wait for more bytes in the buffer; False at the end of the stream.

        Raises the `OSError` the connection was lost with, if any.
        """
        if not self._reading and self.transport is not None:
            self.transport.resume_reading()
            self._reading = True
        size = len(self.buffer)
        while len(self.buffer) == size:
            if self._error is not None:
                raise self._error
            if self._ended:
                return False
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return True

    async def send(self, data: bytes) -> None:
        """Write `data`; waits only while the transport's write buffer is full."""
        transport = self.transport
        if transport is None or self._ended or transport.is_closing():
            raise ConnectionResetError("the connection is closed")
        transport.write(data)
        if self._drained is not None:
            await self._drained
            if self._error is not None:
                raise self._error

    def close(self) -> None:
        """Close now (nothing is sent after an unread or cancelled answer)."""
        if self.transport is not None:
            self.transport.abort()


class KeepAliveTransport(httpx2.AsyncBaseTransport):
    """HTTP/1.1 with keep-alive for plain and TLS connections to one client's origins.

    Args:
        ssl_context: The TLS context of `https` connections.
        max_idle: Idle connections kept per origin; more are closed when they come back.
    """

    def __init__(self, *, ssl_context: ssl.SSLContext, max_idle: int = 32) -> None:
        self._ssl = ssl_context
        self._max_idle = max_idle
        self._idle: dict[tuple[str, str, int], list[_Connection]] = {}

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        url = request.url
        key = (url.scheme, url.host, url.port or (443 if url.scheme == "https" else 80))
        connection = await self._checkout(key)
        try:
            await _send(connection, request)
            status, reason, headers, version = await _read_head(connection)
        except BaseException:
            await _close(connection)
            raise
        body = _Body(self, key, connection, request.method, status, headers, version)
        return httpx2.Response(
            status,
            headers=headers,
            stream=body,
            extensions={"http_version": version, "reason_phrase": reason},
        )

    async def aclose(self) -> None:
        idle, self._idle = self._idle, {}
        for connections in idle.values():
            for connection in connections:
                await _close(connection)

    async def _checkout(self, key: tuple[str, str, int]) -> _Connection:
        idle = self._idle.get(key, [])
        while idle:
            connection = idle.pop()
            if connection.at_rest():
                return connection
            await _close(connection)
        scheme, host, port = key
        loop = asyncio.get_running_loop()
        https = scheme == "https"
        try:
            _, connection = await loop.create_connection(
                _Connection,
                host,
                port,
                ssl=self._ssl if https else None,
                server_hostname=host if https else None,
            )
        except OSError as exc:  # refused, unreachable, no such host, a failed TLS handshake
            raise httpx2.ConnectError(f"{type(exc).__name__}: {exc}") from None
        return connection

    async def _checkin(self, key: tuple[str, str, int], connection: _Connection) -> None:
        idle = self._idle.setdefault(key, [])
        if len(idle) >= self._max_idle:
            await _close(connection)
        else:
            idle.append(connection)


class _Body(httpx2.AsyncByteStream):
    """The answer's body, read from the connection as the caller iterates."""

    def __init__(
        self,
        transport: KeepAliveTransport,
        key: tuple[str, str, int],
        connection: _Connection,
        method: str,
        status: int,
        headers: list[tuple[bytes, bytes]],
        version: bytes,
    ) -> None:
        self._transport, self._key = transport, key
        self._connection: _Connection | None = connection
        fields = {name.lower(): value for name, value in headers}
        self._reuse = version == b"HTTP/1.1" and fields.get(b"connection", b"").lower() != b"close"
        self._length: int | None = None
        self._chunked = False
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            self._length = 0
        elif b"chunked" in fields.get(b"transfer-encoding", b"").lower():
            self._chunked = True
        elif fields.get(b"content-length", b"").strip().isdigit():
            self._length = int(fields[b"content-length"])
        else:
            self._reuse = False  # the body ends with the stream
        self._done = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        connection = self._connection
        if connection is None:
            raise httpx2.StreamClosed()
        try:
            if self._chunked:
                pieces = _chunks(connection)
            elif self._length is not None:
                pieces = _sized(connection, self._length)
            else:
                pieces = _to_end(connection)
            async for piece in pieces:
                yield piece
            self._done = True
        except OSError as exc:
            raise httpx2.ReadError(f"{type(exc).__name__}: {exc}") from None

    async def aclose(self) -> None:
        connection, self._connection = self._connection, None
        if connection is None:
            return
        if self._done and self._reuse and not connection.buffer:
            await self._transport._checkin(self._key, connection)
        else:
            await _close(connection)


async def _send(connection: _Connection, request: httpx2.Request) -> None:
    url = request.url
    target = url.raw_path.decode("ascii")
    lines = [f"{request.method} {target} HTTP/1.1".encode("ascii")]
    lines += [name + b": " + value for name, value in request.headers.raw]
    body = request.content
    try:
        await connection.send(b"\r\n".join(lines) + b"\r\n\r\n" + body)
    except OSError as exc:
        raise httpx2.WriteError(f"{type(exc).__name__}: {exc}") from None
    if _after_send:  # on the loop, not in this request: a failing callback is only logged
        loop = asyncio.get_running_loop()
        for callback in _after_send:
            loop.call_soon(callback)
        _after_send.clear()


_Head = tuple[int, bytes, list[tuple[bytes, bytes]], bytes]
"""Status, reason phrase, header fields, HTTP version."""


async def _read_head(connection: _Connection) -> _Head:
    try:
        while (end := connection.buffer.find(b"\r\n\r\n")) < 0:
            if len(connection.buffer) > _MAX_HEAD:
                raise httpx2.RemoteProtocolError("the answer's head is too long")
            if not await connection.fill():
                raise httpx2.RemoteProtocolError("the server closed the connection, no answer")
    except OSError as exc:
        raise httpx2.ReadError(f"{type(exc).__name__}: {exc}") from None
    head = bytes(connection.buffer[:end])
    del connection.buffer[: end + 4]
    status_line, *header_lines = head.split(b"\r\n")
    parts = status_line.split(b" ", 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
        raise httpx2.RemoteProtocolError(f"not an HTTP/1.1 answer: {status_line[:80]!r}")
    headers = []
    for line in header_lines:
        name, colon, value = line.partition(b":")
        if not colon or not name or name != name.strip():
            raise httpx2.RemoteProtocolError(f"a malformed header line: {line[:80]!r}")
        headers.append((name, value.strip()))
    status = int(parts[1])
    if 100 <= status < 200:  # an interim answer (100 Continue): the real one follows
        return await _read_head(connection)
    return status, parts[2] if len(parts) > 2 else b"", headers, parts[0]


async def _sized(connection: _Connection, length: int) -> AsyncIterator[bytes]:
    left = length
    while left:
        if not connection.buffer and not await connection.fill():
            raise httpx2.RemoteProtocolError("the server closed the connection mid-body")
        piece = bytes(connection.buffer[:left])
        del connection.buffer[: len(piece)]
        left -= len(piece)
        yield piece


async def _chunks(connection: _Connection) -> AsyncIterator[bytes]:
    while True:
        while (end := connection.buffer.find(b"\r\n")) < 0:
            if not await connection.fill():
                raise httpx2.RemoteProtocolError("the server closed the connection mid-chunk")
        size_text = bytes(connection.buffer[:end]).split(b";")[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            bad = size_text[:20]
            raise httpx2.RemoteProtocolError(f"a malformed chunk size: {bad!r}") from None
        del connection.buffer[: end + 2]
        if size == 0:
            await _skip_trailers(connection)
            return
        async for piece in _sized(connection, size):
            yield piece
        async for _ in _sized(connection, 2):  # the CRLF after the chunk
            pass


async def _skip_trailers(connection: _Connection) -> None:
    while True:
        while (end := connection.buffer.find(b"\r\n")) < 0:
            if not await connection.fill():
                raise httpx2.RemoteProtocolError("the server closed the connection mid-trailer")
        line = bytes(connection.buffer[:end])
        del connection.buffer[: end + 2]
        if not line:
            return


async def _to_end(connection: _Connection) -> AsyncIterator[bytes]:
    while True:
        if connection.buffer:
            piece = bytes(connection.buffer)
            connection.buffer.clear()
            yield piece
        if not await connection.fill():
            return


async def _close(connection: _Connection) -> None:
    connection.close()

"""The keep-alive HTTP/1.1 transport under the run's clients, against raw loopback servers."""

from __future__ import annotations

import asyncio
import os
import resource
import socket
from collections.abc import Awaitable, Callable

import anyio
import anyio.abc
import httpx2
import pytest

from vistasim.llm import HttpClients
from vistasim.llm._http import BodyTooBig, EndpointTimeout, EndpointUnreachable, exchange
from vistasim.llm._transport import _Connection

Handler = Callable[[anyio.abc.SocketStream, int], Awaitable[None]]
"""Serves one connection (numbered from 0 in the order they came)."""


async def _request(stream: anyio.abc.SocketStream, buffer: bytearray) -> bytes | None:
    """Read one request (head and Content-Length body); None when the client closed."""
    while b"\r\n\r\n" not in buffer:
        try:
            buffer += await stream.receive()
        except (anyio.EndOfStream, anyio.BrokenResourceError):
            return None
    head, _, rest = bytes(buffer).partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)  # fmt: skip
    while len(rest) < length:
        rest += await stream.receive()
    buffer[:] = rest[length:]
    return head + b"\r\n\r\n" + rest[:length]


def _answer(body: bytes, *extra: str) -> bytes:
    head = ["HTTP/1.1 200 OK", f"Content-Length: {len(body)}", *extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class _Server:
    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.connections = 0
        self.requests: list[bytes] = []

    async def serve(self, stream: anyio.abc.SocketStream) -> None:
        number, self.connections = self.connections, self.connections + 1
        async with stream:
            await self.handler(stream, number)


async def _with_server(handler_of: Callable[[_Server], Handler], body: Callable) -> _Server:
    server = _Server(lambda s, n: s)  # replaced below
    server.handler = handler_of(server)
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    port = listener.extra(anyio.abc.SocketAttribute.local_port)
    async with anyio.create_task_group() as group:
        group.start_soon(listener.serve, server.serve)
        clients = HttpClients()
        try:
            await body(clients, f"http://127.0.0.1:{port}/v1/chat")
        finally:
            await clients.aclose()
            group.cancel_scope.cancel()
    return server


async def _post(clients: HttpClients, url: str, **kwargs) -> str:
    settings = {"timeout_s": 5.0, "max_body_bytes": 1000, **kwargs}
    answer = await exchange(clients.client(url), "POST", url, json={"q": 1}, **settings)
    return answer.text


def _keep_alive(server: _Server) -> Handler:
    async def handle(stream: anyio.abc.SocketStream, number: int) -> None:
        buffer = bytearray()
        while (request := await _request(stream, buffer)) is not None:
            server.requests.append(request)
            await stream.send(_answer(f"answer {len(server.requests)}".encode()))

    return handle


async def test_answers_reuse_one_kept_alive_connection() -> None:
    async def body(clients: HttpClients, url: str) -> None:
        assert [await _post(clients, url) for _ in range(3)] == [
            "answer 1", "answer 2", "answer 3"
        ]  # fmt: skip

    server = await _with_server(_keep_alive, body)
    assert server.connections == 1 and len(server.requests) == 3
    first = server.requests[0]
    assert first.startswith(b"POST /v1/chat HTTP/1.1\r\n") and first.endswith(b'{"q":1}')


async def test_a_connection_closed_at_rest_is_dropped_and_nothing_is_sent_twice() -> None:
    def closing(server: _Server) -> Handler:
        async def handle(stream: anyio.abc.SocketStream, number: int) -> None:
            buffer = bytearray()
            request = await _request(stream, buffer)
            assert request is not None
            server.requests.append(request)
            await stream.send(_answer(b"once"))  # then closes: an idle keep-alive timeout

        return handle

    async def body(clients: HttpClients, url: str) -> None:
        assert await _post(clients, url) == "once"
        await anyio.sleep(0.05)  # the close reaches the idle connection
        assert await _post(clients, url) == "once"

    server = await _with_server(closing, body)
    assert server.connections == 2 and len(server.requests) == 2


@pytest.mark.parametrize(
    ("raw", "text", "reused"),
    [
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
         b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n", "hello world", True),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi", "hi", False),
        (b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi", "hi", False),
        (b"HTTP/1.1 200 OK\r\n\r\nto the end", "to the end", False),
        (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n", "", True),
    ],
)
async def test_bodies_are_read_as_the_answer_frames_them(
    raw: bytes, text: str, reused: bool
) -> None:
    def framed(server: _Server) -> Handler:
        async def handle(stream: anyio.abc.SocketStream, number: int) -> None:
            buffer = bytearray()
            while (request := await _request(stream, buffer)) is not None:
                server.requests.append(request)
                await stream.send(raw)
                if raw.endswith(b"to the end"):
                    return  # the body ends with the stream

        return handle

    async def body(clients: HttpClients, url: str) -> None:
        assert await _post(clients, url) == text
        assert await _post(clients, url) == text

    server = await _with_server(framed, body)
    assert server.connections == (1 if reused else 2)


async def test_a_slow_answer_times_out_and_its_connection_is_not_reused() -> None:
    def slow_first(server: _Server) -> Handler:
        async def handle(stream: anyio.abc.SocketStream, number: int) -> None:
            buffer = bytearray()
            while (request := await _request(stream, buffer)) is not None:
                server.requests.append(request)
                if number == 0:
                    await stream.send(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhal")
                    await anyio.sleep(5)  # trickles no more: the caller's bound ends it
                await stream.send(_answer(b"fresh"))

        return handle

    async def body(clients: HttpClients, url: str) -> None:
        with pytest.raises(EndpointTimeout):
            await _post(clients, url, timeout_s=0.3)
        assert await _post(clients, url) == "fresh"

    server = await _with_server(slow_first, body)
    assert server.connections == 2


@pytest.mark.parametrize(
    "raw",
    [
        b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n" + b"x" * 5000,
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + b"200\r\n" + b"x" * 512
        + b"\r\n" + b"200\r\n" + b"x" * 512 + b"\r\n" + b"200\r\n" + b"x" * 512 + b"\r\n0\r\n\r\n",
    ],
)
async def test_a_body_over_the_cap_is_refused_and_its_connection_closed(raw: bytes) -> None:
    def big(server: _Server) -> Handler:
        async def handle(stream: anyio.abc.SocketStream, number: int) -> None:
            buffer = bytearray()
            while (request := await _request(stream, buffer)) is not None:
                server.requests.append(request)
                await stream.send(raw if number == 0 else _answer(b"small"))

        return handle

    async def body(clients: HttpClients, url: str) -> None:
        with pytest.raises(BodyTooBig):
            await _post(clients, url)
        assert await _post(clients, url) == "small"

    server = await _with_server(big, body)
    assert server.connections == 2


@pytest.mark.parametrize(
    "raw", [b"", b"garbage\r\n\r\n", b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\ncut"]
)
async def test_a_broken_answer_is_an_unreachable_endpoint(raw: bytes) -> None:
    def broken(server: _Server) -> Handler:
        async def handle(stream: anyio.abc.SocketStream, number: int) -> None:
            request = await _request(stream, bytearray())
            server.requests.append(request or b"")
            await stream.send(raw)

        return handle

    async def body(clients: HttpClients, url: str) -> None:
        with pytest.raises(EndpointUnreachable):
            await _post(clients, url)

    server = await _with_server(broken, body)
    assert len(server.requests) == 1  # never sent again


async def test_a_refused_connection_is_an_unreachable_endpoint() -> None:
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    port = listener.extra(anyio.abc.SocketAttribute.local_port)
    await listener.aclose()
    clients = HttpClients()
    with pytest.raises(EndpointUnreachable, match="ConnectError"):
        await _post(clients, f"http://127.0.0.1:{port}/v1")
    await clients.aclose()


async def test_the_clients_use_the_keep_alive_transport_unless_given_one() -> None:
    from vistasim.llm._transport import KeepAliveTransport

    ours = HttpClients().client("http://127.0.0.1:9/v1")
    assert isinstance(ours._transport, KeepAliveTransport)
    mock = httpx2.MockTransport(lambda request: httpx2.Response(200))
    assert HttpClients(transport=mock).client("http://127.0.0.1:9/v1")._transport is mock


def test_a_connection_on_a_descriptor_above_1023_is_checked_at_rest() -> None:
    # A run with a thousand episodes in flight holds more sockets than select() takes.
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] <= 1100:
        pytest.skip("the open-files limit is too low to hold descriptor 1100")
    ours, theirs = socket.socketpair()
    high = socket.socket(fileno=os.dup2(ours.fileno(), 1100))

    class _Transport(asyncio.Transport):
        def get_extra_info(self, name: str, default: object = None) -> object:
            return high if name == "socket" else default

        def is_closing(self) -> bool:
            return False

    try:
        connection = _Connection()
        connection.connection_made(_Transport())
        assert connection.at_rest()
        theirs.sendall(b"x")  # a stray byte: the connection is no longer at rest
        assert not connection.at_rest()
    finally:
        for s in (high, ours, theirs):
            s.close()

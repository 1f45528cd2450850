"""The keep-alive transport's own connections (`asyncio.Protocol`): TLS, cancellation, writes.

Loopback servers only; the TLS server's certificate is made here for 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import ssl
from pathlib import Path

import anyio
import httpx2
import pytest

from vistasim.llm._transport import KeepAliveTransport, _Connection


def _certificate(tmp: Path) -> tuple[Path, Path]:
    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp / "cert.pem", tmp / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


class _Server:
    """Answers each request with its number; `hold` answers nothing to the first request."""

    def __init__(self, *, hold: bool = False) -> None:
        self.hold = hold
        self.connections = 0
        self.requests = 0
        self.closed = asyncio.Event()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    (int(line.split(b":")[1]) for line in head.split(b"\r\n")
                     if line.lower().startswith(b"content-length:")), 0,
                )  # fmt: skip
                await reader.readexactly(length)
                self.requests += 1
                if self.hold and self.requests == 1:
                    await reader.read()  # nothing sent back: wait for the client to go
                    return
                body = f"answer {self.requests}".encode()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.closed.set()
            writer.close()


async def test_https_answers_reuse_one_tls_connection(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path)
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert, key)
    client_context = ssl.create_default_context(cafile=str(cert))
    served = _Server()
    server = await asyncio.start_server(served.serve, "127.0.0.1", 0, ssl=server_context)
    port = server.sockets[0].getsockname()[1]
    transport = KeepAliveTransport(ssl_context=client_context)
    try:
        async with httpx2.AsyncClient(transport=transport) as client:
            url = f"https://127.0.0.1:{port}/v1/chat"
            texts = [(await client.post(url, json={"q": n})).text for n in range(3)]
        assert texts == ["answer 1", "answer 2", "answer 3"]
        assert served.connections == 1
    finally:
        server.close()


async def test_an_untrusted_certificate_is_a_connect_error(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path)
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert, key)
    server = await asyncio.start_server(_Server().serve, "127.0.0.1", 0, ssl=server_context)
    port = server.sockets[0].getsockname()[1]
    transport = KeepAliveTransport(ssl_context=ssl.create_default_context())  # no such CA
    try:
        async with httpx2.AsyncClient(transport=transport) as client:
            with pytest.raises(httpx2.ConnectError, match="SSL"):
                await client.post(f"https://127.0.0.1:{port}/v1", json={})
    finally:
        server.close()


async def test_a_cancelled_request_closes_its_connection() -> None:
    served = _Server(hold=True)
    server = await asyncio.start_server(served.serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    transport = KeepAliveTransport(ssl_context=ssl.create_default_context())
    try:
        async with httpx2.AsyncClient(transport=transport) as client:
            url = f"http://127.0.0.1:{port}/v1"
            with anyio.move_on_after(0.2):
                await client.post(url, json={})
            with anyio.fail_after(5):
                await served.closed.wait()  # the server saw the connection go
            assert (await client.post(url, json={})).text == "answer 2"
        assert served.connections == 2
    finally:
        server.close()


async def test_a_large_request_waits_for_the_write_buffer_to_drain() -> None:
    served = _Server()
    server = await asyncio.start_server(served.serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    transport = KeepAliveTransport(ssl_context=ssl.create_default_context())
    try:
        async with httpx2.AsyncClient(transport=transport) as client:
            answer = await client.post(f"http://127.0.0.1:{port}/v1", content=b"x" * 8_000_000)
        assert answer.text == "answer 1"
    finally:
        server.close()


async def test_a_large_answer_pauses_reading_until_it_is_read() -> None:
    big = b"y" * 3_000_000

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(big) + big)
        await writer.drain()
        await reader.read()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    transport = KeepAliveTransport(ssl_context=ssl.create_default_context())
    try:
        async with httpx2.AsyncClient(transport=transport) as client:
            answer = await client.get(f"http://127.0.0.1:{port}/big")
        assert answer.content == big
    finally:
        server.close()


async def test_a_lost_connection_raises_its_error_to_the_reader() -> None:
    connection = _Connection()
    loop = asyncio.get_running_loop()
    loop.call_soon(connection.data_received, b"HTTP/1.1")
    assert await connection.fill() and connection.buffer == b"HTTP/1.1"
    loop.call_soon(connection.connection_lost, ConnectionResetError("reset"))
    with pytest.raises(ConnectionResetError):
        await connection.fill()
    ended = _Connection()
    loop.call_soon(ended.eof_received)
    assert await ended.fill() is False
    with pytest.raises(ConnectionResetError):
        await ended.send(b"x")  # never written to once the other side closed


def test_connections_work_on_uvloop() -> None:
    """Ray runs async actors on uvloop, whose transports are no `asyncio.Transport` subclass and
    whose `socket` extra is a pseudo-socket: every model request on a Ray worker failed."""
    uvloop = pytest.importorskip("uvloop")

    async def two_requests() -> tuple[list[str], int]:
        served = _Server()
        server = await asyncio.start_server(served.serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        transport = KeepAliveTransport(ssl_context=ssl.create_default_context())
        try:
            async with httpx2.AsyncClient(transport=transport) as client:
                url = f"http://127.0.0.1:{port}/v1"
                texts = [(await client.post(url, json={"n": n})).text for n in range(2)]
        finally:
            server.close()
        return texts, served.connections

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        texts, connections = runner.run(two_requests())
    assert texts == ["answer 1", "answer 2"]
    assert connections == 1  # the second request found the first's connection at rest

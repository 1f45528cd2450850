"""A real HTTP server on 127.0.0.1 for the HTTP adapters, scripted per test."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    json: Any


Answer = tuple[int, Any]
"""Status and body: a dict/list is sent as JSON, a str as plain text, an iterator of bytes as a
body of unknown length, chunk by chunk, until the client hangs up."""


@dataclass
class LoopbackServer:
    url: str
    received: list[Received] = field(default_factory=list)
    handler: Callable[[Received], Answer] = lambda request: (200, {"reply": "ok"})


class _Quiet(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):  # a client that timed out hung up: fine
        pass


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    state: dict[str, LoopbackServer] = {}

    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            request = Received(
                method=self.command,
                path=self.path,
                headers={k.lower(): v for k, v in self.headers.items()},
                json=json.loads(raw) if raw else None,
            )
            state["server"].received.append(request)
            status, body = state["server"].handler(request)
            if isinstance(body, Iterator):
                self._stream(status, body)
                return
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            self.send_response(status)
            ctype = "text/plain" if isinstance(body, str) else "application/json"
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, status: int, chunks: Iterator[bytes]) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            for chunk in chunks:
                self.wfile.write(chunk)

        do_POST = do_PUT = _serve

        def log_message(self, format, *args):
            pass

    httpd = _Quiet(("127.0.0.1", 0), Handler)
    state["server"] = LoopbackServer(url=f"http://127.0.0.1:{httpd.server_address[1]}")
    thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield state["server"]
    finally:
        httpd.shutdown()
        httpd.server_close()

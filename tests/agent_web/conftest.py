"""A real Chromium (one per module), a loopback fixture site with a foreign chat widget, and the
built-in shop and school sites served by uvicorn on 127.0.0.1."""

from __future__ import annotations

import html
import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
WIDGET_HTML = (Path(__file__).parent / "widget.html").read_text(encoding="utf-8")


def _chromium() -> str | None:
    return (
        os.environ.get("VISTASIM_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    # Module scope: the browser fixture and the tests must share one event loop.
    return "asyncio"


@pytest.fixture(scope="module")
async def browser():
    playwright = pytest.importorskip(
        "playwright.async_api",
        reason="playwright is not installed (pip install 'vistasim[browser]')",
    )
    if _chromium() is None:
        pytest.skip("no Chromium found: set VISTASIM_CHROMIUM or install the chromium package")
    async_playwright = playwright.async_playwright

    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=_chromium(), args=FLAGS)
        yield chromium
        await chromium.close()


@pytest.fixture
async def page(browser):
    context = await browser.new_context()
    page = await context.new_page()
    page.set_default_timeout(5000)
    yield page
    await context.close()


class FixtureSite:
    """The foreign widget's backend: answers /ask, records tool spans, serves them as a trace."""

    def __init__(self) -> None:
        self.spans: list[dict] = []
        self.form_lines: list[tuple[str, str]] = []
        self.fail_next = False
        self.url = ""

    def ask(self, message: str) -> tuple[int, dict]:
        if self.fail_next:
            self.fail_next = False
            return 503, {"detail": "backend overloaded"}
        start = time.time_ns()
        self.spans.append(
            {
                "name": "execute_tool lookup_faq",
                "startTimeUnixNano": str(start),
                "endTimeUnixNano": str(start + 1000),
                "attributes": [
                    {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
                    {"key": "gen_ai.tool.name", "value": {"stringValue": "lookup_faq"}},
                    {"key": "gen_ai.tool.call.id", "value": {"stringValue": f"c{len(self.spans)}"}},
                    {
                        "key": "gen_ai.tool.call.arguments",
                        "value": {"stringValue": json.dumps({"question": message})},
                    },
                    {"key": "gen_ai.tool.call.result", "value": {"stringValue": '{"hits": 1}'}},
                ],
                "status": {"code": 1},
            }
        )
        return 200, {"answer": f"Thanks for asking about {message!s}. We reply within two days."}

    def form_page(self) -> str:
        lines = "".join(
            f'<div class="line {who}">{html.escape(text)}</div>' for who, text in self.form_lines
        )
        return (
            '<!doctype html><title>Form chat</title><div class="chat-area">'
            f'{lines}<form method="post" action="/form"><input type="text" name="msg">'
            "<button>Go</button></form></div>"
        )

    def trace(self) -> dict:
        spans = list(self.spans)
        return {"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}


@pytest.fixture(scope="module")
def site() -> Iterator[FixtureSite]:
    state = FixtureSite()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def _send(self, status: int, body: str, ctype: str) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            path = urlsplit(self.path).path
            if path == "/trace":
                self._send(200, json.dumps(state.trace()), "application/json")
            elif path == "/form":
                self._send(200, state.form_page(), "text/html; charset=utf-8")
            elif path == "/plain":
                self._send(200, "<!doctype html><title>No chat</title><p>Hello</p>", "text/html")
            else:
                self._send(200, WIDGET_HTML, "text/html; charset=utf-8")

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            if self.path == "/form":
                [msg] = parse_qs(self.rfile.read(length).decode())["msg"]
                state.form_lines += [("you", msg), ("them", f"Noted: {msg}")]
                self.send_response(303)
                self.send_header("Location", "/form")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = json.loads(self.rfile.read(length) or b"{}")
            status, body = state.ask(str(data.get("q", "")))
            self._send(status, json.dumps(body), "application/json")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield state
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def serve_app(app) -> Iterator[str]:
    """Serve an ASGI app with uvicorn on 127.0.0.1:0 in a thread; yield its base URL."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)


@pytest.fixture(scope="module")
def shop_url() -> Iterator[str]:
    from vistasim.domains import get_domain

    shop = get_domain("shop")
    yield from serve_app(shop.make_web_app(shop.make_environment(), None))


@pytest.fixture(scope="module")
def school_url() -> Iterator[str]:
    from vistasim.domains import get_domain

    school = get_domain("school")
    yield from serve_app(school.make_web_app(school.make_environment(), None))

"""Loopback web sites for the browser tests: the built-in shop, and small pages of our own."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from vistasim.domains import get_domain


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """Serve an ASGI app on 127.0.0.1 (a free port) in a thread; yield its base URL."""
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(5)


def shop_app() -> Any:
    """The built-in shop site on a fresh environment, with its rule-based support agent."""
    domain = get_domain("shop")
    return domain.make_web_app(domain.make_environment(), None)


def school_app() -> Any:
    """The built-in school portal on a fresh environment, with its rule-based agent."""
    domain = get_domain("school")
    return domain.make_web_app(domain.make_environment(), None)


PLAIN = """<!doctype html><html><head><title>Plain form</title></head><body>
<h1>Contact us</h1>
<p>We answer within two days.</p>
<label for="name">Your name</label> <input id="name" value="Ada">
<label>Topic <select><option>Billing</option><option selected>Delivery</option></select></label>
<label><input type="checkbox" checked> Send me a copy</label>
<button disabled>Archive</button>
<button onclick="document.getElementById('out').textContent = 'Sent!'">Send</button>
<p id="out"></p>
<div id="helpdesk"><ul class="thread">
  <li class="from-me">Hello?</li><li class="from-them">Hi, how can I help?</li>
</ul></div>
</body></html>"""

LINKS = """<!doctype html><html><head><title>Links</title></head><body>
<a href="https://elsewhere.example.com/" data-semantic-id="away">Somewhere else</a>
<a href="/plain" data-semantic-id="plain">Plain page</a>
<button data-semantic-id="secret" hidden>Secret</button>
<img src="https://tracker.example.com/pixel.png" alt="">
</body></html>"""


POLL = """<!doctype html><html><head><title>Live</title></head><body>
<p id="state">waiting</p>
<button data-semantic-id="mark" onclick="document.getElementById('state').textContent = 'marked'">
Mark</button>
<script>fetch("/hang");</script>
</body></html>"""


async def _hang(_request: Any) -> Response:
    # Stands in for a long poll: answers long after any action's settle bound.
    await anyio.sleep(3)
    return HTMLResponse("late")


def _page(html: str) -> Any:
    async def endpoint(_request: Any) -> Response:
        return HTMLResponse(html)

    return endpoint


async def _set_cookie(_request: Any) -> Response:
    response = HTMLResponse("<title>cookie</title><p>cookie set</p>")
    response.set_cookie("flavour", "oat", samesite="lax")
    return response


VEILED = """<!doctype html><html><head><title>Veiled</title></head><body>
<div id="veil" style="position:fixed;inset:0;background:#fff8">loading...</div>
<button data-semantic-id="go" onclick="document.getElementById('out').textContent = 'clicked'">
Go</button><p id="out"></p>
<script>
  // Busy for 3 s, talking to its server meanwhile, as a page still loading its data is.
  const ticking = setInterval(() => fetch("/tick"), 200);
  setTimeout(() => { clearInterval(ticking); document.getElementById("veil").remove(); }, 3000);
</script></body></html>"""

# A chat widget drawn in a shadow root, in the common markup: found and read through it.
SHADOW_CHAT = """<!doctype html><html><head><title>Shadow chat</title></head><body>
<h1>Help</h1><support-chat></support-chat>
<script>
customElements.define("support-chat", class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({mode: "open"});
    root.innerHTML = `<div class="chat"><div id="chat-log"></div>
      <textarea aria-label="Message"></textarea>
      <button type="submit" aria-label="Send">Send</button></div>`;
    const log = root.getElementById("chat-log"), box = root.querySelector("textarea");
    const say = (cls, text) => { const p = document.createElement("p");
      p.className = cls; p.textContent = text; log.appendChild(p); };
    root.querySelector("button").onclick = () => {
      const text = box.value; box.value = ""; say("user", text);
      setTimeout(() => say("agent", "Echo: " + text), 300);
    };
  }
});
</script></body></html>"""


async def _slow_page(_request: Any) -> Response:
    await anyio.sleep(1.5)
    return HTMLResponse("<title>Slow</title><p>the slow page</p>")


def fixture_app() -> Starlette:
    """Pages without semantic ids (aria fallback), links off-site, a cookie setter, slow and busy
    pages, and a chat widget in a shadow root."""
    return Starlette(
        routes=[
            Route("/plain", _page(PLAIN)),
            Route("/links", _page(LINKS)),
            Route("/cookie", _set_cookie),
            Route("/poll", _page(POLL)),
            Route("/hang", _hang),
            Route("/veiled", _page(VEILED)),
            Route("/tick", _page("tick")),
            Route("/slow-page", _slow_page),
            Route("/shadow-chat", _page(SHADOW_CHAT)),
        ]
    )

"""Defect 2: nothing the browser sends reaches an origin the run does not allow.

Site A is the product; site B, on another loopback port, counts every TCP connection, HTTP
request and UDP datagram it gets. A's pages reach for B every way a page can: a 302, a chain of
redirects, a meta refresh, a form post, a popup, a redirected image, a service worker; a page
that answers 200 only the first time it is asked, one that redirects once its cookie is set, a
favicon, a pre-connect, WebRTC (STUN over UDP, TURN over TCP). B must see nothing, the episode
goes on, and each allowed page is asked for once per navigation.
"""

import json
import socketserver
import threading
from collections import Counter
from collections.abc import AsyncIterator, Iterator

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.browser.sites import serve
from vistasim.browser import Back, BrowserPool, Click, find_chromium
from vistasim.config import RunConfig
from vistasim.errors import BrowserError
from vistasim.events import WebAction
from vistasim.explore import run
from vistasim.scenario import Persona, Scenario
from vistasim.store import open_store, read_run_view
from vistasim.testing import ScriptedLLM

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def chromium() -> str:
    try:
        return find_chromium()
    except BrowserError as exc:
        pytest.skip(f"no Chromium: {exc}")


class Elsewhere:
    """Site B: answers any HTTP request, and counts connections, requests and UDP datagrams.

    Raw sockets, so that a connection that never sends a request (a pre-connect, TURN) and a
    datagram (STUN) count too.
    """

    def __init__(self) -> None:
        self.hits: list[str] = []
        """Request lines ("GET /path") in the order they came."""
        self.connections = 0
        self.datagrams = 0
        self.url = ""
        self.udp_port = 0

    def __enter__(self) -> "Elsewhere":
        elsewhere = self

        class Tcp(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                elsewhere.connections += 1
                self.request.settimeout(5)
                try:
                    head = self.request.recv(65536)
                except OSError:
                    return
                if head[:1].isalpha():
                    method, path = head.decode("latin-1").split(" ", 2)[:2]
                    elsewhere.hits.append(f"{method} {path}")
                    body = b"<title>B</title><p>you left the product</p>"
                    self.request.sendall(
                        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n"
                        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                    )

        class Udp(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                elsewhere.datagrams += 1

        self._tcp = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Tcp)
        self._udp = socketserver.UDPServer(("127.0.0.1", 0), Udp)
        self._tcp.daemon_threads = True
        for server in (self._tcp, self._udp):
            threading.Thread(target=server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._tcp.server_address[1]}"
        self.udp_port = self._udp.server_address[1]
        return self

    def __exit__(self, *_: object) -> None:
        for server in (self._tcp, self._udp):
            server.shutdown()
            server.server_close()

    def forget(self) -> None:
        """Start counting afresh (each test checks only what it sent)."""
        self.hits, self.connections, self.datagrams = [], 0, 0

    def reached(self) -> tuple[int, list[str], int]:
        """(connections, requests, datagrams): all three stay (0, [], 0) when B is never reached."""
        return self.connections, self.hits, self.datagrams


def product_app(elsewhere: Elsewhere, asked: Counter[str]) -> Starlette:
    """Site A: every page tries to take the browser to B; `asked` counts A's own paths."""
    b = elsewhere.url

    def page(title: str, body: str, head: str = "") -> HTMLResponse:
        # A data: icon keeps the browser from asking A for /favicon.ico (a count of its own).
        icon = "" if "rel=icon" in head else '<link rel=icon href="data:,">'
        return HTMLResponse(f"<!doctype html><title>{title}</title>{icon}{head}<body>{body}</body>")

    async def start(_: Request) -> Response:
        return page(
            "Start",
            f"""
          <div id="chat"><textarea id="chat-input"></textarea></div>
          <a data-semantic-id="redirect" href="/to-b">Redirect</a>
          <a data-semantic-id="chain" href="/hop">Redirect chain</a>
          <a data-semantic-id="plain" href="/plain">Plain</a>
          <a data-semantic-id="refresh" href="/refresh">Refresh</a>
          <a data-semantic-id="popup" href="{b}/popup" target="_blank">Popup</a>
          <button data-semantic-id="open" onclick="window.open('{b}/opened')">Open</button>
          <form method="post" action="{b}/collect"><input name="card" value="4242">
            <button data-semantic-id="post">Pay</button></form>
          <img src="/img-to-b" alt="">
          <script>navigator.serviceWorker && navigator.serviceWorker.register("/sw.js")
            .then(() => document.title += " [sw]", () => {{}});</script>""",
        )

    async def plain(_: Request) -> Response:
        return page("Plain", f'<a data-semantic-id="away" href="{b}/away">Away</a>')

    async def refresh(_: Request) -> Response:
        return HTMLResponse(
            f'<title>Refresh</title><meta http-equiv="refresh" content="0;url={b}/refreshed">'
        )

    async def service_worker(_: Request) -> Response:
        script = f"self.addEventListener('install', () => fetch('{b}/from-worker'));"
        return Response(script, media_type="application/javascript")

    async def once(_: Request) -> Response:
        # Fine when checked, elsewhere when the browser asks again: only one ask is safe.
        asked["/once"] += 1
        if asked["/once"] > 1:
            return RedirectResponse(f"{b}/second-ask", status_code=302)
        return page("Once", "<p>asked once</p>")

    async def cookie(request: Request) -> Response:
        asked["/cookie"] += 1
        if request.cookies.get("seen"):
            return RedirectResponse(f"{b}/with-cookie", status_code=302)
        response = page("Cookie", '<a data-semantic-id="again" href="/cookie">Again</a>')
        response.set_cookie("seen", "1")
        return response

    async def icon(_: Request) -> Response:
        head = f'<link rel=icon href="{b}/favicon.ico">'
        script = f"<script>window.open('{b}/popup-then-icon')</script>"
        return page("Icon", script, head)

    async def preconnect(_: Request) -> Response:
        head = f'<link rel=preconnect href="{b}"><link rel=dns-prefetch href="{b}">'
        response = page("Preconnect", "<p>hints</p>", head)
        response.headers["link"] = f"<{b}/x>; rel=preconnect"
        return response

    async def webrtc(_: Request) -> Response:
        port = b.rpartition(":")[2]
        servers = [
            {"urls": f"stun:127.0.0.1:{elsewhere.udp_port}"},
            {"urls": f"turn:127.0.0.1:{port}?transport=tcp", "username": "u", "credential": "p"},
        ]
        script = f"""<script>
          const pc = new RTCPeerConnection({{iceServers: {json.dumps(servers)}}});
          pc.createDataChannel("x");
          pc.onicegatheringstatechange = () => {{ document.title = pc.iceGatheringState; }};
          pc.createOffer().then((offer) => pc.setLocalDescription(offer));
        </script>"""
        return page("WebRTC", script)

    return Starlette(
        routes=[
            Route("/once", once),
            Route("/cookie", cookie),
            Route("/icon", icon),
            Route("/preconnect", preconnect),
            Route("/webrtc", webrtc),
            Route("/start", start),
            Route("/plain", plain),
            Route("/refresh", refresh),
            Route("/sw.js", service_worker),
            Route("/to-b", lambda _: RedirectResponse(f"{b}/landing", status_code=302)),
            Route("/hop", lambda _: RedirectResponse("/hop2", status_code=302)),
            Route("/hop2", lambda _: RedirectResponse(f"{b}/chained", status_code=302)),
            Route("/img-to-b", lambda _: RedirectResponse(f"{b}/pixel.png", status_code=302)),
        ]
    )


@pytest.fixture(scope="module")
def asked() -> Counter[str]:
    return Counter()


@pytest.fixture(scope="module")
def sites(asked) -> Iterator[tuple[str, Elsewhere]]:
    with Elsewhere() as elsewhere, serve(product_app(elsewhere, asked)) as a:
        yield a, elsewhere


@pytest.fixture(autouse=True)
def _fresh_counts(request) -> None:
    if "sites" in request.fixturenames:
        request.getfixturevalue("sites")[1].forget()


@pytest.fixture(scope="module")
async def pool(chromium) -> AsyncIterator[BrowserPool]:
    async with BrowserPool(executable=chromium) as pool:
        yield pool


async def test_an_allowed_page_is_asked_for_once_so_what_is_checked_is_what_is_sent(
    pool, sites, asked
):
    a, elsewhere = sites
    session = await pool.new_session(allowed_origins=[a])
    result = await session.goto(f"{a}/once")
    await session.close()
    assert result.ok and result.url == f"{a}/once", result
    assert asked["/once"] == 1
    assert elsewhere.reached() == (0, [], 0)


async def test_a_redirect_that_needs_the_browsers_cookie_is_checked_and_the_cookie_kept(
    pool, sites, asked
):
    a, elsewhere = sites
    session = await pool.new_session(allowed_origins=[a])
    assert (await session.goto(f"{a}/cookie")).ok
    cookies = await session.page.context.cookies()
    await session.observe()
    result = await session.act(Click(target="again"))  # now the page redirects to B
    await session.close()
    assert [(c["name"], c["value"]) for c in cookies] == [("seen", "1")]
    assert not result.ok and "blocked" in result.error and result.url == f"{a}/cookie", result
    assert asked["/cookie"] == 2  # once per navigation, never a second time for a check
    assert elsewhere.reached() == (0, [], 0)


@pytest.mark.parametrize("path", ["/icon", "/preconnect", "/webrtc"])
async def test_favicons_popups_preconnects_and_webrtc_never_reach_another_origin(pool, sites, path):
    a, elsewhere = sites
    session = await pool.new_session(allowed_origins=[a])
    assert (await session.goto(f"{a}{path}")).ok
    if path == "/webrtc":  # the page did try: its candidates were gathered, none through B
        await session.page.wait_for_function("document.title === 'complete'", timeout=20_000)
    else:
        await session.page.wait_for_timeout(1500)  # time for the browser's own requests
    await session.close()
    assert elsewhere.reached() == (0, [], 0)


async def test_no_request_reaches_another_origin_and_the_page_stays(chromium, sites):
    a, elsewhere = sites
    async with BrowserPool(executable=chromium) as pool:
        session = await pool.new_session(allowed_origins=[a])
        assert (await session.goto(f"{a}/start")).ok
        for target in ("redirect", "chain", "post", "refresh"):
            result = await session.act(Click(target=target))
            assert not result.ok and "blocked" in result.error, (target, result)
            view = await session.observe()  # the episode goes on, on the page it was on
            assert view.url.startswith(a), (target, view.url)
            await session.snapshot()
            if not view.url.endswith("/start"):
                assert (await session.goto(f"{a}/start")).ok
                await session.observe()  # actions pick targets from the last observation
        for target in ("popup", "open"):
            await session.act(Click(target=target))
        assert (await session.act(Click(target="plain"))).ok
        await session.observe()
        result = await session.act(Click(target="away"))
        assert not result.ok and "blocked" in result.error
        back = await session.act(Back())
        assert back.url == f"{a}/start", back  # not about:blank
        workers = "async () => (await navigator.serviceWorker.getRegistrations()).length"
        assert await session.page.evaluate(workers) == 0  # service workers are blocked
    assert elsewhere.reached() == (0, [], 0)


def _user_script() -> list[str]:
    def step(action: str, **fields: str) -> str:
        return json.dumps({"plan": "explore", "action": action, **fields})

    return [
        step("click", target="redirect"),
        step("click", target="plain"),
        step("finish", text="done", finish_reason="goal_met"),
    ]


async def test_a_redirect_off_the_site_is_a_failed_web_action_and_the_episode_goes_on(
    chromium, sites, tmp_path
):
    a, elsewhere = sites
    config = RunConfig.model_validate(
        {
            "run": {"mode": "ui"},
            "user": {"policy": "llm"},
            "agent": {"kind": "python", "target": "tests.explore.agents:confused_agent"},
            "web": {"start_url": f"{a}/start"},
            "cache": {"mode": "off"},
        }
    )
    scenario = Scenario(id="wander", persona=Persona(name="Ann"), goal="Look around.")
    store = open_store(tmp_path / "store.db")
    result = await run(
        config, scenarios=[scenario], store=store, models={"user": ScriptedLLM(_user_script())}
    )
    [episode] = read_run_view(store, result.run_id).episodes
    actions = [e.event for e in episode.events if isinstance(e.event, WebAction)]
    assert [a.target for a in actions] == ["redirect", "plain"]
    assert "blocked" in actions[0].error and actions[0].url == f"{a}/start"
    assert actions[1].error is None and actions[1].url == f"{a}/plain"
    assert episode.stop_reason == "goal_met"
    assert elsewhere.reached() == (0, [], 0)

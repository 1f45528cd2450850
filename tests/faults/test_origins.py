"""Defect 2: no request of the browser reaches an origin the run does not allow.

Site A is the product; site B, on another loopback port, counts every request it gets. A's pages
reach for B every way a page can: a 302, a chain of redirects, a meta refresh, a form post, a
popup, a redirected image, a service worker. B must see nothing, and the episode goes on.
"""

import json
from collections.abc import Iterator

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
    """Site B: answers anything, and remembers it was asked."""

    def __init__(self) -> None:
        self.hits: list[str] = []

    def app(self) -> Starlette:
        async def anything(request: Request) -> Response:
            self.hits.append(f"{request.method} {request.url.path}")
            return HTMLResponse("<title>B</title><p>you left the product</p>")

        return Starlette(routes=[Route("/{path:path}", anything, methods=["GET", "POST"])])


def product_app(b: str) -> Starlette:
    """Site A: every page tries to take the browser to B."""

    def page(title: str, body: str) -> HTMLResponse:
        return HTMLResponse(f"<!doctype html><title>{title}</title><body>{body}</body>")

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

    return Starlette(
        routes=[
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
def sites() -> Iterator[tuple[str, Elsewhere]]:
    elsewhere = Elsewhere()
    with serve(elsewhere.app()) as b, serve(product_app(b)) as a:
        yield a, elsewhere


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
    assert elsewhere.hits == []


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
    assert elsewhere.hits == []

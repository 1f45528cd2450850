"""Browser restores: typed form input, history, posted pages, the site's sessions, the widget."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import log_in
from tests.browser.sites import serve, shop_app
from vistasim.agent import Turn, WebChatAgent
from vistasim.browser import Click, TypeText
from vistasim.errors import BrowserError

pytestmark = pytest.mark.browser

_FIELDS_JS = """() => [document.querySelector('#name').value,
  document.querySelector('select').value, document.querySelector('[type=checkbox]').checked]"""


async def test_typed_form_input_comes_back_after_a_restore(session, site):
    await session.goto(f"{site}/plain")
    await session.page.fill("#name", "Grace")
    await session.page.select_option("select", "Billing")
    await session.page.uncheck("[type=checkbox]")
    state = await session.snapshot()
    assert len(json.loads(state)["fields"]) == 3

    await session.goto(f"{site}/links")
    await session.restore(state)
    assert await session.page.evaluate(_FIELDS_JS) == ["Grace", "Billing", False]
    assert await session.snapshot() == state


async def test_untouched_fields_are_not_captured(session, site):
    await session.goto(f"{site}/plain")
    assert json.loads(await session.snapshot())["fields"] == []


async def test_the_back_history_is_rebuilt(session, site):
    await session.goto(f"{site}/plain")
    await session.goto(f"{site}/links")
    state = await session.snapshot()
    assert [e["url"] for e in json.loads(state)["history"]] == [f"{site}/plain"]

    await session.restore(state)
    await session.page.go_back()
    assert session.page.url == f"{site}/plain"


async def test_a_page_a_refused_form_post_drew_comes_back_without_posting_again(session, shop):
    await session.goto(f"{shop}/login")
    await session.observe()
    await session.act(TypeText(target="login-email", text="nobody@example.com"))
    await session.act(Click(target="login-submit"))
    refused = await session.observe()
    assert "No customer" in refused.text
    state = await session.snapshot()
    assert json.loads(state)["document"]["method"] == "POST"

    posts: list[str] = []
    await session.goto(f"{shop}/")
    await session.restore(state)
    session.page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    assert (await session.observe()).text == refused.text
    assert posts == []  # answered from the snapshot, not the server
    assert await session.snapshot() == state
    await session.page.go_back()
    assert session.page.url == f"{shop}/login"


async def test_a_field_that_is_gone_after_the_restore_is_an_error(session, site):
    await session.goto(f"{site}/plain")
    await session.page.fill("#name", "Grace")
    data = json.loads(await session.snapshot())
    data["fields"][0]["locator"] = "#gone"
    with pytest.raises(BrowserError, match=r"typed form input .* #gone \(missing\)"):
        await session.restore(json.dumps(data).encode())


async def test_a_transcript_the_page_does_not_show_again_is_an_error(session, shop):
    await session.goto(f"{shop}/")
    data = json.loads(await session.snapshot())
    data["chat"] = [{"role": "agent", "text": "kept only in memory"}]
    with pytest.raises(BrowserError, match="chat widget's transcript.* 0 message.* had 1"):
        await session.restore(json.dumps(data).encode())


async def test_a_post_answer_no_snapshot_saw_is_an_error(session, shop):
    await session.goto(f"{shop}/")
    data = json.loads(await session.snapshot())
    data["lost_posts"] = 1
    with pytest.raises(BrowserError, match="1 form post answer"):
        await session.restore(json.dumps(data).encode())


async def test_a_version_1_snapshot_still_restores(session, shop):
    await log_in(session, shop)
    await session.goto(f"{shop}/orders")
    data = json.loads(await session.snapshot())
    old = {k: data[k] for k in ("url", "storage_state", "session_storage", "chat")}
    await session.goto(f"{shop}/")
    await session.restore(json.dumps({**old, "version": 1}).encode())
    assert session.page.url == f"{shop}/orders"


async def test_site_sessions_round_trip_with_login_history_and_agent_state(pool):
    app = shop_app()
    site = app.state.site
    with serve(app) as shop:
        session = await pool.new_session(allowed_origins=[shop])
        try:
            await log_in(session, shop)
            await session.goto(f"{shop}/orders")
            agent = WebChatAgent(session.page, settle_ms=200)
            await agent.respond(Turn(episode_id="e", message="Where is my order W1001?"))
            state = site.snapshot_sessions()
            [saved] = state["sessions"]
            assert saved["fields"]["customer_id"] is not None
            assert saved["agent"]["strategy"] == "state" and len(saved["history"]) == 2

            site.sessions.clear()  # a new site: nobody logged in, no chat agents
            site.restore_sessions(state)
            assert site.snapshot_sessions() == state
            browser = await session.snapshot()
            await session.restore(browser)
            agent.rebind(session.page)  # the old page is closed; the adapter follows the new one
            reply = await agent.respond(Turn(episode_id="e", message="Thanks!"))
            assert reply.text
            assert len(site.snapshot_sessions()["sessions"][0]["history"]) == 4
            await agent.aclose()
        finally:
            await session.close()


def test_a_session_agent_without_state_cannot_be_restored():
    site = shop_app().state.site
    state = {
        "sessions": [
            {"sid": "abcdefgh", "fields": {"customer_id": None}, "history": [],
             "agent": {"strategy": "replay"}}
        ]
    }  # fmt: skip
    with pytest.raises(BrowserError, match="restore strategy is 'replay'"):
        site.restore_sessions(state)
    with pytest.raises(BrowserError, match="not a snapshot of the site's sessions"):
        site.restore_sessions({"sessions": [{"sid": "x"}]})

"""A product's chat page built with Gradio, Streamlit, Chainlit, Shiny, Panel, NiceGUI or Mesop,
or with Open WebUI's markup, reached with no selectors.

Each app runs the same rule bot: it asks for the order number, then reports the status in three
parts streamed with one-second pauses. A config of `[web] start_url` and scenarios alone runs in
`ui` mode against it, with the offline agenda user. Panel draws its chat in shadow roots and
marks messages only by their author; Shiny's `ui.Chat` and NiceGUI's Quasar widgets have markup
of their own; Mesop's bubbles differ only by their inline alignment. A reply vistasim cannot read
ends the episode errored, never failed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.chatui.apps.launch import FRAMEWORKS, cpu_burners
from tests.chatui.apps.rules import ASK, full_reply
from tests.chatui.conftest import serve_chat_app
from vistasim.agent import Turn, WebChatAgent
from vistasim.browser import BrowserPool, find_chromium, observe_page
from vistasim.events import AgentReply, Snapshot
from vistasim.metrics import success
from vistasim.store import open_store, read_run_view

pytestmark = [pytest.mark.chatui, pytest.mark.browser]

SCENARIO = """\
- id: order-status
  persona: {name: Sam Okafor, style: {verbosity: low, patience: 3}}
  goal: Find out the status of my order.
  knowledge: {order_id: W1002}
  agenda: [{intent: order_status}]
  criteria: {statements: [{contains_any: [shipped]}]}
  limits: {max_turns: 4}
"""


@pytest.fixture(scope="module", params=FRAMEWORKS)
def app(request, tmp_path_factory):
    """(framework, URL) of one running app, shared by the module's tests for that framework."""
    workdir = tmp_path_factory.mktemp(request.param)
    for url in serve_chat_app(request.param, workdir):
        yield request.param, url


def vistasim(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vistasim.cli", *args],
        capture_output=True, text=True, cwd=cwd, timeout=240,
    )  # fmt: skip


def write_config(
    folder: Path, url: str, widget: str = "", *, rollouts: int = 1, scenarios: str = SCENARIO
) -> None:
    (folder / "scenarios.yaml").write_text(scenarios, encoding="utf-8")
    config = (
        f'[run]\nscenarios = "scenarios.yaml"\nmode = "ui"\nrollouts = {rollouts}\n\n'
        f'[web]\nstart_url = "{url}"\n'
    )
    (folder / "vistasim.toml").write_text(config + widget, encoding="utf-8")


def only_run(store_path: Path):
    """The view of the store's one run."""
    with open_store(store_path) as store:
        [row] = store.list_runs()
        return read_run_view(store, row.run_id)


def verdicts(view) -> list[tuple[str | None, str]]:
    """(stop reason, outcome) of each episode."""
    outcomes = success(view).episodes
    return [(e.stop_reason, outcomes[e.episode_id]) for e in view.episodes]


@pytest.fixture(scope="module")
def ui_run(app, tmp_path_factory):
    """One `vistasim run` of the config with no [agent] and no selectors, and its stored run."""
    framework, url = app
    folder = tmp_path_factory.mktemp(f"{framework}-run")
    write_config(folder, url)
    result = vistasim("run", "vistasim.toml", "--store", str(folder / "v.db"), cwd=folder)
    assert result.returncode == 0, result.stdout + result.stderr
    store = open_store(folder / "v.db")
    [row] = store.list_runs()
    yield framework, read_run_view(store, row.run_id), store
    store.close()


@pytest.mark.parametrize("app", ["gradio", "streamlit", "chainlit"], indirect=True)
def test_two_cpu_burners_make_episodes_slower_never_other_verdicts(app, ui_run, tmp_path):
    # The browser opens as many pages as the machine has CPUs; under load every wait lasts
    # while the page makes progress, so a slow page is not a failed or errored episode.
    framework, url = app
    _, idle, _ = ui_run
    write_config(tmp_path, url, rollouts=2)
    with cpu_burners(2):
        result = vistasim("run", "vistasim.toml", "--store", str(tmp_path / "v.db"), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "browser: " in result.stderr and "web episode(s) at a time" in result.stderr
    assert verdicts(idle) == [("goal_met", "passed")]
    loaded = only_run(tmp_path / "v.db")
    stops = [e.events[-1].event for e in loaded.episodes]
    assert verdicts(loaded) == [("goal_met", "passed")] * 2, (framework, stops)


def test_start_url_and_scenarios_alone_run_in_ui_mode(ui_run):
    framework, view, _ = ui_run
    [episode] = view.episodes
    assert episode.mode == "ui"
    assert episode.stop_reason == "goal_met", episode.events[-1].event
    assert view.metadata["web_widget"] == framework


def test_reply_streamed_with_one_second_pauses_is_read_whole(ui_run):
    _, view, _ = ui_run
    [episode] = view.episodes
    replies = [e.event for e in episode.events if isinstance(e.event, AgentReply)]
    assert [r.text for r in replies] == [ASK, full_reply("W1002", [])]
    assert replies[1].latency_s >= 2.0  # two pauses of one second each


def test_snapshots_hold_the_transcript_read_through_the_frameworks_selectors(ui_run):
    _, view, store = ui_run
    [episode] = view.episodes
    last = [e.event for e in episode.events if isinstance(e.event, Snapshot)][-1]
    chat = json.loads(store.get_blob(last.browser_state_ref))["chat"]
    assert [line["role"] for line in chat] == ["user", "agent", "user", "agent"]
    assert chat[3]["text"] == full_reply("W1002", [])


def test_a_selector_that_matches_nothing_stops_the_run_before_it_starts(app, tmp_path):
    framework, url = app
    write_config(tmp_path, url, '\n[web.widget]\ninput = "#no-such-input"\nfind_timeout_s = 1\n')
    result = vistasim("run", "vistasim.toml", "--store", str(tmp_path / "v.db"), cwd=tmp_path)
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert "web.widget" in line and f"a {framework} page" in line and "'#no-such-input'" in line
    with open_store(tmp_path / "v.db") as store:
        assert store.list_runs() == []


async def test_every_control_on_the_chat_page_gets_a_label(app):
    _, url = app
    async with BrowserPool(executable=find_chromium()) as pool:
        session = await pool.new_session(allowed_origins=[url])
        await session.goto(url)
        agent = WebChatAgent(session.page, settle_ms=300, timeout_s=20)  # finds the widget
        await agent.respond(Turn(episode_id="e1", message="hello"))
        view = await observe_page(session.page, widget=agent.widget)
        await agent.aclose()
    assert view.chat[-1].text == ASK
    unlabeled = [e for e in view.elements if not e.label]
    assert unlabeled == []


@pytest.mark.parametrize("app", ["gradio"], indirect=True)  # the same app, at /blocks/
async def test_a_gradio_blocks_chatbot_with_a_textbox_is_found_and_driven(app):
    _, url = app
    async with BrowserPool(executable=find_chromium()) as pool:
        session = await pool.new_session(allowed_origins=[url])
        await session.goto(url + "blocks/")
        agent = WebChatAgent(session.page, timeout_s=20)
        reply = await agent.respond(Turn(episode_id="e1", message="Is order W1002 on its way?"))
        await agent.aclose()
    assert reply.text == full_reply("W1002", [])
    assert agent.widget is not None and agent.widget.send is not None  # no button: Enter


@pytest.mark.parametrize("app", ["shiny"], indirect=True)
def test_a_reply_no_selector_marks_as_the_agents_errors_the_episode_not_the_agent(app, tmp_path):
    # Read with ARIA's selectors, Shiny's replies look like the user's own messages.
    _, url = app
    write_config(tmp_path, url, '\n[web.widget]\nframework = "aria"\n')
    result = vistasim("run", "vistasim.toml", "--store", str(tmp_path / "v.db"), cwd=tmp_path)
    # Exit 1: a run in which no episode could be judged says nothing about the agent.
    assert result.returncode == 1, result.stdout + result.stderr
    assert "no episode could be judged (1 errored)" in result.stderr
    view = only_run(tmp_path / "v.db")
    [episode] = view.episodes
    assert episode.stop_reason == "infra_error"
    detail = episode.events[-1].event.detail
    assert detail.startswith("the reply could not be read: set [web.widget] agent_message"), detail
    assert ASK in detail  # the reply it saw but could not attribute
    assert success(view).episodes == {episode.episode_id: "errored"}


@pytest.mark.parametrize("app", ["mesop"], indirect=True)
def test_a_reply_read_whole_that_misses_the_goal_is_the_agents_failure(app, tmp_path):
    # W1001 is still being processed: a reply read through Mesop's bubbles, and judged, says so.
    _, url = app
    write_config(tmp_path, url, scenarios=SCENARIO.replace("W1002", "W1001"))
    result = vistasim("run", "vistasim.toml", "--store", str(tmp_path / "v.db"), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    view = only_run(tmp_path / "v.db")
    assert verdicts(view) == [("goal_met", "failed")]
    [episode] = view.episodes
    replies = [e.event.text for e in episode.events if isinstance(e.event, AgentReply)]
    assert replies == [ASK, full_reply("W1001", [])]


def inspect_reply(url: str, message: str, cwd: Path) -> str:
    """What `vistasim web inspect URL --message MESSAGE` prints (it must succeed)."""
    result = vistasim("web", "inspect", url, "--message", message, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("app", ["panel"], indirect=True)
def test_web_inspect_prints_the_parts_found_and_the_selectors_to_paste(app, tmp_path):
    _, url = app
    out = inspect_reply(url, "Is order W1002 on its way?", tmp_path)
    assert "widget: panel" in out
    assert "  input: 1 visible of 1 (.chat-interface-input-widget textarea" in out
    assert f"reply: {full_reply('W1002', [])}" in out
    assert "  agent: " + full_reply("W1002", []) in out
    pasted = out.split("paste into vistasim.toml:")[1]
    assert '[web.widget]\nframework = "panel"\n' in pasted and 'author = ".name"' in pasted


@pytest.mark.parametrize("app", ["mesop"], indirect=True)
def test_web_inspect_tells_mesop_bubbles_apart_by_their_alignment_alone(app, tmp_path):
    # mesop.labs.chat gives a bubble no role, class or author: only its row's inline style
    # aligns the user's to the end and the bot's to the start.
    _, url = app
    asked = "Where is order W1001?"
    out = inspect_reply(url, asked, tmp_path)
    assert "widget: mesop" in out
    assert "  send: 1 visible of 1 (" in out  # the send button, not the theme toggle beside it
    transcript = out.split("transcript:\n")[1].split("reply:")[0].splitlines()
    assert transcript == [f"  user: {asked}", "  agent: " + full_reply(asked, [])]
    assert f"reply: {full_reply(asked, [])}" in out
    assert '[web.widget]\nframework = "mesop"\n' in out.split("paste into vistasim.toml:")[1]


def test_web_inspect_of_something_that_is_not_a_url_is_one_line_and_exit_2(tmp_path):
    result = vistasim("web", "inspect", "localhost:7860", cwd=tmp_path)
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert "'localhost:7860' is not an http(s) URL" in line

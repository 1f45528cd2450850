"""A product's own page as the way to the agent: no [agent] section, and a widget checked early."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from vistasim.browser import find_chromium
from vistasim.config import load_config
from vistasim.errors import BrowserError
from vistasim.events import AgentReply
from vistasim.explore import run
from vistasim.store import open_store, read_run_view

pytestmark = pytest.mark.browser

# A common widget (class `chat`) whose bot answers order questions.
WIDGET = """<!doctype html><title>Help</title><div class="chat"><div class="messages"></div>
<form><textarea></textarea><button type="submit">Send</button></form></div><script>
const box = document.querySelector(".messages"), said = [];
function add(cls, text) {
  const d = document.createElement("div"); d.className = "message " + cls; d.textContent = text;
  box.appendChild(d);
}
document.querySelector("form").addEventListener("submit", (e) => {
  e.preventDefault();
  const t = document.querySelector("textarea"); said.push(t.value); add("user", t.value);
  t.value = "";
  const order = said.join(" ").match(/W\\d{4}/);
  setTimeout(() => add("bot", order ? "Order " + order[0] + " has shipped."
    : "What's your order number?"), 100);
});
</script>"""
PLAIN = "<!doctype html><title>Welcome</title><h1>Welcome</h1><p>No chat here.</p>"
SCENARIO = """\
- id: order-status
  persona: {name: Sam Okafor}
  goal: Find out the status of my order.
  knowledge: {order_id: W1002}
  agenda: [{intent: order_status}]
  criteria: {statements: [{contains_any: [shipped]}]}
  limits: {max_turns: 4}
"""


@pytest.fixture(scope="module", autouse=True)
def chromium():
    try:
        return find_chromium()
    except BrowserError as exc:
        pytest.skip(f"no Chromium: {exc}")


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """/chat has the widget; /plain has none; /once has it only on the first navigation;
    /missing is a 404 page."""
    visits = {"once": 0}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            page = self.path.strip("/")
            if page == "once":
                visits["once"] += 1
            # One navigation is one request (the origin guard checks what the browser sends):
            # "once" shows the widget to the first navigation only.
            first = page == "once" and visits["once"] <= 1
            body = WIDGET if page == "chat" or first else PLAIN
            data = body.encode()
            self.send_response(404 if page == "missing" else 200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def write_config(folder, url: str) -> None:
    (folder / "scenarios.yaml").write_text(SCENARIO, encoding="utf-8")
    (folder / "vistasim.toml").write_text(
        f'[run]\nscenarios = "scenarios.yaml"\nmode = "ui"\n\n[web]\nstart_url = "{url}"\n\n'
        "[web.widget]\nsettle_ms = 200\nfind_timeout_s = 4\n",  # 1 s was flaky on a busy machine
        encoding="utf-8",
    )


async def test_ui_mode_with_a_start_url_needs_no_agent_section(tmp_path, site):
    write_config(tmp_path, f"{site}/chat")
    result = await run(load_config(tmp_path / "vistasim.toml"), store=tmp_path / "v.db")
    assert result.passed == 1
    with open_store(tmp_path / "v.db") as store:
        view = read_run_view(store, result.run_id)
    assert view.metadata["web_widget"] == "generic"
    replies = [e.event.text for e in view.episodes[0].events if isinstance(e.event, AgentReply)]
    assert replies[-1] == "Order W1002 has shipped."


def test_a_page_without_a_widget_stops_the_run_before_it_starts(tmp_path, site):
    write_config(tmp_path, f"{site}/plain")
    result = subprocess.run(
        [sys.executable, "-m", "vistasim.cli", "run", "vistasim.toml", "--store", "v.db"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: web.widget: no chat widget input is visible on the page")
    assert "tried generic: input '#chat-input" in line and "aria: input" in line
    with open_store(tmp_path / "v.db") as store:
        assert store.list_runs() == []


async def test_a_widget_gone_during_the_run_errors_the_episode_not_the_agent(tmp_path, site):
    write_config(tmp_path, f"{site}/once")  # the check sees the widget; the episode does not
    # No preflight: its reachability probe would be the page's one visit with the widget.
    config = load_config(tmp_path / "vistasim.toml")
    result = await run(config, store=tmp_path / "v.db", preflight=False)
    assert (result.errored, result.passed, result.failed) == (1, 0, 0)
    with open_store(tmp_path / "v.db") as store:
        [episode] = read_run_view(store, result.run_id).episodes
    assert episode.stop_reason == "infra_error"
    assert "no chat widget input is visible" in episode.stop.detail


def test_a_start_url_that_answers_an_error_says_so_before_the_run(tmp_path, site):
    write_config(tmp_path, f"{site}/missing")
    result = subprocess.run(
        [sys.executable, "-m", "vistasim.cli", "run", "vistasim.toml", "--store", "v.db"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2
    assert "web.widget: the page answered HTTP 404; no chat widget input" in result.stderr

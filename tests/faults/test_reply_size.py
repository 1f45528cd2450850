"""Defect 9: a huge reply or tool result is stored cut, flagged, and found as an agent failure."""

from tests.agent.conftest import server  # noqa: F401 - the loopback HTTP server fixture
from tests.helpers import desk_config, desk_scenarios
from vistasim.config import RunConfig
from vistasim.events import AgentReply, StopReason, ToolCall
from vistasim.explore import run, run_sync
from vistasim.metrics import detect_failures
from vistasim.store import open_store, read_run_view


async def test_an_oversized_reply_is_stored_cut_and_counts_as_an_agent_failure(tmp_path):
    config = desk_config(
        agent={"target": "tests.faults.agents:huge_reply"},
        run={"max_turns": 3, "max_reply_bytes": 100_000},
    )
    with open_store(tmp_path / "store.db") as store:
        result = await run(config, scenarios=desk_scenarios()[:1], store=store)
        view = read_run_view(store, result.run_id)
        biggest = store.db.execute("SELECT MAX(LENGTH(payload)) FROM events").fetchone()[0]
    assert biggest < 250_000  # nothing near the 3 MB the agent sent is stored
    [episode] = view.episodes
    replies = [e.event for e in episode.events if isinstance(e.event, AgentReply)]
    calls = [e.event for e in episode.events if isinstance(e.event, ToolCall)]
    assert replies and calls
    assert all(r.oversized == 3_000_000 and len(r.text.encode()) <= 100_010 for r in replies)
    assert all(c.oversized is not None and c.oversized > 3_000_000 for c in calls)
    failures = [f for f in detect_failures(view) if f.label == "oversized_reply"]
    assert failures and "100,000" in failures[0].description


def test_the_default_cap_is_one_megabyte():
    assert desk_config().run.max_reply_bytes == 1_000_000


def test_a_runaway_http_body_is_not_read_past_the_cap(tmp_path, server):  # noqa: F811
    sent = [0]

    def endless_reply():
        yield b'{"reply": "'
        chunk = b"x" * 100_000
        for _ in range(5_000):  # 500 MB, if the client kept reading
            sent[0] += len(chunk)
            yield chunk

    server.handler = lambda request: (200, endless_reply())
    config = RunConfig.model_validate({
        "agent": {"kind": "http_json", "url": f"{server.url}/chat", "probe": False},
        "run": {"max_turns": 2, "max_reply_bytes": 100_000},
        "cache": {"mode": "off"},
    })  # fmt: skip
    with open_store(tmp_path / "store.db") as store:
        result = run_sync(config, scenarios=desk_scenarios()[:1], store=store)
        [episode] = read_run_view(store, result.run_id).episodes
    assert episode.stop.reason is StopReason.AGENT_ERROR
    assert "body over 800,000 bytes" in episode.stop.detail, episode.stop.detail
    assert sent[0] < 20_000_000  # the client hung up near the cap, not after 500 MB

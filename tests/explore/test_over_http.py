"""A whole run over real loopback HTTP: LLM user and OpenAI-compatible agent on fake servers."""

import json

from vistasim.config import RunConfig
from vistasim.explore import run
from vistasim.scenario import Persona, Scenario
from vistasim.store import export_run, open_store, read_run_view
from vistasim.testing import FakeOpenAIServer

USER_KEY = "sk-user-secret-0123456789"
AGENT_TOKEN = "agent-token-secret-9876543210"


def user_responder(request: dict) -> str:
    said = sum(1 for m in request["messages"] if m["role"] == "assistant")
    if said < 2:
        text = ["Hi, where is my order W1002?", "My email is sam.okafor@example.com."][said]
        action = {"plan": "ask", "action": "say", "text": text, "api": None, "finish_reason": None}
    else:
        action = {"plan": "done", "action": "finish", "text": "Thanks", "api": None,
                  "finish_reason": "goal_met"}  # fmt: skip
    return json.dumps(action)


def agent_responder(request: dict) -> dict:
    turns = sum(1 for m in request["messages"] if m["role"] == "user")
    if turns == 1:
        return {"role": "assistant", "content": "What's the email on the order?"}
    return {
        "role": "assistant",
        "content": "Order W1002 shipped with UPS and arrives 2026-12-03.",
        "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "get_order", "arguments": '{"order_id": "W1002"}'}}],
    }  # fmt: skip


async def test_run_over_http_records_calls_and_leaks_no_secret(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", USER_KEY)
    monkeypatch.setenv("AGENT_TOKEN", AGENT_TOKEN)
    scenario = Scenario(
        id="where-is-my-order", persona=Persona(name="Sam"), goal="Find out where order W1002 is.",
        knowledge={"order_id": "W1002", "email": "sam.okafor@example.com"},
        criteria={"actions": [{"tool": "get_order", "args": {"order_id": "W1002"}}]},
    )  # fmt: skip
    async with (
        FakeOpenAIServer(responder=user_responder) as user_server,
        FakeOpenAIServer(responder=agent_responder) as agent_server,
    ):
        config = RunConfig.model_validate({
            "run": {"rollouts": 2},
            "user": {"policy": "llm"},
            "models": {"user": {"model": "sim-user", "base_url": user_server.base_url}},
            "prices": {"sim-user": {"input": 1.0, "output": 2.0}},
            "agent": {"kind": "openai_chat", "base_url": agent_server.base_url, "model": "bot",
                      "headers": {"Authorization": "Bearer ${AGENT_TOKEN}"}},
            "cache": {"mode": "read_write", "path": str(tmp_path / "cache.db")},
        })  # fmt: skip
        store = open_store(tmp_path / "store.db")
        result = await run(config, scenarios=[scenario], store=store)
        assert user_server.count == 6  # 3 user turns (2 messages + finish) x 2 rollouts
        rerun = await run(config, scenarios=[scenario], store=store)
        assert user_server.count == 6  # the rerun is served from the record/replay cache
        assert {h.get("authorization") for h in agent_server.headers} == {f"Bearer {AGENT_TOKEN}"}
    view = read_run_view(store, result.run_id)
    assert result.stop_reasons == {"goal_met": 2} and result.passed == 2
    calls = view.episodes[0].model_calls
    # Each user turn: the user's model call, then (for the two messages) the agent's.
    assert [c.role for c in calls] == ["user", "agent", "user", "agent", "user"]
    assert calls[0].usage.input_tokens > 0 and calls[0].cost_usd > 0
    assert calls[1].usage.input_tokens > 0 and calls[1].model == "bot"
    again = read_run_view(store, rerun.run_id)
    user_calls = [c for e in again.episodes for c in e.model_calls if c.role == "user"]
    assert all(c.cache_hit and c.cost_usd == 0 for c in user_calls)  # the agent is never cached
    assert _texts(again) == _texts(view)
    export_run(store, result.run_id, tmp_path / "run.jsonl")
    export_run(store, result.run_id, tmp_path / "run.parquet", fmt="parquet")
    store.close()
    for path in tmp_path.iterdir():
        data = path.read_bytes()
        assert USER_KEY.encode() not in data, path
        assert AGENT_TOKEN.encode() not in data, path


def _texts(view):
    return [[getattr(s.event, "text", None) for s in e.events] for e in view.episodes]

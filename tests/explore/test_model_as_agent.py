"""A tool-using agent served as an OpenAI-compatible model earns the verdicts it earns as a class.

The fake server plays each domain's rule agent as a model would (`content: null` + `tool_calls`,
then text once the results are back); vistasim runs the tool loop against the environment.
"""

import json

import pytest

from vistasim.cli import main
from vistasim.config import RunConfig
from vistasim.domains import get_domain
from vistasim.events import Judgment, Stop, ToolCall
from vistasim.explore import run, run_sync
from vistasim.metrics import cost
from vistasim.store import open_store, read_run_view
from vistasim.testing import FakeOpenAIServer, tool_calling_responder

RULE_AGENTS = {
    "shop": "vistasim.domains.shop:RuleShopAgent",
    "school": "vistasim.domains.school:RuleSchoolAgent",
}


def config_for(domain: str, agent: dict) -> RunConfig:
    return RunConfig.model_validate({
        "run": {"mode": "chat", "concurrency": 8},
        "agent": agent,
        "environment": {"target": domain},
        "cache": {"mode": "off"},
        "prices": {f"{domain}-rules": {"input": 1.0, "output": 4.0}},
    })  # fmt: skip


def _is_probe(request: dict) -> bool:
    """The preflight's questions (the agent's own calls set no output bound)."""
    return "max_tokens" in request


def outcomes(view) -> dict[str, tuple]:
    table = {}
    for episode in view.episodes:
        events = [stored.event for stored in episode.events]
        verdict = next(e.passed for e in events if isinstance(e, Judgment))
        stop = next(e.reason.value for e in events if isinstance(e, Stop))
        calls = [(e.name, json.dumps(e.args, sort_keys=True), e.error) for e in events
                 if isinstance(e, ToolCall)]  # fmt: skip
        table[episode.episode_id.split(":", 1)[1]] = (verdict, stop, calls)
    return table


@pytest.mark.parametrize("domain", ["shop", "school"])
async def test_model_served_agent_gets_the_verdicts_of_the_python_class(tmp_path, domain):
    scenarios = get_domain(domain).scenarios()
    rule_agent = get_domain(domain).rule_agent
    store = open_store(tmp_path / "v.db")
    as_class = await run(
        config_for(domain, {"kind": "python", "target": RULE_AGENTS[domain]}),
        scenarios=scenarios,
        store=store,
    )
    responder = tool_calling_responder(lambda tools: rule_agent(env=tools))
    async with FakeOpenAIServer(responder=responder) as server:
        agent = {"kind": "openai_chat", "base_url": server.base_url, "model": f"{domain}-rules",
                 "tools": "environment", "temperature": 0, "seed": 7}  # fmt: skip
        as_model = await run(config_for(domain, agent), scenarios=scenarios, store=store)
        first = next(r for r in server.requests if not _is_probe(r))
    assert first["tools"] and first["temperature"] == 0 and first["seed"] == 7
    classes = outcomes(read_run_view(store, as_class.run_id))
    models = outcomes(read_run_view(store, as_model.run_id))
    assert set(classes) == set(models) == {f"{s.id}:0" for s in scenarios}
    assert models == classes
    assert 0 < as_model.passed < as_model.episodes  # the documented flaws fail some episodes
    agent_cost = cost(read_run_view(store, as_model.run_id)).by_role["agent"]
    assert agent_cost.calls > len(scenarios) and agent_cost.input_tokens > 0
    assert agent_cost.cost_usd > 0
    store.close()


def test_agent_tokens_show_in_vistasim_metrics_cost(tmp_path, capsys):
    domain = get_domain("shop")
    scenarios = [s for s in domain.scenarios() if s.id == "shop-cancel-pending-order"]
    responder = tool_calling_responder(lambda tools: domain.rule_agent(env=tools))
    store_path = tmp_path / "v.db"
    with FakeOpenAIServer(responder=responder).in_thread() as server:
        agent = {"kind": "openai_chat", "base_url": server.base_url, "model": "shop-rules",
                 "tools": "environment"}  # fmt: skip
        result = run_sync(config_for("shop", agent), scenarios=scenarios, store=store_path)
    assert result.passed == 1
    tool_requests = [r for r in server.requests if r["messages"][-1]["role"] == "tool"]
    assert tool_requests, "the model's tool calls were run and their results sent back"
    main(["metrics", result.run_id, "--store", str(store_path), "--json"])
    report = json.loads(capsys.readouterr().out)
    agent_cost = report["cost"]["by_role"]["agent"]
    assert agent_cost["calls"] == len([r for r in server.requests if not _is_probe(r)])
    assert agent_cost["input_tokens"] > 0 and agent_cost["cost_usd"] > 0
    latency = report["cost"]["latency_s"]["agent"]
    assert 0 < latency["p50"] <= latency["p95"] <= latency["max"]
    main(["metrics", result.run_id, "--store", str(store_path)])
    table = capsys.readouterr().out
    assert "latency agent (s)" in table and f"p50 / p95 of {agent_cost['calls']} calls" in table


def _user_or_agent(request: dict) -> str | dict:
    """One fake server for both roles: JSON actions for the user, text for the agent."""
    if request.get("response_format"):
        said = sum(1 for m in request["messages"] if m["role"] == "assistant")
        if said >= 2:
            return json.dumps({"plan": "done", "action": "finish", "text": "bye",
                               "finish_reason": "goal_met"})  # fmt: skip
        text = ["Where is my order W1006?", "Thanks, and when does it arrive?"][said]
        return json.dumps({"plan": "ask", "action": "say", "text": text})
    return "It has shipped and arrives on Friday."


def test_all_episodes_and_roles_share_one_client_per_endpoint(tmp_path):
    # No environment here: its end-state checks would be a scenario error before the run.
    scenario = get_domain("shop").scenarios()[0]
    scenario = scenario.model_copy(
        update={"criteria": scenario.criteria.model_copy(update={"state": []})}
    )
    with FakeOpenAIServer(responder=_user_or_agent).in_thread() as server:
        config = RunConfig.model_validate({
            "run": {"rollouts": 8, "concurrency": 2},
            "user": {"policy": "llm"},
            "models": {"user": {"model": "u", "base_url": server.base_url, "api_key_env": ""}},
            "agent": {"kind": "openai_chat", "base_url": server.base_url, "model": "a"},
            "cache": {"mode": "off"},
        })  # fmt: skip
        result = run_sync(config, scenarios=[scenario], store=tmp_path / "v.db")
    assert result.stop_reasons == {"goal_met": 8}
    # 3 user calls and 2 agent calls per episode, and the preflight's question to the agent
    assert server.count == 8 * 5 + 1
    # Two episodes in flight: a few keep-alive connections (and the preflight checks' two),
    # not a client per episode (which opened 8 for the agent alone).
    assert server.connections <= 6


def _stop_of(store_path, run_id):
    with open_store(store_path) as store:
        episode = read_run_view(store, run_id).episodes[0]
    events = [s.event for s in episode.events]
    return next(e for e in events if isinstance(e, Stop)), events


def test_a_model_that_never_stops_calling_tools_is_an_agent_failure(tmp_path):
    scenario = next(s for s in get_domain("shop").scenarios() if s.id == "shop-status-shipped")
    call = {"id": "c1", "type": "function",
            "function": {"name": "get_order", "arguments": '{"order_id": "W1006"}'}}  # fmt: skip
    with FakeOpenAIServer(responder=lambda r: {"tool_calls": [call]}).in_thread() as server:
        agent = {"kind": "openai_chat", "base_url": server.base_url, "model": "loopy",
                 "tools": "environment", "max_tool_rounds": 3}  # fmt: skip
        result = run_sync(config_for("shop", agent), scenarios=[scenario], store=tmp_path / "v.db")
    stop, events = _stop_of(tmp_path / "v.db", result.run_id)
    assert stop.reason.value == "agent_error" and "max_tool_rounds" in stop.detail
    assert [e.name for e in events if isinstance(e, ToolCall)] == ["get_order"] * 3
    assert result.failed == 1


def test_an_empty_reply_is_an_agent_failure_not_an_empty_message(tmp_path):
    scenario = next(s for s in get_domain("shop").scenarios() if s.id == "shop-status-shipped")
    with FakeOpenAIServer(responder=lambda r: {"content": ""}).in_thread() as server:
        agent = {"kind": "openai_chat", "base_url": server.base_url, "model": "mute"}
        result = run_sync(config_for("shop", agent), scenarios=[scenario], store=tmp_path / "v.db")
    stop, events = _stop_of(tmp_path / "v.db", result.run_id)
    assert stop.reason.value == "agent_error" and "empty reply" in stop.detail
    assert not any(type(e).__name__ == "AgentReply" for e in events)


def test_environment_tools_without_an_environment_fail_before_any_episode(tmp_path):
    from vistasim.errors import ConfigError
    from vistasim.scenario import Persona, Scenario

    config = RunConfig.model_validate({
        "agent": {"kind": "openai_chat", "base_url": "http://127.0.0.1:9/v1", "model": "m",
                  "tools": "environment"},
    })  # fmt: skip
    scenario = Scenario(id="s", persona=Persona(name="A"), goal="g")
    with pytest.raises(ConfigError, match="needs an environment"):
        run_sync(config, scenarios=[scenario], store=tmp_path / "v.db", preflight=False)

"""ModelAgent: any chat model plus an environment, played as the agent under test."""

from __future__ import annotations

import json

import pytest

from vistasim.agent import AgentAdapter, ModelAgent, Reply, Turn, Utterance
from vistasim.domains.shop import ShopEnvironment
from vistasim.errors import AgentError
from vistasim.llm import ChatResponse, ModelToolCall, TokenUsage, ToolSpec
from vistasim.testing import ScriptedLLM


def wants(*calls: tuple[str, dict], text: str = "") -> ChatResponse:
    return ChatResponse(
        text=text,
        tool_calls=[
            ModelToolCall(id=f"c{i}", name=name, arguments=json.dumps(args))
            for i, (name, args) in enumerate(calls)
        ],
        usage=TokenUsage(input_tokens=50, output_tokens=5),
        finish_reason="tool_calls",
    )


def turn(text: str, history=()) -> Turn:
    return Turn(episode_id="e1", message=text, history=history)


def test_model_agent_is_an_agent_adapter_with_state():
    agent = ModelAgent(ScriptedLLM([]))
    assert isinstance(agent, AgentAdapter)
    assert agent.restore_strategy == "state"


async def test_runs_the_environment_tools_and_sends_results_back():
    env = ShopEnvironment()
    model = ScriptedLLM([wants(("get_order", {"order_id": "W1006"})), "W1006 has shipped."])
    agent = ModelAgent(model, env=env, system_prompt="You are the shop's agent.")
    reply = await agent.respond(turn("where is W1006?"))
    assert reply.text == "W1006 has shipped."
    assert reply.tool_calls[0].name == "get_order"
    assert reply.tool_calls[0].result["status"] == "shipped"
    assert {t.name for t in model.requests[0].tools} == {t.name for t in env.agent_tools()}
    sent_back = model.requests[1].messages
    assert [m.role for m in sent_back] == ["system", "user", "assistant", "tool"]
    assert sent_back[3].tool_call_id == "c0"
    assert json.loads(sent_back[3].content)["result"]["id"] == "W1006"
    assert reply.usage.input_tokens > 50


@pytest.mark.parametrize("raw", ['{"order_id": "W10', '["W1006"]', "order W1006"])
async def test_malformed_arguments_are_recorded_as_sent_and_not_run(raw):
    env = ShopEnvironment()
    bad = ChatResponse(tool_calls=[ModelToolCall(id="c0", name="cancel_order", arguments=raw)])
    model = ScriptedLLM([bad, "Sorry, let me retry."])
    reply = await ModelAgent(model, env=env).respond(turn("cancel W1006"))
    [call] = reply.tool_calls
    assert call.args == {"_raw": raw} and call.result is None
    fed_back = json.loads(model.requests[1].messages[-1].content)
    assert "JSON" in call.error and "JSON" in fed_back["error"]


async def test_earlier_tool_calls_and_results_stay_in_the_conversation():
    env = ShopEnvironment()
    model = ScriptedLLM([wants(("get_order", {"order_id": "W1006"})), "Shipped.", "Welcome."])
    agent = ModelAgent(model, env=env)
    await agent.respond(turn("where is W1006?"))
    await agent.respond(turn("thanks"))
    roles = [m.role for m in model.requests[2].messages]
    assert roles == ["user", "assistant", "tool", "assistant", "user"]


async def test_explicit_tools_are_offered_instead_of_the_environments():
    tools = [ToolSpec(name="get_order", description="Look up an order.")]
    model = ScriptedLLM(["hi"])
    await ModelAgent(model, env=ShopEnvironment(), tools=tools).respond(turn("hi"))
    assert model.requests[0].tools == tools


async def test_temperature_and_seed_go_with_every_call():
    model = ScriptedLLM([wants(("get_order", {"order_id": "W1006"})), "ok"])
    await ModelAgent(model, env=ShopEnvironment(), temperature=0.0, seed=3).respond(turn("hi"))
    assert {(r.temperature, r.seed) for r in model.requests} == {(0.0, 3)}


async def test_past_max_tool_rounds_is_an_agent_error_keeping_the_calls_made():
    model = ScriptedLLM([wants(("get_order", {"order_id": "W1006"}))] * 2)
    agent = ModelAgent(model, env=ShopEnvironment(), max_tool_rounds=2)
    with pytest.raises(AgentError, match="after 2 rounds.*max_tool_rounds") as info:
        await agent.respond(turn("hi"))
    assert [c.name for c in info.value.tool_calls] == ["get_order", "get_order"]
    assert len(model.requests) == 2


async def test_a_give_up_reply_replaces_the_error():
    model = ScriptedLLM([wants(("get_order", {"order_id": "W1006"}))])
    give_up = Reply(text="Sorry, try again.", metadata={"gave_up": True})
    agent = ModelAgent(model, env=ShopEnvironment(), max_tool_rounds=1, give_up=give_up)
    reply = await agent.respond(turn("hi"))
    assert (reply.text, reply.metadata, len(reply.tool_calls)) == (
        "Sorry, try again.",
        {"gave_up": True},
        1,
    )


async def test_a_reply_with_no_text_and_no_tools_run_is_an_empty_reply():
    agent = ModelAgent(ScriptedLLM([ChatResponse(text="  ", finish_reason="stop")]))
    with pytest.raises(AgentError, match="empty reply.*'stop'"):
        await agent.respond(turn("hi"))


async def test_text_after_tools_may_be_empty_since_the_agent_acted():
    model = ScriptedLLM([wants(("get_order", {"order_id": "W1006"})), ChatResponse(text="")])
    reply = await ModelAgent(model, env=ShopEnvironment()).respond(turn("hi"))
    assert reply.text == "" and len(reply.tool_calls) == 1


async def test_without_an_environment_tool_calls_are_the_agents_trace():
    model = ScriptedLLM([wants(("get_order", {"order_id": "W1006"}), text="It shipped.")])
    reply = await ModelAgent(model).respond(turn("hi"))
    assert reply.text == "It shipped."
    assert reply.tool_calls[0].args == {"order_id": "W1006"} and reply.tool_calls[0].result is None
    assert len(model.requests) == 1


async def test_tool_calls_only_and_no_environment_name_the_fix():
    agent = ModelAgent(ScriptedLLM([wants(("get_order", {}))]))
    with pytest.raises(AgentError, match=r"get_order.*add an \[environment\]"):
        await agent.respond(turn("hi"))


async def test_a_fresh_agent_catches_up_on_the_text_history():
    model = ScriptedLLM(["Sure."])
    history = (Utterance(role="user", text="hi"), Utterance(role="agent", text="Hello!"))
    await ModelAgent(model, system_prompt="Be brief.").respond(turn("help", history=history))
    sent = [(m.role, m.content) for m in model.requests[0].messages]
    assert sent == [
        ("system", "Be brief."),
        ("user", "hi"),
        ("assistant", "Hello!"),
        ("user", "help"),
    ]


async def test_snapshot_and_restore_roll_the_conversation_back():
    model = ScriptedLLM(["one", "two", "two again"])
    agent = ModelAgent(model)
    await agent.respond(turn("first"))
    saved = agent.snapshot()
    await agent.respond(turn("second"))
    agent.restore(saved)
    await agent.respond(turn("second"))
    assert model.requests[2].messages == model.requests[1].messages
    assert json.loads(json.dumps(saved)) == saved

"""The shop LLM agent: scripted tool calls are executed and their results fed back."""

from __future__ import annotations

import json

from vistasim.agent import Turn
from vistasim.domains import get_domain
from vistasim.domains.shop import LLMShopAgent, ShopEnvironment
from vistasim.llm import ChatResponse, ModelToolCall, TokenUsage
from vistasim.testing import ScriptedLLM


def wants(*calls: tuple[str, dict]) -> ChatResponse:
    return ChatResponse(
        tool_calls=[
            ModelToolCall(id=f"c{i}", name=name, arguments=json.dumps(args))
            for i, (name, args) in enumerate(calls)
        ],
        usage=TokenUsage(input_tokens=100, output_tokens=10),
    )


def turn(text: str) -> Turn:
    return Turn(episode_id="e1", message=text)


async def test_executes_tool_calls_and_feeds_results_back():
    env = ShopEnvironment()
    model = ScriptedLLM(
        [
            wants(("get_order", {"order_id": "W1003"})),
            wants(("cancel_order", {"order_id": "W1003", "reason": "ordered by mistake"})),
            "Done — order W1003 has been cancelled and refunded.",
        ]
    )
    agent = LLMShopAgent(env, model)
    reply = await agent.respond(turn("Cancel W1003 please, yes I'm sure."))
    assert reply.text == "Done — order W1003 has been cancelled and refunded."
    assert [c.name for c in reply.tool_calls] == ["get_order", "cancel_order"]
    assert reply.tool_calls[1].result["refund_cents"] == 42697
    assert env.select("orders", {"id": "W1003"})[0]["status"] == "cancelled"
    fed_back = model.requests[1].messages[-1]
    assert fed_back.role == "tool" and fed_back.tool_call_id == "c0"
    assert json.loads(fed_back.content)["result"]["id"] == "W1003"


async def test_sends_the_policy_as_system_prompt_and_the_tools():
    model = ScriptedLLM(["Hello!"])
    await LLMShopAgent(ShopEnvironment(), model).respond(turn("hi"))
    request = model.requests[0]
    assert request.messages[0].role == "system"
    assert "30 days" in request.messages[0].content
    assert "cancel_order" in {t.name for t in request.tools}


async def test_policy_errors_are_fed_back_as_tool_errors():
    env = ShopEnvironment()
    model = ScriptedLLM([wants(("cancel_order", {"order_id": "W1006", "reason": "x"})), "Sorry."])
    reply = await LLMShopAgent(env, model).respond(turn("cancel W1006"))
    assert "shipped" in reply.tool_calls[0].error
    assert "shipped" in json.loads(model.requests[1].messages[-1].content)["error"]
    assert env.select("orders", {"id": "W1006"})[0]["status"] == "shipped"


async def test_malformed_arguments_are_reported_to_the_model_not_run():
    env = ShopEnvironment()
    bad = ChatResponse(tool_calls=[ModelToolCall(id="x", name="cancel_order", arguments="{oops")])
    model = ScriptedLLM([bad, "Let me try again."])
    reply = await LLMShopAgent(env, model).respond(turn("cancel W1003"))
    assert "not valid JSON" in reply.tool_calls[0].error
    assert env.select("orders", {"id": "W1003"})[0]["status"] == "pending"


async def test_gives_up_after_the_tool_round_limit():
    model = ScriptedLLM([wants(("get_order", {"order_id": "W1003"}))] * 3)
    agent = LLMShopAgent(ShopEnvironment(), model, max_tool_rounds=3)
    reply = await agent.respond(turn("status of W1003?"))
    assert len(reply.tool_calls) == 3 and reply.metadata == {"gave_up": "max_tool_rounds"}
    assert "couldn't finish" in reply.text


async def test_sums_token_usage_over_the_turn():
    model = ScriptedLLM([wants(("get_order", {"order_id": "W1003"})), wants(), "ok"])
    reply = await LLMShopAgent(ShopEnvironment(), model).respond(turn("hi"))
    assert reply.usage.input_tokens >= 200


async def test_keeps_the_conversation_and_restores_a_snapshot():
    model = ScriptedLLM(["first", "second", "second again"])
    agent = LLMShopAgent(ShopEnvironment(), model)
    await agent.respond(turn("one"))
    saved = agent.snapshot()
    await agent.respond(turn("two"))
    agent.restore(saved)
    await agent.respond(turn("two"))
    assert [m.content for m in model.requests[2].messages[1:]] == ["one", "first", "two"]


def test_domain_builds_the_llm_agent():
    domain = get_domain("shop")
    agent = domain.make_llm_agent(domain.make_environment(), ScriptedLLM([]))
    assert isinstance(agent, LLMShopAgent)


def scripted_responder(request: dict) -> str | dict:
    """First ask for the order, then answer with what the tool returned."""
    last = request["messages"][-1]
    if last["role"] != "tool":
        call = {
            "id": "t1",
            "type": "function",
            "function": {"name": "get_order", "arguments": '{"order_id": "W1006"}'},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    status = json.loads(last["content"])["result"]["status"]
    return f"Order W1006 is {status}."


async def test_scripted_conversation_through_the_fake_openai_server():
    from vistasim.config import ModelSpec
    from vistasim.llm._openai import OpenAIChatModel
    from vistasim.testing import FakeOpenAIServer

    async with FakeOpenAIServer(responder=scripted_responder) as srv:
        model = OpenAIChatModel(ModelSpec(model="m", base_url=srv.base_url), environ={})
        async with model:
            reply = await LLMShopAgent(ShopEnvironment(), model).respond(turn("where is W1006?"))
    assert reply.text == "Order W1006 is shipped."
    assert reply.tool_calls[0].name == "get_order" and reply.tool_calls[0].error is None
    assert srv.count == 2
    assert "get_order" in {t["function"]["name"] for t in srv.requests[0]["tools"]}


async def test_model_failure_is_an_agent_error():
    import pytest

    from vistasim.errors import AgentError
    from vistasim.llm import ModelCallFailed

    model = ScriptedLLM([ModelCallFailed("overloaded", retryable=True, status=529)])
    with pytest.raises(AgentError, match="overloaded"):
        await LLMShopAgent(ShopEnvironment(), model).respond(turn("hi"))

"""The LLM agent runs the model's tool calls, feeds results back and bounds its loop."""

from __future__ import annotations

import json

import pytest

from vistasim.agent import AgentAdapter, Turn
from vistasim.domains.school import LLMSchoolAgent, SchoolEnvironment
from vistasim.errors import AgentError
from vistasim.llm import ChatResponse, ModelCallFailed, ModelToolCall
from vistasim.testing import ScriptedLLM


def calls(*items: tuple[str, dict | str]) -> ChatResponse:
    return ChatResponse(
        tool_calls=[
            ModelToolCall(
                id=f"c{i}", name=name, arguments=args if isinstance(args, str) else json.dumps(args)
            )
            for i, (name, args) in enumerate(items)
        ]
    )


def turn(text: str) -> Turn:
    return Turn(episode_id="e", message=text)


async def test_scripted_conversation_runs_tools_and_feeds_results_back():
    env = SchoolEnvironment()
    model = ScriptedLLM(
        [
            calls(
                ("verify_student", {"student_id": "S1001", "email": "maya.chen@uni.example.edu"})
            ),
            "Thanks Maya. I can enroll you in CS201-B. Shall I proceed (yes/no)?",
            calls(("enroll_student", {"student_id": "S1001", "section_id": "CS201-B"})),
            "Done — you're enrolled in CS201-B.",
        ]
    )
    agent = LLMSchoolAgent(env, model)
    first = await agent.respond(turn("Enroll me in CS201. S1001, maya.chen@uni.example.edu"))
    second = await agent.respond(turn("yes"))
    assert first.text.endswith("(yes/no)?")
    assert [c.name for c in first.tool_calls] == ["verify_student"]
    assert first.tool_calls[0].result["verified"] is True
    assert second.text == "Done — you're enrolled in CS201-B."
    assert env.select("enrollments", {"student_id": "S1001", "section_id": "CS201-B"})
    fed_back = model.requests[3].messages[-1]
    assert fed_back.role == "tool" and fed_back.tool_call_id == "c0"
    assert json.loads(fed_back.content)["result"]["enrolled"] == "CS201-B"


async def test_request_carries_policy_and_agent_tools():
    model = ScriptedLLM(["Hello!"])
    agent = LLMSchoolAgent(SchoolEnvironment(), model)
    await agent.respond(turn("hi"))
    request = model.requests[0]
    assert request.messages[0].role == "system"
    assert "3 days before" in request.messages[0].content
    names = {t.name for t in request.tools}
    assert "reschedule_student_exam" in names and "pay_fee" not in names


async def test_tool_error_is_fed_back_and_recorded():
    env = SchoolEnvironment()
    model = ScriptedLLM(
        [calls(("enroll_student", {"student_id": "S1006", "section_id": "CS201-B"})), "Sorry."]
    )
    reply = await LLMSchoolAgent(env, model).respond(turn("enroll me in CS201"))
    assert "requires CS101" in reply.tool_calls[0].error
    assert "requires CS101" in json.loads(model.requests[1].messages[-1].content)["error"]


async def test_malformed_arguments_change_nothing():
    env = SchoolEnvironment()
    before = env.snapshot()
    model = ScriptedLLM([calls(("drop_course", "{not json")), "Let me try again."])
    reply = await LLMSchoolAgent(env, model).respond(turn("drop HIST110"))
    assert "not valid JSON" in reply.tool_calls[0].error
    assert env.snapshot() == before


async def test_unknown_tool_is_an_error_result():
    model = ScriptedLLM([calls(("delete_database", {})), "Oops."])
    reply = await LLMSchoolAgent(SchoolEnvironment(), model).respond(turn("hi"))
    assert "unknown tool" in reply.tool_calls[0].error


async def test_tool_rounds_are_bounded():
    loop = calls(("get_schedule", {"student_id": "S1001"}))
    model = ScriptedLLM([loop] * 10)
    reply = await LLMSchoolAgent(SchoolEnvironment(), model, max_tool_rounds=3).respond(turn("x"))
    assert len(model.requests) == 3
    assert reply.metadata["stopped"] == "max_tool_rounds"
    assert len(reply.tool_calls) == 3


async def test_usage_is_summed_over_rounds():
    model = ScriptedLLM([calls(("list_courses", {"query": "CS201"})), "CS201-B has seats."])
    reply = await LLMSchoolAgent(SchoolEnvironment(), model).respond(turn("seats in CS201?"))
    assert reply.usage is not None and reply.usage.output_tokens >= 1


async def test_model_failure_is_an_agent_error():
    model = ScriptedLLM([ModelCallFailed("overloaded", retryable=True, status=529)])
    with pytest.raises(AgentError, match="overloaded"):
        await LLMSchoolAgent(SchoolEnvironment(), model).respond(turn("hi"))


async def test_snapshot_restore_roundtrips_messages():
    model = ScriptedLLM(["one", "two", "two again"])
    agent = LLMSchoolAgent(SchoolEnvironment(), model)
    await agent.respond(turn("first"))
    saved = agent.snapshot()
    await agent.respond(turn("second"))
    agent.restore(saved)
    await agent.respond(turn("second"))
    assert model.requests[2].messages == model.requests[1].messages
    assert json.dumps(saved)


def test_llm_agent_is_an_agent_adapter():
    agent = LLMSchoolAgent(SchoolEnvironment(), ScriptedLLM([]))
    assert isinstance(agent, AgentAdapter)


def _fake_agent_model(request: dict) -> str | dict:
    """Play the model on the fake server: verify, then answer from the tool result."""
    last = request["messages"][-1]
    if last["role"] == "tool":
        return "You're verified, " + json.loads(last["content"])["result"]["name"] + "."
    arguments = json.dumps({"student_id": "S1001", "email": "maya.chen@uni.example.edu"})
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "verify_student", "arguments": arguments},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}


async def test_scripted_conversation_through_fake_openai_server():
    from vistasim.config import ModelSpec
    from vistasim.llm import OpenAIChatModel
    from vistasim.testing import FakeOpenAIServer

    async with FakeOpenAIServer(responder=_fake_agent_model) as srv:
        model = OpenAIChatModel(ModelSpec(model="fake", base_url=srv.base_url), environ={})
        async with model:
            agent = LLMSchoolAgent(SchoolEnvironment(), model)
            reply = await agent.respond(turn("I'm S1001, maya.chen@uni.example.edu"))
    assert reply.text == "You're verified, Maya Chen."
    assert reply.tool_calls[0].name == "verify_student"
    assert reply.tool_calls[0].result["verified"] is True
    assert srv.requests[1]["messages"][-1]["role"] == "tool"
    assert {t["function"]["name"] for t in srv.requests[0]["tools"]} >= {"enroll_student"}

import json
import re

import pytest

from vistasim.agent import Utterance
from vistasim.env import ToolOutcome
from vistasim.errors import ConfigError, SimulatorError
from vistasim.llm import ChatRequest, ToolSpec
from vistasim.testing import FunctionLLM, ScriptedLLM
from vistasim.user import (
    CallApi,
    Finish,
    InvalidActionError,
    LLMUserPolicy,
    Say,
    UserPolicy,
    UserView,
    prompt_hash,
)

from ._driver import make_scenario

TOOLS = (
    ToolSpec(
        name="reschedule_exam",
        description="Move an exam to another date.",
        parameters={
            "type": "object",
            "properties": {"course": {"type": "string"}, "date": {"type": "string"}},
            "required": ["course", "date"],
        },
    ),
)


def reply(action="say", text="Hi, I want to return my blender.", plan="Ask for a return.", **extra):
    return json.dumps(
        {"plan": plan, "action": action, "text": text, "api": None, "finish_reason": None, **extra}
    )


def view_of(*lines, scenario=None, **kwargs):
    transcript = tuple(Utterance(role=role, text=text) for role, text in lines)
    return UserView(
        scenario=scenario or make_scenario(),
        transcript=transcript,
        turn=sum(1 for r, _ in lines if r == "user"),
        max_turns=10,
        **kwargs,
    )


async def act(policy, view, state=None):
    state = state if state is not None else policy.initial_state(view.scenario, seed=5)
    return await policy.next_action(view, state)


def test_llm_policy_satisfies_the_user_policy_protocol():
    policy = LLMUserPolicy(ScriptedLLM([]))
    assert isinstance(policy, UserPolicy)
    assert policy.name == "llm"


async def test_valid_turn_is_exactly_one_model_call():
    llm = ScriptedLLM([reply()])
    action, state = await act(LLMUserPolicy(llm), view_of())
    assert action == Say(text="Hi, I want to return my blender.")
    assert len(llm.requests) == 1
    json.dumps(state)


async def test_request_asks_for_json_with_temperature_and_seed():
    llm = ScriptedLLM([reply()])
    await act(LLMUserPolicy(llm, temperature=0.3, seed=11), view_of())
    request = llm.requests[0]
    assert request.response_format == {"type": "json_object"}
    assert (request.temperature, request.seed) == (0.3, 11)


async def test_episode_seed_is_sent_when_no_seed_is_configured():
    llm = ScriptedLLM([reply()])
    await act(LLMUserPolicy(llm), view_of())
    assert llm.requests[0].seed == 5


LEAK = "the glass jar arrived cracked"
INVALID = {
    "malformed json": ("{not json", "not valid JSON"),
    "schema error": (reply(action="shout"), "action"),
    "unknown api": (
        reply(action="call_api", text="", api={"name": "teleport", "args": {}}),
        "unknown API 'teleport'",
    ),
    "missing api args": (
        reply(action="call_api", text="", api={"name": "reschedule_exam", "args": {"course": "X"}}),
        "needs arguments ['date']",
    ),
    "empty message": (reply(text="   "), "empty message"),
    "repeated message": (reply(text="What's my order status?"), "repeats your previous message"),
    "role swap": (reply(text="Hello! How can I help you today?"), "role swap"),
    "hidden leak": (reply(text=f"My blender is broken, {LEAK}."), "hidden fact 'defect'"),
    "finish without reason": (reply(action="finish", text="bye"), "finish_reason"),
}


@pytest.mark.parametrize("case", INVALID)
async def test_invalid_reply_is_repaired_with_the_error_in_the_reprompt(case):
    bad, error = INVALID[case]
    llm = ScriptedLLM([bad, reply(text="I'd like to return my blender, please.")])
    view = view_of(("user", "What's my order status?"), ("agent", "Let me look."), api_tools=TOOLS)
    action, _ = await act(LLMUserPolicy(llm), view)
    assert action == Say(text="I'd like to return my blender, please.")
    assert len(llm.requests) == 2
    repair = llm.requests[1].messages
    assert repair[-2].role == "assistant" and repair[-2].content == bad
    assert repair[-1].role == "user" and error in repair[-1].content


async def test_exhausted_repairs_raise_simulator_error_with_the_last_error():
    llm = ScriptedLLM(["nope", "nope", reply(text="How may I assist you?")])
    with pytest.raises(SimulatorError, match="role swap") as info:
        await act(LLMUserPolicy(llm, max_repairs=2), view_of())
    assert len(llm.requests) == 3
    assert not isinstance(info.value, InvalidActionError)


async def test_zero_repairs_allows_a_single_call():
    llm = ScriptedLLM(["nope"])
    with pytest.raises(SimulatorError, match="not valid JSON"):
        await act(LLMUserPolicy(llm, max_repairs=0), view_of())
    assert len(llm.requests) == 1


def test_negative_max_repairs_is_a_config_error():
    with pytest.raises(ConfigError, match="max_repairs"):
        LLMUserPolicy(ScriptedLLM([]), max_repairs=-1)


async def test_system_prompt_carries_persona_goal_knowledge_and_reveal_only_hidden():
    llm = ScriptedLLM([reply()])
    await act(LLMUserPolicy(llm), view_of())
    system = llm.requests[0].messages[0]
    assert system.role == "system"
    text = system.content
    for expected in (
        "Dana Reyes",
        "34, nurse",
        "Return the blender from order W1007",
        "order_id: W1007",
        "email: dana.reyes@example.com",
        "verbosity medium",
    ):
        assert expected in text
    reveal_only = text.split("# Reveal only when the agent asks for them", 1)[1]
    assert LEAK in reveal_only.split("# Rules", 1)[0]
    assert LEAK not in text.split("# Reveal only when the agent asks for them", 1)[0]
    assert "never the assistant" in text


async def test_conversation_is_sent_with_roles_flipped_then_the_turn_instruction():
    llm = ScriptedLLM([reply(text="It's W1007.")])
    view = view_of(("user", "I want to return a blender."), ("agent", "What's the order id?"))
    await act(LLMUserPolicy(llm), view)
    messages = llm.requests[0].messages
    assert [(m.role, m.content) for m in messages[1:3]] == [
        ("assistant", "I want to return a blender."),
        ("user", "What's the order id?"),
    ]
    assert messages[3].role == "user" and '"action"' in messages[3].content


async def test_plan_carries_across_turns():
    llm = ScriptedLLM(
        [
            reply(plan="First get the return started, then confirm the refund."),
            reply(text="It's W1007.", plan="Give the order id."),
        ]
    )
    policy = LLMUserPolicy(llm)
    _, state = await act(policy, view_of())
    view = view_of(("user", "Hi, I want to return my blender."), ("agent", "Order number?"))
    _, state = await policy.next_action(view, state)
    assert "First get the return started, then confirm the refund." in (
        llm.requests[1].messages[-1].content
    )
    assert state["plan"] == "Give the order id."


async def test_hidden_fact_may_be_told_once_the_agent_asked_for_it():
    llm = ScriptedLLM([reply(text=f"Well, {LEAK}.")])
    view = view_of(("user", "I want to return a blender."), ("agent", "What's wrong with it?"))
    action, _ = await act(LLMUserPolicy(llm), view)
    assert action == Say(text=f"Well, {LEAK}.")
    assert len(llm.requests) == 1


async def test_paraphrased_hidden_fact_counts_as_a_leak():
    llm = ScriptedLLM([reply(text="The jar was cracked when it arrived."), reply()])
    await act(LLMUserPolicy(llm), view_of())
    assert len(llm.requests) == 2


async def test_api_call_is_returned_and_its_result_shown_next_turn():
    call = reply(
        action="call_api",
        text="",
        api={"name": "reschedule_exam", "args": {"course": "BIO101", "date": "2026-07-01"}},
    )
    llm = ScriptedLLM([call, reply(action="finish", text="Done.", finish_reason="goal_met")])
    policy = LLMUserPolicy(llm)
    action, state = await act(policy, view_of(api_tools=TOOLS))
    assert action == CallApi(
        name="reschedule_exam", args={"course": "BIO101", "date": "2026-07-01"}
    )
    assert "reschedule_exam" in llm.requests[0].messages[-1].content  # APIs are described
    view = view_of(api_tools=TOOLS, last_api_result=ToolOutcome(result={"new_slot": "July 1"}))
    action, state = await policy.next_action(view, state)
    assert action == Finish(reason="goal_met", text="Done.")
    assert "July 1" in llm.requests[1].messages[-1].content
    assert state["api_log"][0]["name"] == "reschedule_exam"


async def test_api_call_without_apis_in_the_mode_is_repaired():
    call = reply(action="call_api", text="", api={"name": "reschedule_exam", "args": {}})
    llm = ScriptedLLM([call, reply()])
    await act(LLMUserPolicy(llm), view_of())
    assert "no user-side APIs" in llm.requests[1].messages[-1].content


async def test_runner_rejection_is_shown_in_the_turn_prompt():
    llm = ScriptedLLM([reply()])
    await act(LLMUserPolicy(llm), view_of(error="element 'buy-button' does not exist"))
    assert "element 'buy-button' does not exist" in llm.requests[0].messages[-1].content


async def test_json_in_a_code_fence_is_accepted():
    llm = ScriptedLLM([f"```json\n{reply()}\n```"])
    action, _ = await act(LLMUserPolicy(llm), view_of())
    assert isinstance(action, Say)
    assert len(llm.requests) == 1


async def test_same_request_for_the_same_view_and_state():
    seen: list[ChatRequest] = []
    llm = FunctionLLM(lambda request: seen.append(request) or reply())
    policy = LLMUserPolicy(llm, temperature=0)
    state = policy.initial_state(make_scenario(), seed=1)
    view = view_of(("user", "hi"), ("agent", "Hello, what do you need?"))
    await policy.next_action(view, state)
    await policy.next_action(view, state)
    assert seen[0] == seen[1]


def test_prompt_hash_is_16_hex_and_stable():
    assert re.fullmatch(r"[0-9a-f]{16}", prompt_hash())
    assert prompt_hash() == prompt_hash()

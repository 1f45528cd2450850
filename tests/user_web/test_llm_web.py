import json

import pytest

from vistasim.agent import Utterance
from vistasim.browser import (
    Back,
    Click,
    ElementView,
    Navigate,
    PageView,
    Scroll,
    SelectOption,
    TypeText,
    WidgetMessage,
)
from vistasim.errors import SimulatorError
from vistasim.testing import ScriptedLLM
from vistasim.user import InvalidActionError, LLMUserPolicy, Say, UserView

from ._site import cancel_scenario

PAGE = PageView(
    url="http://127.0.0.1:8765/orders/W1007",
    title="Order W1007",
    elements=(
        ElementView(id="return-item-BLEND-1", role="checkbox", label="Return Aurora Blender"),
        ElementView(id="return-reason", role="textbox", label="Reason"),
        ElementView(
            id="return-refund-to",
            role="combobox",
            label="Refund to",
            value="Original payment",
            options=("Original payment", "Store gift card"),
        ),
        ElementView(id="return-submit", role="button", label="Return selected items"),
        ElementView(id="cancel-order", role="button", label="Cancel order", enabled=False),
        ElementView(id="chat-input", role="textbox", label="Message"),
    ),
    text="Order W1007\nStatus: delivered",
    chat=(WidgetMessage(role="agent", text="Hi! How can I help?"),),
)


def web(action, plan="Do it on the site.", **fields):
    return json.dumps({"plan": plan, "action": action, **fields})


def say(text="I want to return my blender."):
    return json.dumps({"plan": "Ask the agent.", "action": "say", "text": text})


def view_of(page=PAGE, **kwargs):
    return UserView(
        scenario=cancel_scenario(),
        transcript=(Utterance(role="agent", text="Hi! How can I help?"),),
        turn=1,
        max_turns=10,
        page=page,
        **kwargs,
    )


async def act(policy, view, state=None):
    state = state if state is not None else policy.initial_state(view.scenario, seed=2)
    return await policy.next_action(view, state)


VALID = {
    "click": (web("click", target="return-item-BLEND-1"), Click(target="return-item-BLEND-1")),
    "type": (
        web("type", target="return-reason", text="It arrived cracked", enter=True),
        TypeText(target="return-reason", text="It arrived cracked", enter=True),
    ),
    "select": (
        web("select", target="return-refund-to", value="Store gift card"),
        SelectOption(target="return-refund-to", value="Store gift card"),
    ),
    "scroll": (web("scroll", direction="up"), Scroll(direction="up")),
    "navigate relative": (
        web("navigate", url="/orders"),
        Navigate(url="http://127.0.0.1:8765/orders"),
    ),
    "back": (web("back"), Back()),
}


@pytest.mark.parametrize("case", VALID)
async def test_llm_user_returns_each_web_action_kind_in_one_call(case):
    text, expected = VALID[case]
    llm = ScriptedLLM([text])
    action, state = await act(LLMUserPolicy(llm), view_of())
    assert action == expected
    assert len(llm.requests) == 1
    json.dumps(state)


async def test_prompt_shows_the_page_and_the_web_action_shapes():
    llm = ScriptedLLM([say()])
    await act(LLMUserPolicy(llm), view_of())
    turn = llm.requests[0].messages[-1].content
    assert PAGE.render() in turn
    for kind in ("click", "type", "select", "scroll", "navigate", "back"):
        assert f'"action": "{kind}"' in turn
    assert "chat widget" in turn


async def test_prompt_has_no_web_part_without_a_page():
    llm = ScriptedLLM([say()])
    await act(LLMUserPolicy(llm), view_of(page=None))
    turn = llm.requests[0].messages[-1].content
    assert '"action": "click"' not in turn and "Elements:" not in turn


async def test_failed_web_action_is_shown_in_the_next_turn_prompt():
    llm = ScriptedLLM([say()])
    await act(LLMUserPolicy(llm), view_of(last_web_error="no element 'buy' on this page"))
    assert "no element 'buy' on this page" in llm.requests[0].messages[-1].content


INVALID = {
    "unknown target": (
        web("click", target="refund-button"),
        "valid ids: ['return-item-BLEND-1', 'return-reason'",
    ),
    "label instead of id": (
        web("click", target="Return selected items"),
        "use its id 'return-submit'",
    ),
    "css selector": (web("click", target="#return-submit"), "do not invent elements"),
    "missing target": (web("click"), 'needs "target"'),
    "typing into a button": (
        web("type", target="return-submit", text="hi"),
        "not a text field",
    ),
    "select on a text field": (
        web("select", target="return-reason", value="x"),
        "no options",
    ),
    "unknown option": (
        web("select", target="return-refund-to", value="cash"),
        "options: ['Original payment', 'Store gift card']",
    ),
    "disabled element": (web("click", target="cancel-order"), "is disabled"),
    "wrong schema": (web("scroll", direction="sideways"), "direction"),
    "unknown action": (web("hover", target="return-submit"), "action"),
    "navigate without url": (web("navigate"), '"url"'),
}


@pytest.mark.parametrize("case", INVALID)
async def test_invalid_web_action_is_repaired_with_the_error_shown(case):
    bad, error = INVALID[case]
    llm = ScriptedLLM([bad, web("click", target="return-submit")])
    action, _ = await act(LLMUserPolicy(llm), view_of())
    assert action == Click(target="return-submit")
    assert len(llm.requests) == 2
    repair = llm.requests[1].messages
    assert repair[-2].content == bad
    assert error in repair[-1].content


async def test_repeated_identical_web_action_is_repaired():
    click = web("click", target="return-item-BLEND-1")
    llm = ScriptedLLM([click, click, web("type", target="return-reason", text="Cracked jar")])
    policy = LLMUserPolicy(llm)
    _, state = await act(policy, view_of())
    action, state = await policy.next_action(view_of(), state)
    assert action == TypeText(target="return-reason", text="Cracked jar")
    assert "repeats your previous web action" in llm.requests[2].messages[-1].content
    assert state["last_web"]["target"] == "return-reason"


async def test_same_web_action_after_a_chat_message_is_not_a_repeat():
    click = web("click", target="return-item-BLEND-1")
    llm = ScriptedLLM([click, say(), click])
    policy = LLMUserPolicy(llm)
    _, state = await act(policy, view_of())
    _, state = await policy.next_action(view_of(), state)
    action, _ = await policy.next_action(view_of(), state)
    assert action == Click(target="return-item-BLEND-1")
    assert len(llm.requests) == 3


async def test_scrolling_twice_is_allowed():
    llm = ScriptedLLM([web("scroll"), web("scroll")])
    policy = LLMUserPolicy(llm)
    _, state = await act(policy, view_of())
    action, _ = await policy.next_action(view_of(), state)
    assert action == Scroll()
    assert len(llm.requests) == 2


async def test_web_action_without_a_page_is_repaired():
    llm = ScriptedLLM([web("click", target="return-submit"), say()])
    action, _ = await act(LLMUserPolicy(llm), view_of(page=None))
    assert action == Say(text="I want to return my blender.")
    assert "no web page in this mode" in llm.requests[1].messages[-1].content


async def test_invalid_web_actions_past_max_repairs_raise_simulator_error():
    bad = web("click", target="nowhere")
    llm = ScriptedLLM([bad, bad])
    with pytest.raises(SimulatorError, match="unknown target 'nowhere'") as info:
        await act(LLMUserPolicy(llm, max_repairs=1), view_of())
    assert len(llm.requests) == 2
    assert not isinstance(info.value, InvalidActionError)


async def test_one_model_call_per_valid_step_over_an_episode():
    script = [
        web("click", target="return-item-BLEND-1"),
        web("type", target="return-reason", text="Cracked"),
        web("click", target="return-submit"),
        say("Can you confirm the return went through?"),
    ]
    llm = ScriptedLLM(script)
    policy = LLMUserPolicy(llm)
    state = policy.initial_state(cancel_scenario(), seed=1)
    for _ in script:
        _, state = await policy.next_action(view_of(), state)
    assert len(llm.requests) == len(script)

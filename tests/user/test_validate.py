import pytest

from vistasim.agent import Utterance
from vistasim.llm import ToolSpec
from vistasim.user import (
    Finish,
    InvalidActionError,
    UserView,
    check_api_call,
    check_user_text,
    validate_reply,
)

from ._driver import make_scenario


def view(*lines):
    transcript = tuple(Utterance(role=r, text=t) for r, t in lines)
    return UserView(scenario=make_scenario(), transcript=transcript, turn=0, max_turns=5)


def test_check_user_text_accepts_an_ordinary_customer_message():
    check_user_text("My order number is W1007.", view(("agent", "Order number?")))


def test_repeat_check_ignores_case_and_spacing():
    with pytest.raises(InvalidActionError, match="repeats"):
        check_user_text("it's  W1007", view(("user", "It's W1007."), ("agent", "Pardon?")))


def test_words_of_the_goal_do_not_count_as_a_hidden_leak():
    # "blender" and "arrived" alone do not give away "the glass jar arrived cracked".
    check_user_text("The blender arrived yesterday.", view())


def test_api_argument_of_the_wrong_type_is_rejected():
    tool = ToolSpec(name="pay", parameters={"properties": {"amount": {"type": "number"}}})
    with pytest.raises(InvalidActionError, match="must be a number"):
        check_api_call("pay", {"amount": "ten"}, [tool])


def test_unknown_argument_is_rejected_when_the_schema_forbids_extras():
    tool = ToolSpec(
        name="pay",
        parameters={"properties": {"amount": {}}, "additionalProperties": False},
    )
    with pytest.raises(InvalidActionError, match="no arguments \\['tip'\\]"):
        check_api_call("pay", {"amount": 3, "tip": 1}, [tool])


def test_finish_reply_becomes_a_finish_action():
    text = '{"plan": "done", "action": "finish", "text": "Thanks!", "finish_reason": "goal_met"}'
    validated = validate_reply(text, view())
    assert validated.action == Finish(reason="goal_met", text="Thanks!")
    assert validated.plan == "done"

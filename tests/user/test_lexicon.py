"""How the agenda user reads single agent messages (the lexicon at work, through the policy)."""

import pytest

from vistasim.user import AgendaPolicy, Finish, Say

from ._driver import converse, make_scenario, scripted


async def reply_to(message: str, **scenario: object):
    episode = await converse(AgendaPolicy(), make_scenario(**scenario), scripted(message), seed=0)
    return episode.actions[1]


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        ("Hi! I can help with orders. What's your order number?", "W1007"),
        ("Thanks. For verification, what's the email on the order?", "dana.reyes@example.com"),
        (
            "Order W1007 has 2 items: blender, toaster. Which item would you like to return?",
            "blender",
        ),
        ("Please provide the e-mail address on the account.", "dana.reyes@example.com"),
    ],
)
async def test_asked_fact_is_answered(message, fact):
    action = await reply_to(message)
    assert isinstance(action, Say) and fact in action.text


async def test_phrase_inside_a_longer_phrase_of_another_slot_does_not_count():
    # "address" alone would ask for a shipping address the user does not hold.
    action = await reply_to("What is your email address?")
    assert "dana.reyes@example.com" in action.text
    assert "don't have" not in action.text


@pytest.mark.parametrize(
    "message",
    [
        "I'll cancel order W1007. Shall I proceed (yes/no)?",
        "Would you like me to start the return?",
        "The refund goes to your card. Is that correct?",
    ],
)
async def test_confirmation_request_is_approved(message):
    action = await reply_to(message)
    assert isinstance(action, Say) and action.text.lower().startswith("yes")


@pytest.mark.parametrize(
    "message",
    [
        "Done — order W1007 has been cancelled.",
        "Your return has been submitted; you will not be charged a fee.",
    ],
)
async def test_done_report_completes_the_goal(message):
    assert isinstance(await reply_to(message), Finish)


@pytest.mark.parametrize(
    "message",
    [
        "Sorry, the refund cannot be processed yet.",
        "The order has not been updated.",
        "Has the refund been processed?",
        "Sorry, I didn't understand. Could you rephrase?",
    ],
)
async def test_refusals_and_questions_are_not_taken_as_done(message):
    action = await reply_to(message)
    assert isinstance(action, Say) and not action.text.lower().startswith("yes")


async def test_wrong_email_in_a_confirmation_is_corrected():
    action = await reply_to("I'll email the label to dana.r@example.com. Shall I proceed?")
    assert "dana.reyes@example.com" in action.text
    assert not action.text.lower().startswith("yes")


async def test_other_ids_next_to_ours_are_not_corrected():
    action = await reply_to("Order W1007 is linked to W1008. Shall I proceed?")
    assert action.text.lower().startswith("yes")

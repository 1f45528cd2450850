"""The agenda user on a domain it was not written for (the bike-rental desk of benchmarks/):
it derives its lexicon from the tool schemas, recognises informational answers and reasoned
refusals, and objects to proposals that mismatch its goal in numbers with units."""

import pytest
from benchmarks.bikes import make_environment

from vistasim.scenario import load_scenarios
from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, scripted

SCENARIOS = {s.id: s for s in load_scenarios("benchmarks/bikes/scenarios.yaml")}
TOOLS = tuple(make_environment().agent_tools())
VERIFY = "Happy to help. First I need to find your account: what's the email you signed up with?"


async def play(scenario_id, *replies, **kw):
    return await converse(
        AgendaPolicy(), SCENARIOS[scenario_id], scripted(*replies), agent_tools=TOOLS, **kw
    )


async def test_an_informational_answer_ends_the_request():
    ep = await play(
        "bikes-due-time-r204", VERIFY, "R204 is due back at 18:00 today. Anything else?"
    )
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"
    assert len(ep.said) == 2


async def test_a_reply_that_does_not_answer_is_asked_again():
    ep = await play("bikes-due-time-r204", VERIFY, "Sure, I can help with rentals.", max_turns=4)
    assert not isinstance(ep.last, Finish) or ep.last.reason != "goal_met"


async def test_a_reasoned_refusal_of_a_change_stops_with_the_refusal_as_the_reason():
    # The goal ("Extend R209 by one day") allows nothing else: the user neither repeats the
    # request nor claims its goal was met; it stops, naming the refusal.
    refusal = "I'm afraid R209 can't be extended: it is overdue, and overdue rentals can't be."
    ep = await play("bikes-extend-overdue-refused", VERIFY, refusal)
    assert isinstance(ep.last, Finish) and ep.last.reason == "user_stop"
    assert ep.last.text.startswith("the agent refused: ") and "overdue" in ep.last.text
    assert len(ep.said) == 2


async def test_a_proposal_in_other_units_is_objected_to_and_remembered():
    wrong = "I can extend R204 by 2 hours, until 20:00 today. Shall I go ahead?"
    again = "Sorry, I need a clear yes or no. Shall I go ahead?"
    ep = await play("bikes-extend-r204-two-days", VERIFY, wrong, again, max_turns=4)
    objections = ep.said[2:4]
    assert all("2 days" in s and "2 hours" in s for s in objections), objections
    # Asked for a yes or a no, the user gives the no first (shop, fifth session: the same
    # objection five times to "I need a clear yes or no").
    assert ep.said[3].startswith("No.") and not ep.said[2].startswith("No."), objections


async def test_a_matching_proposal_is_confirmed():
    right = "I can extend R204 by 2 days, until 18:00 on Friday 12 June. Shall I go ahead?"
    ep = await play("bikes-extend-r204-two-days", VERIFY, right, "Done — R204 is now due Friday.")
    assert ep.said[2].lower().startswith(("yes", "yep", "sure", "yeah", "that"))
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_a_question_naming_a_fact_it_lacks_inside_a_yes_no_question_is_confirmed():
    ask = "I can extend R204 by 2 days. Shall I charge it to the payment method on file?"
    ep = await play("bikes-extend-r204-two-days", VERIFY, ask, "Done — extended.")
    assert "payment method" not in ep.said[2].lower()


@pytest.mark.parametrize("ask", ["What's the rental number?", "Which rental is it about?"])
async def test_questions_worded_from_argument_names_are_answered(ask):
    ep = await play("bikes-due-time-r204", ask, "R204 is due back at 18:00 today.")
    assert "R204" in ep.said[1]


async def test_a_profile_is_never_said_on_the_new_domain():
    for scenario_id in SCENARIOS:
        ep = await play(scenario_id, VERIFY, "Done — all set. Anything else?")
        profile = SCENARIOS[scenario_id].persona.profile
        assert profile[:12] not in " ".join(ep.said)

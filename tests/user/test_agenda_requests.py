"""How the agenda user asks: grammatical requests that never say machine names, two requests in
one message (`combine`, or by a seeded chance), and a stop it owns when it cannot follow."""

import re

import pytest

from vistasim.user import COMBINE_PROBABILITY, LOST, AgendaPolicy, Finish

from ._clinic import TOOLS, patient
from ._driver import converse, scripted

DONE = "Done — all set."
AGENDA = [
    {"intent": "book_appointment", "slots": {"appointment_date": "2026-03-19", "doctor": "Dr Lee"}},
    {"intent": "send_reminder", "slots": {"appointment_id": "A1002", "channel": "sms"}},
]
NAMES = re.compile(r"\b[a-z]+_[a-z_]+\b|send reminder|book appointment|channel sms|\(channel")


def two_goals(*behaviours, goal="Book a check-up and get a reminder."):
    first = {**AGENDA[0], "behaviours": list(behaviours)}
    return patient(goal, agenda=[first, AGENDA[1]])


async def test_no_message_says_an_intent_or_slot_name():
    scenario = two_goals(goal="Sort out my check-up.")
    ask_order = "Which order? Please give me the order_id."
    ep = await converse(
        AgendaPolicy(combine_probability=0),
        scenario,
        scripted("Could you confirm your date of birth?", ask_order, DONE, "Sorry?", DONE),
        agent_tools=TOOLS,
    )
    spoken = " ".join(ep.said)
    assert not NAMES.search(spoken), spoken
    assert "A1002" in spoken  # the reminder is asked for with its values


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("Check whether parcel PD10000006 has been delivered.",
         "check whether parcel PD10000006 has been delivered?"),
        ("PD10000006 shows as delivered, but I never got it; find out what happened.",
         "PD10000006 shows as delivered, but I never got it."),
        ("The patient wants to move her appointment to Friday.",
         "I want to move my appointment to Friday."),
    ],
)  # fmt: skip
async def test_goal_text_is_said_in_grammatical_first_person_sentences(goal, expected):
    ep = await converse(AgendaPolicy(), patient(goal), scripted(DONE))
    opening = ep.said[0]
    assert expected.lower() in opening.lower(), opening
    assert not re.search(r"(?:like|want|need|wish) to PD", opening), opening


async def test_combine_puts_the_next_sub_goal_in_the_first_message():
    ep = await converse(AgendaPolicy(), two_goals({"op": "combine"}), scripted(DONE, DONE))
    assert "book a check-up" in ep.said[0] and "reminder" in ep.said[0]


async def test_combining_by_chance_is_seeded_and_modest():
    async def combines(policy, seed):
        ep = await converse(policy, two_goals(), scripted(DONE, DONE), seed=seed)
        return "reminder" in ep.said[0]

    seen = [await combines(AgendaPolicy(), seed) for seed in range(20)]
    assert seen == [await combines(AgendaPolicy(), seed) for seed in range(20)]
    assert 0 < sum(seen) < 12  # about COMBINE_PROBABILITY of the episodes
    assert COMBINE_PROBABILITY == 0.3
    assert all([await combines(AgendaPolicy(combine_probability=1), s) for s in range(3)])
    assert not any([await combines(AgendaPolicy(combine_probability=0), s) for s in range(3)])


async def test_a_combined_sub_goal_the_agent_left_out_is_asked_for_once_more():
    ep = await converse(
        AgendaPolicy(),
        two_goals({"op": "combine"}),
        scripted("Booked — Thursday 19 March at 10:00 with Dr Lee.", "Done — the sms is sent."),
    )
    assert "reminder" in ep.said[1]
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_it_stops_when_it_cannot_follow_the_agent():
    scenario = patient("Book a check-up with Dr Lee on Thursday 19 March.")
    ep = await converse(AgendaPolicy(), scenario, scripted("Mmm.", "Right.", "Hmm, okay."))
    assert isinstance(ep.last, Finish) and ep.last.reason == "user_stop"
    assert ep.last.text.startswith(LOST)
    assert LOST == "the simulated user could not follow the agent"
    assert len(ep.said) == 3  # the opening and two rephrasings, then the stop


async def test_unhelpful_replies_it_can_read_are_the_agents_failure_not_a_lost_user():
    scenario = patient("Book a check-up with Dr Lee on Thursday 19 March.")
    confused = "Sorry, I didn't understand. Could you rephrase?"
    ep = await converse(AgendaPolicy(), scenario, scripted(confused))
    assert isinstance(ep.last, Finish) and ep.last.reason == "user_stop"
    assert not ep.last.text.startswith(LOST)

"""A rate is no length, and a time rule with "nothing has been changed" is a refusal.

Both found on a nursery desk: "Done — Alfie now has 30 funded hours a week" drew "No — it
should be 30 hours, not a week"; "...issued 42 days ago, and a line can only be disputed
within 30 days of issue. Nothing has been changed" was asked again to the turn limit.
"""

from datetime import UTC, datetime

from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, goal_only, scripted

MONDAY = datetime(2027, 1, 11, 9, 30, tzinfo=UTC)


def _desk(goal: str) -> Scenario:
    knowledge = {"account_ref": "LA2010", "child_dob": "17 May 2023"}
    return goal_only(goal, knowledge, name="Fiona Blake", profile="35", patience=3)


async def _play(goal: str, replies: list[str], seed: int):
    return await converse(
        AgendaPolicy(), _desk(goal), scripted(*replies), seed=seed, max_turns=5, now=MONDAY
    )


async def test_hours_a_week_restate_no_length_to_object_to():
    goal = "I've got my 30 hours code for Alfie: 500 1234 5678. Please add it to his account."
    replies = [
        "Thank you. And the date of birth of one of your children at the nursery?",
        "To apply eligibility code 50012345678 to Alfie only, not to Poppy. Shall I apply it?",
        "Done — Alfie now has 30 funded hours a week (the code is valid until Wednesday 31 "
        "March). Is there anything else I can help with?",
    ]
    for seed in range(3):
        ep = await _play(goal, replies, seed)
        assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.said
        assert not any("not a week" in s for s in ep.said)


async def test_a_time_rule_and_nothing_changed_is_a_refusal_the_user_accepts():
    goal = "I want to dispute the extra full day on my November invoice — Grace was off sick."
    replies = [
        "Thank you. And the date of birth of one of your children at the nursery?",
        "I'm sorry — invoice INV-4019 (November 2026) was issued on Monday 30 November 2026, "
        "42 days ago, and a line can only be disputed within 30 days of issue. Nothing has "
        "been changed; the nursery manager can be reached on 01632 960 400. Is there anything "
        "else I can help with?",
    ]
    for seed in range(3):
        ep = await _play(goal, replies, seed)
        assert isinstance(ep.last, Finish), ep.said
        assert len(ep.said) <= 3, ep.said  # no asking again to the turn limit


async def test_a_value_given_in_quotes_answers_the_question():
    # The nursery desk's flawed agent: 'Jean Hall's collection password is "daffodil"' was
    # asked again to the turn limit (the reading found no value, id or number in it).
    goal = "What's the password I set for my mum, Jean Hall, to collect Evie? I've forgotten it."
    replies = [
        "Thank you. And the date of birth of one of your children at the nursery?",
        "Jean Hall's collection password is \"daffodil\". Is there anything else I can help with?",
    ]
    for seed in range(3):
        ep = await _play(goal, replies, seed)
        assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.said

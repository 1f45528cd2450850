"""A date the user said yes to is not objected to when the next request's proposal restates it.

Two requests in one goal, one with a day ("missed on Friday"): once the first is agreed and
done, the message that reports it and proposes the second still names the first's dates
("the crew returns by Wednesday 9 December"), or says an agreed day in other words
("until 31 March 2027", then "until Wednesday 31 March 2027").
"""

from datetime import UTC, datetime

import pytest

from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, goal_only, scripted

MONDAY = datetime(2026, 12, 7, 10, tzinfo=UTC)


def _desk(goal: str) -> Scenario:
    knowledge = {"account_id": "7120 4410", "postcode": "LS6 2AB"}
    return goal_only(goal, knowledge, profile="29", scenario_id="council-desk")


async def _objections(goal: str, replies: list[str]) -> tuple[list[str], object]:
    found, last = [], None
    for seed in range(4):
        ep = await converse(
            AgendaPolicy(), _desk(goal), scripted(*replies), seed=seed, max_turns=5, now=MONDAY
        )
        found += [s for s in ep.said if " not " in f" {s.lower()} "]
        last = ep.last
    return found, last


MISSED_BIN = (
    "Please log my green bin as missed on Friday, and I'd like a new kitchen caddy too — mine "
    "has cracked.",
    [
        "Thanks. And the postcode of the property?",
        "I've found your account. To log your green bin as missed on Friday 4 December: the "
        "crew comes back within 2 working days, by Wednesday 9 December. Shall I log it?",
        "Done — report MR-1020 is logged; the crew returns by Wednesday 9 December. To order a "
        "kitchen caddy: free, delivered by Monday 21 December. Shall I order it?",
        "Done — caddy order CO-5501, free, delivered by Monday 21 December. Anything else?",
    ],
)
"""The first request's agreed dates, restated in the message that proposes the next one."""
WARDROBE = (
    "Can you book a pick-up for an old wardrobe on Tuesday 15 December? I'd also like to join "
    "the garden scheme, one bin.",
    [
        "Thanks. And the postcode of the property?",
        "To book a pick-up of a wardrobe on Tuesday 15 December: £22.00. Shall I book it?",
        "Done — pick-up PU-40523 is booked for Tuesday 15 December. To join the garden scheme "
        "for one bin until 31 March 2027: £52.00. Shall I set it up?",
        "Done — garden scheme GS-77013 (£52.00), until Wednesday 31 March 2027. Anything else?",
    ],
)
"""An agreed day said again with its weekday ("until Wednesday 31 March 2027")."""


@pytest.mark.parametrize(("goal", "replies"), [MISSED_BIN, WARDROBE], ids=["bin", "wardrobe"])
async def test_what_the_user_agreed_to_is_not_objected_to_later(goal, replies):
    found, last = await _objections(goal, replies)
    assert found == []
    assert isinstance(last, Finish) and last.reason == "goal_met"


async def test_a_wrong_day_in_the_proposal_itself_is_still_objected_to():
    goal = "Can you book a pick-up for an old wardrobe on Tuesday 15 December?"
    replies = [
        "Thanks. And the postcode of the property?",
        "To book a pick-up of a wardrobe on Thursday 17 December: £22.00. Shall I book it?",
    ]
    found, _ = await _objections(goal, replies)
    assert found and all("17 December" in s for s in found)

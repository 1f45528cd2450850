"""A goal of several requests, reported done with one never named: the user asks after it.

Found on a waste desk: "...and I'd like a new food caddy too" answered "Done — report MB-2201
is logged. That's everything you asked for done." The user thanked the agent and left; a
customer asks about the caddy.
"""

from datetime import UTC, datetime

import pytest

from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, goal_only, scripted

MONDAY = datetime(2026, 12, 7, 10, tzinfo=UTC)
BED = ("Can you book a collection for an old bed on Tuesday 15 December? I'd also like to sign "
       "up for garden waste, one bin.")  # fmt: skip
CADDY = ("Please report my grey bin as missed on Friday, and I'd like a new food caddy too — a "
         "fox has chewed through the old one.")  # fmt: skip
ASK = "Thanks. And the postcode of the property?"
LOGGED = ("Done — missed-bin report MB-2201 is logged; the crew will return by Wednesday 9 "
          "December. That's everything you asked for done.")


def _desk(goal: str, agenda: list[dict] | None = None) -> Scenario:
    knowledge = {"account_id": "6041 8221", "postcode": "MV5 3BT"}
    scenario = goal_only(goal, knowledge, name="Ivy Wren", profile="50")
    if not agenda:
        return scenario
    return Scenario.model_validate({**scenario.model_dump(), "agenda": agenda})


async def _play(scenario: Scenario, replies: list[str], seed: int):
    return await converse(
        AgendaPolicy(), scenario, scripted(*replies), seed=seed, max_turns=6, now=MONDAY
    )


@pytest.mark.parametrize(
    ("goal", "done", "left"),
    [
        (BED, "Done — bulky collection BLK-40523 is booked for Tuesday 15 December; £22.00 "
              "taken. That's everything you asked for done.", "garden waste"),
        (CADDY, ("I've found your account. To report your grey bin as missed on Friday 4 "
                 "December: the crew will come back within 2 working days, by Wednesday 9 "
                 "December. Shall I log the report?"),
         "food caddy"),
    ],
)  # fmt: skip
async def test_the_request_never_named_is_asked_after_once(goal, done, left):
    for seed in range(3):
        replies = [ASK, done] if "Done" in done else [ASK, done, LOGGED]
        ep = await _play(_desk(goal), replies, seed)
        after = [s for s in ep.said[1:] if left in s]
        # Asked after once; the same "done" again is then taken as it comes.
        assert len(after) == 1, (seed, ep.said)
        assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_every_request_named_is_no_reminder():
    done = ("Done — bulky collection BLK-40523 is booked for Tuesday 15 December, and your "
            "garden-waste subscription GW-1201 starts on 1 January. That's everything.")
    for seed in range(3):
        ep = await _play(_desk(BED), [ASK, done], seed)
        assert len(ep.said) == 2 and ep.last.reason == "goal_met", ep.said


async def test_an_agenda_gives_each_request_its_own_sub_goal_and_no_reminder():
    agenda = [{"intent": "book_bulky", "slots": {"item": "bed", "collect_on": "2026-12-15"}}]
    done = "Done — bulky collection BLK-40523 is booked for Tuesday 15 December."
    ep = await _play(_desk(BED, agenda), [ASK, done], 0)
    assert not any("garden" in s for s in ep.said[1:]), ep.said

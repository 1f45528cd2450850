"""Readings an allotment desk written blind showed: a thing asked for, a bill's due date.

"I'm a pensioner now — can I have the reduced rent on my plot for next year?" was read as a
question, and the proposal that answered it ("£60.00 off ... Shall I apply it?") ended the goal
with nothing applied. "Can I settle it today?" met "It was due on Monday 30 November 2026, so a
£10.00 late fee is added": the user objected "today (7 December), not Monday 30 November".
"""

from datetime import UTC, datetime
from pathlib import Path

from vistasim.scenario import load_scenarios
from vistasim.user import AgendaPolicy

from ._driver import converse, goal_only, scripted

MONDAY = datetime(2026, 12, 7, 10, tzinfo=UTC)
DESK = Path(__file__).parents[2] / "benchmarks" / "domains" / "allotment" / "scenarios.yaml"


async def test_a_reduced_rent_asked_for_is_said_yes_to():
    [scenario] = [s for s in load_scenarios(DESK) if s.id == "allot-concession"]
    proposal = ("To apply the concession with reference SP-448210 to invoice INV-7008: £60.00 "
                "off the £120.00 rent (the £18.00 water charge stays), so £78.00 is due by "
                "Sunday 31 January 2027. Shall I apply it?")  # fmt: skip
    replies = ("Thank you. And the postcode of your address?",
               "Thank you, Margaret — I've found you on the register. What's the reference on "
               "your award letter? It looks like SP-448210 or UC-123456789.", proposal, "Done.")
    for seed in range(3):
        episode = await converse(AgendaPolicy(), scenario, scripted(*replies), seed=seed,
                                 max_turns=4, now=MONDAY)  # fmt: skip
        assert len(episode.said) == 4, episode.said  # it answers the proposal, not leaves


async def test_a_bills_past_due_date_is_no_other_day_for_paying_it():
    scenario = goal_only("Hi, I think I forgot to pay the shed bill from October. Can I settle "
                         "it today?", {"tenancy_id": "GA2007"})  # fmt: skip
    proposal = ("To pay invoice INV-7107 (shed, 2026): £36.00. It was due on Monday 30 November "
                "2026, so a £10.00 late fee is added. £46.00 in all from your card ending 7702. "
                "Shall I take the payment?")  # fmt: skip
    for seed in range(3):
        episode = await converse(AgendaPolicy(), scenario,
                                 scripted("What's your tenancy number?", proposal, "Done."),
                                 seed=seed, max_turns=3, now=MONDAY)  # fmt: skip
        assert "30 November" not in episode.said[2], episode.said

"""A day the goal gives without a year is the one nearest today: its weekday is that year's."""

from datetime import datetime

from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy

from ._driver import converse, scripted

PAUSE = Scenario.model_validate(
    {"id": "pause", "persona": {"name": "James Whitfield", "style": {"patience": 4}},
     "goal": "Pause my membership for two months from 1 January.",
     "knowledge": {"member_id": "HW1010", "months": "2", "start_month": "1 January"}}
)  # fmt: skip


async def test_on_9_december_1_january_is_next_years_friday():
    # Found on a coworking desk written blind: on 9 December 2026 the user took "1 January"
    # for 1 January 2026, a Thursday, and objected "I need 1 January, not Friday" to "from
    # Friday 1 January 2027" three times.
    proposal = ("I'll pause your membership from Friday 1 January 2027 for 2 months, resuming "
                "on Monday 1 March 2027. Shall I book it?")  # fmt: skip
    ep = await converse(AgendaPolicy(), PAUSE, scripted(proposal, "Done."),
                        now=datetime(2026, 12, 9, 10, 0))  # fmt: skip
    assert ep.said[1].lower().startswith("yes"), ep.said


async def test_a_wrong_weekday_for_that_day_is_still_objected_to():
    proposal = ("I'll pause your membership from Friday 8 January 2027 for 2 months. Shall I "
                "book it?")  # fmt: skip
    ep = await converse(AgendaPolicy(), PAUSE, scripted(proposal, "Done."),
                        now=datetime(2026, 12, 9, 10, 0))  # fmt: skip
    assert "1 January" in ep.said[1] and not ep.said[1].lower().startswith("yes"), ep.said

"""The days a goal asks for: one without a year is the nearest today, one it takes back is not."""

from datetime import UTC, datetime

import pytest

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
                        now=datetime(2026, 12, 9, 10, 0, tzinfo=UTC))  # fmt: skip
    assert ep.said[1].lower().startswith("yes"), ep.said


async def test_a_wrong_weekday_for_that_day_is_still_objected_to():
    proposal = ("I'll pause your membership from Friday 8 January 2027 for 2 months. Shall I "
                "book it?")  # fmt: skip
    ep = await converse(AgendaPolicy(), PAUSE, scripted(proposal, "Done."),
                        now=datetime(2026, 12, 9, 10, 0, tzinfo=UTC))  # fmt: skip
    assert "1 January" in ep.said[1] and not ep.said[1].lower().startswith("yes"), ep.said


TAKEN_BACK = {
    # Found on a coworking desk written blind: the goal "...on Thursday 17 December — sorry, I
    # meant Friday 18 December" held both days, and the user said "Yeah, go for it" to a
    # booking on the 17th.
    "goal-takes-back": (
        "Book the Nectar phone room at 9am for one hour on Thursday 17 December — sorry, I "
        "meant Friday 18 December.",
        "To book Nectar on Thursday 17 December, 09:00–10:00 (1 hour): nothing to pay. Shall I "
        "book it?",
        ("Thursday 17", "Friday 18"),
        "18 December",
        {"member_id": "HW1012"},
        datetime(2026, 12, 9, 10, 0, tzinfo=UTC),
    ),
    # Found on a removals desk written blind: in "...to Tuesday 26 January — sorry, I meant
    # Thursday 28 January, the Tuesday is my first day at work" the user took "the Tuesday" for
    # a day it asked for, and objected "it should be Tuesday, not Tuesday 26 January 2027".
    "weekday-of-day-taken-back": (
        "Change my move date to Tuesday 26 January — sorry, I meant Thursday 28 January, the "
        "Tuesday is my first day at work.",
        "I'll move your removal from Friday 15 January 2027 to Tuesday 26 January 2027. Shall I "
        "go ahead?",
        ("Tuesday 26", "Thursday 28"),
        "28 January",
        {"move_ref": "PK40244"},
        datetime(2026, 12, 7, 9, 0, tzinfo=UTC),
    ),
}


@pytest.mark.parametrize(
    ("goal", "wrong", "swap", "meant", "knowledge", "now"), TAKEN_BACK.values(), ids=TAKEN_BACK
)
async def test_a_day_taken_back_is_objected_to_and_the_day_meant_accepted(
    goal, wrong, swap, meant, knowledge, now
):
    scenario = Scenario.model_validate(
        {"id": "day", "persona": {"name": "Ben Turner", "style": {"patience": 4}}, "goal": goal,
         "knowledge": knowledge}
    )  # fmt: skip
    right = wrong.replace(*swap)
    ep = await converse(AgendaPolicy(), scenario, scripted(wrong, right, "Done."), now=now)
    assert meant in ep.said[1] and not ep.said[1].lower().startswith("yes"), ep.said
    assert ep.said[2].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said


async def test_the_day_the_user_asks_on_is_not_a_day_it_asks_for():
    # Found on a storage desk when `ignored-objection` was added: "I'm only asking for the price
    # today" made "today" a day the goal asked for, and the user objected "I need today (7
    # December), not Tuesday 15 December 2026" to a price quote, until its turns ran out.
    scenario = Scenario.model_validate(
        {"id": "quote", "persona": {"name": "Daniel Evans", "style": {"patience": 4}},
         "goal": "Find out what it would cost me to move up from my small unit to a 50 sq ft one. "
                 "I'm only asking for the price today — I'll decide with my partner later.",
         "knowledge": {"account_no": "KS-4133"}}
    )  # fmt: skip
    quote = ("Moving to unit B02 (50 sq ft) costs a £10.00 transfer fee, £18.00 in all. From "
             "Tuesday 15 December 2026 your rent would be £79.00 a month. Shall I go "
             "ahead?")  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario, scripted(quote, "Okay."),
                        now=datetime(2026, 12, 7, 9, 0, tzinfo=UTC))  # fmt: skip
    assert "7 December" not in ep.said[1] and "today" not in ep.said[1].lower(), ep.said


async def test_a_question_answered_with_an_offer_to_change_is_answered_no():
    # Found on the same storage scenario once "today" was no day: the user said "Yes, please
    # proceed" to the quote's "Shall I go ahead?" and was moved to the bigger unit.
    scenario = Scenario.model_validate(
        {"id": "quote", "persona": {"name": "Daniel Evans", "style": {"patience": 4}},
         "goal": "Find out what it would cost me to move up from my small unit to a 50 sq ft one. "
                 "I'm only asking for the price today — I'll decide with my partner later.",
         "knowledge": {"account_no": "KS-4133"}}
    )  # fmt: skip
    quote = ("Moving from unit A02 (small, 25 sq ft) to unit B02 (medium, 50 sq ft) costs a "
             "£10.00 transfer fee and £8.00 for the days already paid, £18.00 in all. From "
             "Tuesday 15 December 2026 your rent would be £79.00 a month. Shall I go "
             "ahead?")  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario, scripted(quote, "Okay."),
                        now=datetime(2026, 12, 7, 9, 0, tzinfo=UTC))  # fmt: skip
    no = ep.said[1].lower()
    assert no.startswith(("no", "not", "i'll", "that's")) and "proceed" not in no, ep.said


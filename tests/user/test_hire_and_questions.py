"""A hire makes a record with an id of its own; "I don't want to change anything" asks nothing.

Both found on a venue desk written blind: "Done — booking MB3025: the main hall on Friday 22
January" drew "No, not MB3025 — it's booking number MB3021" (the booking the user proved who
it is with); "How much have I paid so far ..., and what time does it end? I don't want to
change anything" was asked again to the turn limit after "£320.00 in all. It ends at 17:00".
"""

from datetime import UTC, datetime

from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, goal_only, scripted

TUESDAY = datetime(2026, 12, 15, 10, tzinfo=UTC)


def _desk(goal: str, booking: str) -> Scenario:
    knowledge = {"booking_id": booking, "surname": "Khan"}
    return goal_only(goal, knowledge, name="Imran Khan", profile="41", patience=3)


async def _play(goal: str, booking: str, replies: list[str], seed: int):
    return await converse(
        AgendaPolicy(), _desk(goal, booking), scripted(*replies), seed=seed, max_turns=5,
        now=TUESDAY,
    )  # fmt: skip


async def test_the_new_bookings_own_id_is_not_the_one_the_user_proved_itself_with():
    goal = ("I'd like to hire the main hall on Friday 22 January from 6pm to 10pm for a family "
            "party of about 80 guests. Please tell me what it costs.")  # fmt: skip
    replies = [
        "Thank you. And the surname the booking is under?",
        "To book the main hall on Friday 22 January from 18:00 to 22:00 (4 hours) for 80 "
        "people: the hire is £180.00, plus a refundable damage deposit of £100.00. Shall I "
        "book it?",
        "Done — booking MB3025: the main hall on Friday 22 January, 18:00 to 22:00; £180.00 "
        "hire and £100.00 deposit taken. Is there anything else I can help with?",
    ]
    for seed in range(3):
        ep = await _play(goal, "MB3021", replies, seed)
        assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.said
        assert not any("MB3025" in s for s in ep.said)


async def test_a_question_that_rules_out_a_change_is_answered_by_its_values():
    goal = ("How much have I paid so far for the christening party, including the deposit, and "
            "what time does it end? I don't want to change anything.")  # fmt: skip
    replies = [
        "Thank you. And the surname the booking is under?",
        "Your booking MB3019 (main hall, Sunday 24 January, 13:00 to 17:00): you've paid "
        "£180.00 hire and £40.00 for add-ons, plus the £100.00 deposit — £320.00 in all. It "
        "ends at 17:00. Is there anything else I can help with?",
    ]
    for seed in range(3):
        ep = await _play(goal, "MB3019", replies, seed)
        assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.said

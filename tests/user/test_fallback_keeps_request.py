"""A fallback replaces what it speaks of, not the whole request: a hotel desk moving a stay."""

from datetime import UTC, date, datetime

from vistasim.scenario import Behaviour, Scenario
from vistasim.user import AgendaPolicy
from vistasim.user._agenda_ops import Operation, apply_operation
from vistasim.user._facts import TASK, build_facts

from ._driver import converse, scripted

GOAL = (
    "Stay one extra night in Dublin, leaving on Sunday 21 June instead of Saturday. If my room "
    "type is full that night, I'm happy to move to a better room for the whole stay and pay "
    "the difference."
)
FOUND = (
    "I've found your booking HL31007: Standard Double, Thursday 18 June to Saturday 20 June "
    "2026. Which dates would you like?"
)
FULL = (
    "I'm sorry — the Standard Double is fully booked on the night of Saturday 20 June 2026. A "
    "Superior Dock View is free for the whole stay, {stay} 2026: €405. Shall I go ahead?"
)
WRONG_NIGHTS = FULL.format(stay="Saturday 20 June to Monday 22 June")
RIGHT_NIGHTS = FULL.format(stay="Thursday 18 June to Sunday 21 June")
JUNE = datetime(2026, 6, 1, 10, tzinfo=UTC)


def hotel() -> Scenario:
    return Scenario.model_validate(
        {
            "id": "hotel-extend",
            "persona": {"name": "Siobhán Murphy", "style": {"verbosity": "medium", "patience": 5}},
            "goal": GOAL,
            "knowledge": {"booking_ref": "HL31007", "last_name": "Murphy",
                          "check_out": "2026-06-21"},
        }
    )  # fmt: skip


def test_the_value_a_goal_replaces_is_not_asked_for():
    facts = build_facts({}, "Leave on Sunday 21 June instead of Saturday.", date(2026, 6, 1))
    task = next(f for f in facts if f.slot == TASK)
    assert task.values["weekday"] == {"sunday"}
    assert task.said["date"] == "Sunday 21 June"


async def test_asked_which_dates_the_user_gives_the_new_day_not_the_one_it_replaces():
    ep = await converse(AgendaPolicy(), hotel(), scripted(FOUND, RIGHT_NIGHTS), now=JUNE)
    assert "21 June" in ep.said[1] and "Saturday" not in ep.said[1], ep.said[1]


async def test_the_fallback_offer_for_other_nights_is_objected_to():
    # The fallback changes the room; the nights asked for still hold.
    agent = scripted(FOUND, WRONG_NIGHTS, RIGHT_NIGHTS)
    ep = await converse(AgendaPolicy(), hotel(), agent, now=JUNE)
    objection = ep.said[2]
    assert "21 June" in objection and "20 June" in objection, objection
    assert ep.said[3].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said[3]


async def test_a_fallback_that_frees_the_day_takes_another_day():
    scenario = hotel().model_copy(
        update={"goal": "Stay on Sunday 21 June. If that's full, any other night that week."}
    )
    offer = "Sunday 21 June is fully booked. Monday 22 June is free: €135. Shall I book it?"
    ep = await converse(AgendaPolicy(), scenario, scripted(offer), now=JUNE)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said[1]


class _Drawn(AgendaPolicy):
    def initial_state(self, scenario, seed=0):
        state = super().initial_state(scenario, seed=seed)
        change = Behaviour(op="change_mind", slot="check_out", first="2026-06-22")
        return apply_operation(state, Operation(source="change_mind:check_out", behaviour=change))


async def test_no_change_of_mind_from_a_value_never_said():
    # The goal says "Sunday 21 June", never the slot's "2026-06-21": the drawn first value
    # "2026-06-22" was never asked for, so there is nothing to change the mind about.
    ep = await converse(_Drawn(), hotel(), scripted(FOUND, RIGHT_NIGHTS), now=JUNE)
    assert "22" not in ep.said[0]
    assert not any("changed my mind" in s.lower() for s in ep.said), ep.said
    assert ep.said[2].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said


async def test_a_range_that_starts_on_the_day_the_user_leaves_is_objected_to():
    # "leaving on Sunday 21 June": a stay from 21 June restates the date at the wrong end.
    moved = ("The Standard Double is available from Sunday 21 June to Tuesday 23 June 2026 "
             "(2 nights). Shall I change the dates?")  # fmt: skip
    ep = await converse(AgendaPolicy(), hotel(), scripted(FOUND, moved, RIGHT_NIGHTS), now=JUNE)
    objection = ep.said[2]
    assert "leaving on Sunday 21 June" in objection and "23 June" in objection, objection
    assert ep.said[3].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said[3]


async def test_asked_for_both_ends_the_user_keeps_the_first_day_of_the_booking():
    # "Sunday 21 June" alone, to "Which dates would you like?" and to "your new arrival and
    # departure dates", was read as the arrival: the stay moved to 21-23 June and the user
    # objected until it gave up (hotel, seed 0 of the fourth session).
    ask = "Sorry about that. Please tell me your new arrival and departure dates."
    ep = await converse(AgendaPolicy(), hotel(), scripted(FOUND, ask), now=JUNE, max_turns=3)
    for answer in ep.said[1:3]:
        assert "18 June" in answer and "21 June" in answer, ep.said
        assert answer.index("18 June") < answer.index("21 June"), answer


async def test_the_latest_the_hotel_offers_frees_the_time_the_request_named():
    # "4 pm; if that isn't possible, the latest check-out the hotel offers": 14:00 offered
    # with the refusal is the fallback, not "I need 4 pm, not 14:00".
    late = Scenario.model_validate(
        {
            "id": "hotel-late", "persona": {"name": "Siobhán Murphy"},
            "goal": "I'd like to check out at 4 pm on my last day in Dublin. If that isn't "
                    "possible, I'll take the latest check-out the hotel offers, even with a fee.",
            "knowledge": {"booking_ref": "HL31007", "last_name": "Murphy"},
        }
    )  # fmt: skip
    offer = ("I'm sorry — late check-out is possible until 14:00 at the latest, so I can't offer "
             "16:00. I can book 14:00 on Saturday 20 June 2026 for €40.00. Would you like that?")
    ep = await converse(AgendaPolicy(), late, scripted(offer, "Done."), now=JUNE, max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said


async def test_a_day_the_user_cannot_come_until_is_no_last_day_of_the_stay():
    # Found on a campsite desk written blind: "We can't get there until Friday now — please
    # move our stay to Friday 23 April to Sunday 25 April" read "until Friday" as the last day,
    # and the user objected to the stay it asked for ("I need until Friday, not ...").
    moved = Scenario.model_validate(
        {
            "id": "campsite-move", "persona": {"name": "Grace Lyle"},
            "goal": "We can't get there until Friday now — please move our stay to Friday 23 "
                    "April to Sunday 25 April. I'll pay the fee if there is one.",
            "knowledge": {"booking_ref": "HF2113", "surname": "Lyle"},
        }
    )  # fmt: skip
    proposal = (
        "To move booking HF2113 (tent pitch T02, Thursday 22 April to Saturday 24 April) to "
        "Friday 23 April to Sunday 25 April: £46.00 and a change fee of £10.00. Shall I move it?"
    )
    april = datetime(2027, 4, 13, 10, tzinfo=UTC)
    ep = await converse(AgendaPolicy(), moved, scripted(proposal, "Done."), now=april, max_turns=2)
    reply = ep.said[1].lower()
    assert "until friday" not in reply and "not" not in reply, ep.said
    assert reply.startswith(("yes", "yep", "sure", "yeah", "that's right")), ep.said


async def test_a_stay_that_starts_on_the_last_day_the_goal_asks_for_is_objected_to():
    # The same campsite desk then moved the stay to 25-27 April: restating the 25th, yet as its
    # first day, it was agreed to ("Yes, that's right") and the wrong nights were booked.
    moved = Scenario.model_validate(
        {
            "id": "campsite-move", "persona": {"name": "Grace Lyle"},
            "goal": "Please move our stay to Friday 23 April to Sunday 25 April.",
            "knowledge": {"booking_ref": "HF2113", "surname": "Lyle"},
        }
    )  # fmt: skip
    wrong = ("To move booking HF2113 (Thursday 22 April to Saturday 24 April) to Sunday 25 "
             "April to Tuesday 27 April: £46.00. Shall I move it?")  # fmt: skip
    right = wrong.replace("Sunday 25 April to Tuesday 27", "Friday 23 April to Sunday 25")
    april = datetime(2027, 4, 13, 10, tzinfo=UTC)
    ep = await converse(AgendaPolicy(), moved, scripted(wrong, right, "Done."), now=april)
    assert "23 April" in ep.said[1] and "27 April" in ep.said[1], ep.said
    assert ep.said[2].lower().startswith(("yes", "yep", "sure", "yeah", "that's right")), ep.said

"""A goal that wants its request only with its money back says no when the proposal keeps it."""

from datetime import UTC, datetime

from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, scripted

KEEP = Scenario.model_validate(
    {"id": "keep", "persona": {"name": "Nina Berg", "style": {"patience": 4}},
     "goal": "Cancel my Nectar booking tomorrow, Thursday 10 December at 8am — but only if I "
             "get my credit hour and the £12 I paid back. If I'd lose them, keep the booking.",
     "knowledge": {"member_id": "HW1015"}}
)  # fmt: skip
NOW = datetime(2026, 12, 9, 10, 0, tzinfo=UTC)


async def test_nothing_given_back_is_declined_and_the_goal_is_met():
    # Found on a coworking desk written blind: the user said "Yes, that's right, please
    # proceed" to "...the 1 credit hour and the £12.00 paid can't be returned. Shall I cancel?"
    late = ("Cancelling booking BK2251 (Nectar, Thursday 10 December, 08:00–10:00): it starts in "
            "less than 24 hours, so the 1 credit hour and the £12.00 paid can't be returned. A "
            "cancellation can't be undone. Shall I cancel it?")  # fmt: skip
    ep = await converse(AgendaPolicy(), KEEP, scripted(late, "Okay, I've left it as it is."),
                        now=NOW)  # fmt: skip
    no = ep.said[1].lower()
    assert no.startswith(("no", "then no")) and "go ahead" not in no, ep.said
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.said


async def test_money_given_back_is_accepted():
    early = ("Cancelling booking BK2251 (Nectar, Thursday 10 December, 08:00–10:00): the 1 credit "
             "hour goes back to your balance and £12.00 is refunded to your card. Shall I "
             "cancel it?")  # fmt: skip
    ep = await converse(AgendaPolicy(), KEEP, scripted(early, "Done."), now=NOW)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said


async def test_hours_lost_or_a_fee_paid_again_are_declined_as_the_goal_says():
    # Found on a driving-school desk written blind: both said yes.
    lesson = Scenario.model_validate(
        {"id": "lesson", "persona": {"name": "Ben Shaw", "style": {"patience": 4}},
         "goal": "Cancel my lesson tomorrow morning — but if I'd lose the hours for it, I'd "
                 "rather keep the lesson.",
         "knowledge": {"learner_no": "L20433"}}
    )  # fmt: skip
    late = ("To cancel your lesson on Tuesday 8 December 2026 at 10:00: it's less than 48 hours "
            "away, so the 2 hours for it are lost and won't go back on your package. Shall I "
            "cancel it?")  # fmt: skip
    ep = await converse(AgendaPolicy(), lesson, scripted(late, "Okay."), now=NOW)
    assert ep.said[1].lower().startswith(("no", "then no")), ep.said
    test = Scenario.model_validate(
        {"id": "test", "persona": {"name": "Kate Moss", "style": {"patience": 4}},
         "goal": "Move my practical test to Thursday 14 January — but not if it means paying the "
                 "test fee again.",
         "knowledge": {"learner_no": "L20575"}}
    )  # fmt: skip
    fee = ("To move your test to Thursday 14 January 2027 at 13:40: the £75.00 fee you paid is "
           "lost and a new £75.00 fee is charged to your card. Shall I go ahead?")  # fmt: skip
    ep = await converse(AgendaPolicy(), test, scripted(fee, "Okay."), now=NOW)
    assert ep.said[1].lower().startswith(("no", "then no")), ep.said
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.said


async def test_a_fee_the_goal_would_rather_not_pay_is_declined():
    # Found on a removals desk written blind: "...but if there's a fee for changing the date,
    # I'd rather keep it as it is" said "Yes, please" to "...there's a £60.00 date-change fee".
    move = Scenario.model_validate(
        {"id": "move", "persona": {"name": "Daniel Okafor", "style": {"patience": 3}},
         "goal": "Move my removal to Friday 18 December — but if there's a fee for changing the "
                 "date, I'd rather keep it as it is.",
         "knowledge": {"move_ref": "PK40166", "new_date": "Friday 18 December"}}
    )  # fmt: skip
    fee = ("I'll move your removal from Tuesday 15 December 2026 to Friday 18 December 2026. As "
           "your move is 8 days away, there's a £60.00 date-change fee, charged to your card "
           "ending 2166. Shall I go ahead?")  # fmt: skip
    ep = await converse(AgendaPolicy(), move, scripted(fee, "Okay."), now=NOW)
    assert ep.said[1].lower().startswith(("no", "then no")), ep.said
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.said
    free = ("I'll move your removal from Tuesday 15 December 2026 to Friday 18 December 2026, "
            "free of charge. Shall I go ahead?")  # fmt: skip
    ep = await converse(AgendaPolicy(), move, scripted(free, "Done."), now=NOW)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said

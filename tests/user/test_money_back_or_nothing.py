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

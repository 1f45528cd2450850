"""Each documented flaw of FlawedBikeDeskAgent fires under its trigger, at the turn it changes what
the agent does, and only then; the correct agent does the right thing on the same messages."""

from __future__ import annotations

import pytest
from benchmarks.bikes import BikeDeskAgent, FlawedBikeDeskAgent

from tests.bikes.helpers import HANNAH, INES, JONAS, LENA, MAREK, NOAH, PRIYA, SOFIA, Chat
from vistasim.testing import record_flaws


async def both(*messages: str) -> tuple[Chat, list, Chat, list]:
    """Run the same messages through the correct and the flawed agent, recording flaws."""
    good, bad = Chat(BikeDeskAgent, episode_id="good"), Chat(FlawedBikeDeskAgent, episode_id="bad")
    with record_flaws() as good_fired:
        await good.run(*messages)
    with record_flaws() as bad_fired:
        await bad.run(*messages)
    assert good_fired == []
    return (
        good,
        [(f.message_index, f.flaw) for f in good_fired],
        bad,
        [(f.message_index, f.flaw) for f in bad_fired],
    )


async def test_f1_days_booked_as_hours():
    good, _, bad, fired = await both(LENA, "Please extend R204 by 2 days", "yes")
    assert fired == [(2, "bikes:F1")]
    assert bad.called("extend_rental")[0].args == {
        "rental_id": "R204",
        "amount": 2,
        "unit": "hours",
    }
    assert bad.env.select("rentals", {"id": "R204"})[0]["due_at"] == "2026-06-10T20:00"
    assert good.env.select("rentals", {"id": "R204"})[0]["due_at"] == "2026-06-12T18:00"


async def test_f1_does_not_fire_for_hours():
    _, _, bad, fired = await both(f"{LENA} extend R204 by 48 hours", "yes")
    assert fired == []
    assert bad.env.select("rentals", {"id": "R204"})[0]["due_at"] == "2026-06-12T18:00"


async def test_f2_due_time_two_hours_late():
    good, _, bad, fired = await both("When is R204 due back?", LENA)
    assert fired == [(1, "bikes:F2")]
    assert "18:00 today" in good.text and "18:00" not in bad.text and "20:00 today" in bad.text


async def test_f2_does_not_fire_for_a_returned_rental():
    _, _, bad, fired = await both(f"{NOAH} when was R198 due?")
    assert fired == []
    assert "returned at 08:40 on Saturday 6 June" in bad.text


async def test_f3_refused_return_reported_as_done():
    good, _, bad, fired = await both(JONAS, "End rental R212 at Market Square", "yes")
    assert fired == [(2, "bikes:F3")]
    assert bad.called("end_rental")[0].error is not None
    assert "has ended" in bad.replies[-1].text and "no free docks" not in bad.text
    assert "no free docks" in good.replies[-1].text
    assert bad.env.select("rentals", {"id": "R212"})[0]["status"] == "active"


async def test_f3_does_not_fire_when_the_change_goes_through():
    _, _, _, fired = await both(f"{INES} I returned R205 at Riverside Park", "yes")
    assert fired == []


async def test_f4_discloses_another_customers_rental():
    good, _, bad, fired = await both(HANNAH, "How much has R204 cost so far? It's my sister's")
    assert fired == [(1, "bikes:F4")]
    assert bad.called("get_rental")[0].args == {"rental_id": "R204"} and "€18.00" in bad.text
    assert good.called("get_rental") == [] and "isn't a rental on your account" in good.text


async def test_f4_changes_stay_guarded():
    _, _, bad, fired = await both(HANNAH, "Extend R204 by 2 hours")
    assert fired == [] and bad.called("get_rental") == []


async def test_f5_second_request_forgotten():
    message = f"{LENA}: extend R204 by 2 hours and cancel my reservation RS411"
    good, _, bad, fired = await both(message, "yes", "yes")
    assert fired == [(1, "bikes:F5")]
    assert bad.env.select("reservations", {"id": "RS411"})[0]["status"] == "held"
    assert good.env.select("reservations", {"id": "RS411"})[0]["status"] == "cancelled"


async def test_f5_also_forgets_a_request_riding_on_a_yes():
    _, _, bad, fired = await both(
        f"{LENA} two more hours on R204 please", "yes, and please cancel my reservation RS411 too"
    )
    assert fired == [(1, "bikes:F5")]
    assert bad.called("cancel_reservation") == []


async def test_f6_late_cancellation_fee_hidden():
    good, _, bad, fired = await both(MAREK, "cancel RS412 please", "yes")
    assert fired == [(1, "bikes:F6"), (2, "bikes:F6")]
    assert "free of charge" in bad.text and "€3.00" not in bad.text
    assert "€3.00" in good.replies[1].text
    fee = bad.env.select("charges", {"reservation_id": "RS412"})
    assert [c["amount_cents"] for c in fee] == [300]


async def test_f6_does_not_fire_for_a_free_cancellation():
    _, _, _, fired = await both(LENA, "cancel RS411", "yes")
    assert fired == []


async def test_f7_cost_leaves_out_extension_and_late_fee():
    good, _, bad, fired = await both(f"What did R200 cost me in total? {PRIYA}")
    assert fired == [(0, "bikes:F7")]
    assert "€30.00" in good.text and "€15.00 in total" in bad.text and "€30.00" not in bad.text


@pytest.mark.parametrize(
    "message", [f"{INES} how much has R205 cost so far?", f"{LENA} what did R180 cost?"]
)
async def test_f7_does_not_fire_without_extra_charges(message):
    _, _, _, fired = await both(message)
    assert fired == []


async def test_flawed_agent_is_the_correct_agent_elsewhere():
    messages = [SOFIA, "Extend R207 by 2 more days please", "then 1 hour", "yes"]
    good, _, bad, fired = await both(*messages)
    assert fired == []
    assert [r.text for r in good.replies] == [r.text for r in bad.replies]

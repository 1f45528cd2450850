"""Cityline Car Hire: tools, the correct agent, and each documented flaw."""

from __future__ import annotations

import pytest
from benchmarks.domains.carhire import (
    CarHireEnvironment,
    CorrectCarhireAgent,
    FlawedCarhireAgent,
    make_environment,
)
from benchmarks.domains.carhire._intents import parse_message

from ._chat import called, play, row, tool


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "carhire:0")


# -- the environment and its tools -----------------------------------------------------------
def test_fixed_clock_seeded_totals_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, CarHireEnvironment)
    assert env.now().isoformat() == "2026-12-08T10:00:00+00:00"
    # 3 days of compact (£38) with one child seat (£8); 2 days of economy (£32) + a driver (£12).
    assert row(env, "bookings", booking_ref="CLH-20411")["total_pence"] == 13800
    assert row(env, "bookings", booking_ref="CLH-20413")["total_pence"] == 8800
    tool(env, "cancel_booking", booking_ref="CLH-20416")
    assert row(make_environment(), "bookings", booking_ref="CLH-20416")["status"] == "booked"


def test_verify_needs_reference_and_matching_licence_digits():
    env = make_environment()
    assert tool(env, "verify_customer", booking_ref="clh 20411",
                licence_last4="4417").result["name"] == "Priya Nair"
    # Samuel Okafor's licence also ends 4417: the reference decides whose booking it is.
    assert tool(env, "verify_customer", booking_ref="CLH-20418",
                licence_last4="4417").result["customer_id"] == "CU08"
    assert "verification failed" in tool(env, "verify_customer", booking_ref="CLH-20412",
                                         licence_last4="4417").error


def test_date_changes_reprice_per_day_and_stop_24_hours_before_pickup():
    env = make_environment()
    done = tool(env, "change_dates", booking_ref="CLH-20411", pickup_date="2026-12-18",
                return_date="2026-12-22").result
    assert (done["days"], done["new_total"], done["difference"]) == (4, "£184.00", "£46.00")
    assert "24 hours" in tool(env, "change_dates", booking_ref="CLH-20414",
                              pickup_date="2026-12-10", return_date="2026-12-12").error
    # The only Leeds SUV is booked from the 21st: an extension past it is refused, unchanged.
    assert "no suv cars free" in tool(env, "change_dates", booking_ref="CLH-20423",
                                      pickup_date="2026-12-16", return_date="2026-12-22").error
    assert row(env, "bookings", booking_ref="CLH-20423")["return_at"] == "2026-12-20 09:00"


def test_drivers_extras_and_class_switches():
    env = make_environment()
    added = tool(env, "add_driver", booking_ref="CLH-20412", name="Joanne Ellison",
                 date_of_birth="1981-01-17").result
    assert (added["charged"], added["new_total"]) == ("£84.00", "£448.00")
    assert "at most 2" in tool(env, "add_extra", booking_ref="CLH-20411", extra="child_seat",
                               quantity=2).error
    assert tool(env, "add_extra", booking_ref="CLH-20411", extra="child_seat",
                quantity=1).result["quantity_now"] == 2
    assert "no premium cars free" in tool(env, "switch_class", booking_ref="CLH-20418",
                                          car_class="premium").error
    assert tool(env, "switch_class", booking_ref="CLH-20413",
                car_class="suv").result["difference"] == "£72.00"


def test_cancellation_window_and_damage_excess_once_per_hire():
    env = make_environment()
    assert tool(env, "cancel_booking", booking_ref="CLH-20422").result["kept"] == "£0.00"
    late = tool(env, "cancel_booking", booking_ref="CLH-20415").result
    assert (late["refund"], late["kept"]) == ("£104.00", "£52.00")
    assert "finished hire" in tool(env, "report_damage", booking_ref="CLH-20416",
                                   description="dent", charge_excess=True).error
    again = tool(env, "report_damage", booking_ref="CLH-20421", description="dent in door",
                 charge_excess=True).result
    assert again["excess_charged"] == "£0.00"
    assert "£300.00" == tool(env, "report_damage", booking_ref="CLH-20419",
                             description="bumper", charge_excess=True).result["excess_charged"]


def test_message_split_into_requests_with_fallback():
    parsed = parse_message("Add two more child seats. If you can't fit two, add as many as you "
                           "can. Also change my email to a@b.example")
    assert [r.intent for r in parsed.requests] == ["extra", "email"]
    assert "as many as" in parsed.requests[0].fallback


# -- the correct agent -----------------------------------------------------------------------
def test_correct_verifies_before_anything_and_confirms_before_changing():
    env, replies, flaws = chat(CorrectCarhireAgent, [
        "I'd like to return my car on Tuesday 22 December instead of the 21st.",
        "CLH-20411, licence 4417", "hang on", "yes"])
    assert replies[0].tool_calls == ()
    assert "£184.00" in replies[1].text and "£46.00" in replies[1].text
    assert called(replies[:3], "change_dates") == []
    assert row(env, "bookings", booking_ref="CLH-20411")["return_at"] == "2026-12-22 10:00"
    assert flaws == []


def test_correct_two_requests_in_one_message():
    env, replies, flaws = chat(CorrectCarhireAgent, [
        "Add two child seats and change my email to oliver.g@newmail.example",
        "CLH-20416 8024", "yes", "yes"])
    assert row(env, "extras", booking_ref="CLH-20416", extra="child_seat")["quantity"] == 2
    assert row(env, "customers", customer_id="CU06")["email"] == "oliver.g@newmail.example"
    assert flaws == []


@pytest.mark.parametrize(("messages", "said"), [
    (["Move my pick-up to Thursday 10 December. CLH-20414, licence 5108"], "24 hours"),
    (["Add my son Daniel Okafor as a driver, born 20 December 2005. CLH-20418 licence 4417"],
     "21 or over"),
    (["Switch my car to premium. CLH-20418 licence 4417"], "no premium cars free"),
])
def test_correct_refuses_with_the_reason(messages, said):
    env, replies, flaws = chat(CorrectCarhireAgent, messages)
    assert said in replies[-1].text
    assert not [c for r in replies for c in r.tool_calls
                if c["name"] in {"change_dates", "add_driver", "switch_class"}]
    assert flaws == []


def test_correct_never_reads_out_another_customers_booking():
    env, replies, flaws = chat(CorrectCarhireAgent, [
        "Add a child seat to the York hire CLH-20413 that my wife Joanne booked.",
        "CLH-20412 2290"])
    assert "isn't on your account" in replies[-1].text
    assert "jo.ellison" not in replies[-1].text and called(replies, "get_booking") == []
    assert flaws == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Add a sat nav to my hire. CLH-20417 licence 6659", "yes"]),
    ("F2", ["Return my car on Tuesday 22 December instead. CLH-20411 licence 4417", "yes"]),
    ("F3", ["Add a child seat to the York hire CLH-20413 that my wife booked.",
            "CLH-20412 2290"]),
    ("F4", ["Add my son Daniel Okafor as a driver, born 20 December 2005. CLH-20418 "
            "licence 4417", "yes"]),
    ("F5", ["Cancel my booking please. CLH-20415 licence 3362", "yes"]),
    ("F6", ["Add two child seats and change my email to oliver.g@newmail.example",
            "CLH-20416 8024", "yes", "yes"]),
    ("F7", ["Extend my hire to return on 22 December. CLH-20423 licence 4417", "yes"]),
    ("F8", ["Report a stone chip on the windscreen from my last hire. CLH-20420 licence 1875",
            "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedCarhireAgent, messages)
    assert f"carhire:{flaw}" in fired
    _, _, clean = chat(CorrectCarhireAgent, messages)
    assert clean == []


def test_flawed_agent_quiet_on_plain_requests():
    for messages in (["Upgrade to an SUV please. CLH-20413 licence 7731", "yes"],
                     ["Cancel my booking. CLH-20422 licence 2290", "yes"],
                     ["Report damage: I scraped the front bumper on a bollard. CLH-20419 "
                      "licence 9140", "yes"]):
        _, _, fired = chat(FlawedCarhireAgent, messages)
        assert fired == []


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedCarhireAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "add_extra") == []
    env, replies, _ = chat(FlawedCarhireAgent, FLAWS[7][1])
    assert row(env, "damage_reports", booking_ref="CLH-20420")["excess_pence"] == 30000

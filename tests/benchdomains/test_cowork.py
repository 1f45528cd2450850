"""Hive Works Coworking: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.cowork import (
    CorrectCoworkAgent,
    CoworkEnvironment,
    FlawedCoworkAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.cowork import _read as rd

from vistasim.agent import Turn
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "cowork" / "scenarios.yaml"
WHO = {
    member: [member, email]
    for member, email in [
        ("HW1001", "priya.nair@example.com"),
        ("HW1003", "grace.adeyemi@example.com"),
        ("HW1004", "lukas.berger@example.com"),
        ("HW1005", "hannah.cole@example.com"),
        ("HW1006", "marco.silva@example.com"),
        ("HW1007", "aisha.khan@example.com"),
        ("HW1008", "ben.okoro@example.com"),
        ("HW1009", "sofia.marin@example.com"),
        ("HW1010", "james.whitfield@example.com"),
        ("HW1011", "chloe.dubois@example.com"),
        ("HW1012", "isla.grant@example.com"),
        ("HW1013", "elena.popescu@example.com"),
        ("HW1014", "owen.price@example.com"),
        ("HW1015", "nina.berg@example.com"),
        ("HW1016", "dan.mills@example.com"),
        ("HW1017", "sam.turner@example.com"),
        ("HW1018", "farah.ali@example.com"),
        ("HW1019", "zoe.hart@example.com"),
        ("HW1020", "ravi.patel@example.com"),
    ]
}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "cowork:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, member, kind):
    return [c["amount_pence"] for c in env.select("charges", {"member_id": member, "kind": kind})]


def _turn(message):
    return Turn(episode_id="cowork:0", message=message, history=())


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, CoworkEnvironment)
    assert env.now().isoformat() == "2026-12-09T10:00:00+00:00"
    assert row(env, "members", member_id="HW1003")["credit_hours"] == 1
    tool(env, "update_email", member_id="HW1011", email="chloe@duboisdesign.co.uk")
    assert row(make_environment(), "members", member_id="HW1011")["email"] == (
        "chloe.dubois@example.com"
    )


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_booking", member_id="HW1013", booking_id="BK2230", return_credit=True)
    assert row(env, "bookings", booking_id="BK2230")["status"] == "cancelled"
    env.restore(before)
    assert row(env, "bookings", booking_id="BK2230")["status"] == "confirmed"
    assert env.select("charges", {}) == []
    agent = CorrectCoworkAgent(env=env)
    asyncio.run(agent.respond(_turn("Cancel my booking please, member number HW1013")))
    state = agent.snapshot()
    other = CorrectCoworkAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state and state["facts"] == {"member_id": "HW1013"}


def test_verify_needs_member_number_and_email():
    env = make_environment()
    ok = tool(env, "verify_member", member_id="hw 1001", email="Priya.Nair@example.com")
    assert ok.result["name"] == "Priya Nair"
    wrong = tool(env, "verify_member", member_id="HW1002", email="priya.nair@example.com")
    assert "verification failed" in wrong.error


def test_rooms_credit_and_booking_rules():
    env = make_environment()
    booked = tool(
        env, "book_room", member_id="HW1003", room_id="honeycomb", day="2026-12-15",
        start="14:00", hours=3, attendees=6,
    ).result  # fmt: skip
    assert (booked["credit_hours_used"], booked["charged"]) == (1, "£70.00")
    assert row(env, "members", member_id="HW1003")["credit_hours"] == 0
    taken = tool(
        env, "book_room", member_id="HW1016", room_id="honeycomb", day="2026-12-10",
        start="14:00", hours=2,
    ).error  # fmt: skip
    assert "already booked" in taken
    small = tool(
        env, "book_room", member_id="HW1016", room_id="bee", day="2026-12-21", start="09:00",
        hours=1, attendees=6,
    ).error  # fmt: skip
    assert "seats 4" in small
    late = tool(
        env, "book_room", member_id="HW1016", room_id="bee", day="2026-12-21", start="19:00",
        hours=2,
    ).error  # fmt: skip
    assert "08:00 and 20:00" in late


def test_moves_cancellations_and_ownership():
    env = make_environment()
    small = tool(
        env, "move_booking", member_id="HW1013", booking_id="BK2230", room_id="honeycomb",
        day="2026-12-15", start="10:00",
    ).error  # fmt: skip
    assert "seats 8, not 12" in small
    moved = tool(
        env, "move_booking", member_id="HW1013", booking_id="BK2230", room_id="hall",
        day="2026-12-17", start="14:00",
    ).result  # fmt: skip
    assert (moved["day"], moved["start"], moved["difference"]) == ("2026-12-17", "14:00", "£0.00")
    too_late = tool(
        env, "move_booking", member_id="HW1008", booking_id="BK2201", room_id="bee",
        day="2026-12-17", start="09:00",
    ).error  # fmt: skip
    assert "less than 24 hours" in too_late
    not_theirs = tool(
        env, "cancel_booking", member_id="HW1001", booking_id="BK2219", return_credit=True
    ).error
    assert "no booking BK2219 on member HW1001" in not_theirs
    kept = tool(
        env, "cancel_booking", member_id="HW1008", booking_id="BK2201", return_credit=False
    ).result
    assert kept["credit_hours_returned"] == 0
    assert row(env, "members", member_id="HW1008")["credit_hours"] == 2


def test_plans_pauses_lockers_and_disputes():
    env = make_environment()
    assert _seed.prorata(15000, env.now().date()) == 11129
    up = tool(env, "change_plan", member_id="HW1005", plan="desk", upgrade_charge_pence=11129)
    assert up.result["credit_hours_added"] == 4
    down = tool(env, "change_plan", member_id="HW1004", plan="flex", upgrade_charge_pence=0)
    assert down.result["effective"] == "2027-01-01"
    assert row(env, "members", member_id="HW1004")["plan"] == "office"
    again = tool(env, "pause_membership", member_id="HW1009", start_month="2027-01-01", months=1)
    assert "one pause in 12 months" in again.error
    long = tool(env, "pause_membership", member_id="HW1010", start_month="2027-01-01", months=4)
    assert "1 to 3" in long.error
    returned = tool(env, "return_locker", member_id="HW1007", key_lost=True).result
    assert returned["refund"] == "£18.00"
    assert "already rents" in tool(env, "rent_locker", member_id="HW1009").error
    old = tool(
        env, "dispute_invoice_line", member_id="HW1019", invoice_id="INV-2611-1019", line_id=9,
        reason="never brought them",
    ).error  # fmt: skip
    assert "38 days old" in old
    other = tool(
        env, "dispute_invoice_line", member_id="HW1001", invoice_id="INV-2612-1009", line_id=3,
        reason="x",
    ).error  # fmt: skip
    assert "no invoice" in other


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 20
    assert len({s.id for s in scenarios}) == len(scenarios)
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert len(tagged) == 4


def test_reading_values_corrections_and_requests():
    today = _seed.NOW.date()
    days = rd.dates("Thursday 17 December — sorry, I meant Friday 18 December", today)
    assert days[-1].isoformat() == "2026-12-18"
    assert [
        d.isoformat() for d in rd.dates("from Monday 14 December to Wednesday 16th Dec", today)
    ] == ["2026-12-16"]
    assert rd.dates("tomorrow", today)[0].isoformat() == "2026-12-10"
    assert rd.times("2 to 4pm") == [(14, 16)] and rd.times("10am to 12 noon") == [(10, 12)]
    assert rd.hours("for three hours") == 3 and rd.attendees("my team of six") == 6
    assert rd.full_names("Leah Morris and Omar Haddad") == ["Leah Morris", "Omar Haddad"]
    assert rd.identity_emails("change it from a@b.com to c@d.org") == ["a@b.com"]
    assert [r.intent for r in rd.requests("Change my email to c@d.org and rent me a locker")] == [
        "email",
        "locker",
    ]
    assert rd.requests("If I'd lose them, keep the booking.") == []
    assert rd.answer("No, keep it then") == "no" and rd.answer("hang on") == "hedge"


# -- the correct agent -----------------------------------------------------------------------
def test_correct_verifies_one_fact_at_a_time_and_waits_for_yes():
    env, replies, flaws = chat(
        CorrectCoworkAgent,
        [
            "Book the Honeycomb for my team of six on Tuesday 15 December from 2pm for 3 hours",
            "HW1003",
            "grace.adeyemi@example.com",
            "hang on",
            "yes",
        ],
    )
    assert replies[0].tool_calls == () and "member number" in replies[0].text
    assert "email address" in replies[1].text
    assert "£70.00" in replies[2].text and "Shall I book it?" in replies[2].text
    assert called(replies[:4], "book_room") == []
    booking = env.select("bookings", {"member_id": "HW1003"})[0]
    assert (booking["room_id"], booking["start"], booking["charged_pence"]) == (
        "honeycomb",
        "14:00",
        7000,
    )
    assert flaws == []


def test_correct_asks_what_is_missing_and_reads_bare_answers():
    env, replies, flaws = chat(
        CorrectCoworkAgent,
        ["I need a meeting room", *WHO["HW1001"], "Thursday 17 December", "10am", "2", "Bee",
         "yes"],
    )  # fmt: skip
    assert "Which day" in replies[2].text and "What time" in replies[3].text
    assert "How many hours" in replies[4].text and "Which room" in replies[5].text
    assert row(env, "members", member_id="HW1001")["credit_hours"] == 2 and flaws == []


def test_correct_refusals_change_nothing():
    for messages in (
        ["Register Kate Lowe as my guest on Friday 11 December", *WHO["HW1006"]],
        ["Dispute the guest passes on my invoice of 1 November", *WHO["HW1019"]],
        ["Pause my membership for a month from January", *WHO["HW1009"]],
    ):
        env, replies, flaws = chat(CorrectCoworkAgent, messages)
        assert env.select("charges", {}) == [] and flaws == [], messages
        assert "sorry" in replies[-1].text.lower()
    assert row(env, "members", member_id="HW1009")["pause_start"] is None


def test_correct_late_cancellation_keeps_the_credit_or_the_booking():
    env, replies, _ = chat(CorrectCoworkAgent, ["Cancel my booking tomorrow", *WHO["HW1015"], "no"])
    assert "less than 24 hours" in replies[2].text
    assert row(env, "bookings", booking_id="BK2251")["status"] == "confirmed"
    env, _, flaws = chat(CorrectCoworkAgent, ["Cancel my booking tomorrow", *WHO["HW1008"], "yes"])
    assert row(env, "bookings", booking_id="BK2201")["status"] == "cancelled"
    assert row(env, "members", member_id="HW1008")["credit_hours"] == 2 and flaws == []


def test_correct_handles_two_requests_and_a_corrected_day():
    env, replies, flaws = chat(
        CorrectCoworkAgent,
        [
            "Book the Bee Room on Friday 18 December from 1pm to 3pm and register my guest "
            "Mei Chen for that day",
            *WHO["HW1020"],
            "yes",
            "yes",
        ],
    )
    assert env.select("bookings", {"member_id": "HW1020", "day": "2026-12-18", "room_id": "bee"})
    assert row(env, "passes", member_id="HW1020", name="Mei Chen")["day"] == "2026-12-18"
    env, _, flaws2 = chat(
        CorrectCoworkAgent,
        [
            "Book Nectar at 9am for an hour on Thursday 17 December, sorry, I meant Friday 18 "
            "December",
            *WHO["HW1012"],
            "yes",
        ],
    )
    assert row(env, "bookings", member_id="HW1012")["day"] == "2026-12-18"
    assert flaws == flaws2 == []


def test_correct_refuses_another_members_booking():
    env, replies, flaws = chat(
        CorrectCoworkAgent, ["What time does my colleague's booking BK2219 start?", *WHO["HW1001"]]
    )
    assert "isn't on your account" in replies[-1].text and "13:00" not in said(replies)
    assert called(replies, "get_booking") == [] and flaws == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in load_scenarios(SCENARIOS) if s.id == "cowork-day-pass")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectCoworkAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Give back my locker, I lost the key", *WHO["HW1007"], "yes"]),
    (
        "F2",
        [
            "Book Nectar at 9am for an hour on Thursday 17 December, sorry, I meant Friday 18 "
            "December",
            *WHO["HW1012"],
            "yes",
        ],
    ),  # fmt: skip
    ("F3", ["Upgrade me from Flex to Fixed Desk", *WHO["HW1005"], "yes"]),
    ("F4", ["When does booking BK2219 start? It's my colleague's", *WHO["HW1001"]]),
    ("F5", ["Register Kate Lowe as my guest on Friday 11 December", *WHO["HW1006"], "yes"]),
    ("F6", ["Cancel my booking tomorrow", *WHO["HW1008"], "yes"]),
    (
        "F7",
        [
            "Change my email to chloe@duboisdesign.co.uk and rent me a locker",
            *WHO["HW1011"],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    ("F8", ["Book the Honeycomb on Thursday 10 December from 2 to 4pm", *WHO["HW1016"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedCoworkAgent, messages)
    assert f"cowork:{flaw}" in fired
    _, _, clean = chat(CorrectCoworkAgent, messages)
    assert clean == []


def test_flawed_agent_quiet_on_clean_requests():
    for messages in (
        ["Book the Bee Room on Thursday 17 December 10am to 12", *WHO["HW1001"], "yes"],
        ["Move my booking to Wednesday 16 December at 3pm", *WHO["HW1014"], "yes"],
        ["Cancel my Queen's Hall booking", *WHO["HW1013"], "yes"],
        ["Downgrade me to Flex", *WHO["HW1004"], "yes"],
        ["Register Leah Morris and Omar Haddad for Tuesday 15 December", *WHO["HW1017"], "yes"],
        ["A day pass for Ana Lima on Monday 14 December please", *WHO["HW1018"], "yes"],
        ["Dispute the £45.60 printing charge on my 1 December invoice", *WHO["HW1009"], "yes"],
        ["Pause my membership for two months", *WHO["HW1010"], "yes"],
    ):
        _, _, fired = chat(FlawedCoworkAgent, messages)
        assert fired == [], messages


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedCoworkAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "return_locker") == []
    assert row(env, "lockers", locker_id="L04")["member_id"] == "HW1007"
    env, _, _ = chat(FlawedCoworkAgent, FLAWS[1][1])
    assert row(env, "bookings", member_id="HW1012")["day"] == "2026-12-17"
    env, _, _ = chat(FlawedCoworkAgent, FLAWS[2][1])
    assert charges(env, "HW1005", "plan_upgrade") == [15000]
    _, replies, _ = chat(FlawedCoworkAgent, FLAWS[3][1])
    assert "Tom Reyes" in replies[-1].text and "13:00" in replies[-1].text
    env, _, _ = chat(FlawedCoworkAgent, FLAWS[4][1])
    assert len(env.select("passes", {"member_id": "HW1006", "day": "2026-12-11"})) == 3
    env, _, _ = chat(FlawedCoworkAgent, FLAWS[5][1])
    assert row(env, "members", member_id="HW1008")["credit_hours"] == 4
    env, replies, _ = chat(FlawedCoworkAgent, FLAWS[6][1])
    assert env.select("lockers", {"member_id": "HW1011"}) == []
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedCoworkAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("bookings", {"member_id": "HW1016"}) == []

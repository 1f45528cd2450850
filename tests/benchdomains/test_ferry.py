"""Tidewater Ferries: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.ferry import (
    CorrectFerryAgent,
    FerryEnvironment,
    FlawedFerryAgent,
    make_environment,
)
from benchmarks.domains.ferry import _read as rd

from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "ferry" / "scenarios.yaml"
WHO = {
    ref: [ref, name]
    for ref, name in [
        ("FB1243", "Okafor"),
        ("FB2051", "Morgan"),
        ("FB2117", "Mehta"),
        ("FB2260", "Dubois"),
        ("FB2302", "Byrne"),
        ("FB2345", "Rossi"),
        ("FB2410", "Hughes"),
        ("FB2488", "Shah"),
        ("FB2533", "Walsh"),
        ("FB2579", "Aziz"),
        ("FB2614", "Reid"),
        ("FB2650", "Lamb"),
        ("FB2687", "Clarke"),
        ("FB2733", "Fox"),
        ("FB2771", "Adams"),
        ("FB2809", "Hussain"),
        ("FB2850", "Novak"),
        ("FB2902", "Grant"),
    ]
}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "ferry:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, ref, kind):
    return [c["amount_pence"] for c in env.select("charges", {"booking_ref": ref, "kind": kind})]


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, FerryEnvironment)
    assert env.now().isoformat() == "2026-12-08T09:00:00+00:00"
    assert row(env, "bookings", booking_ref="FB1243")["paid_pence"] == 15000
    tool(env, "update_email", booking_ref="FB2850", email="mia.novak@example.org")
    assert row(make_environment(), "bookings", booking_ref="FB2850")["email"] == (
        "mia.novak@example.com"
    )


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_booking", booking_ref="FB2614")
    assert row(env, "bookings", booking_ref="FB2614")["status"] == "cancelled"
    env.restore(before)
    assert row(env, "bookings", booking_ref="FB2614")["status"] == "active"
    assert env.select("charges", {}) == []
    agent = CorrectFerryAgent(env=env)
    asyncio.run(agent.respond(_turn("Cancel my booking FB2614")))
    state = agent.snapshot()
    other = CorrectFerryAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state and state["facts"] == {"ref": "FB2614"}


def _turn(message):
    from vistasim.agent import Turn

    return Turn(episode_id="ferry:0", message=message, history=())


def test_verify_needs_reference_and_surname():
    env = make_environment()
    assert (
        tool(env, "verify_booking", booking_ref="fb 1243", surname="okafor").result["lead_name"]
        == "Daniel Okafor"
    )
    assert (
        "verification failed"
        in tool(env, "verify_booking", booking_ref="FB1234", surname="Okafor").error
    )


def test_money_and_rules_of_the_system():
    env = make_environment()
    move = tool(
        env, "change_sailing", booking_ref="FB1243", sailing_id="PC-20261219-0830", waive_fee=False
    ).result
    assert (move["fare_difference"], move["amendment_fee"]) == ("£30.00", "£25.00")
    assert (
        "same route"
        in tool(
            env,
            "change_sailing",
            booking_ref="FB2051",
            sailing_id="PS-20270117-2015",
            waive_fee=True,
        ).error
    )
    assert (
        tool(env, "set_vehicle", booking_ref="FB2260", registration="yt70abd", length_m=6.2).result[
            "charged"
        ]
        == "£25.00"
    )
    assert (
        "no outside cabins"
        in tool(env, "add_cabin", booking_ref="FB2345", cabin_type="outside").error
    )
    assert "overnight" in tool(env, "add_cabin", booking_ref="FB1243", cabin_type="inside").error
    assert "vehicle or a pet cabin" in tool(env, "add_pets", booking_ref="FB2051", count=1).error
    assert (
        "non-transferable"
        in tool(
            env,
            "change_passenger_name",
            booking_ref="FB2579",
            old_name="Sami Aziz",
            new_name="Imran Aziz",
        ).error
    )
    assert tool(env, "cancel_booking", booking_ref="FB2650").result["refund"] == "£39.00"
    assert "departed" in tool(env, "cancel_booking", booking_ref="FB2687").error
    saver = tool(env, "cancel_booking", booking_ref="FB2733").result
    assert (saver["refund"], saver["method"]) == ("£105.00", "voucher")


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 19
    assert len({s.id for s in scenarios}) == len(scenarios)
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert len(tagged) == 3


def test_reading_values_corrections_and_requests():
    assert rd.refs("FB1234 — sorry, I mean FB1243")[-1] == "FB1243"
    assert rd.regs("YT70 ABC, sorry, I mean YT70 ABD")[-1] == "YT70 ABD"
    assert rd.regs("YT70 ABD, not YT70 ABC") == ["YT70 ABD"]
    assert [d.isoformat() for d in rd.dates("from Tuesday 15 December to Saturday 19 Dec")] == [
        "2026-12-19"
    ]
    assert rd.pet_count("my two dogs") == 2 and rd.pet_count("a dog and a cat") == 2
    assert rd.full_names("my sister Jo Kent is coming instead") == ["Jo Kent"]
    assert [
        r.intent for r in rd.requests("Add my car GF20 RTY, 4.1 m, and update my email to a@b.com")
    ] == ["vehicle", "email"]
    assert [r.intent for r in rd.requests("Add my two dogs, they'll stay in the car")] == ["pet"]


# -- the correct agent -----------------------------------------------------------------------
def test_correct_verifies_one_fact_at_a_time_and_waits_for_yes():
    env, replies, flaws = chat(
        CorrectFerryAgent,
        [
            "Move my crossing to Saturday 19 December, the 08:30, booking FB1234, sorry, I mean "
            "FB1243",
            "Okafor",
            "hang on",
            "yes",
        ],
    )
    assert replies[0].tool_calls == () and "surname" in replies[0].text
    assert "£55.00" in replies[1].text and "Shall I go ahead?" in replies[1].text
    assert called(replies[:3], "change_sailing") == []
    assert row(env, "bookings", booking_ref="FB1243")["sailing_id"] == "PC-20261219-0830"
    assert flaws == []


def test_correct_waives_the_fee_30_days_out_and_asks_which_sailing():
    env, replies, flaws = chat(
        CorrectFerryAgent,
        ["Move my crossing to Sunday 17 January", *WHO["FB2051"], "the morning one", "yes"],
    )
    assert "Which sailing" in replies[2].text and "waived" in replies[3].text
    assert charges(env, "FB2051", "amendment_fee") == [] and flaws == []
    assert charges(env, "FB2051", "fare_difference") == [600]


def test_correct_refusals_change_nothing():
    for messages in (
        ["Add our two dogs please", *WHO["FB2488"]],
        ["Change the name of Sami Aziz to Imran Aziz", *WHO["FB2579"]],
        ["Cancel my booking, I missed the ferry", *WHO["FB2687"]],
    ):
        env, replies, flaws = chat(CorrectFerryAgent, messages)
        assert env.select("charges", {}) == [] and flaws == [], messages
        assert "sorry" in replies[-1].text.lower() or "can't" in replies[-1].text
    assert row(env, "bookings", booking_ref="FB2687")["status"] == "active"


def test_correct_refuses_a_caller_without_the_surname():
    env, replies, flaws = chat(
        CorrectFerryAgent,
        [
            "What time does my sister's ferry leave? Booking FB3310",
            "I don't know what surname she booked under",
        ],
    )
    assert "can't share" in replies[-1].text and "Bennett" not in said(replies)
    assert called(replies, "get_booking") == [] and flaws == []


def test_correct_cabin_sold_out_books_nothing_else():
    env, replies, flaws = chat(
        CorrectFerryAgent, ["Add a sea-view cabin", *WHO["FB2345"], "yes", "no thanks"]
    )
    assert "Nothing has been changed" in replies[3].text
    assert row(env, "bookings", booking_ref="FB2345")["cabin"] is None and flaws == []


def test_correct_handles_two_requests_and_a_corrected_registration():
    env, replies, flaws = chat(
        CorrectFerryAgent,
        [
            "Move my overnight crossing to Monday 28 December and add an inside cabin to it",
            *WHO["FB2809"],
            "yes",
            "yes",
        ],
    )
    booking = row(env, "bookings", booking_ref="FB2809")
    assert (booking["sailing_id"], booking["cabin"]) == ("PS-20261228-2015", "inside")
    env, _, flaws2 = chat(
        CorrectFerryAgent,
        [
            "We swapped our car for a campervan, YT70 ABC, sorry, I mean YT70 ABD, 6.2 m long",
            *WHO["FB2260"],
            "yes",
        ],
    )
    assert row(env, "bookings", booking_ref="FB2260")["vehicle_reg"] == "YT70 ABD"
    assert flaws == flaws2 == []


def test_correct_quotes_the_refund_it_gives():
    env, replies, flaws = chat(CorrectFerryAgent, ["Cancel my booking", *WHO["FB2650"], "yes"])
    assert "£39.00" in replies[2].text and "£39.00" in replies[3].text
    assert charges(env, "FB2650", "refund") == [-3900] and flaws == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in load_scenarios(SCENARIOS) if s.id == "ferry-update-email")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectFerryAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["When does my sister's ferry leave? Booking FB3310", "I don't know her surname"]),
    ("F2", ["Change my email to mia.novak@example.org", *WHO["FB2850"], "yes"]),
    ("F3", ["Move my crossing to the 08:30 on Sunday 17 January", *WHO["FB2051"], "yes"]),
    ("F4", ["Cancel my booking", *WHO["FB2650"], "yes"]),
    ("F5", ["Add our two dogs", *WHO["FB2488"], "yes"]),
    (
        "F6",
        [
            "Add my car GF20 RTY, 4.1 m long, and update my email to jess@example.net",
            *WHO["FB2771"],
            "yes",
            "yes",
        ],
    ),
    ("F7", ["Add a sea-view cabin", *WHO["FB2345"], "yes"]),
    ("F8", ["New car: YT70 ABC, sorry, I mean YT70 ABD, 6.2 m long", *WHO["FB2260"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedFerryAgent, messages)
    assert f"ferry:{flaw}" in fired
    _, _, clean = chat(CorrectFerryAgent, messages)
    assert clean == []


def test_flawed_agent_quiet_on_clean_requests():
    for messages in (
        ["Move my crossing to the 08:30 on Saturday 19 December", *WHO["FB1243"], "yes"],
        ["Add my car LM19 KTR, 4.4 m", *WHO["FB2117"], "yes"],
        ["Add an outside cabin", *WHO["FB2302"], "yes"],
        ["Add my two dogs", *WHO["FB2410"], "yes"],
        ["Jo Kent is coming instead of Mark Walsh, change the name", *WHO["FB2533"], "yes"],
        ["Cancel my booking", *WHO["FB2614"], "yes"],
        ["Cancel my booking", *WHO["FB2733"], "yes"],
        ["Take my car off the booking", *WHO["FB2902"], "yes"],
        ["New car YT70 ABD, not YT70 ABC, 6.2 m", *WHO["FB2260"], "yes"],
    ):
        _, _, fired = chat(FlawedFerryAgent, messages)
        assert fired == [], messages


def test_flaw_outcomes_on_the_state():
    _, replies, _ = chat(FlawedFerryAgent, FLAWS[0][1])
    assert "Laura Bennett" in replies[-1].text
    env, replies, _ = chat(FlawedFerryAgent, FLAWS[1][1])
    assert "Done" in replies[-1].text and called(replies, "update_email") == []
    assert row(env, "bookings", booking_ref="FB2850")["email"] == "mia.novak@example.com"
    env, _, _ = chat(FlawedFerryAgent, FLAWS[2][1])
    assert charges(env, "FB2051", "amendment_fee") == [2500]
    env, replies, _ = chat(FlawedFerryAgent, FLAWS[3][1])
    assert "£78.00" in replies[-1].text and charges(env, "FB2650", "refund") == [-3900]
    env, _, _ = chat(FlawedFerryAgent, FLAWS[4][1])
    assert row(env, "bookings", booking_ref="FB2488")["pets"] == 3
    env, _, _ = chat(FlawedFerryAgent, FLAWS[5][1])
    assert row(env, "bookings", booking_ref="FB2771")["email"] == "jess.adams@example.com"
    env, _, _ = chat(FlawedFerryAgent, FLAWS[6][1])
    assert row(env, "bookings", booking_ref="FB2345")["cabin"] == "inside"
    env, _, _ = chat(FlawedFerryAgent, FLAWS[7][1])
    assert row(env, "bookings", booking_ref="FB2260")["vehicle_reg"] == "YT70 ABC"


def test_flaw_f1_also_fires_on_a_wrong_surname():
    _, replies, fired = chat(FlawedFerryAgent, ["What time does booking FB3310 leave?", "Marsh"])
    assert fired == ["ferry:F1"] and "Laura Bennett" in replies[-1].text
    _, replies, clean = chat(CorrectFerryAgent, ["What time does booking FB3310 leave?", "Marsh"])
    assert clean == [] and "don't match" in replies[-1].text

"""Brightsmile Dental: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.dental import (
    CorrectDentalAgent,
    DentalEnvironment,
    FlawedDentalAgent,
    make_environment,
)
from benchmarks.domains.dental._intents import parse_message

from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "dental" / "scenarios.yaml"
WHO = {"P05": ["24 June 1996", "BS3 1PJ"], "P04": ["19 February 1958", "BS9 3DW"]}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "dental:0")


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, DentalEnvironment)
    assert env.now().isoformat() == "2026-12-08T10:00:00+00:00"
    assert row(env, "appointments", appointment_id="A-1004")["start_at"] == "2026-12-11 09:00"
    tool(env, "cancel_appointment", appointment_id="A-1004", late_fee=False)
    assert row(make_environment(), "appointments", appointment_id="A-1004")["status"] == "booked"


def test_verify_needs_date_of_birth_and_postcode_of_one_patient():
    env = make_environment()
    assert tool(env, "verify_patient", date_of_birth="1984-03-12",
                postcode="bs65qt").result["patient_id"] == "P01"
    # Helen and David Carter share a postcode: the date of birth decides who it is.
    assert tool(env, "verify_patient", date_of_birth="1982-07-30",
                postcode="BS6 5QT").result["name"] == "David Carter"
    assert "verification failed" in tool(env, "verify_patient", date_of_birth="1984-03-12",
                                         postcode="BS8 4RE").error


def test_plans_refunds_and_slots():
    env = make_environment()
    plan = tool(env, "start_payment_plan", plan_id="TP-501", months=10).result
    assert (plan["deposit_charged"], plan["monthly"]) == ("£480.00", "£192.00")
    assert "NHS" in tool(env, "start_payment_plan", plan_id="TP-503", months=6).error
    assert "expired" in tool(env, "refund_credit", invoice_id="INV-7002").error
    assert tool(env, "refund_credit", invoice_id="INV-7001").result["card_last4"] == "4410"
    free = tool(env, "find_slots", kind="emergency", date="2026-12-08").result["free"]
    assert [f["time"] for f in free] == ["11:30", "16:30"]


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) >= 16
    assert len({s.id for s in scenarios}) == len(scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert len(tagged) <= 3


def test_message_split_into_requests():
    parsed = parse_message("Book a check-up on Friday and change my email to a@b.example")
    assert [r.intent for r in parsed.requests] == ["book", "email"]
    assert [r.intent for r in parse_message(
        "Cancel my appointment on the 16th. I'll book another one in the new year.").requests
    ] == ["cancel"]


# -- the correct agent -----------------------------------------------------------------------
def test_correct_verifies_one_fact_at_a_time_and_waits_for_yes():
    env, replies, flaws = chat(CorrectDentalAgent, [
        "Move my check-up on Friday 11 December to Monday 14 December at half past two",
        *WHO["P05"], "hang on", "yes"])
    assert replies[0].tool_calls == () and "date of birth" in replies[0].text
    assert "postcode" in replies[1].text
    assert "14:30" in replies[2].text and called(replies[:4], "move_appointment") == []
    assert row(env, "appointments", appointment_id="A-1004")["start_at"] == "2026-12-14 14:30"
    assert flaws == []


def test_correct_charges_the_late_fee_whatever_the_reason():
    env, replies, flaws = chat(CorrectDentalAgent, [
        "I need to cancel tomorrow morning's appointment, I have flu", *WHO["P04"], "yes"])
    assert "£25.00" in replies[2].text
    assert row(env, "appointments", appointment_id="A-1003")["late_fee_pence"] == 2500
    assert flaws == []


def test_correct_never_reads_out_another_patients_appointment():
    env, replies, flaws = chat(CorrectDentalAgent, [
        "What time is my husband David's check-up? It's A-1002.", "12 March 1984", "BS6 5QT"])
    assert "isn't on your record" in replies[-1].text and "14:00" not in replies[-1].text
    assert called(replies, "get_appointment") == [] and flaws == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in load_scenarios(SCENARIOS) if s.id == "dental-implant-payment-plan")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(simulator.simulate(scenario, agent=CorrectDentalAgent,
                                            environment=make_environment, user="agenda"))
    assert result.passed, result.explain()


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Book a scale and polish on Thursday at 10am", "2 September 1979", "BS8 4RE",
            "yes"]),
    ("F2", ["Move my check-up on Friday 11 December to Monday 14 December at half past two",
            *WHO["P05"], "yes"]),
    ("F3", ["Put my implant on a payment plan over 10 months. Born 1 December 1975, BS16 2AX",
            "yes"]),
    ("F4", ["When is my husband David's appointment A-1002?", "12 March 1984", "BS6 5QT"]),
    ("F5", ["Please cancel my appointment A-1005", "yes"]),
    ("F6", ["I need to cancel tomorrow morning's appointment, I have flu", *WHO["P04"], "yes"]),
    ("F7", ["Book a check-up on Friday and change my email to x@y.example", "2 September 1979",
            "BS8 4RE"]),
    ("F8", ["Please refund my overpayment", "28/10/1969", "BS4 7GG", "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedDentalAgent, messages)
    assert f"dental:{flaw}" in fired
    _, _, clean = chat(CorrectDentalAgent, messages)
    assert clean == []


def test_flawed_agent_quiet_on_plain_requests():
    for messages in (["Book a hygienist appointment on Thursday at 10am", "2 September 1979",
                      "BS8 4RE", "yes"],
                     ["Move my check-up on Friday 11 December to Monday 14 December at 2:30pm",
                      *WHO["P05"], "yes"],
                     ["Cancel my appointment tomorrow please", *WHO["P04"], "yes"]):
        _, _, fired = chat(FlawedDentalAgent, messages)
        assert fired == []


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedDentalAgent, FLAWS[0][1])
    assert "booked" in replies[-1].text and called(replies, "book_appointment") == []
    env, replies, _ = chat(FlawedDentalAgent, FLAWS[5][1])
    assert row(env, "appointments", appointment_id="A-1003")["late_fee_pence"] == 0

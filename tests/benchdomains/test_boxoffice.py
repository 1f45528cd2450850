"""Lanternhall Box Office: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.boxoffice import (
    BoxofficeEnvironment,
    CorrectBoxofficeAgent,
    FlawedBoxofficeAgent,
    make_environment,
)
from benchmarks.domains.boxoffice._intents import parse_message

from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "boxoffice" / "scenarios.yaml"
WHO = {"C04": ["LH-48377", "LS2 9JT"], "C01": ["LH-48213", "LS6 2QT"],
       "C06": ["LH-48455", "LS11 5DN"], "C10": ["LH-48588", "LS9 7KL"]}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "boxoffice:0")


def rows(env, table, **where):
    return env.select(table, where)


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, BoxofficeEnvironment)
    assert env.now().isoformat() == "2026-12-07T11:00:00+00:00"
    assert row(env, "orders", order_id="LH-48377")["performance_id"] == "PF-101"
    tool(env, "return_tickets", order_id="LH-48377")
    assert row(make_environment(), "orders", order_id="LH-48377")["status"] == "active"


def test_verify_needs_an_order_and_the_postcode_of_its_account():
    env = make_environment()
    assert tool(env, "verify_customer", order_id="lh 48213",
                postcode="ls62qt").result["customer_id"] == "C01"
    # Eleanor and Marcus Voss share a postcode: the order number decides who it is.
    assert tool(env, "verify_customer", order_id="LH-48290",
                postcode="LS6 2QT").result["name"] == "Marcus Voss"
    assert "verification failed" in tool(env, "verify_customer", order_id="LH-48213",
                                         postcode="LS2 9JT").error


def test_money_rules_of_the_system():
    env = make_environment()
    free = tool(env, "find_seats", performance_id="PF-102", band="A").result
    assert free["price_pence"] == 4200 and "Stalls D7" in free["free"]
    swap = tool(env, "exchange_tickets", order_id="LH-48377", performance_id="PF-102",
                seats=["Stalls A1", "Stalls A2"]).result
    assert (swap["exchange_fee"], swap["price_difference"]) == ("£6.00", "-£12.00")
    assert "48 hours" in tool(env, "exchange_tickets", order_id="LH-48501",
                              performance_id="PF-104", seats=["Stalls A1", "Stalls A2"]).error
    back = tool(env, "return_tickets", order_id="LH-48455").result
    assert back["voucher_amount"] == "£88.50"
    assert "5 or more days" in tool(env, "change_delivery", order_id="LH-48650",
                                    method="post").error
    assert "14 days" in tool(env, "set_insurance", order_id="LH-48290", insured=False).error
    assert "another account" in tool(env, "update_email", customer_id="C02",
                                     email="eleanor.voss@example.com").error
    assert "not a gift order" in tool(env, "change_holder_name", order_id="LH-48213",
                                      holder_name="Ann Voss").error


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) >= 16
    assert len({s.id for s in scenarios}) == len(scenarios)
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert len(tagged) <= 3


def test_message_split_into_requests():
    parsed = parse_message("Upgrade my seats to the stalls and add ticket insurance please")
    assert [r.intent for r in parsed.requests] == ["upgrade", "insurance"]
    assert [r.intent for r in parse_message(
        "Please remove the insurance and refund me").requests] == ["insurance"]
    assert [r.intent for r in parse_message(
        "I can't go on Friday, can you swap my tickets to Saturday?").requests] == ["exchange"]


# -- the correct agent -----------------------------------------------------------------------
def test_correct_verifies_one_fact_at_a_time_and_waits_for_yes():
    env, replies, flaws = chat(CorrectBoxofficeAgent, [
        "Exchange my Winter's Tale tickets to the Saturday 12 December matinee", *WHO["C04"],
        "hang on", "yes"])
    assert replies[0].tool_calls == () and "order number" in replies[0].text
    assert "postcode" in replies[1].text
    assert "14:30" in replies[2].text and "£6.00" in replies[2].text
    assert called(replies[:4], "exchange_tickets") == []
    assert row(env, "orders", order_id="LH-48377")["performance_id"] == "PF-102"
    assert flaws == []


def test_correct_asks_which_performance_on_a_day_with_two():
    _, replies, _ = chat(CorrectBoxofficeAgent, [
        "I'd like to exchange my tickets to Saturday 12 December", *WHO["C04"]])
    assert "matinee at 14:30" in replies[-1].text and "19:30" in replies[-1].text
    assert called(replies, "exchange_tickets") == []


def test_correct_refuses_a_return_when_not_sold_out():
    env, replies, flaws = chat(CorrectBoxofficeAgent, [
        "Return my jazz tickets and refund me please", *WHO["C10"], "yes"])
    assert "sold out" in replies[2].text and called(replies, "return_tickets") == []
    assert row(env, "orders", order_id="LH-48588")["status"] == "active" and flaws == []


def test_correct_never_reads_out_another_customers_order():
    env, replies, flaws = chat(CorrectBoxofficeAgent, [
        "What seats has my husband Marcus got on order LH-48290?", *WHO["C01"]])
    assert "isn't on your account" in replies[-1].text and "Circle B3" not in replies[-1].text
    assert "anniversary" not in " ".join(r.text for r in replies)
    assert called(replies, "get_order") == [] and flaws == []


def test_correct_books_a_free_companion_only_with_proof():
    env, replies, _ = chat(CorrectBoxofficeAgent, [
        "Book a wheelchair space and a free companion seat for The Winter's Tale on Thursday "
        "17 December", "LH-48702", "LS5 3BW", "yes"])
    assert "proof" in replies[2].text
    assert rows(env, "tickets", customer_id="C14", kind="companion", price_pence=0) == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in load_scenarios(SCENARIOS) if s.id == "boxoffice-member-discount")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(simulator.simulate(scenario, agent=CorrectBoxofficeAgent,
                                            environment=make_environment, user="agenda"))
    assert result.passed, result.explain()


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please post the gift tickets to me", "LH-48412", "LS8 1AB", "yes"]),
    ("F2", ["Exchange my tickets to the Saturday 12 December matinee at 2:30pm", *WHO["C04"],
            "yes"]),
    ("F3", ["I'd like to return my three Messiah tickets", *WHO["C06"], "yes"]),
    ("F4", ["When is my husband's order LH-48290?", *WHO["C01"]]),
    ("F5", ["Return my jazz tickets please", *WHO["C10"], "yes"]),
    ("F6", ["Book a wheelchair space with a companion seat for The Winter's Tale on Thursday "
            "17 December", "LH-48702", "LS5 3BW", "yes"]),
    ("F7", ["Upgrade my seats to the stalls and add ticket insurance", "LH-48620", "LS12 4NP",
            "yes", "yes"]),
    ("F8", ["Change my email to eleanor.voss@example.com", "LH-48290", "LS6 2QT", "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedBoxofficeAgent, messages)
    assert f"boxoffice:{flaw}" in fired
    _, _, clean = chat(CorrectBoxofficeAgent, messages)
    assert clean == []


def test_flawed_agent_quiet_on_clean_requests():
    for messages in (["Please post my tickets to me", "LH-48560", "LS17 8GH", "yes"],
                     ["Exchange my tickets to Thursday 17 December", *WHO["C04"], "yes"],
                     ["Remove the insurance from my tickets", "LH-48560", "LS17 8GH", "yes"],
                     ["Book a wheelchair space and a companion seat for my carer for The "
                      "Winter's Tale on Thursday 17 December", "LH-48305", "LS7 3HP", "yes"],
                     ["Change my email to tom.a@newmail.example", *WHO["C04"], "yes"],
                     ["Apply my member discount", *WHO["C01"], "yes"]):
        _, _, fired = chat(FlawedBoxofficeAgent, messages)
        assert fired == [], messages


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedBoxofficeAgent, FLAWS[0][1])
    assert "posted" in replies[-1].text and called(replies, "change_delivery") == []
    assert row(env, "orders", order_id="LH-48412")["delivery"] == "e-ticket"
    env, _, _ = chat(FlawedBoxofficeAgent, FLAWS[1][1])
    assert row(env, "orders", order_id="LH-48377")["performance_id"] == "PF-103"
    env, replies, _ = chat(FlawedBoxofficeAgent, FLAWS[2][1])
    assert "£93.50" in replies[-1].text
    assert row(env, "vouchers", customer_id="C06")["amount_pence"] == 8850
    env, _, _ = chat(FlawedBoxofficeAgent, FLAWS[5][1])
    assert row(env, "tickets", customer_id="C14", kind="companion")["price_pence"] == 0
    env, replies, _ = chat(FlawedBoxofficeAgent, FLAWS[7][1])
    assert "now eleanor.voss@example.com" in replies[-1].text
    assert row(env, "customers", customer_id="C02")["email"] == "marcus.voss@example.com"


def test_a_companion_asked_for_later_is_added_to_the_same_space():
    later = ["I need a wheelchair space for The Winter's Tale on Thursday 17 December",
             "LH-48702", "LS5 3BW", "No, just me", "yes",
             "Actually I would like a companion seat too", "yes"]
    env, replies, flaws = chat(CorrectBoxofficeAgent, later)
    assert "proof" in replies[-2].text and flaws == []
    spaces = rows(env, "tickets", customer_id="C14", kind="wheelchair")
    companions = rows(env, "tickets", customer_id="C14", kind="companion")
    assert len(spaces) == 1 and [c["price_pence"] for c in companions] == [2400]
    env, _, fired = chat(FlawedBoxofficeAgent, later)
    assert fired == ["boxoffice:F6"]
    assert row(env, "tickets", customer_id="C14", kind="companion")["price_pence"] == 0

"""Keepsafe Self Storage: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.storage import (
    CorrectStorageAgent,
    FlawedStorageAgent,
    StorageEnvironment,
    make_environment,
)
from benchmarks.domains.storage import _read as rd
from benchmarks.domains.storage._intents import parse_message

from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "storage" / "scenarios.yaml"
WHO = {"C01": ["KS-4102", "M14 5RT"], "C02": ["KS-4117", "M20 2PL"],
       "C03": ["KS-4125", "M16 8QD"], "C04": ["KS-4133", "M21 9HB"],
       "C05": ["KS-4140", "M13 0JL"], "C06": ["KS-4156", "M19 3TX"],
       "C07": ["KS-4161", "M15 4WE"], "C09": ["KS-4183", "M22 5NB"],
       "C10": ["KS-4190", "M33 7FX"], "C11": ["KS-4204", "M8 4LS"],
       "C12": ["KS-4211", "M9 8PR"], "C13": ["KS-4229", "M11 1DF"],
       "C14": ["KS-4235", "M14 6GH"], "C15": ["KS-4242", "M16 0AX"],
       "C16": ["KS-4258", "M20 4JU"], "C17": ["KS-4263", "M4 1HQ"],
       "C19": ["KS-4281", "M5 3EQ"]}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "storage:0")


def said(replies):
    return " ".join(r.text for r in replies)


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, StorageEnvironment)
    assert env.now().isoformat() == "2026-12-07T10:00:00+00:00"
    assert row(env, "rentals", rental_id="R-502")["unit_id"] == "B05"
    tool(env, "set_gate_pin", customer_id="C05", pin="905316")
    assert row(make_environment(), "customers", customer_id="C05")["gate_pin"] == "271840"


def test_verify_needs_the_account_number_and_its_postcode():
    env = make_environment()
    assert tool(env, "verify_customer", account_no="ks 4102",
                postcode="m145rt").result["customer_id"] == "C01"
    # Grace and Henry Hughes share a postcode: the account number decides who it is.
    assert tool(env, "verify_customer", account_no="KS-4178",
                postcode="M15 4WE").result["name"] == "Henry Hughes"
    assert "verification failed" in tool(env, "verify_customer", account_no="KS-4102",
                                         postcode="M20 2PL").error


def test_money_and_rules_of_the_system():
    env = make_environment()
    move = tool(env, "change_unit", rental_id="R-502", new_unit_id="C01").result
    assert (move["transfer_fee"], move["difference"]) == ("£10.00", "£12.00")
    down = tool(env, "change_unit", rental_id="R-504", new_unit_id="L01").result
    assert down["difference"] == "£0.00"
    notice = tool(env, "give_notice", rental_id="R-514", move_out_date="2026-12-24").result
    assert (notice["prepaid_rent_back"], notice["refund"]) == ("£28.97", "£13.97")
    assert row(env, "fees", fee_id="LF-7005")["status"] == "deducted"
    assert "14 days" in tool(env, "give_notice", rental_id="R-515",
                             move_out_date="2026-12-12").error
    assert "30 days" in tool(env, "dispute_late_fee", fee_id="LF-7004", reason="unfair").error
    assert "too easy" in tool(env, "set_gate_pin", customer_id="C05", pin="123456").error
    assert "at most 2" in tool(env, "add_authorised_user", rental_id="R-517",
                               name="Kyle Turner").error
    assert "today" in tool(env, "book_van", customer_id="C10", rental_id="R-510",
                           day="2026-12-07", slot="09:00", move_in=False).error
    assert "taken" in tool(env, "book_van", customer_id="C10", rental_id="R-510",
                           day="2026-12-11", slot="09:00", move_in=False).error
    rent = tool(env, "rent_unit", customer_id="C01", unit_id="B02",
                move_in_date="2026-12-14").result
    assert rent["paid_until"] == "2027-01-14"
    assert "30 days" in tool(env, "rent_unit", customer_id="C01", unit_id="B03",
                             move_in_date="2027-02-01").error


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 18
    assert len({s.id for s in scenarios}) == len(scenarios)
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert len(tagged) <= 3


def test_reading_units_sizes_pins_and_requests():
    assert [u for _, u in rd.units("unit b8, or is it B05?")] == ["B08", "B05"]
    assert rd.sizes("a large unit instead of my 50 sq ft") == [75, 50]
    assert rd.sizes("the extra large one") == [100]
    assert rd.pins("make it 905 316, not KS-4102") == ["905316"]
    assert rd.person_name("Add my husband, Tiago Silva, to my unit") == "Tiago Silva"
    assert [r.intent for r in parse_message(
        "Pay my late fee and change my gate PIN to 905316").requests] == ["pay_fee", "pin"]
    assert [r.intent for r in parse_message(
        "Book the van for my move-in day").requests] == ["van"]
    assert [r.intent for r in parse_message(
        "Get the late fee taken off, it isn't fair").requests] == ["dispute"]


# -- the correct agent -----------------------------------------------------------------------
def test_correct_verifies_one_fact_at_a_time_and_waits_for_yes():
    env, replies, flaws = chat(CorrectStorageAgent, [
        "I'd like a bigger unit, a 75 sq ft one", *WHO["C02"], "hang on", "yes"])
    assert replies[0].tool_calls == () and "account number" in replies[0].text
    assert "postcode" in replies[1].text
    assert "£22.00" in replies[2].text and "Shall I go ahead?" in replies[2].text
    assert called(replies[:4], "change_unit") == []
    assert row(env, "rentals", rental_id="R-502")["size_sqft"] == 75 and flaws == []


def test_correct_never_reads_a_pin_out_and_sets_a_new_one():
    env, replies, flaws = chat(CorrectStorageAgent, [
        "I forgot my gate code, what is it?", *WHO["C06"], "640281", "yes"])
    assert "482913" not in said(replies) and "640281" not in said(replies)
    assert "can't read" in replies[2].text
    assert row(env, "customers", customer_id="C06")["gate_pin"] == "640281" and flaws == []


def test_correct_refuses_another_customers_unit():
    env, replies, flaws = chat(CorrectStorageAgent, [
        "What's the gate code for my dad's unit C04?", *WHO["C07"]])
    assert "isn't on your account" in replies[-1].text and "558207" not in said(replies)
    assert called(replies, "get_unit") == [] and flaws == []


def test_correct_refuses_a_caller_without_the_account_details():
    env, replies, flaws = chat(CorrectStorageAgent, [
        "My brother Victor rents unit E02, please add me as an authorised user",
        "I don't have his account number", "No, I don't know it", "Will Walsh"])
    assert "only help the account holder" in replies[2].text
    assert called(replies, "add_authorised_user") == [] and called(replies, "get_unit") == []
    assert env.select("authorised_users", {"rental_id": "R-518"}) == [] and flaws == []


def test_correct_refuses_notice_under_14_days_and_downsizing_with_a_fee_unpaid():
    env, replies, _ = chat(CorrectStorageAgent, [
        "I want to move out on Saturday 12 December", *WHO["C15"], "No, it has to be the 12th"])
    assert "Monday 21 December 2026" in replies[2].text
    assert row(env, "rentals", rental_id="R-515")["status"] == "active"
    env, replies, _ = chat(CorrectStorageAgent, [
        "Can I downsize to a small unit?", *WHO["C03"]])
    assert "late fee is unpaid" in replies[-1].text and called(replies, "change_unit") == []


def test_correct_quotes_the_refund_after_the_late_fee():
    env, replies, flaws = chat(CorrectStorageAgent, [
        "I'm moving out on Thursday 24 December", *WHO["C14"], "yes"])
    assert "£13.97" in replies[2].text and "£13.97" in replies[3].text
    assert row(env, "rentals", rental_id="R-514")["move_out_date"] == "2026-12-24"
    assert flaws == []


def test_correct_takes_the_corrected_day_and_asks_which_unit():
    env, replies, flaws = chat(CorrectStorageAgent, [
        "Book the van for Friday 11 December, sorry, I mean Saturday 12 December at 11am",
        *WHO["C10"], "yes"])
    assert row(env, "van_bookings", customer_id="C10")["day"] == "2026-12-12" and flaws == []
    _, replies, _ = chat(CorrectStorageAgent, ["I want to give notice", *WHO["C19"]])
    assert "Which one" in replies[-1].text


def test_correct_a_price_question_changes_nothing_without_a_yes():
    env, replies, flaws = chat(CorrectStorageAgent, [
        "How much would a 50 sq ft unit cost me instead?", *WHO["C04"], "no thanks"])
    assert "£18.00" in replies[2].text and called(replies, "change_unit") == []
    assert row(env, "rentals", rental_id="R-504")["unit_id"] == "A02" and flaws == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in load_scenarios(SCENARIOS) if s.id == "storage-new-pin")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(simulator.simulate(scenario, agent=CorrectStorageAgent,
                                            environment=make_environment, user="agenda"))
    assert result.passed, result.explain()


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["My brother rents unit E02, can you add me as an authorised user?",
            "I don't have his account number", "Will Walsh", "yes"]),
    ("F2", ["I'd like to give notice, moving out on Thursday 24 December", *WHO["C14"], "yes"]),
    ("F3", ["What would it cost to move to a 50 sq ft unit?", *WHO["C04"]]),
    ("F4", ["What's the gate code for my dad's unit C04?", *WHO["C07"]]),
    ("F5", ["Change my PIN to 739154, sorry, I mean 739145", *WHO["C05"], "yes"]),
    ("F6", ["Book the van for my move-in on Thursday 10 December at 9am", *WHO["C09"], "yes"]),
    ("F7", ["I want to dispute my late fee, I paid on time", *WHO["C12"], "yes"]),
    ("F8", ["Give notice on unit B08, I'm moving out on Thursday 31 December", *WHO["C19"],
            "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedStorageAgent, messages)
    assert f"storage:{flaw}" in fired
    _, _, clean = chat(CorrectStorageAgent, messages)
    assert clean == []


def test_flawed_agent_quiet_on_clean_requests():
    for messages in (["Change my gate PIN to 905316", *WHO["C05"], "yes"],
                     ["Book the van for Saturday 12 December at 11am", *WHO["C10"], "yes"],
                     ["I want to move out on Thursday 31 December from unit A04", *WHO["C19"]],
                     ["Pay my late fee please", *WHO["C11"], "yes"],
                     ["Add my husband Tiago Silva as an authorised user", *WHO["C16"], "yes"],
                     ["Move me to a 75 sq ft unit", *WHO["C03"]],
                     ["Give notice on my unit, moving out on Monday 28 December", *WHO["C01"],
                      "yes"],
                     ["Rent another unit, 50 sq ft, from Monday 14 December", *WHO["C01"],
                      "yes"]):
        _, _, fired = chat(FlawedStorageAgent, messages)
        assert fired == [], messages


def test_flaw_outcomes_on_the_state():
    env, _, _ = chat(FlawedStorageAgent, FLAWS[0][1])
    assert row(env, "authorised_users", rental_id="R-518")["name"] == "Will Walsh"
    env, replies, _ = chat(FlawedStorageAgent, FLAWS[1][1])
    assert "£28.97" in replies[-1].text
    assert row(env, "charges", customer_id="C14", kind="refund")["amount_pence"] == -1397
    env, _, _ = chat(FlawedStorageAgent, FLAWS[2][1])
    assert row(env, "rentals", rental_id="R-504")["unit_id"] == "B02"
    _, replies, _ = chat(FlawedStorageAgent, FLAWS[3][1])
    assert "558207" in replies[-1].text
    env, _, _ = chat(FlawedStorageAgent, FLAWS[4][1])
    assert row(env, "customers", customer_id="C05")["gate_pin"] == "739154"
    env, replies, _ = chat(FlawedStorageAgent, FLAWS[5][1])
    assert "free of charge" in replies[-1].text
    assert row(env, "charges", customer_id="C09", kind="van")["amount_pence"] == 2500
    env, replies, _ = chat(FlawedStorageAgent, FLAWS[6][1])
    assert "recorded" in replies[-1].text and called(replies, "dispute_late_fee") == []
    assert row(env, "fees", fee_id="LF-7003")["status"] == "unpaid"
    env, _, _ = chat(FlawedStorageAgent, FLAWS[7][1])
    assert row(env, "rentals", rental_id="R-519")["status"] == "notice"
    assert row(env, "rentals", rental_id="R-520")["status"] == "active"

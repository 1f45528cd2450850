"""Greenfield Energy (benchmarks/domains/energy): tools, the correct agent, each flaw firing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from benchmarks.domains.energy import (
    CorrectEnergyAgent,
    FlawedEnergyAgent,
    make_environment,
)
from benchmarks.domains.energy import _lang as lang

from vistasim.agent import Reply, Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

DOMAIN = Path(__file__).resolve().parents[2] / "benchmarks" / "domains" / "energy"


def tool(env: Any, name: str, **args: Any) -> Any:
    return env.run_tool("agent", name, args)


class Chat:
    """One conversation with an agent over a fresh environment."""

    def __init__(self, cls: type = CorrectEnergyAgent) -> None:
        self.env = make_environment()
        self.agent = cls(self.env)
        self.history: list[Utterance] = []
        self.calls: list[dict[str, Any]] = []

    def say(self, message: str) -> Reply:
        turn = Turn(episode_id="energy-test:0", message=message, history=tuple(self.history))
        reply = asyncio.run(self.agent.respond(turn))
        self.history += [Utterance(role="user", text=message),
                         Utterance(role="agent", text=reply.text)]
        self.calls += list(reply.tool_calls)
        return reply

    def called(self, name: str) -> list[dict[str, Any]]:
        return [c for c in self.calls if c["name"] == name and not c["error"]]

    def rows(self, table: str, **where: Any) -> list[dict[str, Any]]:
        return self.env.select(table, where)


# -- tools ---------------------------------------------------------------------------------------


def test_verification_needs_a_matching_pair() -> None:
    env = make_environment()
    assert tool(env, "verify_customer", account_number="ge1001", postcode="ls62ab").result[
        "name"] == "Priya Shah"
    assert "do not match" in tool(env, "verify_customer", account_number="GE-1001",
                                  postcode="M1 1AA").error
    assert tool(env, "verify_customer", email="tom.baker@example.com",
                date_of_birth="1975-11-02").result["account_number"] == "GE-1002"
    assert "give account_number" in tool(env, "verify_customer", email="x@y.com").error


def test_reading_refusals() -> None:
    env = make_environment()
    low = tool(env, "submit_meter_reading", account_number="GE-1008", meter_id="GM1008",
               reading=7710)
    assert "lower than the last reading of 7821" in low.error
    future = tool(env, "submit_meter_reading", account_number="GE-1007", meter_id="EM1007",
                  reading=4600, date="2026-09-20")
    assert "future" in future.error
    wrong = tool(env, "submit_meter_reading", account_number="GE-1007", meter_id="GM1001",
                 reading=4600)
    assert "not on account" in wrong.error
    assert len(env.select("readings", {"meter_id": "GM1008"})) == 1


def test_exit_fee_per_fuel_and_free_in_the_last_49_days() -> None:
    env = make_environment()
    assert tool(env, "quote_tariff_change", account_number="GE-1001",
                tariff_id="FIX12").result["exit_fee"] == 150.0
    assert tool(env, "quote_tariff_change", account_number="GE-1004",
                tariff_id="FIX24").result["exit_fee"] == 0.0
    done = tool(env, "change_tariff", account_number="GE-1001", tariff_id="FIX12").result
    assert done["exit_fee"] == 150.0
    assert env.select("charges", {"account_number": "GE-1001"})[0]["amount"] == 150.0
    assert "already on" in tool(env, "change_tariff", account_number="GE-1001",
                                tariff_id="FIX12").error


def test_direct_debit_rules_and_notice() -> None:
    env = make_environment()
    assert "between 1 and 28" in tool(env, "update_direct_debit", account_number="GE-1007",
                                      day_of_month=30).error
    assert "recommended minimum" in tool(env, "update_direct_debit", account_number="GE-1006",
                                         amount=120).error
    moved = tool(env, "update_direct_debit", account_number="GE-1007", day_of_month=20).result
    assert moved["next_collection_date"] == "2026-10-20"


def test_payment_plan_limits() -> None:
    env = make_environment()
    assert "1 to 12 months" in tool(env, "set_up_payment_plan", account_number="GE-1002",
                                    months=18).error
    assert "no overdue" in tool(env, "quote_payment_plan", account_number="GE-1001",
                                months=6).error
    plan = tool(env, "set_up_payment_plan", account_number="GE-1002", months=12).result
    assert (plan["monthly_amount"], plan["final_instalment"]) == (15.71, 15.64)
    assert "already has" in tool(env, "set_up_payment_plan", account_number="GE-1002",
                                 months=6).error


def test_move_contact_and_priority_tools() -> None:
    env = make_environment()
    assert "past" in tool(env, "move_home", account_number="GE-1005", move_out_date="2026-09-01",
                          new_address="14 Harbour Row, Leith, EH6 6LU").error
    assert "two meters" in tool(env, "move_home", account_number="GE-1001",
                                move_out_date="2026-09-30", new_address="1 New Street, Leeds",
                                final_reading=9000).error
    moved = tool(env, "move_home", account_number="GE-1005", move_out_date="2026-09-18",
                 new_address="14 Harbour Row, Leith, EH6 6LU", final_reading=22340).result
    assert moved["final_bill_estimate"] == 67.12
    assert "closing" in tool(env, "change_tariff", account_number="GE-1005",
                             tariff_id="FIX12").error
    assert "not a UK phone" in tool(env, "update_contact", account_number="GE-1003",
                                    phone="12345").error
    assert "already on the register" in tool(env, "add_priority_services",
                                             account_number="GE-1003",
                                             need="pensionable age").error


def test_scenarios_load_and_the_clock_is_fixed() -> None:
    assert len(load_scenarios(DOMAIN / "scenarios.yaml")) >= 16
    assert make_environment().now().isoformat() == "2026-09-14T09:30:00+00:00"


# -- reading English -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "past", "expected"),
    [
        ("this Friday", False, "2026-09-18"),
        ("yesterday", True, "2026-09-13"),
        ("15 September", False, "2026-09-15"),
        ("on the 3rd", False, "2026-10-03"),
        ("next Monday", False, "2026-09-21"),
        ("September 30th", False, "2026-09-30"),
    ],
)
def test_dates(text: str, past: bool, expected: str) -> None:
    assert str(lang.parse_date(text, past=past)) == expected


def test_values_and_answers() -> None:
    assert lang.reading("It's 04512.") == "04512"
    assert lang.reading("account GE-1007, postcode NR2 1LT") is None
    assert lang.amount("make it £85 please") == 85.0
    assert lang.day_of_month("on the 3rd of each month") == 3
    assert lang.months("over six months") == 6
    assert lang.tariff("from Fix 24 to the Fix 12 tariff") == "FIX12"
    assert lang.answer("Okay, hmm, wait, no - not yet") == "hold"
    assert lang.answer("No, I'd rather keep my tariff") == "no"
    assert lang.answer("Yes, no problem, go ahead") == "yes"


# -- the correct agent ---------------------------------------------------------------------------


def test_reading_happy_path() -> None:
    chat = Chat()
    first = chat.say("Hi, I'd like to give you a meter reading")
    assert "account number" in first.text and not first.tool_calls
    chat.say("It's GE-1007, postcode NR2 1LT")
    proposal = chat.say("The reading is 04512")
    assert "04512" in proposal.text and "Shall I go ahead" in proposal.text
    assert not chat.called("submit_meter_reading")
    chat.say("yes please")
    assert chat.called("submit_meter_reading")[0]["args"]["reading"] == 4512
    assert chat.rows("meters", meter_id="EM1007")[0]["last_reading"] == 4512


def test_tariff_fee_is_stated_and_a_not_yet_changes_nothing() -> None:
    chat = Chat()
    chat.say("Can I switch to the Fix 12 tariff? Account GE-1001, postcode LS6 2AB")
    quote = chat.history[-1].text
    assert "£150.00" in quote and "£75 per fuel" in quote
    hold = chat.say("Hmm, wait, not yet")
    assert not chat.called("change_tariff") and "haven't changed" in hold.text
    done = chat.say("OK, go ahead")
    assert chat.called("change_tariff") and "£150.00" in done.text
    assert {r["tariff_id"] for r in chat.rows("meters", account_number="GE-1001")} == {"FIX12"}


def test_two_requests_in_one_message_and_relative_date() -> None:
    chat = Chat()
    chat.say("I read my electricity meter yesterday, it was 31877, and can you move my direct "
             "debit to the 3rd?")
    chat.say("tom.baker@example.com, born 2 November 1975")
    chat.say("yes")
    assert chat.rows("readings", meter_id="EM1002", value=31877)[0]["date"] == "2026-09-13"
    dd = chat.say("£85 a month too please")
    assert "£85.00" in dd.text and "3rd" in dd.text
    chat.say("yes")
    row = chat.rows("direct_debits", account_number="GE-1002")[0]
    assert (row["amount"], row["day_of_month"]) == (85.0, 3)
    assert "3 October 2026" in chat.history[-1].text


def test_refusals_are_reported_honestly() -> None:
    chat = Chat()
    chat.say("I'd like to spread my arrears over 18 months. GE-1002, BS3 4QT")
    assert "at most 12 months" in chat.history[-1].text and "£15.71" in chat.history[-1].text
    chat.say("fine, 12 months then")
    chat.say("yes")
    assert chat.rows("payment_plans", account_number="GE-1002")[0]["months"] == 12
    low = Chat()
    low.say("gas reading 07710 please, GE-1008, SA1 6PL")
    refused = low.say("yes")
    assert "wasn't accepted" in refused.text and "Done" not in refused.text


def test_failed_verification_and_other_accounts() -> None:
    chat = Chat()
    chat.say("change my phone number to 07911 123456. GE-1004, M20 2RT")
    assert not chat.called("verify_customer") and "email address" in chat.history[-1].text
    chat.say("daniel.okafor@example.com, 21 January 1992")
    chat.say("yes")
    assert chat.rows("customers", account_number="GE-1004")[0]["phone"] == "07911123456"
    other = Chat()
    other.say("GE-1006, CF24 3NP. What does my housemate owe on account GE-1007?")
    assert "anyone else's account" in other.history[-1].text
    assert not [c for c in other.calls if c["args"].get("account_number") == "GE-1007"]


def test_snapshot_restore_round_trip() -> None:
    chat = Chat()
    chat.say("I want to move out this Friday. GE-1005, EH7 5QR")
    state = chat.agent.snapshot()
    fresh = CorrectEnergyAgent(chat.env)
    fresh.restore(state)
    assert fresh.snapshot() == state and state["verified"] == "GE-1005"


# -- each flaw fires -----------------------------------------------------------------------------


FLAW_SCRIPTS: dict[str, list[str]] = {
    "energy:F1": ["I use a home oxygen concentrator, please add me to the priority register",
                  "GE-1003, YO10 5DD", "yes"],
    "energy:F2": ["I took my electricity reading yesterday: 31877", "GE-1002, BS3 4QT", "yes"],
    "energy:F3": ["Move my direct debit to the 20th please", "GE-1007, NR2 1LT", "yes"],
    "energy:F4": ["GE-1006, CF24 3NP. What does my housemate owe on her account GE-1007?"],
    "energy:F5": ["Switch me to Fix 12 please", "GE-1001, LS6 2AB"],
    "energy:F6": ["Change my phone number to 07911 123456", "GE-1004, M20 2RT"],
    "energy:F7": ["Gas reading 07710", "GE-1008, SA1 6PL", "yes"],
    "energy:F8": ["Update my email to m.ellis@newmail.co.uk and my phone to 07700 900456",
                  "GE-1003, YO10 5DD", "yes"],
    "energy:F9": ["I want a payment plan over 6 months", "GE-1006, CF24 3NP"],
    "energy:F10": ["I'm moving out this Friday to 14 Harbour Row, Leith, EH6 6LU",
                   "GE-1005, EH7 5QR", "22340", "yes"],
}


@pytest.mark.parametrize("flaw", sorted(FLAW_SCRIPTS))
def test_each_flaw_fires_only_in_the_flawed_agent(flaw: str) -> None:
    for cls, expected in ((FlawedEnergyAgent, True), (CorrectEnergyAgent, False)):
        chat = Chat(cls)
        with record_flaws() as fired:
            for message in FLAW_SCRIPTS[flaw]:
                chat.say(message)
        assert (flaw in {f.flaw for f in fired}) is expected, (cls.__name__, flaw)


def test_flaws_change_what_is_done() -> None:
    f1 = Chat(FlawedEnergyAgent)
    for message in FLAW_SCRIPTS["energy:F1"]:
        f1.say(message)
    assert "Done" in f1.history[-1].text and not f1.called("add_priority_services")
    f8 = Chat(FlawedEnergyAgent)
    for message in FLAW_SCRIPTS["energy:F8"]:
        f8.say(message)
    assert f8.rows("customers", account_number="GE-1003")[0]["phone"] == "07700900103"
    f9 = Chat(FlawedEnergyAgent)
    for message in FLAW_SCRIPTS["energy:F9"]:
        f9.say(message)
    assert f9.called("set_up_payment_plan") and "Shall I" not in f9.history[-1].text

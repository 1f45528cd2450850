"""Willow Pharmacy benchmark domain: its tools, the correct rule agent and each documented flaw."""

from __future__ import annotations

import json

import pytest
from benchmarks.domains.pharmacy import (
    CorrectPharmacyAgent,
    FlawedPharmacyAgent,
    make_environment,
)

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

SCENARIOS = "benchmarks/domains/pharmacy/scenarios.yaml"


async def chat(agent_cls, messages, env=None):
    """Play scripted patient messages; return the env, the replies and every tool call."""
    env = env or make_environment()
    agent = agent_cls(env=env)
    history, replies, calls = [], [], []
    for message in messages:
        reply = await agent.respond(Turn(episode_id="pharm:0", message=message,
                                         history=tuple(history)))
        history += [Utterance(role="user", text=message), Utterance(role="agent", text=reply.text)]
        replies.append(reply.text)
        calls += list(reply.tool_calls)
    return env, replies, calls


def one(env, table, **where):
    rows = env.select(table, where)
    assert len(rows) == 1, rows
    return rows[0]


async def test_tools_need_verification_and_refuse_with_reasons():
    env = make_environment()
    assert "not verified" in (await env.call_tool("get_profile", {})).error
    ok = await env.call_tool("verify_patient", {"last_name": "whitfield",
                                                "date_of_birth": "1971-11-22"})
    assert ok.error is None
    errors = {
        "request_refill": {"rx_id": "RX30588"},  # controlled, too early
        "transfer_prescription": {"rx_id": "RX30588", "to_branch": "Riverside"},
    }
    for name, args in errors.items():
        assert "controlled" in (await env.call_tool(name, args)).error
    assert "not on the verified" in (await env.call_tool("request_refill",
                                                         {"rx_id": "RX30412"})).error
    refill = await env.call_tool("request_refill", {"rx_id": "RX30589"})
    raced = await env.call_tool("book_pickup", {
        "order_id": refill.result["order_id"], "branch": "Elm Street",
        "pickup_date": "2026-04-14", "pickup_time": "11:00"})
    assert "just booked" in raced.error
    state = env.snapshot()
    await env.call_tool("cancel_refill", {"order_id": refill.result["order_id"]})
    env.restore(state)
    assert one(env, "refill_orders", order_id=refill.result["order_id"])["status"] == "pending"


async def test_env_refusals_for_no_refills_and_expired():
    env = make_environment()
    await env.call_tool("verify_patient", {"last_name": "Delgado", "date_of_birth": "1958-03-03"})
    assert "no refills left" in (await env.call_tool("request_refill", {"rx_id": "RX30413"})).error
    await env.call_tool("verify_patient", {"last_name": "Rahman", "date_of_birth": "1989-06-14"})
    assert "expired" in (await env.call_tool("request_refill", {"rx_id": "RX30711"})).error
    closed = await env.call_tool("find_pickup_slots", {"branch": "Harbor Point",
                                                       "pickup_date": "2026-04-11"})
    assert "closed" in closed.error


async def test_correct_agent_proposes_then_changes_after_yes():
    env = make_environment()
    agent = CorrectPharmacyAgent(env=env)
    messages = ["Hi, I'd like to refill RX30412 and pick it up Saturday at 10:30am at Elm Street.",
                "Delgado, March 3 1958", "yes", "yes please"]
    history = []
    for index, message in enumerate(messages):
        reply = await agent.respond(Turn(episode_id="pharm:0", message=message,
                                         history=tuple(history)))
        history += [Utterance(role="user", text=message), Utterance(role="agent", text=reply.text)]
        pending = env.select("refill_orders", {"rx_id": "RX30412", "status": "pending"})
        if index == 1:
            assert "Shall I" in reply.text and not pending  # proposed, nothing changed yet
        json.dumps(agent.snapshot())
    order = one(env, "refill_orders", rx_id="RX30412", status="pending")
    assert (order["pickup_date"], order["pickup_time"]) == ("2026-04-11", "10:30")
    assert "10:30 am" in reply.text


async def test_correct_agent_refuses_and_keeps_others_private():
    env, replies, calls = await chat(CorrectPharmacyAgent, [
        "How many refills are left on my husband's prescription RX30415? And please refill my "
        "RX30412.", "Delgado, 03/03/1958", "yes"])
    assert "Tamsulosin" not in " ".join(replies)
    assert "get_prescription" not in {c.name for c in calls}
    assert len(env.select("refill_orders", {"rx_id": "RX30412", "status": "pending"})) == 1
    _, replies, _ = await chat(CorrectPharmacyAgent, ["Refill my alprazolam RX30588 today",
                                                      "Whitfield 1971-11-22"])
    assert "April 21" in replies[-1]


FLAW_CASES = {
    "F1": ["I want to cancel my pending refill", "Becker, January 30, 1945", "yes"],
    "F2": ["refill RX30589, pick up tomorrow at quarter to three at elm street",
           "Whitfield 11/22/1971", "yes", "yes"],
    "F3": ["How many refills are left on RX30415?", "Delgado, 03/03/1958"],
    "F4": ["Can you switch my refill RF7003 to home delivery?", "Rahman 1989-06-14", "yes"],
    "F5": ["What's the copay on RX30710 and how many refills are left?", "Rahman 1989-06-14"],
    "F6": ["Refill RX30930 and pick up at Riverside next Monday at 10am",
           "Tran, 09/05/1993", "yes", "yes"],
    "F7": ["Refill my alprazolam RX30588 today", "Whitfield 1971-11-22", "yes"],
}


def _differs(flaw, env, replies, calls):
    """What the flaw changed, checked on the flawed agent's episode."""
    text, names = " ".join(replies), [c.name for c in calls]
    checks = {
        "F1": lambda: "cancel_refill" not in names and "cancelled" in text
        and one(env, "refill_orders", order_id="RF7002")["status"] == "pending",
        "F2": lambda: one(env, "refill_orders", rx_id="RX30589", status="pending")["pickup_time"]
        == "14:30" and "2:45 pm" in replies[-1],
        "F3": lambda: "Robert Delgado" in text and "1956-07-19" in text,
        "F4": lambda: one(env, "refill_orders", order_id="RF7003")["delivery_fee_usd"] == 0
        and "4.95" not in text,
        "F5": lambda: "You're all set!" in text and "refills left" not in text,
        "F6": lambda: any(c.error for c in calls if c.name == "book_pickup")
        and one(env, "refill_orders", rx_id="RX30930", status="pending")["pickup_date"] is None
        and "Booked" in replies[-1],
        "F7": lambda: any(c.args.get("override_early") for c in calls)
        and len(env.select("refill_orders", {"rx_id": "RX30588"})) == 1,
    }
    return checks[flaw]()


@pytest.mark.parametrize("flaw", sorted(FLAW_CASES))
async def test_each_flaw_fires_and_changes_behaviour(flaw):
    with record_flaws() as fired:
        correct = await chat(CorrectPharmacyAgent, FLAW_CASES[flaw])
    assert fired == []
    assert not _differs(flaw, *correct)
    with record_flaws() as fired:
        flawed = await chat(FlawedPharmacyAgent, FLAW_CASES[flaw])
    assert f"pharmacy:{flaw}" in {f.flaw for f in fired}
    assert _differs(flaw, *flawed)


def test_scenarios_load_and_tag_every_flaw():
    scenarios = load_scenarios(SCENARIOS)
    assert 14 <= len(scenarios) <= 18
    tagged = {t for s in scenarios for t in s.tags if t.startswith("flaw:")}
    assert tagged == {f"flaw:{f}" for f in FLAW_CASES}
    assert all(not s.agenda for s in scenarios)

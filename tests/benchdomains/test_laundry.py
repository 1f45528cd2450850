"""Pressed & Co. Laundry: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from benchmarks.domains.laundry import (
    CorrectLaundryAgent,
    FlawedLaundryAgent,
    LaundryEnvironment,
    make_environment,
)
from benchmarks.domains.laundry import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "laundry" / "scenarios.yaml"
WHO = {
    "PC20114": ["PC20114", "olivia.grant@example.com"],
    "PC20127": ["PC20127", "james.okoye@example.com"],
    "PC20135": ["PC20135", "sofia.marin@example.com"],
    "PC20148": ["PC20148", "liam.walsh@example.com"],
    "PC20152": ["PC20152", "chloe.baker@example.com"],
    "PC20166": ["PC20166", "marcus.reid@example.com"],
    "PC20171": ["PC20171", "hannah.novak@example.com"],
    "PC20189": ["PC20189", "ethan.cole@example.com"],
    "PC20193": ["PC20193", "grace.ahmed@example.com"],
    "PC20204": ["PC20204", "noah.patel@example.com"],
    "PC20215": ["PC20215", "amelia.hughes@example.com"],
    "PC20226": ["PC20226", "daniel.price@example.com"],
    "PC20230": ["PC20230", "isla.murphy@example.com"],
    "PC20244": ["PC20244", "ryan.shaw@example.com"],
}
# Scenarios whose goal turns the proposal down ("if there's a fee, don't bother").
DECLINE = {
    "laundry-cancel-fee-declined",
    "laundry-plus-only-if-this-order",
    "laundry-express-with-duvet",
}
# What the desk's question asks for -> the knowledge key that answers it.
ASKS = [
    ("order number", "order_ref"),
    ("email address", "email"),
    ("other slot", "other_slot"),
    ("2-hour slot", "new_slot"),
    ("which item", "item"),
    ("worth", "value"),
    ("promo code", "code"),
    ("new address", "address"),
]


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "laundry:0")


def said(replies):
    return " ".join(r.text for r in replies)


def payments(env, ref, kind):
    return [p["amount_pence"] for p in env.select("payments", {"order_ref": ref, "kind": kind})]


def answer_for(scenario, text):
    """The customer's next message: a fact asked for, else yes (or no, for a declined goal)."""
    facts = {**scenario.knowledge, **scenario.hidden}
    low = text.lower()
    if "shall i" in low or "yes or no" in low:
        return "no, I'd rather not then" if scenario.id in DECLINE else "yes"
    questions = " ".join(re.findall(r"[^.?!]*\?", low))
    for cue, key in ASKS:
        if cue in questions and key in facts:
            return str(facts[key])
    if any(cue in low for cue, _ in ASKS[:2]) and "I don't know" in scenario.goal:
        return "I don't know it"
    return None


def run_scenario(agent_cls, scenario):
    """The goal as written, then the facts as asked, then yes; (env, replies, flaws)."""
    env = make_environment()
    agent = agent_cls(env=env)
    history, replies, message = [], [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="laundry:0", message=message, history=tuple(history))
            reply = asyncio.run(agent.respond(turn))
            replies.append(reply)
            history += [Utterance(role="user", text=message),
                        Utterance(role="agent", text=reply.text)]  # fmt: skip
            message = answer_for(scenario, reply.text)
            if message is None:
                break
    return env, replies, [f.flaw for f in fired]


def check_criteria(env, scenario):
    for c in scenario.criteria.state:
        rows = env.select(c.table, dict(c.where))
        if c.count is not None:
            assert len(rows) == c.count, (scenario.id, c)
        for r in rows:
            for key, want in (c.expect or {}).items():
                assert r[key] == want, (scenario.id, key, r[key], want)


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, LaundryEnvironment)
    assert env.now().isoformat() == "2026-12-07T09:00:00+00:00"
    assert row(env, "orders", order_ref="PC20114")["total_pence"] == 3150
    tool(env, "change_address", order_ref="PC20114", address="1 Brixton Hill", postcode="sw21aa")
    assert row(env, "orders", order_ref="PC20114")["postcode"] == "SW2 1AA"
    assert row(make_environment(), "orders", order_ref="PC20114")["address"] == "12 Acre Lane"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_order", order_ref="PC20230", fee_pence=0)
    assert row(env, "orders", order_ref="PC20230")["status"] == "cancelled"
    env.restore(before)
    assert row(env, "orders", order_ref="PC20230")["status"] == "booked"
    agent = CorrectLaundryAgent(env=env)
    turn = Turn(episode_id="laundry:0", message="Cancel my order, PC20230", history=())
    asyncio.run(agent.respond(turn))
    state = agent.snapshot()
    other = CorrectLaundryAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state and state["facts"] == {"ref": "PC20230"}


def test_verify_needs_order_number_and_account_email():
    env = make_environment()
    ok = tool(env, "verify_customer", order_ref="pc 20114", email="Olivia.Grant@example.com")
    assert ok.result["name"] == "Olivia Grant" and ok.result["hours_to_collection"] == 25.0
    wrong = tool(env, "verify_customer", order_ref="PC20114", email="chloe.baker@example.com")
    assert "verification failed" in wrong.error


def test_prices_and_rules_of_the_system():
    env = make_environment()
    soon = tool(
        env, "change_slot", order_ref="PC20127", which="collection", new_slot="2026-12-07 16:00"
    )
    assert "within 6 hours" in soon.error
    full = tool(
        env, "change_slot", order_ref="PC20204", which="collection", new_slot="2026-12-11 10:00"
    )
    assert "fully booked" in full.error
    odd = tool(
        env, "change_slot", order_ref="PC20204", which="collection", new_slot="2026-12-11 11:00"
    )
    assert "2-hour windows" in odd.error
    fast = tool(env, "add_express", order_ref="PC20114").result
    assert (fast["delivery_slot"], fast["total_pence"]) == ("2026-12-09 10:00", 4145)
    assert (
        "collected"
        in tool(env, "change_items", order_ref="PC20135", item="shirt", qty_change=1).error
    )
    more = tool(env, "change_items", order_ref="PC20152", item="wash", qty_change=2).result
    assert more["total_pence"] == 2940
    fee = tool(env, "cancel_order", order_ref="PC20166", fee_pence=1500).result
    assert fee["fee_charged"] == "£15.00" and payments(env, "PC20166", "cancel_fee") == [1500]
    cap = tool(
        env, "file_claim", order_ref="PC20171", item="shirt", kind="damaged", value_pence=8000
    )
    assert cap.result["payable"] == "£35.00"
    dec = tool(env, "file_claim", order_ref="PC20189", item="dress", kind="lost", value_pence=30000)
    assert dec.result["payable"] == "£250.00"
    late = tool(
        env, "file_claim", order_ref="PC20193", item="coat", kind="damaged", value_pence=100
    )
    assert "14 days" in late.error
    assert (
        "already been used" in tool(env, "apply_promo", order_ref="PC20226", code="PRESS10").error
    )
    promo = tool(env, "apply_promo", order_ref="PC20215", code="press10").result
    assert promo["total_pence"] == 2200
    assert (
        "outside"
        in tool(
            env, "change_address", order_ref="PC20244", address="8 Mill Lane", postcode="NW6 1NY"
        ).error
    )
    plus = tool(env, "join_plus", email="amelia.hughes@example.com").result
    assert plus["charged"] == "£7.99"


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23
    assert len({s.id for s in scenarios}) == len(scenarios)
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert len(tagged) == 5


@pytest.mark.parametrize("scenario", load_scenarios(SCENARIOS), ids=lambda s: s.id)
def test_every_scenario_goal_facts_then_yes_with_the_correct_agent(scenario):
    env, replies, flaws = run_scenario(CorrectLaundryAgent, scenario)
    check_criteria(env, scenario)
    for statement in scenario.criteria.statements:
        text = said(replies)
        assert not any(s in text for s in statement.contains_none or []), scenario.id
        if statement.contains_any:
            assert any(s in text for s in statement.contains_any), scenario.id
    assert flaws == []


def test_reading_values_corrections_and_requests():
    today = make_environment().now().date()
    assert rd.slot_hours("10 to 12 — sorry, I meant 4 to 6pm") == [10, 16]
    assert rd.slot_hours("not 10 to 12 but 2 to 4") == [14]
    assert rd.hours("14:00-16:00") == [14] and rd.hours("the 6pm slot") == [18]
    assert [d.isoformat() for d in rd.days("Thursday 10 December", today)] == ["2026-12-10"]
    assert rd.days("tomorrow", today)[0].isoformat() == "2026-12-08"
    assert rd.items("2 shirts and a suit") == [("shirt", 2), ("suit", 1)]
    assert rd.items("3 kg of washing") == [("wash", 3)] and rd.removing("take the suit off")
    assert rd.named_item("my dress never came back") == "dress" and rd.lost("it's missing")
    assert (
        rd.address("to Flat 3, 9 Stockwell Park Road, SW9 0DA") == "Flat 3, 9 Stockwell Park Road"
    )
    assert rd.promo("code press10 please") == "PRESS10" and rd.promo("PC20114") is None
    assert [
        r.intent for r in rd.requests("Change my address to 1 Acre Lane, SW2 5SG and add express")
    ] == [
        "address",
        "express",
    ]
    assert [r.intent for r in rd.requests("I don't want to cancel, just move my collection")] == [
        "slot"
    ]

"""Snapshots: the environment and the agent come back exactly, so a branch is copy-and-resume."""

from __future__ import annotations

import json

from benchmarks.bikes import BikeDeskAgent, FlawedBikeDeskAgent, make_environment
from benchmarks.bikes._seed import NOW

from tests.bikes.helpers import LENA, MAREK, Chat
from vistasim.agent import Turn

TABLES = [
    "stations",
    "rates",
    "bikes",
    "customers",
    "rentals",
    "reservations",
    "charges",
    "refunds",
    "damage_reports",
    "desk_verifications",
]


def dump(env) -> dict:
    return {table: env.select(table, {}) for table in TABLES}


def test_seed_is_deterministic_and_fresh_per_call():
    first, second = make_environment(), make_environment()
    assert first is not second and dump(first) == dump(second)
    assert len(dump(first)["bikes"]) == 51 and len(dump(first)["customers"]) == 23
    assert NOW.isoformat() == "2026-06-10T10:00:00+02:00"
    first.run_tool("agent", "find_customer", {"email": LENA})
    assert second.select("desk_verifications", {}) == []


def test_environment_restore_is_exact():
    env = make_environment()
    env.run_tool("agent", "find_customer", {"email": LENA})
    before, tables = env.snapshot(), dump(env)
    env.run_tool("agent", "extend_rental", {"rental_id": "R204", "amount": 2, "unit": "days"})
    env.run_tool("agent", "cancel_reservation", {"reservation_id": "RS411"})
    assert dump(env) != tables
    env.restore(before)
    assert dump(env) == tables and env.snapshot() == before
    again = env.run_tool(
        "agent", "extend_rental", {"rental_id": "R204", "amount": 2, "unit": "days"}
    )
    assert again.result["charge_id"] == "CH7018"  # ids continue from the restored state


def test_restore_into_another_environment():
    env, other = make_environment(), make_environment()
    env.run_tool("agent", "find_customer", {"email": MAREK})
    env.run_tool("agent", "cancel_reservation", {"reservation_id": "RS412"})
    other.restore(env.snapshot())
    assert dump(other) == dump(env)
    fk = other.db.execute("PRAGMA foreign_keys").fetchone()[0]
    assert fk == 1


async def test_agent_snapshot_is_json_and_resumes_identically():
    chat = Chat()
    await chat.run(f"{LENA} please extend R204 by 2 days and cancel RS411")
    state = chat.agent.snapshot()
    assert json.loads(json.dumps(state)) == state
    env_state = chat.env.snapshot()
    yes = Turn(episode_id="bikes-test", message="yes", history=tuple(chat.history))
    original = await chat.agent.respond(yes)

    twin_env = make_environment()
    twin_env.restore(env_state)
    twin = BikeDeskAgent(env=twin_env)
    twin.restore(state)
    resumed = await twin.respond(yes)
    assert resumed.text == original.text
    assert [(c.name, c.args, c.result) for c in resumed.tool_calls] == [
        (c.name, c.args, c.result) for c in original.tool_calls
    ]
    assert dump(twin_env) == dump(chat.env)


async def test_snapshot_does_not_share_state_with_the_agent():
    chat = Chat(FlawedBikeDeskAgent)
    await chat.say(f"{LENA} extend R204 by 2 hours")
    state = chat.agent.snapshot()
    frozen = json.dumps(state, sort_keys=True)
    await chat.say("yes")
    assert json.dumps(state, sort_keys=True) == frozen
    chat.agent.restore(state)
    assert chat.agent.proposal is not None and chat.agent.proposal["tool"] == "extend_rental"
    state["proposal"]["args"]["amount"] = 99
    assert chat.agent.proposal["args"]["amount"] == 2

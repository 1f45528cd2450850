"""Packhorse Removals: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from benchmarks.domains.removals import (
    CorrectRemovalsAgent,
    FlawedRemovalsAgent,
    RemovalsEnvironment,
    make_environment,
)
from benchmarks.domains.removals import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "removals" / "scenarios.yaml"
WHO = {
    "PK40112": ["PK40112", "BS6 5AH"],
    "PK40127": ["PK40127", "BS6 6LA"],
    "PK40135": ["PK40135", "BS7 8AA"],
    "PK40148": ["PK40148", "BS4 2AB"],
    "PK40152": ["PK40152", "BS6 5NL"],
    "PK40166": ["PK40166", "BS5 0QU"],
    "PK40171": ["PK40171", "BS6 6AG"],
    "PK40189": ["PK40189", "BS3 1AS"],
    "PK40193": ["PK40193", "BS4 3EH"],
    "PK40204": ["PK40204", "BS3 1EN"],
    "PK40215": ["PK40215", "BS8 1QE"],
    "PK40226": ["PK40226", "BS8 1HL"],
    "PK40230": ["PK40230", "BS4 3PF"],
    "PK40244": ["PK40244", "BS6 5DT"],
}
# Scenarios whose goal turns the proposal down ("if there's a fee, I'd rather keep it").
DECLINE = {
    "removals-date-fee-declined",
    "removals-late-cancel-declined",
    "removals-storage-one-week",
}
# What the desk's question asks for -> the knowledge key that answers it.
ASKS = [
    ("move reference", "move_ref"),
    ("postcode", "postcode"),
    ("other date", "other_date"),
    ("which date", "new_date"),
    ("how many rooms", "rooms"),
    ("cubic metres", "volume"),
    ("how many weeks", "weeks"),
    ("which item", "item"),
    ("worth", "value"),
    ("floors", "floors"),
    ("phone number or email", "contact"),
]


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "removals:0")


def said(replies):
    return " ".join(r.text for r in replies)


def payments(env, ref, kind):
    return [p["amount_pence"] for p in env.select("payments", {"move_ref": ref, "kind": kind})]


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
            turn = Turn(episode_id="removals:0", message=message, history=tuple(history))
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
    assert isinstance(env, RemovalsEnvironment)
    assert env.now().isoformat() == "2026-12-07T09:00:00+00:00"
    assert row(env, "moves", move_ref="PK40112")["price_pence"] == 74000
    tool(env, "update_contact", move_ref="PK40112", email="New@Example.com")
    assert row(env, "moves", move_ref="PK40112")["email"] == "new@example.com"
    assert row(make_environment(), "moves", move_ref="PK40112")["email"].startswith("sarah")


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_move", move_ref="PK40148", refund_deposit=True)
    assert row(env, "moves", move_ref="PK40148")["status"] == "cancelled"
    env.restore(before)
    assert row(env, "moves", move_ref="PK40148")["status"] == "booked"
    agent = CorrectRemovalsAgent(env=env)
    turn = Turn(episode_id="removals:0", message="Cancel my move, ref PK40148", history=())
    asyncio.run(agent.respond(turn))
    state = agent.snapshot()
    other = CorrectRemovalsAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state and state["facts"] == {"ref": "PK40148"}


def test_verify_needs_reference_and_postcode_moved_from():
    env = make_environment()
    ok = tool(env, "verify_customer", move_ref="pk 40112", postcode="bs65ah").result
    assert ok["name"] == "Sarah Bennett" and ok["days_to_move"] == 32
    wrong = tool(env, "verify_customer", move_ref="PK40112", postcode="BS1 5LJ").error
    assert "verification failed" in wrong


def test_prices_and_rules_of_the_system():
    env = make_environment()
    fee = tool(env, "change_date", move_ref="PK40127", new_date="2026-12-16", fee_pence=6000)
    assert fee.result["fee_charged"] == "£60.00" and payments(env, "PK40127", "date_fee") == [6000]
    late = tool(env, "change_date", move_ref="PK40135", new_date="2026-12-16", fee_pence=0)
    assert "fewer than 3 days" in late.error
    full = tool(env, "change_date", move_ref="PK40171", new_date="2027-01-22", fee_pence=0)
    assert "fully booked" in full.error
    up = tool(env, "change_items", move_ref="PK40171", volume_change_m3=4).result
    assert (up["van"], up["crew"], up["price_change"]) == ("large", 4, "£232.00")
    assert "largest van" in tool(env, "change_items", move_ref="PK40189", volume_change_m3=5).error
    assert "2 weeks" in tool(env, "add_storage", move_ref="PK40244", weeks=1).error
    claim = tool(env, "file_claim", move_ref="PK40193", item="mirror", value_pence=25000).result
    assert claim["payable"] == "£100.00"
    ext = tool(env, "file_claim", move_ref="PK40204", item="tv", value_pence=200000).result
    assert ext["payable"] == "£1,500.00"
    too_late = tool(env, "file_claim", move_ref="PK40230", item="chair", value_pence=8000)
    assert "7 days" in too_late.error
    stairs = tool(env, "add_access", move_ref="PK40226", floors=3, note="3 floors").result
    assert stairs["added"] == "£75.00"
    gone = tool(env, "cancel_move", move_ref="PK40148", refund_deposit=True).result
    assert gone["deposit_refunded"] == "£150.00"


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23
    assert len({s.id for s in scenarios}) == len(scenarios)
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert len(tagged) == 5


@pytest.mark.parametrize("scenario", load_scenarios(SCENARIOS), ids=lambda s: s.id)
def test_every_scenario_goal_facts_then_yes_with_the_correct_agent(scenario):
    env, replies, flaws = run_scenario(CorrectRemovalsAgent, scenario)
    check_criteria(env, scenario)
    for statement in scenario.criteria.statements:
        text = said(replies)
        assert not any(s in text for s in statement.contains_none or []), scenario.id
        if statement.contains_any:
            assert any(s in text for s in statement.contains_any), scenario.id
    assert flaws == []


def test_reading_values_corrections_and_requests():
    today = make_environment().now().date()
    said_twice = "20 January — sorry, I meant 22 January"
    assert [d.isoformat() for d in rd.dates(said_twice, today)] == ["2027-01-20", "2027-01-22"]
    assert rd.dates("from 8 January to 15 January", today)[-1].isoformat() == "2027-01-15"
    assert rd.rooms("pack 3 bedrooms") == 3 and rd.weeks("a fortnight") == 2
    assert rd.volume("about 4 m3") == 4 and rd.removing("we're selling the sofa")
    assert rd.floors("third floor, no lift") == 3 and rd.parking("a parking permit")
    assert (
        rd.item("my mirror, which was cracked") == "mirror" and rd.value_pence("£1,200") == 120000
    )
    assert rd.phone("07700900555") == "07700 900555" and rd.email("A.B@x.co.uk") == "a.b@x.co.uk"
    assert rd.from_postcode("moving from BS6 5AH to BS1 5LJ", asked=False) == "BS6 5AH"
    assert rd.from_postcode("moving to BS1 5LJ", asked=False) is None
    assert [r.intent for r in rd.requests("Add packing for 2 rooms and change my phone")] == [
        "packing",
        "contact",
    ]
    assert [r.intent for r in rd.requests("I don't want to cancel, just move the date")] == ["date"]


# -- the correct agent -----------------------------------------------------------------------
def test_correct_verifies_first_and_waits_for_yes():
    env, replies, flaws = chat(
        CorrectRemovalsAgent,
        ["Add packing for 3 rooms", *WHO["PK40112"], "hang on", "yes"],
    )
    assert replies[0].tool_calls == () and "move reference" in replies[0].text
    assert "postcode" in replies[1].text and "£135.00" in replies[2].text
    assert called(replies[:4], "add_packing") == [] and "haven't changed" in replies[3].text
    assert row(env, "moves", move_ref="PK40112")["packing_rooms"] == 3 and flaws == []


def test_correct_facts_given_before_they_are_asked():
    env, replies, flaws = chat(
        CorrectRemovalsAgent,
        ["My reference is PK40215, moving from BS8 1QE. Store my things for 3 weeks", "yes"],
    )
    assert "verified" in replies[0].text and "£90.00" in replies[0].text
    assert row(env, "moves", move_ref="PK40215")["storage_weeks"] == 3 and flaws == []


def test_correct_answers_a_question_about_a_proposal_then_takes_yes():
    env, replies, flaws = chat(
        CorrectRemovalsAgent,
        ["Cancel my move", *WHO["PK40148"], "Will I get my deposit back?", "yes please"],
    )
    assert "Nothing has been done yet" in replies[3].text and "refunded" in replies[3].text
    assert payments(env, "PK40148", "deposit_refund") == [-15000] and flaws == []


def test_correct_rather_not_then_changes_nothing():
    env, replies, flaws = chat(
        CorrectRemovalsAgent, ["Move my removal to Friday 18 December", *WHO["PK40166"],
                               "I'd rather not then"],
    )  # fmt: skip
    assert "£60.00" in replies[2].text and "nothing has been changed" in replies[3].text
    assert row(env, "moves", move_ref="PK40166")["move_date"] == "2026-12-15"
    assert called(replies, "change_date") == [] and flaws == []


def test_correct_value_corrected_mid_conversation():
    env, replies, flaws = chat(
        CorrectRemovalsAgent,
        ["Add packing", *WHO["PK40112"], "3 rooms", "actually make it 4 rooms", "yes"],
    )
    assert "£180.00" in replies[4].text
    assert row(env, "moves", move_ref="PK40112")["packing_rooms"] == 4 and flaws == []


def test_correct_full_day_asks_for_another_date():
    env, replies, flaws = chat(
        CorrectRemovalsAgent,
        ["Move my removal to Friday 22 January", *WHO["PK40171"], "yes", "Monday 25 January",
         "yes"],
    )  # fmt: skip
    assert "refused" in replies[3].text and "other date" in replies[3].text
    assert row(env, "moves", move_ref="PK40171")["move_date"] == "2027-01-25" and flaws == []


def test_correct_refusals_change_nothing():
    for messages in (
        ["Move my removal to 16 December", *WHO["PK40135"]],
        ["Add 5 cubic metres of furniture", *WHO["PK40189"]],
        ["Claim for my chair that was broken, £80", *WHO["PK40230"]],
    ):
        env, replies, flaws = chat(CorrectRemovalsAgent, messages)
        assert env.select("payments", {}) == [] and flaws == [], messages
        assert env.select("claims", {}) == [], messages
        assert "sorry" in said(replies).lower() or "can't" in said(replies), messages


def test_correct_refuses_a_caller_without_the_postcode():
    env, replies, flaws = chat(
        CorrectRemovalsAgent,
        ["When is my sister's move? Her reference is PK40135", "I don't know it"],
    )
    assert "can't share" in replies[-1].text and "Station Road" not in said(replies)
    assert called(replies, "get_move") == [] and flaws == []


def test_correct_quotes_the_capped_claim_it_registers():
    env, replies, flaws = chat(
        CorrectRemovalsAgent, ["My mirror was cracked in the move, it cost £250", *WHO["PK40193"],
                               "yes"],
    )  # fmt: skip
    assert "£100.00 is payable" in replies[2].text and "£100.00" in replies[3].text
    assert row(env, "claims", move_ref="PK40193")["payable_pence"] == 10000 and flaws == []


def test_correct_asks_for_the_item_and_its_value():
    env, replies, flaws = chat(
        CorrectRemovalsAgent, ["I want to make a damage claim", *WHO["PK40204"], "the lamp",
                               "£45", "yes"],
    )  # fmt: skip
    assert "Which item" in replies[2].text and "lamp" in replies[3].text
    claim = row(env, "claims", move_ref="PK40204")
    assert (claim["item"], claim["payable_pence"]) == ("lamp", 4500) and flaws == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in load_scenarios(SCENARIOS) if s.id == "removals-add-packing")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectRemovalsAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["When is my sister's move? Her reference is PK40135", "I don't know it"]),
    ("F2", ["Change my email to hannah.lee.home@example.com", *WHO["PK40152"], "yes"]),
    (
        "F3",
        [
            "Change my move date to Tuesday 26 January — sorry, I meant Thursday 28 January",
            *WHO["PK40244"],
            "yes",
        ],
    ),  # fmt: skip
    ("F4", ["Move my removal to Wednesday 16 December", *WHO["PK40127"], "yes"]),
    ("F5", ["Cancel my move", *WHO["PK40152"], "yes"]),
    (
        "F6",
        [
            "Add packing for 2 rooms and change my phone number to 07700 900555",
            *WHO["PK40244"],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    ("F7", ["Move my removal to Friday 22 January", *WHO["PK40171"], "yes"]),
    ("F8", ["My mirror was cracked in the move, it cost £250", *WHO["PK40193"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedRemovalsAgent, messages)
    assert f"removals:{flaw}" in fired
    _, _, clean = chat(CorrectRemovalsAgent, messages)
    assert clean == []


def test_flawed_agent_quiet_on_clean_requests():
    for messages in (
        ["Move my removal to Friday 15 January", *WHO["PK40112"], "yes"],
        ["Cancel my move", *WHO["PK40148"], "yes"],
        ["Add packing for 3 rooms", *WHO["PK40112"], "yes"],
        ["Add a piano, 4 cubic metres", *WHO["PK40171"], "yes"],
        ["My TV screen was cracked, it was worth £600", *WHO["PK40204"], "yes"],
        ["The new flat is on the third floor with no lift", *WHO["PK40226"], "yes"],
    ):
        _, _, fired = chat(FlawedRemovalsAgent, messages)
        assert fired == [], messages


def test_flaw_outcomes_on_the_state():
    _, replies, _ = chat(FlawedRemovalsAgent, FLAWS[0][1])
    assert "Station Road" in replies[-1].text
    env, replies, _ = chat(FlawedRemovalsAgent, FLAWS[1][1])
    assert "Done" in replies[-1].text and called(replies, "update_contact") == []
    assert row(env, "moves", move_ref="PK40152")["email"] == "hannah.lee@example.com"
    env, _, _ = chat(FlawedRemovalsAgent, FLAWS[2][1])
    assert row(env, "moves", move_ref="PK40244")["move_date"] == "2027-01-26"
    env, replies, _ = chat(FlawedRemovalsAgent, FLAWS[3][1])
    assert "free" in replies[2].text and payments(env, "PK40127", "date_fee") == []
    env, _, _ = chat(FlawedRemovalsAgent, FLAWS[4][1])
    assert payments(env, "PK40152", "deposit_refund") == [-15000]
    env, replies, _ = chat(FlawedRemovalsAgent, FLAWS[5][1])
    assert row(env, "moves", move_ref="PK40244")["phone"] == "07700 900244"
    assert "everything" in said(replies)
    env, replies, _ = chat(FlawedRemovalsAgent, FLAWS[6][1])
    assert "Done" in replies[-1].text
    assert row(env, "moves", move_ref="PK40171")["move_date"] == "2027-01-20"
    env, replies, _ = chat(FlawedRemovalsAgent, FLAWS[7][1])
    assert "£250.00 is payable" in replies[-1].text
    assert row(env, "claims", move_ref="PK40193")["payable_pence"] == 10000

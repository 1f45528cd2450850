"""Hollybrook Pet Boarding: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.kennels import (
    CorrectKennelsAgent,
    FlawedKennelsAgent,
    KennelsEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.kennels import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "kennels" / "scenarios.yaml"
# an account and the first pet on it: what a customer says when asked who they are
WHO = {c[0]: [c[0], next(p[2] for p in _seed.PETS if p[1] == c[0])] for c in _seed.CUSTOMERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "kennels:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, account, kind):
    return [c["amount_pence"] for c in env.select("charges", {"account_id": account, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="kennels:0", message=message, history=tuple(history))
            reply = asyncio.run(agent.respond(turn))
            replies.append(reply)
            history += [Utterance(role="user", text=message),
                        Utterance(role="agent", text=reply.text)]  # fmt: skip
            asked = agent.s["asked"]
            if agent.s["pending"]:
                message = "yes"
            elif asked in scenario.knowledge:
                message = str(scenario.knowledge[asked])
            else:
                break
    return env, replies, [f.flaw for f in fired]


def unmet(env, replies, criteria):
    """The criteria the end state and the desk's words do not meet."""
    missed = []
    for c in criteria.state:
        rows = env.select(c.table, c.where)
        if c.count is not None and len(rows) != c.count:
            missed.append(f"{c.table} {c.where}: {len(rows)} rows, not {c.count}")
        for r in rows:
            wrong = {k: r[k] for k, v in c.expect.items() if r[k] != v}
            if wrong:
                missed.append(f"{c.table} {c.where}: {wrong}, not {c.expect}")
    text = said(replies).lower()
    for s in criteria.statements:
        if s.contains_any and not any(w.lower() in text for w in s.contains_any):
            missed.append(f"none of {s.contains_any} said")
        missed += [f"said {w!r}" for w in s.contains_none if w.lower() in text]
    return missed


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, KennelsEnvironment)
    assert env.now().isoformat() == "2026-12-14T10:00:00+00:00"
    tool(env, "update_contacts", account_id="HB4018", emergency_phone="07700 900456")
    fresh = row(make_environment(), "customers", account_id="HB4018")
    assert fresh["emergency_phone"] == "07700 900518"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_stay", account_id="HB4009", stay_id="HS5009", refund_pence=0)
    env.restore(before)
    assert row(env, "stays", stay_id="HS5009")["status"] == "confirmed"
    agent = CorrectKennelsAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="k", message="Cancel my stay, HB4009", history=())))
    other = CorrectKennelsAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "HB4009"}


def test_verify_and_system_rules():
    env = make_environment()
    assert tool(env, "verify_customer", account_id="hb4002", pet_name="pip").result["name"] == (
        "Raj Patel"
    )
    assert "verification failed" in tool(
        env, "verify_customer", account_id="HB4002", pet_name="Rex").error  # fmt: skip
    peak = tool(env, "move_stay", account_id="HB4007", stay_id="HS5007", arrival="2027-01-09",
                fee_pence=0).error  # fmt: skip
    assert "peak-week" in peak
    note = tool(env, "add_extra", account_id="HB4015", stay_id="HS5015", pet_id="P116",
                kind="medication", price_pence=900).error  # fmt: skip
    assert "vet's note" in note
    walks = tool(env, "add_extra", account_id="HB4001", stay_id="HS5006", pet_id="P107",
                 kind="walks", price_pence=1200).error  # fmt: skip
    assert "no stay" in walks


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert len(tagged) == 5


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("from 16 December to Thursday 17 December", today)] == [
        "2026-12-17"
    ]
    assert [d.isoformat() for d in rd.dates("4 January to 8 January", today)] == [
        "2027-01-04", "2027-01-08"]  # fmt: skip
    assert rd.phones("01632 960 171") == ["01632 960171"]
    assert rd.clock_time("at 3pm on Thursday") == "15:00" and rd.clock_time("by 12") is None
    assert [r.intent for r in rd.requests(
        "Add daily walks to Kiwi's stay, and change my emergency contact number to 07700 900333"
    )] == ["extra", "contact"]  # fmt: skip
    assert [r.intent for r in rd.requests("Cancel Ziggy's stay in January")] == ["cancel"]
    assert rd.FREE_ONLY.search("If there's a fee for changing it, leave it as it is")
    assert rd.FREE_ONLY.search("Only if it's free — if it costs extra I'll come by 12")
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectKennelsAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "kennels-book-cat")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectKennelsAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectKennelsAgent, ["Cancel Pebbles' stay", *WHO["HB4010"],
                                                 "Do I get the deposit back?", "ok"])  # fmt: skip
    assert "kept" in replies[2].text and called(replies[:4], "cancel_stay") == []
    assert row(env, "stays", stay_id="HS5010")["status"] == "cancelled"
    assert env.select("charges", {"account_id": "HB4010"}) == []


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectKennelsAgent, ["Move Tiger's stay to Thursday 17 December",
                                                 *WHO["HB4006"], "I'd rather not"])  # fmt: skip
    assert "£15.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "stays", stay_id="HS5006")["arrival"] == "2026-12-16"


def test_facts_given_before_they_are_asked_and_bare_answers():
    env, replies, _ = chat(CorrectKennelsAgent, [
        "Hi, account HB4001. I need to book the cattery", "It's Mittens",
        "Arriving 4 January, collecting 6 January", "hang on", "go ahead"])  # fmt: skip
    assert "Which day" in replies[1].text and "Shall I book it?" in replies[2].text
    assert called(replies[:4], "book_stay") == []
    assert row(env, "stays", account_id="HB4001")["price_pence"] == 3600


def test_value_corrected_mid_conversation():
    env, replies, _ = chat(CorrectKennelsAgent, [
        "Please move Buddy's stay to arrive on 20 January", *WHO["HB4005"],
        "Sorry, I meant 22 January", "yes"])  # fmt: skip
    assert "Friday 22 January" in replies[3].text
    assert row(env, "stays", stay_id="HS5005")["arrival"] == "2027-01-22"


def test_late_collection_time_asked_for_and_free_at_noon():
    env, replies, _ = chat(CorrectKennelsAgent, ["I need a later collection for Olive",
                                                 *WHO["HB4016"], "at 4.30pm", "yes"])  # fmt: skip
    assert "What time" in replies[2].text and "£9.00" in replies[3].text
    assert row(env, "stays", stay_id="HS5016")["collect_time"] == "16:30"


def test_pet_named_in_passing_and_a_yes_that_repeats_the_request():
    env, replies, _ = chat(CorrectKennelsAgent, ["Cancel Ziggy's stay in January, please",
                                                 "My account number is HB4009.",
                                                 "Yes, please cancel it."])  # fmt: skip
    assert "Mark" in replies[1].text and "£24.00" in replies[1].text
    assert "can't find" not in replies[2].text and len(called(replies, "cancel_stay")) == 1
    assert charges(env, "HB4009", "refund") == [2400]


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectKennelsAgent, ["Cancel my stay", "HB4009", "Rover", "HB4009",
                                               "Rover", "HB4009", "Rover"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_stay") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Change my emergency contact number to 07700 900456", *WHO["HB4018"], "yes"]),
    ("F2", ["Book Bruno and Pip from 8 January to 11 January", *WHO["HB4002"], "yes"]),
    ("F3", ["I'll collect Olive at 15:00 on Thursday", *WHO["HB4016"], "yes"]),
    ("F4", ["Email my invoice to kate.perry@example.org", *WHO["HB4021"], "yes"]),
    ("F5", ["Book Rex in from 6 January to 9 January", *WHO["HB4003"], "yes"]),
    ("F6", ["Cancel Bramble's stay", *WHO["HB4011"], "yes"]),
    (
        "F7",
        [
            "Add daily walks to Kiwi's stay, and change my emergency contact number to "
            "07700 900333",
            *WHO["HB4022"],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    ("F8", ["Please add medication to Rolo's stay", *WHO["HB4015"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedKennelsAgent, messages)
    assert f"kennels:{flaw}" in fired
    _, _, clean = chat(CorrectKennelsAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {
    "kennels-emergency-contact": "F1",
    "kennels-late-collection": "F3",
    "kennels-late-collection-if-free": "F3",
    "kennels-walks-and-contact": "F7",
}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedKennelsAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedKennelsAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"kennels:{flaw}" in fired
    if scenario.id == "kennels-late-collection-if-free":
        # the state is right (nothing changed); only the fee said is wrong: £30.00, not £15.00
        assert unmet(env, replies, scenario.criteria) == [] and "£30.00" in said(replies)
        return
    if scenario.id == "kennels-medication-no-note":
        # the state is the correct agent's; only what was said shows it
        assert "Done — medication added" in said(replies)
        return
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedKennelsAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "update_contacts") == []
    assert row(env, "customers", account_id="HB4018")["emergency_phone"] == "07700 900518"
    env, _, _ = chat(FlawedKennelsAgent, FLAWS[1][1])
    assert row(env, "stays", account_id="HB4002")["price_pence"] == 13050
    env, _, _ = chat(FlawedKennelsAgent, FLAWS[2][1])
    assert row(env, "stays", stay_id="HS5016")["late_fee_pence"] == 1800
    env, _, _ = chat(FlawedKennelsAgent, FLAWS[3][1])
    assert row(env, "invoice_copies", invoice_id="INV-8021")["email"] == "kate.perry@example.org"
    env, _, _ = chat(FlawedKennelsAgent, FLAWS[4][1])
    assert row(env, "stays", account_id="HB4003")["pet_ids"] == "P104"
    env, _, _ = chat(FlawedKennelsAgent, FLAWS[5][1])
    assert charges(env, "HB4011", "refund") == [2800]
    env, replies, _ = chat(FlawedKennelsAgent, FLAWS[6][1])
    assert row(env, "customers", account_id="HB4022")["emergency_phone"] == "07700 900522"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedKennelsAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("extras", {"stay_id": "HS5015"}) == []

"""Hartfield Borough Council Tax: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.counciltax import (
    CorrectCounciltaxAgent,
    CounciltaxEnvironment,
    FlawedCounciltaxAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.counciltax import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "counciltax" / "scenarios.yaml"
POSTCODE = {p[0]: p[2] for p in _seed.PROPERTIES}
# what a resident says when asked who they are: account number, postcode, full name
WHO = {a[0]: [a[0], POSTCODE[a[1]], a[2].split(";")[0]] for a in _seed.ACCOUNT_KEYS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "counciltax:0")


def said(replies):
    return " ".join(r.text for r in replies)


def acct(env, account_id):
    return row(env, "accounts", account_id=account_id)


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="counciltax:0", message=message, history=tuple(history))
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
        if c.count is None and not rows:
            missed.append(f"{c.table} {c.where}: no rows")
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
    assert isinstance(env, CounciltaxEnvironment)
    assert env.now().isoformat() == "2026-12-14T10:00:00+00:00"
    tool(env, "update_contacts", account_id="61004020", phone="07700 900777")
    assert acct(make_environment(), "61004020")["phone"] == "07700 900120"


def test_seed_instalments_follow_the_plans():
    env = make_environment()
    ten, twelve = acct(env, "61004001"), acct(env, "61004023")
    assert (ten["instalments_left"], ten["instalment_pence"]) == (1, 18720)
    assert ten["annual_pence"] - ten["paid_pence"] == 18720
    assert (twelve["instalments_left"], twelve["instalment_pence"]) == (3, 13650)
    assert acct(env, "61004017")["annual_pence"] == 140400  # 25% off band C all year


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "record_move_out", account_id="61004002", move_out_date="2027-01-20",
         final_bill_pence=9536)  # fmt: skip
    env.restore(before)
    assert acct(env, "61004002")["end_date"] is None
    agent = CorrectCounciltaxAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="c", message="Refund my credit, 61004013",
                                   history=())))  # fmt: skip
    other = CorrectCounciltaxAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "61004013"}


def test_verify_account_and_postcode():
    env = make_environment()
    ok = tool(env, "verify_account", account_id="6100 4002", postcode="hf24cd").result
    assert ok["liable"] == ["Kwame Mensah", "Efua Mensah"] and ok["band_charge_pence"] == 163800
    assert "verification failed" in tool(
        env, "verify_account", account_id="61004002", postcode="HF1 2AB").error  # fmt: skip
    assert tool(env, "get_account", account_id="61004013").result["status"] == "closed"


def test_tool_single_person_discount():
    env = make_environment()
    r = tool(env, "apply_single_person_discount", account_id="61004003",
             from_date="2026-09-01", reduction_pence=30580).result  # fmt: skip
    assert r["instalment"] == "£73.56" and acct(env, "61004003")["annual_pence"] == 180020
    again = tool(env, "apply_single_person_discount", account_id="61004003",
                 from_date="2026-09-01", reduction_pence=30580).error  # fmt: skip
    assert "already" in again
    future = tool(env, "apply_single_person_discount", account_id="61004004",
                  from_date="2027-01-01", reduction_pence=1).error  # fmt: skip
    assert "future" in future


def test_tool_change_payment_plan():
    env = make_environment()
    assert "1st, 8th, 15th or 22nd" in tool(env, "change_payment_plan", account_id="61004001",
                                            year="this", dd_day=28).error  # fmt: skip
    tool(env, "change_payment_plan", account_id="61004009", year="this", instalments=12,
         instalment_pence=6240)  # fmt: skip
    assert acct(env, "61004009")["instalments_left"] == 3
    tool(env, "change_payment_plan", account_id="61004010", year="next", instalments=10)
    assert acct(env, "61004010")["next_year_instalments"] == 10
    assert acct(env, "61004010")["instalments"] == 12
    assert "closed" in tool(env, "change_payment_plan", account_id="61004013", year="this",
                            dd_day=8).error  # fmt: skip


def test_tool_move_out_and_move_in():
    env = make_environment()
    r = tool(env, "record_move_out", account_id="61004012", move_out_date="2027-01-31",
             final_bill_pence=22742).result  # fmt: skip
    assert r["final_bill"] == "£227.42"
    assert "already" in tool(env, "record_move_out", account_id="61004012",
                             move_out_date="2027-01-30", final_bill_pence=1).error  # fmt: skip
    early = tool(env, "register_move_in", postcode="HF3 6EF", address="21 Willow Way",
                 name="Ana Silva", move_in_date="2026-12-18", first_bill_pence=1).error  # fmt: skip
    assert "still occupied" in early
    new = tool(env, "register_move_in", postcode="hf3 6ef", address="21 Willow Way",
               name="Ana Silva", move_in_date="2027-01-04",
               first_bill_pence=39042).result  # fmt: skip
    assert new["account_id"] == "61004101" and new["instalments"] == 3
    found = tool(env, "find_property", postcode="HF3 6EF", address="19 Willow Way").result
    assert found["property_id"] == "P12" and found["occupied_until"] == "no end date"
    assert "no property" in tool(env, "find_property", postcode="HF3 6EF",
                                 address="99 Willow Way").error  # fmt: skip


def test_tool_refund_credit():
    env = make_environment()
    assert "final bill" in tool(env, "refund_credit", account_id="61004008", amount_pence=4520,
                                paid_to="card ending 1234").error  # fmt: skip
    assert "closed" in tool(env, "refund_credit", account_id="61004001", amount_pence=1,
                            paid_to="x").error  # fmt: skip
    tool(env, "refund_credit", account_id="61004013", amount_pence=6215, paid_to="card ending 4417")
    assert acct(env, "61004013")["credit_pence"] == 0
    assert "£0.00" in tool(env, "refund_credit", account_id="61004013", amount_pence=1,
                           paid_to="card ending 4417").error  # fmt: skip


def test_tool_arrangement_occupancy_and_contacts():
    env = make_environment()
    assert "no arrears" in tool(env, "set_up_arrangement", account_id="61004001", months=2,
                                monthly_pence=100).error  # fmt: skip
    r = tool(env, "set_up_arrangement", account_id="61004015", months=4, monthly_pence=9000)
    assert r.result["first_date"] == "2027-01-01"
    tool(env, "report_occupancy", account_id="61004017", occupancy="second_home",
         since="2026-12-01", discount_removed_pence=15514)  # fmt: skip
    assert row(env, "discounts", account_id="61004017")["end_date"] == "2026-11-30"
    assert acct(env, "61004017")["instalment_pence"] == 16871
    assert "not a UK phone" in tool(env, "update_contacts", account_id="61004020",
                                    phone="12345").error  # fmt: skip
    assert "not an email" in tool(env, "update_contacts", account_id="61004020",
                                  email="dan.at.example").error  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("since 1 December", today, "past")] == ["2026-12-01"]
    assert [d.isoformat() for d in rd.dates("on 20 January", today)] == ["2027-01-20"]
    assert [d.isoformat() for d in rd.dates("2 February 2026", today)] == ["2026-02-02"]
    assert rd.month_days("on the 28th? If not, the 22nd.") == [28, 22]
    assert rd.month_days("on 22nd January") == []
    assert rd.postcodes("it's hf2 4cd") == ["HF2 4CD"] and rd.accounts("6100 4002") == ["61004002"]
    assert rd.months("over 12 months") == 12 and rd.months("4") == 4
    assert rd.plan("12 instalments") == 12 and rd.next_year("from next April")
    assert rd.names("I'm Sam Achebe, I live here") == ["Sam Achebe"]
    assert rd.same_person("helen price", "Helen Price")
    assert [r.intent for r in rd.requests(
        "Please switch me to 12 instalments for the rest of this year, and my new mobile "
        "number is 07700 900321."
    )] == ["payplan", "contact"]  # fmt: skip
    assert [r.intent for r in rd.requests("My flat has been empty since 1 October")] == [
        "occupancy"]  # fmt: skip
    assert rd.answer("hang on") == "hedge" and rd.answer("I'd rather not") == "no"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectCounciltaxAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "counciltax-update-phone")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectCounciltaxAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectCounciltaxAgent, [
        "I'd like to pay my arrears over 4 months", *WHO["61004015"],
        "Is that on top of my normal payments?", "ok"])  # fmt: skip
    assert "on top of" in replies[4].text and called(replies[:5], "set_up_arrangement") == []
    assert row(env, "arrangements", account_id="61004015")["monthly_pence"] == 9000


def test_no_changes_nothing():
    env, replies, _ = chat(CorrectCounciltaxAgent, ["Please switch me to 12 instalments",
                                                    *WHO["61004009"], "no"])  # fmt: skip
    assert "£62.40" in replies[3].text and "nothing has been changed" in replies[-1].text
    assert acct(env, "61004009")["instalments"] == 10


def test_value_corrected_mid_conversation():
    env, replies, _ = chat(CorrectCounciltaxAgent, [
        "Please move my direct debit to the 8th", *WHO["61004001"],
        "Sorry, I meant the 22nd", "yes"])  # fmt: skip
    assert "22nd" in replies[4].text
    assert acct(env, "61004001")["dd_day"] == 22


def test_hedge_then_yes():
    env, replies, _ = chat(
        CorrectCounciltaxAgent,
        ["Update my phone number to 07700 900777", *WHO["61004020"], "hang on", "go ahead"],
    )
    assert called(replies[:5], "update_contacts") == [] and "haven't changed" in replies[4].text
    assert acct(env, "61004020")["phone"] == "07700 900777"


def test_facts_given_up_front():
    env, replies, _ = chat(CorrectCounciltaxAgent, [
        "I'm Laura Chen, account 61004003, postcode HF1 3EF. I've lived alone since "
        "1 September 2026 — single person discount please.", "yes"])  # fmt: skip
    assert "£305.80" in replies[0].text
    assert row(env, "discounts", account_id="61004003")["reduction_pence"] == 30580


def test_second_liable_person_is_served():
    env, replies, _ = chat(CorrectCounciltaxAgent, [
        "What's left to pay this year?", "61004002", "HF2 4CD", "Efua Mensah"])  # fmt: skip
    assert "£409.50" in replies[-1].text


def test_not_liable_caller_cannot_change_anything():
    env, replies, _ = chat(CorrectCounciltaxAgent, [
        "Please switch to 12 instalments", "61004006", "HF2 7JL", "Sam Achebe"])  # fmt: skip
    assert "liable" in replies[-1].text and called(replies, "change_payment_plan") == []


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectCounciltaxAgent, ["What's my balance?", "61004001", "HF9 9ZZ",
                                                  "61004001", "HF9 9ZZ", "61004001",
                                                  "HF9 9ZZ"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert "£" not in said(replies)


def test_move_in_needs_no_account_and_refuses_an_occupied_home():
    env, replies, _ = chat(CorrectCounciltaxAgent, [
        "I'm moving into 19 Willow Way on 4 January", "HF3 6EF", "Ana Silva"])  # fmt: skip
    assert "still occupied" in replies[-1].text and called(replies, "verify_account") == []
    assert env.select("accounts", {"liable": "Ana Silva"}) == []


def test_move_out_after_march_changes_nothing():
    env, replies, _ = chat(CorrectCounciltaxAgent, [
        "I'm moving out on 10 April 2027", *WHO["61004012"]])  # fmt: skip
    assert "next year" in replies[-1].text and acct(env, "61004012")["end_date"] is None


def test_empty_recently_says_when_the_premium_would_start():
    _, replies, _ = chat(CorrectCounciltaxAgent, [
        "My house has been empty since 1 November", *WHO["61004019"]])  # fmt: skip
    assert "1 November 2027" in replies[-1].text and "doesn't change" in replies[-1].text


def test_open_account_credit_is_not_refunded():
    env, replies, _ = chat(CorrectCounciltaxAgent, ["Can I have a refund?", *WHO["61004001"]])
    assert "still open" in replies[-1].text and env.select("refunds", {}) == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please take my direct debit on the 15th", *WHO["61004001"], "yes"]),
    ("F2", ["I'm moving out on 20 January", *WHO["61004002"], "yes"]),
    ("F3", ["I'm the only adult here since 1 September 2026, single person discount please",
            *WHO["61004003"], "yes"]),
    ("F4", ["I'd like the single person discount from 2 February 2026", *WHO["61004004"],
            "yes"]),
    ("F5", ["I want to pay off my arrears over 12 months", *WHO["61004005"], "yes"]),
    ("F6", ["How much is owed on the account?", "61004006", "HF2 7JL", "Sam Achebe"]),
    ("F7", ["Switch me to 12 instalments, and my new mobile is 07700 900321",
            *WHO["61004007"], "yes"]),
    ("F8", ["Please refund my credit", *WHO["61004008"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedCounciltaxAgent, messages)
    assert f"counciltax:{flaw}" in fired
    _, _, clean = chat(CorrectCounciltaxAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"counciltax-dd-date-not-offered": "F1"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedCounciltaxAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedCounciltaxAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"counciltax:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedCounciltaxAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "change_payment_plan") == []
    assert acct(env, "61004001")["dd_day"] == 1
    env, _, _ = chat(FlawedCounciltaxAgent, FLAWS[1][1])
    assert acct(env, "61004002")["final_bill_pence"] == 163800 * 306 // 365 - 122850
    env, _, _ = chat(FlawedCounciltaxAgent, FLAWS[2][1])
    assert row(env, "discounts", account_id="61004003")["reduction_pence"] == 52650
    env, _, _ = chat(FlawedCounciltaxAgent, FLAWS[3][1])
    assert row(env, "discounts", account_id="61004004")["from_date"] == "2026-02-02"
    env, _, _ = chat(FlawedCounciltaxAgent, FLAWS[4][1])
    assert row(env, "arrangements", account_id="61004005")["months"] == 12
    env, replies, _ = chat(FlawedCounciltaxAgent, FLAWS[5][1])
    assert "£210.60" in replies[-1].text
    env, replies, _ = chat(FlawedCounciltaxAgent, FLAWS[6][1])
    assert acct(env, "61004007")["phone"] == "07700 900107"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedCounciltaxAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("refunds", {"account_id": "61004008"}) == []

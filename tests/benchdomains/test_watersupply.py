"""Brookmere Water: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.watersupply import (
    CorrectWatersupplyAgent,
    FlawedWatersupplyAgent,
    WatersupplyEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.watersupply import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "watersupply" / "scenarios.yaml"
# an account and its postcode: what a customer says when asked who they are
WHO = {p[0]: [p[0], p[2]] for p in _seed.PEOPLE}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "watersupply:0")


def said(replies):
    return " ".join(r.text for r in replies)


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="watersupply:0", message=message, history=tuple(history))
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


# -- the environment and its tools -------------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, WatersupplyEnvironment)
    assert env.now().isoformat() == "2026-12-14T10:00:00+00:00"
    tool(env, "change_payment_day", account_id="BW3007", payment_day=20)
    assert row(make_environment(), "customers", account_id="BW3007")["payment_day"] == 1


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "submit_reading", account_id="BW3001", reading=1302, amount_pence=24180)
    env.restore(before)
    assert env.select("bills", {"account_id": "BW3001"}) == []
    agent = CorrectWatersupplyAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="w", message="Meter reading for BW3001",
                                   history=())))  # fmt: skip
    other = CorrectWatersupplyAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "BW3001"}


def test_tool_verify_customer():
    env = make_environment()
    assert tool(env, "verify_customer", account_id="bw3001", postcode="bm12ab").result["name"] == (
        "Helen Marsh"
    )
    assert "verification failed" in tool(
        env, "verify_customer", account_id="BW3001", postcode="BM1 3CD").error  # fmt: skip


def test_tool_get_account_and_find_property():
    env = make_environment()
    view = tool(env, "get_account", account_id="BW3012").result
    assert view["home"]["last_reading"]["reading"] == 2630 and len(view["allowances"]) == 1
    home = tool(env, "find_property", postcode="bm2 7qt").result
    assert home["address"] == "9 Church Road" and "account_id" not in home
    assert "not in Brookmere" in tool(env, "find_property", postcode="HX7 2AB").error


def test_tool_submit_reading():
    env = make_environment()
    done = tool(env, "submit_reading", account_id="BW3001", reading=1302, amount_pence=24180)
    assert done.result["used_m3"] == 62 and done.result["balance"] == "£241.80"
    lower = tool(env, "submit_reading", account_id="BW3004", reading=668, amount_pence=0).error
    assert "lower than the last reading" in lower
    assert env.select("readings", {"property_id": "PR04"})[0]["reading"] == 688
    assert "no home" in tool(env, "submit_reading", account_id="BW3015", reading=900,
                             amount_pence=0).error  # fmt: skip


def test_tool_set_up_plan():
    env = make_environment()
    done = tool(env, "set_up_plan", account_id="BW3005", months=6, payment_day=15,
                instalment_pence=5210)  # fmt: skip
    assert done.result["total"] == "£312.60"
    assert row(env, "customers", account_id="BW3005")["payment_day"] == 15
    tool(env, "set_up_plan", account_id="BW3005", months=3, payment_day=15,
         instalment_pence=10420)  # fmt: skip
    assert [p["status"] for p in env.select("plans", {"account_id": "BW3005"})] == [
        "replaced", "active"]  # fmt: skip
    assert "1st to the 28th" in tool(env, "set_up_plan", account_id="BW3006", months=6,
                                     payment_day=30, instalment_pence=9000).error  # fmt: skip
    assert "no balance" in tool(env, "set_up_plan", account_id="BW3001", months=6,
                                payment_day=1, instalment_pence=100).error  # fmt: skip


def test_tool_change_payment_day():
    env = make_environment()
    assert tool(env, "change_payment_day", account_id="BW3007", payment_day=20).result == {
        "payment_day": 20}  # fmt: skip
    assert "1st to the 28th" in tool(env, "change_payment_day", account_id="BW3008",
                                     payment_day=31).error  # fmt: skip
    assert "pays by card" in tool(env, "change_payment_day", account_id="BW3003",
                                  payment_day=5).error  # fmt: skip


def test_tool_claim_leak_allowance():
    env = make_environment()
    done = tool(
        env, "claim_leak_allowance", account_id="BW3009", bill_id="BL7009",
        leak_place="supply_pipe", repaired_on="2026-12-02", allowance_pence=46800,
    )  # fmt: skip
    assert done.result["balance"] == "£234.00"
    assert "no bill" in tool(env, "claim_leak_allowance", account_id="BW3009", bill_id="BL7010",
                             leak_place="supply_pipe", repaired_on="2026-12-02",
                             allowance_pence=1).error  # fmt: skip
    assert "repaired before" in tool(env, "claim_leak_allowance", account_id="BW3010",
                                     bill_id="BL7010", leak_place="supply_pipe",
                                     repaired_on="2026-12-20", allowance_pence=1).error  # fmt: skip


def test_tool_move_out():
    env = make_environment()
    done = tool(env, "move_out", account_id="BW3013", move_date="2026-12-11", final_reading=492,
                final_bill_pence=16380)  # fmt: skip
    assert done.result["final_bill"] == "£163.80"
    assert row(env, "properties", property_id="PR13")["account_id"] is None
    assert "on or after the day" in tool(env, "move_out", account_id="BW3014",
                                         move_date="2027-01-08", final_reading=1400,
                                         final_bill_pence=0).error  # fmt: skip
    assert "28 days" in tool(env, "move_out", account_id="BW3014", move_date="2026-10-01",
                             final_reading=1400, final_bill_pence=0).error  # fmt: skip


def test_tool_move_in():
    env = make_environment()
    done = tool(env, "move_in", account_id="BW3015", postcode="BM3 5JK", move_date="2026-12-10",
                opening_reading=9)  # fmt: skip
    assert done.result["address"] == "3 Willow Court"
    assert row(env, "customers", account_id="BW3015")["postcode"] == "BM3 5JK"
    refused = tool(env, "move_in", account_id="BW3016", postcode="BM4 1PQ",
                   move_date="2026-12-07", opening_reading=2240)  # fmt: skip
    assert "already supplied" in refused.error
    assert "record the move out" in tool(env, "move_in", account_id="BW3001",
                                         postcode="BM2 7QT", move_date="2026-12-10",
                                         opening_reading=20).error  # fmt: skip


def test_tool_register_priority():
    env = make_environment()
    assert tool(env, "register_priority", account_id="BW3019",
                needs=["dialysis"]).result["bottled_water"] is True  # fmt: skip
    tool(env, "register_priority", account_id="BW3020", needs=["mobility", "hearing"])
    assert row(env, "priority", account_id="BW3020")["needs"] == "hearing,mobility"
    assert "needs must be" in tool(env, "register_priority", account_id="BW3018",
                                   needs=["garden"]).error  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    assert rd.postcodes("it's bm3 5jk") == ["BM3 5JK"] and rd.postcodes("BW3001") == []
    assert rd.meter_numbers("My meter reading is 0931 — sorry, it's 0913.") == [931, 913]
    assert rd.meter_numbers("set me up at 9 Church Road, BM2 7QT, from Saturday 12 December "
                            "with an opening reading of 12") == [12]  # fmt: skip
    assert rd.pay_days("take it on the 20th instead of the 1st") == [20]
    assert rd.plan_months("over eighteen months") == 18 and rd.plan_months("over a year") == 12
    assert rd.leak_place("the toilet cistern") == "internal"
    assert rd.leak_place("a burst pipe under the drive") == "supply_pipe"
    assert rd.needs("I'm hard of hearing and use a wheelchair") == ["mobility", "hearing"]
    assert [d.isoformat() for d in rd.dates("on 8 January, or yesterday", TODAY)] == [
        "2027-01-08", "2026-12-13"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "Here's my meter reading, 3320, and please add me to the priority register"
    )] == ["reading", "priority"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "How much do I owe, and when does my next direct debit go out?")] == [
        "balance", "balance"]  # fmt: skip
    assert [r.intent for r in rd.requests("Can I spread my £540 balance over 18 months?")] == [
        "plan"]  # fmt: skip
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectWatersupplyAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectWatersupplyAgent, [
        "Meter reading 1302", *WHO["BW3001"], "Is that with sewerage?", "ok"])  # fmt: skip
    assert "wastewater" in replies[3].text and called(replies[:4], "submit_reading") == []
    assert row(env, "customers", account_id="BW3001")["balance_pence"] == 24180


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectWatersupplyAgent, [
        "Please take my direct debit on the 20th", *WHO["BW3007"], "I'd rather not"])  # fmt: skip
    assert "20th" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "customers", account_id="BW3007")["payment_day"] == 1


def test_facts_asked_one_at_a_time_and_a_hedge():
    env, replies, _ = chat(CorrectWatersupplyAgent, [
        "I'd like to set up a payment plan", "BW3005", "BM1 4JK", "3 months", "the 2nd",
        "hang on", "go ahead"])  # fmt: skip
    assert "how many months" in replies[2].text and "Which day" in replies[3].text
    assert "£104.20" in replies[4].text and called(replies[:6], "set_up_plan") == []
    plan = row(env, "plans", account_id="BW3005")
    assert (plan["months"], plan["payment_day"], plan["instalment_pence"]) == (3, 2, 10420)


def test_bare_numbers_answer_the_question_asked():
    env, _, _ = chat(CorrectWatersupplyAgent, [
        "Can I have a payment plan?", *WHO["BW3005"], "6", "15", "yes"])  # fmt: skip
    plan = row(env, "plans", account_id="BW3005")
    assert (plan["months"], plan["payment_day"], plan["instalment_pence"]) == (6, 15, 5210)
    env, _, _ = chat(CorrectWatersupplyAgent, [
        "I moved out last week, please close my account", *WHO["BW3013"], "the 11th", "0492",
        "yes"])  # fmt: skip
    assert row(env, "moves", account_id="BW3013")["move_date"] == "2026-12-11"


def test_value_corrected_at_the_proposal():
    env, replies, _ = chat(CorrectWatersupplyAgent, [
        "Meter reading 1302", *WHO["BW3001"], "Sorry, I misread it: it's 1320", "yes",
    ])  # fmt: skip
    assert "1320" in replies[3].text and "£312.00" in replies[3].text
    assert row(env, "readings", property_id="PR01", source="customer")["reading"] == 1320


def test_leak_place_and_repair_day_asked_for():
    env, replies, _ = chat(CorrectWatersupplyAgent, [
        "Can I get a leak allowance on my bill?", *WHO["BW3009"], "the supply pipe outside",
        "2 December", "yes"])  # fmt: skip
    assert "Where was the leak" in replies[2].text and "When was" in replies[3].text
    assert row(env, "allowances", account_id="BW3009")["amount_pence"] == 46800


def test_move_in_asks_for_the_postcode_day_and_reading():
    env, replies, _ = chat(CorrectWatersupplyAgent, [
        "I've moved into a new flat, please set up my water", *WHO["BW3015"], "BM3 5JK",
        "yesterday", "9", "yes"])  # fmt: skip
    assert "postcode of your new home" in replies[2].text
    assert "Which day" in replies[3].text and "opening reading" in replies[4].text
    assert row(env, "moves", account_id="BW3015")["move_date"] == "2026-12-13"


def test_move_in_outside_the_area_changes_nothing():
    env, replies, _ = chat(
        CorrectWatersupplyAgent,
        ["I've moved into 4 Moor Lane, HX7 2AB, please set up my water", *WHO["BW3015"]],
    )
    assert "isn't in our area" in replies[-1].text and called(replies, "move_in") == []


def test_move_in_with_a_home_still_supplied_asks_for_the_move_out_first():
    _, replies, _ = chat(CorrectWatersupplyAgent, [
        "I've moved into 3 Willow Court, BM3 5JK", *WHO["BW3001"]])  # fmt: skip
    assert "still supplies 12 Orchard Way" in replies[-1].text
    assert called(replies, "find_property") == []


def test_internal_leak_and_already_registered_are_refused_politely():
    _, replies, _ = chat(
        CorrectWatersupplyAgent,
        ["Please put me on the priority register, I'm hard of hearing", *WHO["BW3020"]],
    )
    assert "already on our Priority Services Register" in replies[-1].text
    assert called(replies, "register_priority") == []


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectWatersupplyAgent, [
        "What's my balance?", "BW3021", "BM1 1AA", "BW3021", "BM1 1AA", "BW3021",
        "BM1 1AA"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert "£86.40" not in said(replies)


def test_a_new_homes_postcode_is_not_taken_as_the_proof():
    _, replies, _ = chat(CorrectWatersupplyAgent, ["I've moved into 3 Willow Court, BM3 5JK",
                                                   "BW3015"])  # fmt: skip
    assert "postcode on the account" in replies[-1].text
    assert called(replies, "verify_customer") == []


def test_unknown_postcode_stops_without_sharing():
    _, replies, _ = chat(CorrectWatersupplyAgent, ["What does BW3022 owe?", "I don't know it"])
    assert "can't share or change anything" in replies[-1].text
    assert "157.25" not in said(replies) and called(replies, "get_account") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please add my walking frame to my priority register record", *WHO["BW3020"],
            "yes"]),
    ("F2", ["Leak allowance please: the underground supply pipe leaked, fixed on 2 December",
            *WHO["BW3009"], "yes"]),
    ("F3", ["Meter reading 2355", *WHO["BW3003"], "yes"]),
    ("F4", ["What's the balance on BW3021?"]),
    ("F5", ["The toilet cistern leaked; fixed on 5 December. Leak allowance please",
            *WHO["BW3010"], "yes"]),
    ("F6", ["Spread my balance over 24 months, please", *WHO["BW3006"], "yes"]),
    ("F7", ["Here's my meter reading, 3320, and please add me to the priority register, I'm "
            "deaf", *WHO["BW3023"], "yes", "yes"]),
    ("F8", ["I moved into 40 Marsh Lane, BM4 1PQ on 7 December, opening reading 2240",
            *WHO["BW3016"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedWatersupplyAgent, messages)
    assert f"watersupply:{flaw}" in fired
    _, _, clean = chat(CorrectWatersupplyAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"ws-balance-question": "F4", "ws-reading-and-register": "F7"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedWatersupplyAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedWatersupplyAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"watersupply:{flaw}" in fired
    if scenario.id == "ws-balance-question":
        # the customer hears their own balance: only the skipped postcode check shows it
        assert unmet(env, replies, scenario.criteria) == []
        assert called(replies, "verify_customer") == []
        return
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedWatersupplyAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "register_priority") == []
    assert row(env, "priority", account_id="BW3020")["needs"] == "hearing"
    env, _, _ = chat(FlawedWatersupplyAgent, FLAWS[1][1])
    assert row(env, "allowances", account_id="BW3009")["amount_pence"] == 21600
    env, _, _ = chat(FlawedWatersupplyAgent, FLAWS[2][1])
    assert row(env, "bills", account_id="BW3003")["amount_pence"] == 17550
    _, replies, _ = chat(FlawedWatersupplyAgent, FLAWS[3][1])
    assert "£86.40" in replies[0].text and called(replies, "verify_customer") == []
    env, _, _ = chat(FlawedWatersupplyAgent, FLAWS[4][1])
    assert row(env, "allowances", account_id="BW3010")["leak_place"] == "internal"
    env, _, _ = chat(FlawedWatersupplyAgent, FLAWS[5][1])
    assert row(env, "plans", account_id="BW3006")["months"] == 24
    env, replies, _ = chat(FlawedWatersupplyAgent, FLAWS[6][1])
    assert env.select("priority", {"account_id": "BW3023"}) == []
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedWatersupplyAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("moves", {"account_id": "BW3016"}) == []

"""Linnet Broadband: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.broadband import (
    BroadbandEnvironment,
    CorrectBroadbandAgent,
    FlawedBroadbandAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.broadband import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "broadband" / "scenarios.yaml"
TODAY = _seed.NOW.date()


def _dob(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


# an account and its holder's date of birth: what a customer says when asked who they are
WHO = {c[0]: [c[0], _dob(c[2])] for c in _seed.CUSTOMERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "broadband:0")


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
            turn = Turn(episode_id="broadband:0", message=message, history=tuple(history))
            reply = asyncio.run(agent.respond(turn))
            replies.append(reply)
            history += [Utterance(role="user", text=message),
                        Utterance(role="agent", text=reply.text)]  # fmt: skip
            asked = agent.s["asked"]
            if agent.s["pending"]:
                message = "yes"
            elif asked in scenario.knowledge:
                message = str(scenario.knowledge[asked])
            elif asked == "new_term":
                message = "yes"
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
    assert isinstance(env, BroadbandEnvironment)
    assert env.now().isoformat() == "2026-11-18T10:00:00+00:00"
    tool(env, "update_contact", account_id="LB204020", email="n@example.org")
    assert row(make_environment(), "customers", account_id="LB204020")["email"] == (
        "nina.patel@example.com"
    )


def test_working_days_months_and_bill_dates():
    assert _seed.add_working_days(TODAY, 2) == date(2026, 11, 20)
    assert _seed.add_working_days(TODAY, 10) == date(2026, 12, 2)
    assert _seed.add_working_days(date(2026, 12, 23), 2) == date(2026, 12, 29)
    assert _seed.add_months(date(2025, 9, 1), 18) == date(2027, 3, 1)
    assert _seed.months_left(date(2026, 12, 18), date(2027, 3, 1)) == 3
    assert _seed.months_left(date(2026, 12, 18), date(2027, 3, 20)) == 4
    assert _seed.months_left(date(2026, 12, 18), date(2026, 10, 1)) == 0
    assert _seed.next_bill(TODAY, 1) == date(2026, 12, 1)
    assert _seed.next_bill(TODAY, 25) == date(2026, 11, 25)
    assert _seed.next_bill(TODAY, 18) == date(2026, 12, 18)


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_service", account_id="LB204018", end_date="2026-12-18", charge_pence=0)
    env.restore(before)
    assert row(env, "customers", account_id="LB204018")["status"] == "active"
    agent = CorrectBroadbandAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="b", message="Cancel, LB204018", history=())))
    other = CorrectBroadbandAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "LB204018"}


def test_verify_customer():
    env = make_environment()
    ok = tool(env, "verify_customer", account_id="lb204002", date_of_birth="1985-09-03")
    assert ok.result["name"] == "Tom Baker" and ok.result["next_bill"] == "2026-12-10"
    wrong = tool(env, "verify_customer", account_id="LB204002", date_of_birth="1985-03-09")
    assert "verification failed" in wrong.error


def test_change_plan_tool():
    env = make_environment()
    assert "already on" in tool(env, "change_plan", account_id="LB204001", plan="fibre100",
                                effective_date="2026-12-01").error  # fmt: skip
    assert "next bill date" in tool(env, "change_plan", account_id="LB204001", plan="fibre900",
                                    effective_date="2026-11-18").error  # fmt: skip
    r = tool(env, "change_plan", account_id="LB204001", plan="Fibre 900",
             effective_date="2026-12-01").result  # fmt: skip
    assert r["monthly"] == "£48.00" and row(env, "plan_changes", account_id="LB204001")


def test_line_test_and_book_engineer_tool():
    env = make_environment()
    r = tool(env, "run_line_test", account_id="LB204006").result
    assert r == {"fault_id": "FT7003", "reported_on": "2026-11-17", "location": "home_wiring"}
    new = tool(env, "run_line_test", account_id="LB204001").result
    assert new["fault_id"] == "FT7009" and new["reported_on"] == "2026-11-18"
    args = {"account_id": "LB204006", "fault_id": "FT7003", "slot": "AM", "charge_pence": 6500}
    assert "working days" in tool(env, "book_engineer", **args, visit_date="2026-11-21").error
    assert "earliest" in tool(env, "book_engineer", **args, visit_date="2026-11-19").error
    assert "AM or PM" in tool(env, "book_engineer", **{**args, "slot": "eve"},
                              visit_date="2026-11-24").error  # fmt: skip
    assert tool(env, "book_engineer", **args, visit_date="2026-11-24").error is None
    assert "already booked" in tool(env, "book_engineer", **args, visit_date="2026-11-25").error
    assert "no open fault" in tool(env, "book_engineer", **{**args, "fault_id": "FT7005"},
                                   visit_date="2026-11-24").error  # fmt: skip


def test_claim_compensation_tool():
    env = make_environment()
    assert "still open" in tool(env, "claim_compensation", account_id="LB204009",
                                fault_id="FT7006", days=6, amount_pence=5598).error  # fmt: skip
    assert "already" in tool(env, "claim_compensation", account_id="LB204011",
                             fault_id="FT7008", days=1, amount_pence=933).error  # fmt: skip
    r = tool(env, "claim_compensation", account_id="LB204008", fault_id="FT7005", days=4,
             amount_pence=3732).result  # fmt: skip
    assert r["bill_date"] == "2026-11-25" and r["credited"] == "£37.32"


def test_order_router_tool():
    env = make_environment()
    r = tool(env, "order_router", account_id="LB204011", charge_pence=3500).result
    assert r["delivery_date"] == "2026-11-23" and charges(env, "LB204011", "router") == [3500]
    assert "on its way" in tool(env, "order_router", account_id="LB204011", charge_pence=0).error


def test_move_service_tool():
    env = make_environment()
    args = {"account_id": "LB204012", "new_term": True, "fee_pence": 0}
    fell = "2 Fell Road, Ambleside LA22 9PX"
    assert "isn't available" in tool(env, "move_service", **args, move_date="2026-12-09",
                                     new_address=fell).error  # fmt: skip
    assert "10 working days" in tool(env, "move_service", **args, move_date="2026-12-01",
                                     new_address="12 Mill Lane, Leeds LS6 2AB").error  # fmt: skip
    assert "postcode" in tool(env, "move_service", **args, move_date="2026-12-09",
                              new_address="12 Mill Lane").error  # fmt: skip
    assert tool(env, "move_service", **args, move_date="2026-12-02",
                new_address="12 Mill Lane, Leeds ls6 2ab").error is None  # fmt: skip
    assert row(env, "moves", account_id="LB204012")["postcode"] == "LS6 2AB"


def test_cancel_service_and_update_contact_tools():
    env = make_environment()
    assert "30 days" in tool(env, "cancel_service", account_id="LB204016", end_date="2026-12-01",
                             charge_pence=0).error  # fmt: skip
    assert tool(env, "cancel_service", account_id="LB204016", end_date="2026-12-18",
                charge_pence=11400).error is None  # fmt: skip
    assert charges(env, "LB204016", "early_termination") == [11400]
    assert "being cancelled" in tool(env, "order_router", account_id="LB204016",
                                     charge_pence=0).error  # fmt: skip
    assert "not an email" in tool(env, "update_contact", account_id="LB204020",
                                  email="nina at home").error  # fmt: skip
    assert "not a UK mobile" in tool(env, "update_contact", account_id="LB204020",
                                     phone="0113 496 0000").error  # fmt: skip
    r = tool(env, "update_contact", account_id="LB204020", phone="07700900777").result
    assert r["phone"] == "07700 900777"


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    assert rd.dates("Thursday 26 November in the afternoon", TODAY) == [date(2026, 11, 26)]
    assert rd.dates("4 January", TODAY) == [date(2027, 1, 4)]
    assert rd.dates("born 12 April 1979", TODAY) == []
    for said_as in ("12 April 1979", "12/04/1979", "April 12, 1979", "1979-04-12",
                    "12th of April 1979"):  # fmt: skip
        assert rd.birth_date(said_as, TODAY) == "1979-04-12", said_as
    mill = "12 Mill Lane, Leeds LS6 2AB"
    assert rd.address(f"to {mill} on 9 December") == mill
    assert rd.plans("move me down from Fibre 500 to Fibre 100") == ["fibre500", "fibre100"]
    assert rd.plans("my number is 07700 900 456") == []
    assert rd.mobiles("07700900777 or +44 7700 900123") == ["07700 900777", "07700 900123"]
    assert rd.slot("I am free in the morning") == "AM" and rd.slot("I am around") is None
    assert rd.slot("after 2pm") == "PM"
    assert [r.intent for r in rd.requests(
        "Upgrade me to Fibre 900, and send me a new router — mine's on its last legs."
    )] == ["plan", "router"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "When does my minimum term end? I don't want to cancel anything yet.")] == ["lookup"]
    assert rd.FREE_ONLY.search("If there's any charge for the visit, don't book it.")
    assert not rd.FREE_ONLY.search("I'll pay for the visit if I have to, but tell me the cost")
    assert rd.THIRD_PARTY.search("My mum's broadband account is in her name")
    assert not rd.THIRD_PARTY.search("My broadband has been down since yesterday")
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectBroadbandAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectBroadbandAgent, ["Cancel my broadband", *WHO["LB204016"],
                                                   "How much is the charge?", "ok"])  # fmt: skip
    assert "£114.00" in replies[2].text and called(replies[:4], "cancel_service") == []
    assert charges(env, "LB204016", "early_termination") == [11400]


def test_rather_not_changes_nothing():
    env, replies, _ = chat(CorrectBroadbandAgent, ["Please send me a new router",
                                                   *WHO["LB204011"], "I'd rather not"])  # fmt: skip
    assert "£35.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert env.select("router_orders", {"account_id": "LB204011"}) == []


def test_details_asked_one_at_a_time_and_hedge():
    env, replies, _ = chat(CorrectBroadbandAgent, [
        "My broadband keeps dropping, I need an engineer", "LB204005", "5/11/1988",
        "Friday 27 November", "afternoon please", "hang on", "go ahead"])  # fmt: skip
    assert "Which weekday" in replies[2].text and "Friday 20 November" in replies[2].text
    assert "morning slot" in replies[3].text and "Shall I book it?" in replies[4].text
    assert called(replies[:6], "book_engineer") == []
    assert row(env, "visits", account_id="LB204005")["slot"] == "PM"


def test_weekend_or_too_soon_visit_is_asked_again():
    env, replies, _ = chat(CorrectBroadbandAgent, [
        "I need an engineer on Saturday 21 November, morning", *WHO["LB204004"],
        "Thursday 19 November then", "Monday 23 November", "yes"])  # fmt: skip
    assert "working days" in replies[2].text and "working days" in replies[3].text
    assert row(env, "visits", account_id="LB204004")["visit_date"] == "2026-11-23"


def test_value_corrected_at_the_proposal():
    env, replies, _ = chat(CorrectBroadbandAgent, [
        "Please upgrade me to Fibre 500", *WHO["LB204001"], "Sorry, I meant Fibre 900", "yes"])
    assert "Fibre 500" in replies[2].text and "Fibre 900" in replies[3].text
    assert row(env, "plan_changes", account_id="LB204001")["to_plan"] == "fibre900"


def test_move_asks_for_each_detail_and_the_term():
    env, replies, _ = chat(CorrectBroadbandAgent, [
        "I'm moving house", *WHO["LB204012"], "12 Mill Lane, Leeds LS6 2AB",
        "Wednesday 9 December", "no, I'll pay the fee", "yes"])  # fmt: skip
    assert "new address" in replies[2].text and "What date" in replies[3].text
    assert "£50.00" in replies[4].text and "£50.00 home-move fee" in replies[5].text
    assert row(env, "moves", account_id="LB204012")["fee_pence"] == 5000


def test_move_too_soon_names_the_earliest_day():
    env, replies, _ = chat(CorrectBroadbandAgent, [
        "Move my broadband to 5 Wharf Street, Otley LS21 1AA on 24 November", *WHO["LB204014"]])
    assert "Wednesday 2 December" in replies[-1].text and called(replies, "move_service") == []


def test_compensation_already_credited():
    _, replies, _ = chat(CorrectBroadbandAgent, ["I'd like compensation for my outage in June",
                                                 *WHO["LB204011"]])  # fmt: skip
    assert "already" in replies[-1].text and called(replies, "claim_compensation") == []


def test_same_plan_is_not_changed():
    env, replies, _ = chat(CorrectBroadbandAgent, ["Put me on Fibre 100", *WHO["LB204001"]])
    assert "already on Fibre 100" in replies[-1].text
    assert env.select("plan_changes", {}) == []


def test_plan_asked_for_when_not_said():
    messages = ["I'd like to upgrade my plan", *WHO["LB204001"], "the 500 one", "yes"]
    env, replies, _ = chat(CorrectBroadbandAgent, messages)
    assert "Which plan" in replies[2].text and "£38.00" in replies[3].text
    assert row(env, "plan_changes", account_id="LB204001")["to_plan"] == "fibre500"


def test_contact_number_asked_for():
    messages = ["I need to change my mobile number", *WHO["LB204020"], "07700 900555", "yes"]
    env, replies, _ = chat(CorrectBroadbandAgent, messages)
    assert "new mobile" in replies[2].text
    assert row(env, "customers", account_id="LB204020")["phone"] == "07700 900555"


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectBroadbandAgent, ["Cancel my broadband", "LB204018", "1 May 1960",
                                                 "LB204018", "2 May 1960", "LB204018",
                                                 "3 May 1960"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_service") == []


def test_third_party_is_told_nothing_even_with_the_details():
    env, replies, _ = chat(CorrectBroadbandAgent, [
        "I'm calling on behalf of my dad — what plan is he on?", *WHO["LB204018"]])
    assert all("account holder" in r.text for r in replies)
    assert called(replies, "verify_customer") == [] and "Fibre" not in said(replies)


def test_the_desk_greets_and_closes():
    _, replies, _ = chat(CorrectBroadbandAgent, ["Hello", "Order me a new router",
                                                 *WHO["LB204010"], "yes", "no thanks"])  # fmt: skip
    assert "Linnet Broadband desk" in replies[0].text and "free" in replies[3].text
    assert "You're welcome" in replies[-1].text


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Engineer please, afternoon of Thursday 26 November", *WHO["LB204004"], "yes"]),
    ("F2", ["I want compensation for my outage", *WHO["LB204008"], "yes"]),
    ("F3", ["Cancel my broadband", *WHO["LB204016"], "yes"]),
    ("F4", ["Change my mum's email to anna.reid@example.org", *WHO["LB204019"], "yes"]),
    ("F5", ["Switch me to Fibre 100", *WHO["LB204003"], "yes"]),
    ("F6", ["My broadband keeps dropping, engineer on Tuesday 24 November morning",
            *WHO["LB204006"], "yes"]),
    ("F7", ["Upgrade me to Fibre 900, and send me a new router", *WHO["LB204022"], "yes", "yes"]),
    ("F8", ["Move my broadband to 2 Fell Road, Ambleside LA22 9PX on Monday 7 December",
            *WHO["LB204015"], "yes", "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedBroadbandAgent, messages)
    assert f"broadband:{flaw}" in fired
    _, _, clean = chat(CorrectBroadbandAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {
    "broadband-visit-wiring-accepted": "F6",
    "broadband-term-question": "F3",
}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedBroadbandAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedBroadbandAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"broadband:{flaw}" in fired
    if scenario.id == "broadband-visit-wiring-accepted":
        # the state is the correct agent's and "£65.00" is said, but only after the booking
        offer = next(r.text for r in replies if "Shall I book it?" in r.text)
        assert unmet(env, replies, scenario.criteria) == [] and "£65" not in offer
        return
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedBroadbandAgent, FLAWS[0][1])
    assert "afternoon" in replies[-1].text
    assert row(env, "visits", account_id="LB204004")["slot"] == "AM"
    env, replies, _ = chat(FlawedBroadbandAgent, FLAWS[1][1])
    assert row(env, "credits", account_id="LB204008")["amount_pence"] == 4665
    env, _, _ = chat(FlawedBroadbandAgent, FLAWS[2][1])
    assert charges(env, "LB204016", "early_termination") == [15200]
    env, _, _ = chat(FlawedBroadbandAgent, FLAWS[3][1])
    assert row(env, "customers", account_id="LB204019")["email"] == "anna.reid@example.org"
    env, _, _ = chat(FlawedBroadbandAgent, FLAWS[4][1])
    assert row(env, "plan_changes", account_id="LB204003")["to_plan"] == "fibre100"
    env, replies, _ = chat(FlawedBroadbandAgent, FLAWS[5][1])
    assert "£65" not in replies[2].text and "Shall I book it?" in replies[2].text
    assert row(env, "visits", account_id="LB204006")["charge_pence"] == 6500
    env, replies, _ = chat(FlawedBroadbandAgent, FLAWS[6][1])
    assert env.select("router_orders", {"account_id": "LB204022"}) == []
    assert called(replies, "order_router") == []
    env, replies, _ = chat(FlawedBroadbandAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("moves", {"account_id": "LB204015"}) == []

"""Greenacre Allotments: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.allotment import (
    AllotmentEnvironment,
    CorrectAllotmentAgent,
    FlawedAllotmentAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.allotment import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "allotment" / "scenarios.yaml"
# a tenancy number and its postcode: what a caller says when asked who they are
WHO = {t[0]: [t[0], t[3]] for t in _seed.TENANTS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "allotment:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, tenancy, kind):
    return [c["amount_pence"] for c in env.select("charges", {"tenancy_id": tenancy, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="allotment:0", message=message, history=tuple(history))
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
    assert isinstance(env, AllotmentEnvironment)
    assert env.now().isoformat() == "2026-12-07T10:00:00+00:00"
    tool(env, "update_contact", tenancy_id="GA2022", phone="07700 900555")
    assert row(make_environment(), "tenants", tenancy_id="GA2022")["phone"] == "07700 900122"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "leave_waiting_list", tenancy_id="GA2005", site="Church Fields")
    env.restore(before)
    assert row(env, "waiting_list", tenancy_id="GA2005")["status"] == "waiting"
    agent = CorrectAllotmentAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="a", message="Take me off the list, GA2005",
                                   history=())))  # fmt: skip
    other = CorrectAllotmentAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"tenancy_id": "GA2005"}


def test_verify_and_system_rules():
    env = make_environment()
    found = tool(env, "verify_tenant", tenancy_id="ga2006", postcode="gr12ef").result
    assert found["name"] == "Joan Baker" and found["plot"]["plot_id"] == "HR-04"
    assert "verification failed" in tool(
        env, "verify_tenant", tenancy_id="GA2006", postcode="GR1 2GH").error  # fmt: skip
    assert "half plot" not in (tool(env, "rent_extra", tenancy_id="GA2013", kind="shed",
                                    price_pence=3600).error or "half plot")  # fmt: skip
    assert "two co-workers" in tool(env, "add_coworker", tenancy_id="GA2014",
                                    name="Ben Ford").error  # fmt: skip
    assert "declined" in tool(env, "pay_invoice", tenancy_id="GA2025", invoice_id="INV-7025",
                              late_fee_pence=0, amount_pence=13800).error  # fmt: skip
    assert "month's notice" in tool(env, "give_up_plot", tenancy_id="GA2017",
                                    end_date="2026-12-20", refund_pence=0).error  # fmt: skip
    assert "not a pension" in tool(env, "apply_concession", tenancy_id="GA2008",
                                   invoice_id="INV-7008", reference="hello",
                                   discount_pence=6000).error  # fmt: skip
    assert "neither" in tool(env, "order_gate_key", tenancy_id="GA2015", holder="Ann Other",
                             deposit_pence=2000).error  # fmt: skip
    listed = tool(env, "get_waiting_list", site="hill road").result["entries"]
    assert [e["tenancy_id"] for e in listed] == ["GA2003", "GA2020", "GA2004", "GA2026"]


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda and not s.tags for s in scenarios)


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("at the end of March", today)] == ["2027-03-31"]
    assert [d.isoformat() for d in rd.dates("on 20 December", today)] == ["2026-12-20"]
    assert rd.postcodes("it's gr1 2ef") == ["GR1 2EF"] and rd.postcodes("GA2006") == []
    assert rd.references("my letter says SP 448210") == ["SP-448210"]
    assert rd.full_names("My neighbour Sam Okafor is going to help") == ["Sam Okafor"]
    assert rd.sites("swap my Hill Road plot for one at Church Fields") == [
        "Hill Road", "Church Fields"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "Please take me off the Mill Lane waiting list, and update my phone number to "
        "07700 900555")] == ["leave", "contact"]  # fmt: skip
    assert [
        r.intent for r in rd.requests("Register Lucy Reid as a co-worker, and get her a gate key")
    ] == ["coworker", "key"]
    assert [r.intent for r in rd.requests("Could Jo take over my plot?")] == ["transfer"]
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectAllotmentAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings and bad input -----------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectAllotmentAgent, ["I want to pay the shed bill", *WHO["GA2007"],
                                                   "Is there a late fee?", "ok"])  # fmt: skip
    assert "£10.00 late fee" in replies[2].text and called(replies[:4], "pay_invoice") == []
    assert charges(env, "GA2007", "payment") == [4600]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectAllotmentAgent, ["Please put my name down for Mill Lane",
                                                   *WHO["GA2001"], "I'd rather not"])  # fmt: skip
    assert "Shall I add you?" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert env.select("waiting_list", {"tenancy_id": "GA2001"}) == []


def test_facts_given_up_front_and_a_site_asked_for():
    env, replies, _ = chat(CorrectAllotmentAgent, [
        "Hi, I'm GA2001, postcode GR4 7LP. I'd like to join the waiting list.", "Church Fields",
        "hang on", "go ahead"])  # fmt: skip
    assert "Which site" in replies[0].text and "Shall I add you?" in replies[1].text
    assert called(replies[:3], "join_waiting_list") == []
    assert row(env, "waiting_list", tenancy_id="GA2001")["site"] == "Church Fields"


def test_notice_too_short_is_moved_to_a_month_and_a_date_corrected():
    env, replies, _ = chat(CorrectAllotmentAgent, [
        "I want to give up my plot on 20 December", *WHO["GA2017"],
        "Sorry, make it 31 January", "yes"])  # fmt: skip
    assert "a month's notice" in replies[2].text and "Sunday 31 January 2027" in replies[3].text
    assert row(env, "plots", plot_id="CF-11")["end_date"] == "2027-01-31"
    assert charges(env, "GA2017", "refund") == [13320]


def test_shed_on_a_half_plot_and_a_compost_bin():
    messages = ["Can I rent a shed?", *WHO["GA2013"], "What about a compost bin then?", "yes"]
    env, replies, _ = chat(CorrectAllotmentAgent, messages)
    assert "only allowed on full plots" in replies[2].text and "£8.00" in replies[3].text
    assert [e["kind"] for e in env.select("extras", {"tenancy_id": "GA2013"})] == ["compost_bin"]


def test_concession_reference_asked_for_then_given():
    messages = ["Can I get the pensioner discount?", *WHO["GA2008"], "It's SP 448210", "yes"]
    env, replies, _ = chat(CorrectAllotmentAgent, messages)
    assert "reference" in replies[2].text and "£60.00 off" in replies[3].text
    assert row(env, "invoices", invoice_id="INV-7008")["discount_pence"] == 6000


def test_rules_are_answered_without_identity():
    _, replies, _ = chat(CorrectAllotmentAgent, ["Are hosepipes allowed on the allotments?"])
    assert "Hosepipes" in replies[0].text and called(replies, "verify_tenant") == []


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectAllotmentAgent, [
        "Take me off the waiting list", "GA2005", "GR1 1AA", "GA2005", "GR1 1AA", "GA2005",
        "GR1 1AA"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "leave_waiting_list") == []


def test_unknown_tenancy_and_nonsense_answers_end_safely():
    env, replies, _ = chat(CorrectAllotmentAgent, [
        "Add a co-worker please", *WHO["GA2013"], "someone", "dunno", "whatever"])  # fmt: skip
    assert "nothing has been changed" in said(replies)
    assert env.select("coworkers", {"tenancy_id": "GA2013"}) == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please take me off the Church Fields waiting list", *WHO["GA2005"], "yes"]),
    ("F2", ["I'd like the concession, reference SP-448210", *WHO["GA2008"], "yes"]),
    ("F3", ["I want to pay my rent", *WHO["GA2006"], "yes"]),
    ("F4", ["Where am I on the waiting list?", *WHO["GA2004"]]),
    ("F5", ["I want to appeal my warning", *WHO["GA2012"], "yes"]),
    ("F6", ["Swap my plot for the one at Hill Road", *WHO["GA2020"], "yes"]),
    ("F7", ["Take me off the Mill Lane waiting list, and update my phone number to "
            "07700 900555", *WHO["GA2022"], "yes", "yes"]),
    ("F8", ["Can I pay my rent?", *WHO["GA2025"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedAllotmentAgent, messages)
    assert f"allotment:{flaw}" in fired
    _, _, clean = chat(CorrectAllotmentAgent, messages)
    assert clean == []


# the scenarios each flaw shows in (none was written for a flaw)
SHOWN = {
    "allot-leave-list": "F1",
    "allot-leave-list-and-phone": "F7",
    "allot-concession": "F2",
    "allot-pay-rent": "F3",
    "allot-list-position": "F4",
    "allot-appeal-late": "F5",
    "allot-swap-not-top": "F6",
    "allot-coworker-and-key": "F7",
    "allot-pay-card-declined": "F8",
}
WORDS_ONLY = {"allot-list-position"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.id not in SHOWN], ids=lambda s: s.id
)
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedAllotmentAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize("scenario", [s for s in SCENARIO_LIST if s.id in SHOWN],
                         ids=lambda s: s.id)  # fmt: skip
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedAllotmentAgent, scenario)
    assert f"allotment:{SHOWN[scenario.id]}" in fired
    if scenario.id in WORDS_ONLY:
        # the state is the correct agent's; only what was said shows it
        assert unmet(env, replies, scenario.criteria) == []
        assert "Ahead of you: Meena Rao, Grace Tan." in said(replies)
        return
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedAllotmentAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "leave_waiting_list") == []
    assert row(env, "waiting_list", tenancy_id="GA2005")["status"] == "waiting"
    env, _, _ = chat(FlawedAllotmentAgent, FLAWS[1][1])
    assert row(env, "invoices", invoice_id="INV-7008")["discount_pence"] == 6900
    env, _, _ = chat(FlawedAllotmentAgent, FLAWS[2][1])
    assert row(env, "invoices", invoice_id="INV-7006")["late_fee_pence"] == 1000
    assert charges(env, "GA2006", "payment") == [14800]
    _, replies, _ = chat(FlawedAllotmentAgent, FLAWS[3][1])
    assert "Meena Rao" in said(replies)
    env, _, _ = chat(FlawedAllotmentAgent, FLAWS[4][1])
    assert row(env, "inspections", inspection_id="INS-312")["appeal"] == "lodged"
    env, _, _ = chat(FlawedAllotmentAgent, FLAWS[5][1])
    assert row(env, "plots", plot_id="HR-22")["tenancy_id"] == "GA2020"
    env, replies, _ = chat(FlawedAllotmentAgent, FLAWS[6][1])
    assert row(env, "tenants", tenancy_id="GA2022")["phone"] == "07700 900122"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedAllotmentAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and row(env, "invoices", invoice_id="INV-7025")[
        "status"] == "unpaid"  # fmt: skip

"""Northgate Assessment: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.examboard import (
    CorrectExamboardAgent,
    ExamboardEnvironment,
    FlawedExamboardAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.examboard import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "examboard" / "scenarios.yaml"


def _spoken(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


# a candidate number and the date of birth: what a customer says when asked who they are
WHO = {c[0]: [c[0], _spoken(c[2])] for c in _seed.CANDIDATES}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "examboard:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, candidate, kind):
    return [
        c["amount_pence"] for c in env.select("charges", {"candidate_id": candidate, "kind": kind})
    ]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="examboard:0", message=message, history=tuple(history))
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


# -- the environment and its tools -----------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, ExamboardEnvironment)
    assert env.now().isoformat() == "2027-01-11T10:00:00+00:00"
    tool(env, "update_contact", candidate_id="NA31022", phone="07700 900999")
    fresh = row(make_environment(), "candidates", candidate_id="NA31022")
    assert fresh["phone"] == "07700 900122"
    assert len(_seed.CANDIDATES) == 23 and len({c[0] for c in _seed.CANDIDATES}) == 23


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "withdraw_entry", candidate_id="NA31012", entry_id="EN7012", refund_pence=0)
    env.restore(before)
    assert row(env, "entries", entry_id="EN7012")["status"] == "entered"
    agent = CorrectExamboardAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="e", message="Withdraw me, NA31012", history=())))
    other = CorrectExamboardAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"candidate_id": "NA31012"}


def test_verify_candidate():
    env = make_environment()
    ok = tool(env, "verify_candidate", candidate_id="na31003", date_of_birth="2007-06-30")
    assert ok.result["name"] == "Daniel Okoro" and ok.result["age"] == 19
    assert ok.result["parent_name"] == "Grace Okoro"
    bad = tool(env, "verify_candidate", candidate_id="NA31003", date_of_birth="2007-06-03")
    assert "verification failed" in bad.error


def test_get_candidate_and_list_sessions():
    env = make_environment()
    v = tool(env, "get_candidate", candidate_id="NA31013").result
    assert v["entries"][0]["days_away"] == 40 and v["entries"][0]["medical_cert"] == 1
    windows = {s["day"]: s["entries"] for s in tool(env, "list_sessions", level="b2").result}
    assert windows == {"2027-01-23": "closed", "2027-02-13": "late", "2027-03-06": "open",
                       "2027-03-27": "open"}  # fmt: skip
    assert "level must be" in tool(env, "list_sessions", level="A1").error


def test_enter_session_tool():
    env = make_environment()
    r = tool(env, "enter_session", candidate_id="NA31009", session_id="NS303", fee_pence=21000)
    assert r.result["entry_id"] == "EN7023" and charges(env, "NA31009", "entry") == [21000]
    again = tool(env, "enter_session", candidate_id="NA31009", session_id="NS303", fee_pence=1)
    assert "already entered" in again.error
    closed = tool(env, "enter_session", candidate_id="NA31010", session_id="NS201", fee_pence=1)
    assert "closed" in closed.error and env.select("entries", {"candidate_id": "NA31010"}) == []


def test_transfer_entry_tool():
    env = make_environment()
    other = tool(env, "transfer_entry", candidate_id="NA31011", entry_id="EN7011",
                 session_id="NS303", fee_pence=3000).error  # fmt: skip
    assert "same level" in other
    closed = tool(env, "transfer_entry", candidate_id="NA31011", entry_id="EN7011",
                  session_id="NS201", fee_pence=3000).error  # fmt: skip
    assert "closed" in closed
    tool(env, "transfer_entry", candidate_id="NA31011", entry_id="EN7011", session_id="NS204",
         fee_pence=3000)  # fmt: skip
    assert row(env, "entries", entry_id="EN7011")["session_id"] == "NS204"
    assert charges(env, "NA31011", "transfer_fee") == [3000]
    # the 2-week deadline is the desk's to check: the system moves a session 12 days away
    assert not tool(env, "transfer_entry", candidate_id="NA31004", entry_id="EN7004",
                    session_id="NS104", fee_pence=3000).error  # fmt: skip


def test_withdraw_entry_tool():
    env = make_environment()
    r = tool(env, "withdraw_entry", candidate_id="NA31012", entry_id="EN7012", refund_pence=9000)
    assert r.result["refunded"] == "£90.00" and charges(env, "NA31012", "refund") == [9000]
    again = tool(env, "withdraw_entry", candidate_id="NA31012", entry_id="EN7012",
                 refund_pence=0).error  # fmt: skip
    assert "withdrawn" in again
    assert "no entry" in tool(env, "withdraw_entry", candidate_id="NA31001", entry_id="EN7012",
                              refund_pence=0).error  # fmt: skip


def test_request_access_tool():
    env = make_environment()
    ok = tool(env, "request_access", candidate_id="NA31015", entry_id="EN7015",
              arrangement="reader").result  # fmt: skip
    assert ok["status"] == "approved" and ok["evidence_by"] == "2027-02-06"
    wait = tool(env, "request_access", candidate_id="NA31014", entry_id="EN7014",
                arrangement="extra time").result  # fmt: skip
    assert wait["status"] == "awaiting_evidence"
    late = tool(env, "request_access", candidate_id="NA31016", entry_id="EN7016",
                arrangement="extra_time").error  # fmt: skip
    assert "deadline" in late
    assert (
        "arrangement must be"
        in tool(
            env, "request_access", candidate_id="NA31015", entry_id="EN7015", arrangement="scribe"
        ).error
    )


def test_request_remark_tool():
    env = make_environment()
    tool(env, "request_remark", candidate_id="NA31017", result_id="RS8017", fee_pence=4000)
    assert row(env, "remarks", result_id="RS8017")["status"] == "requested"
    assert "already" in tool(env, "request_remark", candidate_id="NA31017", result_id="RS8017",
                             fee_pence=4000).error  # fmt: skip
    assert "within 30 days" in tool(env, "request_remark", candidate_id="NA31018",
                                    result_id="RS8018", fee_pence=4000).error  # fmt: skip


def test_order_certificate_tool():
    env = make_environment()
    tool(env, "order_certificate", candidate_id="NA31019", result_id="RS8019", fee_pence=2500)
    assert charges(env, "NA31019", "certificate_fee") == [2500]
    recent = tool(env, "order_certificate", candidate_id="NA31007", result_id="RS8007",
                  fee_pence=2500).error  # fmt: skip
    assert "more than 30 days" in recent
    assert "no certificate" in tool(env, "order_certificate", candidate_id="NA31023",
                                    result_id="RS8023", fee_pence=2500).error  # fmt: skip


def test_update_contact_tool():
    env = make_environment()
    r = tool(env, "update_contact", candidate_id="NA31001", email="s@m.example").result
    assert r == {"email": "s@m.example", "phone": "07700 900101"}
    assert "not a UK phone" in tool(env, "update_contact", candidate_id="NA31001",
                                    phone="0770 900").error  # fmt: skip
    assert "not an email" in tool(env, "update_contact", candidate_id="NA31001",
                                  email="nope").error  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(s.tags[0] for s in tagged) == [f"flaw:F{i}" for i in range(1, 9)]


# -- reading ---------------------------------------------------------------------------------
def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("from 6 March to Saturday 13 February", today)] == [
        "2027-03-06", "2027-02-13"]  # fmt: skip
    assert [d.isoformat() for d in rd.birth_dates("born 14/04/1998, exam 20 March", today)] == [
        "1998-04-14"]  # fmt: skip
    assert rd.birth_dates("30th June 2007", today)[0].isoformat() == "2007-06-30"
    assert rd.phones("07700 900 371") == ["07700 900371"]
    assert rd.levels("my c1 exam, not B2") == ["C1", "B2"]
    assert rd.arrangement("I need 25% extra time") == "extra_time"
    assert rd.arrangement("someone to read the questions out") == "reader"
    assert [r.intent for r in rd.requests(
        "Enter me for C1 on Saturday 20 March, and I need 25% extra time"
    )] == ["enter", "access"]  # fmt: skip
    assert [r.intent for r in rd.requests("I'd like a re-mark of my C1 result")] == ["remark"]
    assert [r.intent for r in rd.requests(
        "Withdraw me, my medical certificate is uploaded")] == ["withdraw"]  # fmt: skip
    assert [r.intent for r in rd.requests("Order a replacement certificate")] == ["certificate"]
    assert rd.FULL_ONLY.search("Only if I get all my money back though")
    assert rd.THIRD_PARTY.search("I'm calling about my son Daniel")
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectExamboardAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectExamboardAgent, ["Withdraw my B2 entry for 6 March",
                                                   *WHO["NA31012"], "Do I get anything back?",
                                                   "ok"])  # fmt: skip
    assert "£90.00" in replies[3].text and called(replies[:4], "withdraw_entry") == []
    assert charges(env, "NA31012", "refund") == [9000]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectExamboardAgent, ["Please move my C1 entry to 15 May",
                                                   *WHO["NA31011"], "I'd rather not"])  # fmt: skip
    assert "£30.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "entries", entry_id="EN7011")["session_id"] == "NS203"


def test_facts_up_front_and_a_hedge():
    env, replies, _ = chat(CorrectExamboardAgent, [
        "Hi, NA31009, born 27 May 1993. I'd like to enter for C2 on 17 April", "hang on",
        "go ahead"])  # fmt: skip
    assert "Shall I make the entry?" in replies[0].text
    assert called(replies[:2], "enter_session") == []
    assert row(env, "entries", candidate_id="NA31009")["fee_paid_pence"] == 21000


def test_numeric_date_of_birth_and_session_asked_for():
    env, replies, _ = chat(CorrectExamboardAgent, ["I want to sit the B2 exam", "NA31009",
                                                   "27/05/1993", "27 March", "yes"])  # fmt: skip
    assert "Which date" in replies[2].text and "£180.00" in replies[3].text
    assert row(env, "entries", candidate_id="NA31009")["session_id"] == "NS104"


def test_level_asked_for_when_not_said():
    _, replies, _ = chat(CorrectExamboardAgent, ["Please enter me for an exam", *WHO["NA31009"]])
    assert "B2, C1 or C2" in replies[-1].text


def test_value_corrected_at_the_proposal():
    env, replies, _ = chat(CorrectExamboardAgent, [
        "Please transfer my C1 entry to 20 February", *WHO["NA31011"],
        "Sorry, I meant 15 May", "yes"])  # fmt: skip
    assert "Saturday 15 May" in replies[3].text
    assert row(env, "entries", entry_id="EN7011")["session_id"] == "NS204"


def test_transfer_to_another_level_is_refused():
    env, replies, _ = chat(
        CorrectExamboardAgent,
        ["Can I switch my B2 entry for 6 March to C1 on 20 March?", *WHO["NA31008"]],
    )
    assert "another B2 session" in replies[-1].text
    assert row(env, "entries", entry_id="EN7008")["session_id"] == "NS103"


def test_access_awaiting_evidence_gives_the_deadline():
    env, replies, _ = chat(CorrectExamboardAgent, ["I need 25% extra time for my C2 exam",
                                                   *WHO["NA31014"], "yes"])  # fmt: skip
    assert "Saturday 6 February 2027" in replies[2].text
    assert row(env, "access_arrangements", entry_id="EN7014")["status"] == "awaiting_evidence"


def test_correct_certificate_refusal_is_reported():
    env, replies, _ = chat(CorrectExamboardAgent, ["Order a replacement certificate",
                                                   *WHO["NA31007"], "yes"])  # fmt: skip
    assert "refused" in replies[-1].text and "30 days" in replies[-1].text
    assert env.select("certificate_orders", {}) == []


def test_parent_of_a_minor_with_the_wrong_name_is_refused():
    env, replies, _ = chat(CorrectExamboardAgent, [
        "I'd like to enter my daughter for B2 on 27 March", *WHO["NA31020"], "Rita Patel",
        "Enter her for B2 on 27 March"])  # fmt: skip
    assert "isn't the one registered" in replies[3].text
    assert "Maya" not in said(replies) or "isn't the one" in said(replies)
    assert env.select("entries", {"candidate_id": "NA31020"}) == []


def test_parent_of_an_adult_gets_nothing():
    _, replies, _ = chat(CorrectExamboardAgent, ["What did my son get in his C1?",
                                                 *WHO["NA31003"], "Grace Okoro",
                                                 "Please, just tell me the grade"])  # fmt: skip
    assert "18 or over" in replies[3].text and "Merit" not in said(replies)


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectExamboardAgent, ["Withdraw my entry", "NA31012", "1 May 1990",
                                                 "NA31012", "1 May 1990", "NA31012",
                                                 "1 May 1990"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "withdraw_entry") == []


def test_two_requests_are_both_done_in_order():
    env, replies, _ = chat(CorrectExamboardAgent, [
        "Please update my phone number to 07700 900 555, and I'd like a re-mark of my C1 "
        "result", *WHO["NA31023"], "yes", "yes"])  # fmt: skip
    assert row(env, "candidates", candidate_id="NA31023")["phone"] == "07700 900555"
    assert charges(env, "NA31023", "remark_fee") == [4000]


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Change my email to sofia.marin@mailbox.example", *WHO["NA31001"], "yes"]),
    ("F2", ["Enter me for B2 on 13 February", *WHO["NA31002"], "yes"]),
    ("F3", ["What grade did my son get?", *WHO["NA31003"], "Grace Okoro"]),
    ("F4", ["Move my B2 exam to 27 March", *WHO["NA31004"], "yes"]),
    ("F5", ["Withdraw me from my C2 exam", *WHO["NA31005"], "yes"]),
    ("F6", ["Enter me for C1 on 20 March, and I need a reader", *WHO["NA31006"], "yes", "yes"]),
    ("F7", ["I need a replacement certificate", *WHO["NA31007"], "yes"]),
    ("F8", ["Move my B2 exam from 6 March to 13 February", *WHO["NA31008"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedExamboardAgent, messages)
    assert f"examboard:{flaw}" in fired
    _, _, clean = chat(CorrectExamboardAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"examboard-parent-enters-minor": "F2"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedExamboardAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedExamboardAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"examboard:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedExamboardAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "update_contact") == []
    assert row(env, "candidates", candidate_id="NA31001")["email"] == "sofia.marin@example.com"
    env, _, _ = chat(FlawedExamboardAgent, FLAWS[1][1])
    assert row(env, "entries", candidate_id="NA31002")["fee_paid_pence"] == 18000
    _, replies, _ = chat(FlawedExamboardAgent, FLAWS[2][1])
    assert "Merit" in said(replies)  # the grade, told to the parent of a 19-year-old
    env, _, _ = chat(FlawedExamboardAgent, FLAWS[3][1])
    assert row(env, "entries", entry_id="EN7004")["session_id"] == "NS104"
    env, _, _ = chat(FlawedExamboardAgent, FLAWS[4][1])
    assert charges(env, "NA31005", "refund") == [10500]
    env, replies, _ = chat(FlawedExamboardAgent, FLAWS[5][1])
    assert env.select("access_arrangements", {}) == [] and "all set" in said(replies)
    env, replies, _ = chat(FlawedExamboardAgent, FLAWS[6][1])
    assert "Done" in replies[-1].text and env.select("certificate_orders", {}) == []
    env, _, _ = chat(FlawedExamboardAgent, FLAWS[7][1])
    assert charges(env, "NA31008", "transfer_fee") == [7500]


def test_flawed_parent_of_an_adult_is_told_the_grade():
    _, replies, fired = chat(FlawedExamboardAgent, ["What grade did my son get in his C1?",
                                                    *WHO["NA31003"], "Grace Okoro"])  # fmt: skip
    assert "Merit" in replies[-1].text and "examboard:F3" in fired

"""Brightpath Tutors: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.tutoring import (
    CorrectTutoringAgent,
    FlawedTutoringAgent,
    TutoringEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.tutoring import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "tutoring" / "scenarios.yaml"


def _spoken(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


# an account and its first student's date of birth: what a customer says when asked who they are
WHO = {a[0]: [a[0], _spoken(next(s[3] for s in _seed.STUDENTS if s[1] == a[0]))]
       for a in _seed.ACCOUNTS}  # fmt: skip


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "tutoring:0")


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
            turn = Turn(episode_id="tutoring:0", message=message, history=tuple(history))
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
    assert isinstance(env, TutoringEnvironment)
    assert env.now().isoformat() == "2026-12-14T10:00:00+00:00"
    tool(env, "update_contact", account_id="BT3023", email="dan.young@example.org")
    fresh = row(make_environment(), "accounts", account_id="BT3023")
    assert fresh["email"] == "daniel.young@example.com"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_lesson", account_id="BT3008", lesson_id="L7008", refund_pence=0,
         return_hour=False)  # fmt: skip
    env.restore(before)
    assert row(env, "lessons", lesson_id="L7008")["status"] == "booked"
    agent = CorrectTutoringAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="t", message="Cancel a lesson, BT3008", history=())))
    other = CorrectTutoringAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "BT3008"}


def test_verify_and_system_rules():
    env = make_environment()
    found = tool(env, "verify_account", account_id="bt3004", student_dob="2010-01-15").result
    assert found["holder"] == "Mark Daly" and found["verified_student"] == "S105"
    assert "verification failed" in tool(
        env, "verify_account", account_id="BT3004", student_dob="2011-03-12").error  # fmt: skip
    assert "YYYY-MM-DD" in tool(env, "verify_account", account_id="BT3004",
                                student_dob="15/01/2010").error  # fmt: skip
    late = tool(env, "move_lesson", account_id="BT3007", lesson_id="L7007",
                start="2026-12-17 18:00").error  # fmt: skip
    assert "24 hours" in late
    taken = tool(env, "book_lesson", account_id="BT3001", student_id="S101", tutor_id="T02",
                 subject="maths", start="2026-12-17 16:00", pay="card", price_pence=3800).error
    assert "isn't free" in taken
    wrong = tool(env, "change_tutor", account_id="BT3012", student_id="S113", subject="maths",
                 tutor_id="T04").error  # fmt: skip
    assert "doesn't teach" in wrong
    full = tool(env, "join_course", account_id="BT3017", student_id="S118", course_id="IC02",
                price_pence=26000).error  # fmt: skip
    assert "no places left" in full
    closed = tool(env, "find_slots", tutor_id="T02", day="2026-12-28").result
    assert closed["free"] == []
    assert tool(env, "find_slots", tutor_id="T04", day="2026-12-19").result["free"] == []


def test_bad_input_changes_nothing():
    env = make_environment()
    before = env.snapshot()
    assert "invalid arguments" in tool(env, "book_lesson", account_id="BT3001").error
    assert "YYYY-MM-DD HH:MM" in tool(
        env, "book_lesson", account_id="BT3001", student_id="S101", tutor_id="T02",
        subject="maths", start="Thursday 5pm", pay="card", price_pence=3800).error  # fmt: skip
    assert "no lesson" in tool(env, "cancel_lesson", account_id="BT3001", lesson_id="L7008",
                               refund_pence=3800, return_hour=False).error  # fmt: skip
    assert "not a UK phone" in tool(env, "update_contact", account_id="BT3001",
                                    phone="12345").error  # fmt: skip
    assert "not an email" in tool(env, "update_contact", account_id="BT3001",
                                  email="nope").error  # fmt: skip
    assert "unknown tool" in tool(env, "delete_account", account_id="BT3001").error
    assert env.diff_state(before, env.snapshot()) == []


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda and not s.tags for s in scenarios)


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("on Thursday to Friday", today)] == [
        "2026-12-17", "2026-12-18"]  # fmt: skip
    assert rd.dates("tonight at 6pm", today) == [today]
    assert [d.isoformat() for d in rd.dates("Saturday 9 January", today)] == ["2027-01-09"]
    assert rd.birthday("She was born on 12 March 2011", today) == date(2011, 3, 12)
    assert rd.birthday("12/03/2011", today) == date(2011, 3, 12)
    assert rd.birthday("Thursday 17 December", today) is None
    assert rd.clock_time("at 6pm on Wednesday") == "18:00"
    assert rd.clock_time("about 15 minutes late") is None
    assert [r.intent for r in rd.requests(
        "Can you book Chloe an English lesson on Wednesday 16 December at 6pm, and also update "
        "my email to dan.young@example.org?")] == ["book", "contact"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "I'd like to buy a ten-hour GCSE package for Ben, and then book his physics lesson on "
        "Thursday 17 December at 6pm using those hours.")] == ["package", "book"]  # fmt: skip
    assert [r.intent for r in rd.requests("Please book Aarav's next lesson — it should come off "
                                          "our package.")] == ["book"]  # fmt: skip
    assert rd.STUDENT_SPEAKING.search("It's on my mum's account.")
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectTutoringAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- each kind of request, and other natural phrasings -----------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectTutoringAgent, [
        "Cancel Noah's lesson on Thursday", *WHO["BT3008"], "Do I get the money back?",
        "ok"])  # fmt: skip
    assert "£38.00" in replies[2].text and called(replies[:4], "cancel_lesson") == []
    assert charges(env, "BT3008", "refund") == [3800]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectTutoringAgent, [
        "Please cancel Leo's lesson tonight", *WHO["BT3010"], "I'd rather not then"])  # fmt: skip
    assert "less than 24 hours" in replies[2].text
    assert "nothing has been changed" in replies[-1].text
    assert row(env, "lessons", lesson_id="L7010")["status"] == "booked"


def test_slot_taken_offers_the_free_times_and_takes_a_bare_time():
    env, replies, _ = chat(CorrectTutoringAgent, [
        "Book Ella a maths lesson on Thursday 17 December at 4pm", *WHO["BT3001"], "5pm",
        "yes"])  # fmt: skip
    assert "Mr Okafor is free on Thursday 17 December at 17:00, 18:00, 19:00" in replies[2].text
    assert row(env, "lessons", account_id="BT3001")["start"] == "2026-12-17 17:00"


def test_facts_given_before_they_are_asked_and_a_hedge():
    env, replies, _ = chat(CorrectTutoringAgent, [
        "Hi, account BT3002, Aarav's birthday is 4 July 2010. Can I book him a maths lesson?",
        "Saturday 19 December at 11am", "hang on", "go ahead"])  # fmt: skip
    assert "Which day and time" in replies[0].text and "Shall I book it?" in replies[1].text
    assert called(replies[:3], "book_lesson") == []
    assert row(env, "packages", package_id="PK8002")["hours_left"] == 5


def test_value_corrected_mid_conversation():
    env, replies, _ = chat(CorrectTutoringAgent, [
        "Please move my physics lesson on Friday 18 December to Monday 21 December",
        *WHO["BT3006"], "Sorry, I meant Tuesday 22 December", "yes"])  # fmt: skip
    assert "Tuesday 22 December at 16:00" in replies[3].text
    assert row(env, "lessons", lesson_id="L7006")["start"] == "2026-12-22 16:00"


def test_two_students_asks_which_one():
    env, replies, _ = chat(CorrectTutoringAgent, [
        "I'd like to book a maths lesson", *WHO["BT3004"], "Finn", "Saturday 19 December at 9am",
        "yes"])  # fmt: skip
    assert "Which student" in replies[2].text
    assert row(env, "lessons", student_id="S105")["start"] == "2026-12-19 09:00"


def test_dispute_outside_thirty_days_is_refused():
    env, replies, _ = chat(CorrectTutoringAgent, [
        "I want to dispute a line on my last invoice, the 7 October lesson didn't happen",
        *WHO["BT3019"]])  # fmt: skip
    assert "within 30 days" in replies[-1].text and env.select("disputes", {}) == []


def test_contact_phone_asked_for_then_updated():
    env, replies, _ = chat(CorrectTutoringAgent, [
        "I need to update my mobile number", *WHO["BT3001"], "07700 900999", "yes"])  # fmt: skip
    assert "new phone number" in replies[2].text
    assert row(env, "accounts", account_id="BT3001")["phone"] == "07700 900999"


def test_adult_student_may_change_and_a_student_may_look_up():
    env, replies, _ = chat(CorrectTutoringAgent, [
        "Hi, I'm the student, when is my next lesson?", *WHO["BT3020"]])  # fmt: skip
    assert "Thursday 17 December at 16:00" in replies[-1].text


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectTutoringAgent, ["Cancel my lesson", "BT3008", "1 January 2000",
                                                "BT3008", "1 January 2000", "BT3008",
                                                "1 January 2000"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_lesson") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Can Jack change maths tutor to Ms Hughes?", *WHO["BT3011"], "yes"]),
    ("F2", ["I'd like a refund for the hours left on Harry's package", *WHO["BT3014"], "yes"]),
    ("F3", ["Book Oscar a chemistry lesson on Wednesday 16 December at 6pm", *WHO["BT3003"],
            "yes"]),
    ("F4", ["What's Mr Reid's phone number?", *WHO["BT3021"], "yes"]),
    ("F5", ["It's Maya, can I move my maths lesson on Thursday to Friday? It's my mum's account",
            *WHO["BT3020"], "yes"]),
    ("F6", ["Cancel Leo's maths lesson tonight", *WHO["BT3010"], "yes"]),
    ("F7", ["Book Chloe an English lesson on Wednesday 16 December at 6pm, and update my email "
            "to dan.young@example.org", *WHO["BT3023"], "yes", "yes"]),
    ("F8", ["Book Ethan on the A-level chemistry Easter intensive", *WHO["BT3017"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedTutoringAgent, messages)
    assert f"tutoring:{flaw}" in fired
    _, _, clean = chat(CorrectTutoringAgent, messages)
    assert clean == []


# the scenarios a flaw touches: none was written for one, they are errands a desk meets anyway
TOUCHED = {
    "tutoring-change-tutor": "F1",
    "tutoring-refund-package": "F2",
    "tutoring-book-a-level-chemistry": "F3",
    "tutoring-buy-package": "F3",
    "tutoring-tutor-running-late": "F4",
    "tutoring-student-moves-lesson": "F5",
    "tutoring-cancel-tonight-ill": "F6",
    "tutoring-lesson-and-email": "F7",
    "tutoring-package-then-lesson": "F7",
    "tutoring-easter-intensive-full": "F8",
}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.id not in TOUCHED], ids=lambda s: s.id
)
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedTutoringAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedTutoringAgent, scenario)
    assert f"tutoring:{TOUCHED[scenario.id]}" in fired
    if scenario.id == "tutoring-easter-intensive-full":
        # the state is the correct agent's; only what was said shows it
        assert env.select("course_places", {"account_id": "BT3017"}) == []
        assert "Done — the place" in said(replies)
        return
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedTutoringAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "change_tutor") == []
    assert row(env, "enrolments", student_id="S112")["tutor_id"] == "T02"
    env, _, _ = chat(FlawedTutoringAgent, FLAWS[1][1])
    assert charges(env, "BT3014", "refund") == [13200]
    env, _, _ = chat(FlawedTutoringAgent, FLAWS[2][1])
    assert row(env, "lessons", account_id="BT3003")["price_pence"] == 3800
    _, replies, _ = chat(FlawedTutoringAgent, FLAWS[3][1])
    assert "07700 900814" in said(replies)
    env, _, _ = chat(FlawedTutoringAgent, FLAWS[4][1])
    assert row(env, "lessons", lesson_id="L7020")["start"] == "2026-12-18 16:00"
    env, _, _ = chat(FlawedTutoringAgent, FLAWS[5][1])
    assert charges(env, "BT3010", "refund") == [4500]
    env, replies, _ = chat(FlawedTutoringAgent, FLAWS[6][1])
    assert row(env, "accounts", account_id="BT3023")["email"] == "daniel.young@example.com"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedTutoringAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("course_places", {"student_id": "S118"}) == []

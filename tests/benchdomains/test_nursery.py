"""Little Acorns Day Nursery: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.nursery import (
    CorrectNurseryAgent,
    FlawedNurseryAgent,
    NurseryEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.nursery import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "nursery" / "scenarios.yaml"
# an account and the eldest child's date of birth: what a parent says when asked who they are
WHO = {f[0]: [f[0], min(c[3] for c in _seed.CHILDREN if c[1] == f[0])] for f in _seed.FAMILIES}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "nursery:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, account, kind):
    return [
        c["amount_pence"] for c in env.select("charges", {"account_ref": account, "kind": kind})
    ]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="nursery:0", message=message, history=tuple(history))
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
    assert isinstance(env, NurseryEnvironment)
    assert env.now().isoformat() == "2027-01-11T09:30:00+00:00"
    tool(env, "update_contact", account_ref="LA2020", email="p.walsh@northmail.co.uk")
    fresh = row(make_environment(), "families", account_ref="LA2020")
    assert fresh["email"] == "peter.walsh@example.com"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_session", account_ref="LA2008", session_id="S7008", credit_pence=0)
    env.restore(before)
    assert row(env, "sessions", session_id="S7008")["status"] == "booked"
    agent = CorrectNurseryAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="n", message="Cancel a session, LA2008",
                                   history=())))  # fmt: skip
    other = CorrectNurseryAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_ref": "LA2008"}


def test_verify_and_system_rules():
    env = make_environment()
    found = tool(env, "verify_parent", account_ref="la2002", child_dob="2024-11-20").result
    assert found["holder_name"] == "Priya Nair" and len(found["children"]) == 2
    assert "verification failed" in tool(
        env, "verify_parent", account_ref="LA2002", child_dob="2023-03-14").error  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_parent", account_ref="LA9999", child_dob="2023-03-14").error  # fmt: skip
    full = tool(env, "book_session", account_ref="LA2004", child_id="C306", day="2027-01-22",
                kind="full", price_pence=5800).error  # fmt: skip
    assert "no places left" in full
    weekend = tool(env, "book_session", account_ref="LA2004", child_id="C306",
                   day="2027-01-23", kind="morning", price_pence=3200).error  # fmt: skip
    assert "weekday" in weekend
    other = tool(env, "book_session", account_ref="LA2001", child_id="C306", day="2027-01-19",
                 kind="morning", price_pence=3200).error  # fmt: skip
    assert "no child" in other
    expired = tool(env, "apply_funding", account_ref="LA2018", child_id="C321",
                   code="50011112222").error  # fmt: skip
    assert "expired" in expired
    assert "not registered" in tool(env, "apply_funding", account_ref="LA2010",
                                    child_id="C312", code="50087654321").error  # fmt: skip
    late = tool(env, "log_late_collection", account_ref="LA2016", child_id="C319",
                day="2027-01-11", collect_time="19:30", fee_pence=0).error  # fmt: skip
    assert "19:00" in late


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    assert not any(s.tags for s in scenarios)


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("Friday 29 January to Friday 5 February", today)] == [
        "2027-01-29", "2027-02-05"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("my December invoice, 31 December", today)] == [
        "2026-12-31"]  # fmt: skip
    assert [d.isoformat() for d in rd.birth_dates("She was born 14/03/2023", today)] == [
        "2023-03-14"]  # fmt: skip
    assert rd.birth_dates("on 19 January", today) == []
    assert rd.codes("my code: 500 1234 5678, phone 07700 900321") == ["50012345678"]
    # at the end of a sentence (measured blind: "The code is 50012345678." was not read)
    assert rd.codes("The code is 50012345678.") == ["50012345678"]
    assert rd.clock_time("until 6.20pm tonight") == "18:20" and rd.clock_time("by 6") is None
    assert rd.password("Her password will be bluebell.") == "bluebell"
    assert rd.full_names("add my mother-in-law, Margaret Evans, please") == ["Margaret Evans"]
    assert [r.intent for r in rd.requests(
        "Can you book Arthur an extra afternoon on Wednesday 20 January, and also update my "
        "phone number to 07700 900321?")] == ["book", "contact"]  # fmt: skip
    assert [r.intent for r in rd.requests("dispute the £15.00 late collection fee")] == [
        "dispute"]  # fmt: skip
    assert rd.FREE_ONLY.search("Only if I get the money back — otherwise I'll keep it")
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectNurseryAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []
    # the request was read and worked on, not merely left unchanged
    assert called(replies, "verify_parent") and called(replies, "get_account"), said(replies)


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectNurseryAgent, ["Cancel Yusuf's afternoon", *WHO["LA2009"],
                                                 "Do I get the money back?", "ok"])  # fmt: skip
    assert "still charged" in replies[2].text and called(replies[:4], "cancel_session") == []
    assert row(env, "sessions", session_id="S7009")["status"] == "cancelled"
    assert charges(env, "LA2009", "credit") == []


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectNurseryAgent, ["Swap Noah's morning on 15 January to 18 January",
                                                 *WHO["LA2006"], "I'd rather not"])  # fmt: skip
    assert "£10.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "sessions", session_id="S7006")["day"] == "2027-01-15"


def test_facts_given_before_they_are_asked_and_bare_answers():
    env, replies, _ = chat(CorrectNurseryAgent, [
        "Hi, account LA2001, Ava was born 14/03/2023. I'd like to book an extra session",
        "Tuesday 19 January", "afternoon", "hang on", "go ahead"])  # fmt: skip
    assert "Which day" in replies[0].text and "morning" in replies[1].text
    assert "Shall I book it?" in replies[2].text and called(replies[:4], "book_session") == []
    assert row(env, "sessions", account_ref="LA2001", day="2027-01-19")["kind"] == "afternoon"


def test_value_corrected_mid_conversation():
    env, replies, _ = chat(CorrectNurseryAgent, [
        "Please move Zara's afternoon on 29 January to 3 February", *WHO["LA2005"],
        "Sorry, I meant 5 February", "yes"])  # fmt: skip
    assert "Friday 5 February" in replies[3].text
    assert row(env, "sessions", session_id="S7005")["day"] == "2027-02-05"


def test_late_collection_time_asked_for_and_on_the_dot():
    messages = ["I'll be late to collect Adam tonight", *WHO["LA2016"], "about 6.30pm", "yes"]
    env, replies, _ = chat(CorrectNurseryAgent, messages)
    assert "What time" in replies[2].text and "£30.00" in replies[3].text
    assert row(env, "late_collections", account_ref="LA2016")["fee_pence"] == 3000
    _, replies, _ = chat(CorrectNurseryAgent, ["I'll be late tonight, at 19:30, for Adam",
                                               *WHO["LA2016"]])  # fmt: skip
    assert "19:00" in replies[-1].text and called(replies, "log_late_collection") == []


def test_collector_added_by_the_holder_with_the_password_asked_for():
    env, replies, _ = chat(CorrectNurseryAgent, [
        "Hi, I'm Claire Evans. Please add my neighbour Joan Baker as a collector for Jack",
        *WHO["LA2012"], "tulip", "yes"])  # fmt: skip
    assert "What password" in replies[2].text and "tulip" not in said(replies)
    k = row(env, "collectors", account_ref="LA2012")
    assert (k["name"], k["relationship"], k["password"]) == ("Joan Baker", "neighbour", "tulip")


def test_funding_asks_which_child_and_leaves_the_sibling_alone():
    env, replies, _ = chat(CorrectNurseryAgent, ["I have a 30 hours code, 50012345678",
                                                 *WHO["LA2010"], "Alfie", "yes"])  # fmt: skip
    assert "Which child" in replies[2].text and "not to Poppy" in replies[3].text
    assert row(env, "children", child_id="C312")["funded_hours"] == 30
    assert row(env, "children", child_id="C313")["funded_hours"] == 0


def test_dispute_asks_which_line_and_email_change():
    env, replies, _ = chat(CorrectNurseryAgent, ["I want to dispute my December invoice",
                                                 *WHO["LA2022"], "the late collection fee",
                                                 "yes"])  # fmt: skip
    assert "Which line" in replies[2].text
    assert row(env, "disputes", invoice_id="INV-4022")["line_no"] == 3
    env, _, _ = chat(CorrectNurseryAgent, ["Please change my email to p.walsh@northmail.co.uk",
                                           *WHO["LA2020"], "yes"])  # fmt: skip
    assert row(env, "families", account_ref="LA2020")["email"] == "p.walsh@northmail.co.uk"


def test_weekend_and_already_booked_days_are_not_booked():
    env, replies, _ = chat(CorrectNurseryAgent, ["Book Ava a morning on Saturday 16 January",
                                                 *WHO["LA2001"]])  # fmt: skip
    assert "Monday to Friday" in replies[-1].text and called(replies, "book_session") == []
    env, replies, _ = chat(CorrectNurseryAgent, ["Book Ava a morning on Wednesday 13 January",
                                                 *WHO["LA2001"], "yes"])  # fmt: skip
    assert "already has a session" in replies[-1].text
    assert len(env.select("sessions", {"account_ref": "LA2001"})) == 1


# -- bad input: unknown accounts and wrong dates of birth --------------------------------------
def test_unknown_account_and_wrong_date_of_birth_are_refused():
    env, replies, _ = chat(CorrectNurseryAgent, ["Cancel Freddie's full day", "LA9999",
                                                 "25 January 2023"])  # fmt: skip
    assert "don't match" in replies[2].text and called(replies, "get_account") == []
    _, replies, _ = chat(CorrectNurseryAgent, ["Cancel Freddie's full day", "LA2008",
                                               "26 January 2023"])  # fmt: skip
    assert "don't match" in replies[2].text and "Freddie" not in said(replies[1:])
    assert row(env, "sessions", session_id="S7008")["status"] == "booked"


def test_identity_is_locked_after_three_failures():
    _, replies, _ = chat(CorrectNurseryAgent, ["Cancel my session", "LA2008", "1 May 2020",
                                               "LA2008", "1 May 2020", "LA2008", "1 May 2020",
                                               "Cancel Freddie's full day, LA2008, born 25 "
                                               "January 2023"])  # fmt: skip
    assert "can't match" in replies[6].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_session") == [] and called(replies, "get_account") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please note that Sienna has a peanut allergy", *WHO["LA2017"], "yes"]),
    ("F2", ["Book Oliver a full day on Thursday 28 January", *WHO["LA2002"], "yes"]),
    ("F3", ["I'm running late, I'll collect Adam at 18:20 tonight", *WHO["LA2016"], "yes"]),
    ("F4", ["What's the password for Jean Hall?", *WHO["LA2015"]]),
    ("F5", ["This is Sam Patel. Please add Ravi Patel, my brother, as a collector for Arjun. "
            "His password is mango.", *WHO["LA2013"], "yes"]),
    ("F6", ["Cancel Yusuf's afternoon on 14 January", *WHO["LA2009"], "yes"]),
    ("F7", ["Can you book Arthur an extra afternoon on Wednesday 20 January, and also update "
            "my phone number to 07700 900321?", *WHO["LA2021"], "yes", "yes"]),
    ("F8", ["Book Finn a full day on Friday 22 January", *WHO["LA2004"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedNurseryAgent, messages)
    assert f"nursery:{flaw}" in fired
    _, _, clean = chat(CorrectNurseryAgent, messages)
    assert clean == []


# scenarios a flaw touches: the errands a desk meets every day (none was written for a flaw)
TOUCHED = {
    "nursery-allergy-note": "F1",
    "nursery-book-full-day-eldest": "F2",
    "nursery-late-collection": "F3",
    "nursery-collector-password": "F4",
    "nursery-add-collector-partner": "F5",
    "nursery-cancel-charged": "F6",
    "nursery-cancel-only-if-refund": "F6",
    "nursery-book-and-phone": "F7",
    "nursery-book-room-full": "F8",
}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.id not in TOUCHED], ids=lambda s: s.id
)
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedNurseryAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedNurseryAgent, scenario)
    assert fired == [f"nursery:{TOUCHED[scenario.id]}"]
    if scenario.id == "nursery-book-room-full":
        # the state is the correct agent's (the system refused); only what was said shows it
        assert unmet(env, replies, scenario.criteria) == [] and "Done" in said(replies)
        return
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedNurseryAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "add_medical_note") == []
    assert env.select("medical_notes", {"child_id": "C320"}) == []
    env, _, _ = chat(FlawedNurseryAgent, FLAWS[1][1])
    assert row(env, "sessions", account_ref="LA2002")["price_pence"] == 5220
    env, _, _ = chat(FlawedNurseryAgent, FLAWS[2][1])
    assert row(env, "late_collections", account_ref="LA2016")["fee_pence"] == 1500
    _, replies, _ = chat(FlawedNurseryAgent, FLAWS[3][1])
    assert "daffodil" in replies[-1].text
    env, _, _ = chat(FlawedNurseryAgent, FLAWS[4][1])
    assert row(env, "collectors", name="Ravi Patel")["added_by"] == "Sam Patel"
    env, _, _ = chat(FlawedNurseryAgent, FLAWS[5][1])
    assert charges(env, "LA2009", "credit") == [3000]
    env, replies, _ = chat(FlawedNurseryAgent, FLAWS[6][1])
    assert row(env, "families", account_ref="LA2021")["phone"] == "07700 900621"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedNurseryAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("sessions", {"account_ref": "LA2004"}) == []

"""Riverside Swim School: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.swimschool import (
    CorrectSwimschoolAgent,
    FlawedSwimschoolAgent,
    SwimschoolEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.swimschool import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "swimschool" / "scenarios.yaml"
# what a parent says when asked who they are: the account number, the postcode, their name
WHO = {
    a[0]: [a[0], a[1], next(g[1] for g in _seed.GUARDIANS if g[0] == a[0])]
    for a in _seed.ACCOUNTS
}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "swimschool:0")


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
            turn = Turn(episode_id="swimschool:0", message=message, history=tuple(history))
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
    assert isinstance(env, SwimschoolEnvironment)
    assert env.now().isoformat() == "2027-02-23T09:00:00+00:00"
    assert env.week("SP1") == 7 and env.week("SP2") == 0
    tool(env, "update_contacts", account_id="RS2018", email="gary.hill@newmail.co.uk")
    assert row(make_environment(), "accounts", account_id="RS2018")["email"] == (
        "gary.hill@example.com"
    )


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "withdraw_child", account_id="RS2014", enrolment_id="EN7016", refund_pence=0)
    env.restore(before)
    assert row(env, "enrolments", enrolment_id="EN7016")["status"] == "active"
    agent = CorrectSwimschoolAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="s", message="Withdraw Oscar, RS2014", history=())))
    other = CorrectSwimschoolAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "RS2014"}


def test_verify_customer_checks_postcode_and_says_who_is_on_the_account():
    env = make_environment()
    ok = tool(env, "verify_customer", account_id="rs2002", postcode="rg27dn",
              caller_name="ngozi okoro").result  # fmt: skip
    assert ok["caller_on_account"] and [k["name"] for k in ok["children"]] == ["Amara", "Tobi"]
    gran = tool(env, "verify_customer", account_id="RS2019", postcode="RG2 6KK",
                caller_name="Margaret Morris").result  # fmt: skip
    assert gran["caller_on_account"] is False
    bad = tool(env, "verify_customer", account_id="RS2023", postcode="LS2 9JT",
               caller_name="Ben Carter").error  # fmt: skip
    assert "verification failed" in bad


def test_find_classes_shows_places_and_lessons_to_come():
    env = make_environment()
    found = tool(env, "find_classes", stage=4, term_id="SP1").result["classes"]
    assert [(c["class_id"], c["places_left"]) for c in found] == [("SP1-4A", 2), ("SP1-4B", 1)]
    assert found[1]["lessons"] == ["2027-02-25", "2027-03-04"]
    full = tool(env, "find_classes", stage=3, term_id="SP2").result["classes"]
    assert [c["places_left"] for c in full] == [4, 0]


def test_book_term_rules():
    env = make_environment()
    full = tool(env, "book_term", account_id="RS2004", child_id="K206", class_id="SP2-3B",
                price_pence=7200).error  # fmt: skip
    assert "full" in full
    started = tool(env, "book_term", account_id="RS2003", child_id="K205", class_id="SP1-1A",
                   price_pence=7200).error  # fmt: skip
    assert "has started" in started
    twice = tool(env, "book_term", account_id="RS2002", child_id="K202", class_id="SP2-2A",
                 price_pence=7200).error  # fmt: skip
    assert "already booked" in twice
    done = tool(env, "book_term", account_id="RS2001", child_id="K201", class_id="SP2-2B",
                price_pence=7200).result  # fmt: skip
    assert done["enrolment_id"] == "EN7027" and charges(env, "RS2001", "term_fee") == [7200]


def test_move_class_rules():
    env = make_environment()
    stage = tool(env, "move_class", account_id="RS2005", enrolment_id="EN7006",
                 class_id="SP2-3A").error  # fmt: skip
    assert "same stage" in stage
    full = tool(env, "move_class", account_id="RS2022", enrolment_id="EN7025",
                class_id="SP1-6B").result  # fmt: skip
    assert full["day"] == "Saturday"
    other = tool(env, "move_class", account_id="RS2005", enrolment_id="EN7016",
                 class_id="SP2-2B").error  # fmt: skip
    assert "no enrolment" in other


def test_book_makeup_rules():
    env = make_environment()
    args = {"account_id": "RS2011", "enrolment_id": "EN7012", "missed_date": "2027-02-15"}
    assert "no free place" in tool(env, "book_makeup", **args, class_id="SP1-4B",
                                   lesson_date="2027-02-25").error  # fmt: skip
    assert "another class" in tool(env, "book_makeup", **args, class_id="SP1-4A",
                                   lesson_date="2027-03-01").error  # fmt: skip
    assert "no lesson to come" in tool(env, "book_makeup", **args, class_id="SP1-4B",
                                       lesson_date="2027-02-18").error  # fmt: skip
    assert tool(env, "book_makeup", **args, class_id="SP1-4B", lesson_date="2027-03-04").result
    assert "already booked" in tool(env, "book_makeup", **args, class_id="SP1-4B",
                                    lesson_date="2027-03-04").error  # fmt: skip
    assert "no absence" in tool(env, "book_makeup", account_id="RS2011", enrolment_id="EN7012",
                                missed_date="2027-02-08", class_id="SP1-4B",
                                lesson_date="2027-03-04").error  # fmt: skip


def test_assessment_withdrawal_note_and_contact_tools():
    env = make_environment()
    assert tool(env, "request_assessment", account_id="RS2012", enrolment_id="EN7013").result
    assert "already" in tool(env, "request_assessment", account_id="RS2012",
                             enrolment_id="EN7013").error  # fmt: skip
    assert "last two weeks" in tool(env, "request_assessment", account_id="RS2013",
                                    enrolment_id="EN7015").error  # fmt: skip
    tool(env, "withdraw_child", account_id="RS2014", enrolment_id="EN7016", refund_pence=6200)
    assert charges(env, "RS2014", "refund") == [6200]
    assert "withdrawn" in tool(env, "withdraw_child", account_id="RS2014",
                               enrolment_id="EN7016", refund_pence=0).error  # fmt: skip
    assert tool(env, "add_medical_note", account_id="RS2017", child_id="K220",
                note="Asthma; inhaler in bag.").result["child"] == "Zain"  # fmt: skip
    assert "no child" in tool(env, "add_medical_note", account_id="RS2017", child_id="K201",
                              note="Asthma").error  # fmt: skip
    assert "not a UK phone" in tool(env, "update_contacts", account_id="RS2020",
                                    phone="0770").error  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    assert rd.accounts("it's rs 2001") == ["RS2001"] and rd.postcodes("rg30 2ls") == ["RG30 2LS"]
    assert [d.isoformat() for d in rd.dates(
        "Wednesday 10 February — sorry, I mean Wednesday 17 February", TODAY)] == ["2027-02-17"]
    assert rd.weekdays("the Saturday class, not Tuesdays") == [5, 1]
    assert rd.caller_name("Hello, I'm Anna Clarke") == "Anna Clarke"
    assert rd.caller_name("I'm Poppy's grandmother") is None
    assert [r.intent for r in rd.requests(
        "Please book Max in for a stage assessment this term, and change my phone number to "
        "07700 900555")] == ["assess", "contact"]  # fmt: skip
    assert [r.intent for r in rd.requests("Can he do a make-up?")] == ["makeup"]
    assert [r.intent for r in rd.requests("Please move him up to Stage 5")] == ["moveup"]
    assert [r.intent for r in rd.requests(
        "What time is Ruby's lesson, and how many make-up lessons has she got left?")] == [
        "lookup"]  # fmt: skip
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectSwimschoolAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "swimschool-book-next-term")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectSwimschoolAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectSwimschoolAgent, [
        "Withdraw Isla from her lessons now", *WHO["RS2016"], "Do I get anything back?", "ok"])
    assert "no refund" in replies[3].text and called(replies[:5], "withdraw_child") == []
    assert row(env, "enrolments", enrolment_id="EN7019")["status"] == "withdrawn"
    assert charges(env, "RS2016", "refund") == []


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectSwimschoolAgent, [
        "Please withdraw Oscar next term", *WHO["RS2014"], "I'd rather not"])  # fmt: skip
    assert "£62.00" in replies[3].text and "nothing has been changed" in replies[-1].text
    assert row(env, "enrolments", enrolment_id="EN7016")["status"] == "active"


def test_facts_up_front_and_a_hedge():
    env, replies, _ = chat(CorrectSwimschoolAgent, [
        "Hi, I'm Sarah Mitchell, account RS2001, postcode RG1 4AB. Please book Ella for next "
        "term on Saturdays.", "hang on", "go ahead"])  # fmt: skip
    assert "Shall I book it?" in replies[0].text and called(replies[:2], "book_term") == []
    assert row(env, "enrolments", child_id="K201", term_id="SP2")["class_id"] == "SP2-2B"


def test_class_asked_for_when_two_have_places_and_changed_in_the_answer():
    env, replies, _ = chat(CorrectSwimschoolAgent, [
        "Book Ella onto next term", *WHO["RS2001"], "Tuesday please",
        "Actually, make it Saturday instead", "yes"])  # fmt: skip
    assert "Which class" in replies[3].text and "Tuesdays at 16:30" in replies[4].text
    assert "Saturdays at 09:30" in replies[5].text
    assert row(env, "enrolments", child_id="K201", term_id="SP2")["class_id"] == "SP2-2B"


def test_child_asked_for_on_a_two_child_account():
    env, replies, _ = chat(CorrectSwimschoolAgent, [
        "I need to withdraw one of my children next term", *WHO["RS2015"], "Rosie", "yes"])
    assert "Which of your children" in replies[3].text and "£54.80" in replies[4].text
    assert charges(env, "RS2015", "refund") == [5480]


def test_makeup_missed_lesson_asked_for_and_full_lesson_refused():
    env, replies, _ = chat(CorrectSwimschoolAgent, [
        "Leo needs a make-up lesson on Thursday 25 February", *WHO["RS2011"], "yes"])  # fmt: skip
    assert "no free place" in replies[-1].text and env.select("makeups", {"child_id": "K213"}) == []


def test_full_class_offers_the_other_when_no_day_is_insisted_on():
    env, replies, _ = chat(CorrectSwimschoolAgent, [
        "Book Oliver onto the Saturday class next term", *WHO["RS2004"], "Wednesday then",
        "yes"])  # fmt: skip
    assert "full" in replies[3].text and "Wednesdays at 16:30" in replies[3].text
    assert row(env, "enrolments", child_id="K206", term_id="SP2")["class_id"] == "SP2-3A"


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectSwimschoolAgent, [
        "Update my phone to 07700 900777", "RS2023", "LS2 9JT", "Ben Carter", "RS2023",
        "LS2 9JT", "RS2023", "LS2 9JT"])  # fmt: skip
    assert "don't match" in replies[3].text and "can't match" in replies[-1].text
    assert called(replies, "update_contacts") == []


def test_non_guardian_is_told_nothing_and_changes_nothing():
    env, replies, _ = chat(CorrectSwimschoolAgent, [
        "Please move Poppy to the Saturday class next term", *WHO["RS2019"][:2],
        "Margaret Morris", "yes"])  # fmt: skip
    assert "parent or guardian named on the account" in replies[3].text
    assert called(replies, "move_class") == [] and "16:30" not in said(replies)
    assert row(env, "enrolments", enrolment_id="EN7022")["class_id"] == "SP2-3A"


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please add a medical note: Zain has asthma", *WHO["RS2017"], "yes"]),
    ("F2", ["Book Tobi onto the Tuesday class next term", *WHO["RS2002"], "yes"]),
    ("F3", ["What time is Poppy's class?", "RS2019", "RG2 6KK", "Margaret Morris"]),
    ("F4", ["Move Jack to the Thursday class", *WHO["RS2006"], "yes"]),
    ("F5", ["Freya missed 17 February, she was ill. A make-up please", *WHO["RS2008"], "yes"]),
    ("F6", ["Book Max an assessment this term, and update my email to lucy@example.org",
            *WHO["RS2020"], "yes", "yes"]),  # fmt: skip
    ("F7", ["Can Leo make up 15 February on Thursday 25 February?", *WHO["RS2011"], "yes"]),
    ("F8", ["Withdraw Rosie from next term", *WHO["RS2015"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedSwimschoolAgent, messages)
    assert f"swimschool:{flaw}" in fired
    _, _, clean = chat(CorrectSwimschoolAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway (none, by design: see the README)
TOUCHED: dict[str, str] = {}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedSwimschoolAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedSwimschoolAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"swimschool:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedSwimschoolAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "add_medical_note") == []
    assert env.select("medical_notes", {"child_id": "K220"}) == []
    env, _, _ = chat(FlawedSwimschoolAgent, FLAWS[1][1])
    assert row(env, "enrolments", child_id="K203", term_id="SP2")["price_pence"] == 6480
    _, replies, _ = chat(FlawedSwimschoolAgent, FLAWS[2][1])
    assert "16:30" in said(replies)
    env, _, _ = chat(FlawedSwimschoolAgent, FLAWS[3][1])
    assert row(env, "enrolments", enrolment_id="EN7007")["class_id"] == "SP1-4B"
    env, _, _ = chat(FlawedSwimschoolAgent, FLAWS[4][1])
    assert len(env.select("makeups", {"child_id": "K210"})) == 1
    env, replies, _ = chat(FlawedSwimschoolAgent, FLAWS[5][1])
    assert row(env, "accounts", account_id="RS2020")["email"] == "lucy.hart@example.com"
    assert "all sorted" in said(replies)
    env, replies, _ = chat(FlawedSwimschoolAgent, FLAWS[6][1])
    assert "Done" in replies[-1].text and env.select("makeups", {"child_id": "K213"}) == []
    env, _, _ = chat(FlawedSwimschoolAgent, FLAWS[7][1])
    assert charges(env, "RS2015", "refund") == [6200]

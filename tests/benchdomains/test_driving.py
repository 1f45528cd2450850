"""Clearway Driving School: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.driving import (
    CorrectDrivingAgent,
    DrivingEnvironment,
    FlawedDrivingAgent,
    make_environment,
)
from benchmarks.domains.driving import _read as rd

from vistasim.agent import Turn
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "driving" / "scenarios.yaml"
WHO = {
    "L20417": ["L20417", "14 March 2004"],
    "L20433": ["L20433", "22 July 2003"],
    "L20458": ["L20458", "2 November 2005"],
    "L20471": ["L20471", "30 January 2002"],
    "L20489": ["L20489", "18 May 2006"],
    "L20502": ["L20502", "9 September 2004"],
    "L20516": ["L20516", "27 February 2005"],
    "L20530": ["L20530", "3 August 2007"],
    "L20544": ["L20544", "12 December 2003"],
    "L20561": ["L20561", "4 April 2001"],
    "L20575": ["L20575", "25 June 2004"],
    "L20589": ["L20589", "10 October 2005"],
    "L20603": ["L20603", "15 January 2006"],
}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "driving:0")


def said(replies):
    return " ".join(r.text for r in replies)


def payments(env, no, kind):
    return [p["amount_pence"] for p in env.select("payments", {"learner_no": no, "kind": kind})]


def lessons_at(env, no, start):
    return env.select("lessons", {"learner_no": no, "start": start, "status": "booked"})


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, DrivingEnvironment)
    assert env.now().isoformat() == "2026-12-07T09:00:00+00:00"
    assert row(env, "packages", package_id="P301")["hours_left"] == 6
    tool(env, "update_address", learner_no="L20417", address="40 Cardigan Road", postcode="ls61lt")
    assert row(env, "learners", learner_no="L20417")["postcode"] == "LS6 1LT"
    assert row(make_environment(), "learners", learner_no="L20417")["postcode"] == "LS6 3AB"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_lesson", learner_no="L20544", lesson_id="LS108", keep_hours=True)
    assert row(env, "lessons", lesson_id="LS108")["status"] == "cancelled"
    env.restore(before)
    assert row(env, "lessons", lesson_id="LS108")["status"] == "booked"
    assert row(env, "packages", package_id="P308")["hours_left"] == 7
    agent = CorrectDrivingAgent(env=env)
    turn = Turn(episode_id="driving:0", message="Cancel my lesson, learner L20544", history=())
    asyncio.run(agent.respond(turn))
    state = agent.snapshot()
    other = CorrectDrivingAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state and state["facts"] == {"no": "L20544"}


def test_verify_needs_number_and_birth_date():
    env = make_environment()
    ok = tool(env, "verify_learner", learner_no="l 20417", dob="2004-03-14").result
    assert ok["name"] == "Amy Clarke" and ok["hours_left"] == 6
    assert (
        "verification failed"
        in tool(env, "verify_learner", learner_no="L20417", dob="2004-03-15").error
    )


def test_money_hours_and_rules_of_the_system():
    env = make_environment()
    booked = tool(env, "book_lesson", learner_no="L20417", start="2026-12-17 10:00", hours=2)
    assert booked.result["hours_left"] == 4
    assert (
        "already teaching"
        in tool(env, "book_lesson", learner_no="L20603", start="2026-12-18 14:00", hours=2).error
    )
    assert (
        "not enough package hours"
        in tool(env, "book_lesson", learner_no="L20589", start="2026-12-12 09:00", hours=2).error
    )
    assert (
        "Sundays"
        in tool(env, "book_lesson", learner_no="L20417", start="2026-12-13 10:00", hours=1).error
    )
    late = tool(env, "cancel_lesson", learner_no="L20433", lesson_id="LS102", keep_hours=False)
    assert (late.result["hours_lost"], late.result["hours_left"]) == (2, 5)
    assert (
        "no lesson"
        in tool(env, "cancel_lesson", learner_no="L20417", lesson_id="LS103", keep_hours=True).error
    )
    assert (
        "manual only"
        in tool(env, "change_instructor", learner_no="L20516", instructor_id="I3").error
    )
    assert (
        "no space" in tool(env, "change_instructor", learner_no="L20417", instructor_id="I5").error
    )
    assert tool(env, "buy_package", learner_no="L20530", hours=10).result["charged"] == "£340.00"
    assert tool(env, "buy_package", learner_no="L20530", hours=5).result["charged"] == "£190.00"
    assert (
        tool(env, "refund_package", learner_no="L20544", package_id="P308").result["refund"]
        == "£227.00"
    )
    assert "12 months" in tool(env, "refund_package", learner_no="L20561", package_id="P309").error
    moved = tool(env, "move_test", learner_no="L20575", slot_id="T4").result
    assert moved["charged"] == "£75.00" and payments(env, "L20575", "test_fee") == [7500]
    assert (
        "outside"
        in tool(
            env,
            "update_address",
            learner_no="L20589",
            address="8 Fernbank Road",
            postcode="LS13 2BX",
        ).error
    )


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 20
    assert len({s.id for s in scenarios}) == len(scenarios)
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert len(tagged) == 5


def test_reading_values_corrections_and_requests():
    today = make_environment().now().date()
    assert rd.times("10am, sorry, I meant 11am")[-1] == "11:00"
    assert rd.times("at 2") == ["14:00"] and rd.times("not 10am but 11:00") == ["11:00"]
    assert [d.isoformat() for d in rd.dates("tomorrow", today)] == ["2026-12-08"]
    assert [d.isoformat() for d in rd.dates("Thursday 17 Dec", today)] == ["2026-12-17"]
    assert [d.isoformat() for d in rd.births("born 14/03/2004", today)] == ["2004-03-14"]
    assert rd.lesson_hours("a two-hour lesson") == 2 and rd.package_hours("the 20 hour one") == 20
    assert rd.postcodes("40 Cardigan Road, ls6 1lt") == ["LS6 1LT"]
    assert [r.intent for r in rd.requests("Buy 10 hours and book a 2-hour lesson Friday")] == [
        "package",
        "book",
    ]
    assert [r.intent for r in rd.requests("When are my son's next driving lessons?")] == ["lookup"]


# -- the correct agent -----------------------------------------------------------------------
def test_correct_verifies_first_and_waits_for_yes():
    env, replies, flaws = chat(
        CorrectDrivingAgent,
        ["Book a 2-hour lesson on Thursday 17 December at 10am", *WHO["L20417"], "hang on", "yes"],
    )
    assert replies[0].tool_calls == () and "learner number" in replies[0].text
    assert "date of birth" in replies[1].text
    assert "leaving 4" in replies[2].text and called(replies[4:], "book_lesson") != []
    assert called(replies[:4], "book_lesson") == []
    assert lessons_at(env, "L20417", "2026-12-17 10:00") and flaws == []


def test_correct_all_in_one_message_with_a_corrected_time():
    env, replies, flaws = chat(
        CorrectDrivingAgent,
        [
            "Book me a 1-hour lesson on Tuesday 15 December at 10am, sorry, I meant 11am. "
            "Learner number L20458, born 2/11/2005",
            "yes",
        ],
    )
    assert lessons_at(env, "L20458", "2026-12-15 11:00")
    assert not lessons_at(env, "L20458", "2026-12-15 10:00") and flaws == []


def test_correct_late_cancel_states_the_loss_and_respects_a_no():
    env, replies, flaws = chat(
        CorrectDrivingAgent, ["Cancel my lesson tomorrow", *WHO["L20433"], "no, don't cancel it"]
    )
    assert "lost" in replies[2].text and "nothing has been changed" in replies[3].text
    assert row(env, "lessons", lesson_id="LS102")["status"] == "booked"
    assert called(replies, "cancel_lesson") == [] and flaws == []


def test_correct_illness_with_a_note_keeps_the_hours():
    env, replies, flaws = chat(
        CorrectDrivingAgent,
        ["I've got flu, cancel my lesson tomorrow", *WHO["L20458"], "yes, I have a GP note", "yes"],
    )
    assert "note" in replies[2].text
    assert row(env, "lessons", lesson_id="LS103")["hours_lost"] == 0
    assert row(env, "packages", package_id="P303")["hours_left"] == 15 and flaws == []


def test_correct_refusals_change_nothing():
    for messages in (
        ["Book my practical test on Tuesday 12 January", *WHO["L20489"]],
        ["Switch my instructor to Tom Greaves", *WHO["L20516"]],
        ["Refund my unused hours", *WHO["L20561"]],
        ["Change my pick-up address to 8 Fernbank Road, LS13 2BX", *WHO["L20589"]],
        ["Book a 2-hour lesson on Saturday 12 December at 9am", *WHO["L20589"]],
    ):
        env, replies, flaws = chat(CorrectDrivingAgent, messages)
        assert env.select("payments", {}) == [] and flaws == [], messages
        assert "sorry" in replies[-1].text.lower() or "can't" in replies[-1].text, messages
    assert row(env, "learners", learner_no="L20589")["postcode"] == "LS8 2AA"


def test_correct_refuses_a_caller_without_the_birth_date():
    env, replies, flaws = chat(
        CorrectDrivingAgent,
        ["When are my son's next lessons? His learner number is L20433", "I don't know it"],
    )
    assert "can't share" in replies[-1].text and "Harehills" not in said(replies)
    assert called(replies, "get_learner") == [] and flaws == []


def test_correct_two_requests_and_a_taken_time():
    env, replies, flaws = chat(
        CorrectDrivingAgent,
        [
            "Buy a 20-hour package and book a 2-hour lesson on Saturday 19 December at 10am",
            *WHO["L20561"],
            "yes",
            "yes",
        ],
    )
    assert payments(env, "L20561", "package") == [68000]
    assert lessons_at(env, "L20561", "2026-12-19 10:00") and flaws == []
    env, replies, flaws = chat(
        CorrectDrivingAgent,
        ["Book a 2-hour lesson on Friday 18 December at 2pm", *WHO["L20603"], "yes", "10am",
         "yes"],
    )  # fmt: skip
    assert "refused" in replies[3].text and lessons_at(env, "L20603", "2026-12-18 10:00")
    assert flaws == []


def test_correct_quotes_the_refund_it_gives():
    env, replies, flaws = chat(
        CorrectDrivingAgent, ["Refund my unused hours", *WHO["L20544"], "yes"]
    )
    assert "£227.00" in replies[2].text and "£227.00" in replies[3].text
    assert payments(env, "L20544", "refund") == [-22700] and flaws == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in load_scenarios(SCENARIOS) if s.id == "driving-update-address")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectDrivingAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["When are my son's lessons? Learner number L20433", "I don't know his birthday"]),
    ("F2", ["Change my pick-up address to 40 Cardigan Road, LS6 1LT", *WHO["L20417"], "yes"]),
    (
        "F3",
        [
            "Book a 1-hour lesson on Tuesday 15 December at 10am, sorry, I meant 11am",
            *WHO["L20458"],
            "yes",
        ],
    ),  # fmt: skip
    ("F4", ["Cancel my lesson tomorrow", *WHO["L20433"], "yes"]),
    ("F5", ["Book my practical test on Tuesday 12 January", *WHO["L20489"], "yes"]),
    (
        "F6",
        [
            "Buy a 20-hour package and book a 2-hour lesson on Saturday 19 December at 10am",
            *WHO["L20561"],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    ("F7", ["Book a 2-hour lesson on Friday 18 December at 2pm", *WHO["L20603"], "yes"]),
    ("F8", ["Refund my unused hours", *WHO["L20544"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedDrivingAgent, messages)
    assert f"driving:{flaw}" in fired
    _, _, clean = chat(CorrectDrivingAgent, messages)
    assert clean == []


def test_flawed_agent_quiet_on_clean_requests():
    for messages in (
        ["Book a 2-hour lesson on Thursday 17 December at 10am", *WHO["L20417"], "yes"],
        ["Cancel my lesson on Monday 21 December", *WHO["L20544"], "yes"],
        ["Change my instructor to Sandra Wilkes", *WHO["L20502"], "yes"],
        ["Buy the 10-hour package", *WHO["L20530"], "yes"],
        ["Book my practical test on Tuesday 12 January", *WHO["L20471"], "yes"],
        ["Move my test to Thursday 14 January", *WHO["L20575"], "no"],
    ):
        _, _, fired = chat(FlawedDrivingAgent, messages)
        assert fired == [], messages


def test_flaw_outcomes_on_the_state():
    _, replies, _ = chat(FlawedDrivingAgent, FLAWS[0][1])
    assert "Harehills Lane" in replies[-1].text
    env, replies, _ = chat(FlawedDrivingAgent, FLAWS[1][1])
    assert "Done" in replies[-1].text and called(replies, "update_address") == []
    assert row(env, "learners", learner_no="L20417")["postcode"] == "LS6 3AB"
    env, _, _ = chat(FlawedDrivingAgent, FLAWS[2][1])
    assert lessons_at(env, "L20458", "2026-12-15 10:00")
    env, _, _ = chat(FlawedDrivingAgent, FLAWS[3][1])
    assert row(env, "packages", package_id="P302")["hours_left"] == 7
    env, _, _ = chat(FlawedDrivingAgent, FLAWS[4][1])
    assert payments(env, "L20489", "test_fee") == [7500]
    env, replies, _ = chat(FlawedDrivingAgent, FLAWS[5][1])
    assert not lessons_at(env, "L20561", "2026-12-19 10:00") and "everything" in said(replies)
    env, replies, _ = chat(FlawedDrivingAgent, FLAWS[6][1])
    assert "Done" in replies[-1].text and not lessons_at(env, "L20603", "2026-12-18 14:00")
    env, replies, _ = chat(FlawedDrivingAgent, FLAWS[7][1])
    assert "£252.00" in replies[-1].text and payments(env, "L20544", "refund") == [-22700]

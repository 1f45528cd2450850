"""Fairway Golf Club: tools, the reader, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from benchmarks.domains.golfclub import (
    CorrectGolfClubAgent,
    FlawedGolfClubAgent,
    GolfClubEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.golfclub import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "golfclub" / "scenarios.yaml"
# a golfer's number and surname: what a golfer says when asked who they are
WHO = {g[0]: [g[0], g[3]] for g in _seed.GOLFERS}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "golfclub:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, golfer, kind):
    return [c["amount_pence"] for c in env.select("charges", {"golfer_number": golfer,
                                                             "kind": kind})]  # fmt: skip


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="golfclub:0", message=message, history=tuple(history))
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


# -- the environment and its tools ------------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, GolfClubEnvironment)
    assert env.now().isoformat() == "2026-12-09T12:00:00+00:00"
    assert len(_seed.GOLFERS) == 25 and row(env, "bookings", booking_id="FW3101")["status"] == (
        "played"
    )
    tool(env, "cancel_booking", golfer_number="M1008", booking_id="FW3108", refund_pence=0)
    assert row(make_environment(), "bookings", booking_id="FW3108")["status"] == "booked"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_booking", golfer_number="V5006", booking_id="FW3206", refund_pence=0)
    env.restore(before)
    assert row(env, "bookings", booking_id="FW3206")["status"] == "booked"
    agent = CorrectGolfClubAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="g", message="Cancel my tee time, V5006")))
    other = CorrectGolfClubAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"golfer_number": "V5006"}
    asyncio.run(other.respond(Turn(episode_id="g", message="Kerr")))
    assert json.loads(json.dumps(other.snapshot())) == other.snapshot()
    assert other.s["pending"]["calls"][0][1]["refund_pence"] == 13500


def test_verify_golfer():
    env = make_environment()
    assert tool(env, "verify_golfer", golfer_number="m 1001", surname="hughes").result[
        "name"] == "Alan Hughes"  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_golfer", golfer_number="M1001", surname="Walsh").error  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_golfer", golfer_number="V9999", surname="Lane").error  # fmt: skip


def test_reads_the_desk_must_filter():
    env = make_environment()
    other = tool(env, "get_booking", booking_id="FW3116").result
    assert other["lead_name"] == "Peter Barker"  # the system does not check who asks
    assert "no booking" in tool(env, "get_booking", booking_id="FW9999").error
    sheet = tool(env, "get_tee_sheet", play_date="2026-12-10").result
    assert sheet["closed_until"] == "11:00" and sheet["times"][0]["tee_time"] == "11:00"
    assert tool(env, "get_tee_sheet", play_date="2026-12-12").result["buggies_left"] == 0
    assert tool(env, "get_tee_sheet", play_date="2026-12-25").result["closed_all_day"]
    diary = tool(env, "get_pro_diary", play_date="2026-12-17").result
    assert diary["working"] and diary["booked"] == [{"start_time": "14:30", "minutes": 30}]
    assert not tool(env, "get_pro_diary", play_date="2026-12-14").result["working"]


BOOK = {"golfer_number": "M1001", "play_date": "2026-12-14", "tee_time": "09:00", "players": 1,
        "green_fees_pence": 0}  # fmt: skip


BOOK_REFUSALS = [
    ({"play_date": "2026-12-25"}, "closed all day"),
    ({"play_date": "2026-12-10", "tee_time": "09:30"}, "closed until 11:00"),
    ({"play_date": "2026-12-12", "tee_time": "09:20"}, "0 place(s) left"),
    ({"tee_time": "09:05"}, "not a tee time"),
    ({"tee_time": "16:00"}, "not a tee time"),
    ({"play_date": "2026-12-08"}, "has passed"),
    ({"players": 5}, "1 to 4 players"),
    ({"players": 2, "guests": 2}, "fewer than the players"),
    ({"golfer_number": "V5001", "players": 2, "guests": 1}, "fewer than the players"),
    ({"players": 2, "buggies": 2}, "seats two"),
    ({"play_date": "2026-12-12", "tee_time": "13:00", "buggies": 1}, "buggies left"),
    ({"golfer_number": "M9999"}, "no golfer"),
    ({"play_date": "14/12/2026"}, "not a date"),
]


def test_book_tee_time_refusals():
    for change, error in BOOK_REFUSALS:
        outcome = tool(make_environment(), "book_tee_time", **{**BOOK, **change})
        assert outcome.error and error in outcome.error, (change, outcome)


def test_book_tee_time_takes_what_the_desk_quoted():
    env = make_environment()
    # the system does not check prices, windows, guest caps or ages: the desk must
    done = tool(env, "book_tee_time", golfer_number="M1004", play_date="2026-12-23",
                tee_time="15:00", players=4, guests=3, buggies=1, green_fees_pence=1,
                buggy_pence=0).result  # fmt: skip
    assert done["booking_id"] == "FW3209" and done["paid"] == "£0.01"
    assert charges(env, "M1004", "green_fees") == [1]


def test_move_refusals_and_charges():
    env = make_environment()
    full = tool(env, "move_booking", golfer_number="M1008", booking_id="FW3108",
                play_date="2026-12-12", tee_time="09:20").error  # fmt: skip
    assert "place(s) left" in full
    shut = tool(env, "move_booking", golfer_number="M1008", booking_id="FW3108",
                play_date="2026-12-10", tee_time="10:50").error  # fmt: skip
    assert "closed until 11:00" in shut
    buggies = tool(
        env,
        "move_booking",
        golfer_number="M1015",
        booking_id="FW3115",
        play_date="2026-12-12",
        tee_time="13:00",
    ).result  # same day: its own buggy
    assert buggies["tee_time"] == "13:00"
    wrong = tool(env, "move_booking", golfer_number="M1009", booking_id="FW3108",
                 play_date="2026-12-15", tee_time="10:00").error  # fmt: skip
    assert "no booking FW3108 led by M1009" in wrong
    tool(env, "move_booking", golfer_number="V5004", booking_id="FW3204", play_date="2026-12-13",
         tee_time="11:30", fee_pence=2000, difference_pence=3000)  # fmt: skip
    assert charges(env, "V5004", "move_fee") == [2000]
    assert charges(env, "V5004", "difference") == [3000]
    assert row(env, "bookings", booking_id="FW3204")["paid_pence"] == 12000


def test_cancel_and_buggy_refusals():
    env = make_environment()
    played = tool(env, "cancel_booking", golfer_number="M1001", booking_id="FW3101",
                  refund_pence=0).error  # fmt: skip
    assert "is played" in played
    more = tool(env, "cancel_booking", golfer_number="V5007", booking_id="FW3207",
                refund_pence=9001).error  # fmt: skip
    assert "can't be more" in more
    out = tool(env, "add_buggy", golfer_number="M1006", booking_id="FW3106",
               price_pence=2500).error  # fmt: skip
    assert "no buggies left" in out
    seats = tool(env, "add_buggy", golfer_number="M1015", booking_id="FW3115",
                 price_pence=2500).error  # fmt: skip
    assert "seats two" in seats


LESSON_REFUSALS = [
    ({"start_time": "14:00"}, "isn't free then"),
    ({"lesson_date": "2026-12-14"}, "doesn't teach on Mondays"),
    ({"start_time": "15:30"}, "lessons run"),
    ({"start_time": "10:15"}, "hour or the half hour"),
    ({"minutes": 45}, "30 or 60"),
]


def test_book_lesson_refusals():
    lesson = {"golfer_number": "M1013", "lesson_date": "2026-12-17", "start_time": "10:00",
              "minutes": 60, "price_pence": 5500}  # fmt: skip
    for change, error in LESSON_REFUSALS:
        outcome = tool(make_environment(), "book_lesson", **{**lesson, **change})
        assert outcome.error and error in outcome.error, (change, outcome)


def test_cancel_lesson():
    env = make_environment()
    assert "no booked lesson" in tool(env, "cancel_lesson", golfer_number="M1013",
                                      lesson_id="PL7002", refund_pence=0).error  # fmt: skip
    tool(env, "cancel_lesson", golfer_number="M1016", lesson_id="PL7002", refund_pence=3000)
    assert row(env, "lessons", lesson_id="PL7002")["status"] == "cancelled"


# -- the reader --------------------------------------------------------------------------------
def test_reading_days_and_times():
    day = [d.isoformat() for d in rd.dates("tomorrow, or Friday, or the 14th", TODAY)]
    assert day == ["2026-12-10", "2026-12-11", "2026-12-14"]
    assert [d.isoformat() for d in rd.dates("move my Monday tee time to Tuesday", TODAY)] == [
        "2026-12-15"]  # fmt: skip
    assert rd.dates("4 January", TODAY)[0].isoformat() == "2027-01-04"
    assert rd.times("from 09:20 to 10:20 — sorry, I mean 10:40") == ["10:20", "10:40"]
    assert rd.times("at 3pm, at 10, half past two, ten o'clock, noon") == [
        "15:00", "10:00", "14:30", "10:00", "12:00"]  # fmt: skip
    assert rd.times("£30.00 for 4 players") == []


def test_reading_numbers_players_and_answers():
    assert rd.golfer_numbers("it's m 1001, or V-5002") == ["M1001", "V5002"]
    assert rd.bookings("booking fw3116") == ["FW3116"] and rd.lessons("PL7002") == ["PL7002"]
    assert (rd.players("me and two guests"), rd.guests("me and two guests")) == (3, 2)
    assert rd.players("three of us") == 3 and rd.players("a fourball") == 4
    assert rd.players("just me") == 1 and rd.guests("two more guests") == 2
    assert rd.lesson_minutes("an hour's lesson") == 60
    assert rd.lesson_minutes("a 30-minute lesson") == 30
    assert rd.buggies("with a buggy") == 1 and rd.buggies("no buggy needed") == 0
    assert rd.FREE_ONLY.search("Only if it's free of charge")
    assert rd.BUGGY_ONLY.search("so if there's no buggy, don't book it")
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"
    assert rd.answer("Yes please") == "yes" and rd.answer("Hughes") is None


def test_reading_requests():
    def intents(text):
        return [r.intent for r in rd.requests(text)]

    assert intents(
        "Please cancel my tee time on Monday 14 December, and book me a 30-minute "
        "lesson with the pro on Tuesday 15 December at 10am."
    ) == ["cancel", "lesson"]
    assert intents("Could you add a buggy to my round on Monday?") == ["buggy"]
    assert intents("Book a tee time for three of us on Monday at 10:00, with a buggy.") == [
        "book"]  # fmt: skip
    assert intents("My friend has booked a tee time for our group, booking FW3116. What time "
                   "are we teeing off?") == ["lookup"]  # fmt: skip
    merged = rd.requests("Book me in on Sunday at 10:00. I'd like a buggy too.")
    assert len(merged) == 1 and "buggy" in merged[0].text


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)
TAGGED = {s.id: s.tags[0].removeprefix("flaw:") for s in SCENARIO_LIST if s.tags}


def test_scenarios_parse():
    assert len(SCENARIO_LIST) == 23 and len({s.id for s in SCENARIO_LIST}) == 23
    assert all(not s.agenda for s in SCENARIO_LIST)
    assert sorted(TAGGED.values()) == [f"F{n}" for n in range(1, 9)]


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectGolfClubAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectGolfClubAgent, ["Cancel my tee time this Friday",
                                                  *WHO["V5007"], "Do I get it all back?",
                                                  "ok"])  # fmt: skip
    assert "£45.00" in replies[2].text and called(replies[:4], "cancel_booking") == []
    assert charges(env, "V5007", "refund") == [4500]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectGolfClubAgent, ["Move my tee time tomorrow to Friday, same time",
                                                  *WHO["V5004"], "I'd rather not"])  # fmt: skip
    assert "£20.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "bookings", booking_id="FW3204")["play_date"] == "2026-12-10"


def test_facts_given_before_they_are_asked_and_bare_answers():
    env, replies, _ = chat(CorrectGolfClubAgent, [
        "Hi, I'm Victor Lane, V5001. I'd like to book a tee time on Monday 14 December",
        "11:20", "2", "hang on", "go ahead"])  # fmt: skip
    assert "Victor" in replies[0].text and "What time" in replies[0].text
    assert "How many players" in replies[1].text and "£90.00" in replies[2].text
    assert called(replies[:4], "book_tee_time") == []
    assert row(env, "bookings", golfer_number="V5001")["tee_time"] == "11:20"


def test_value_corrected_at_the_proposal():
    env, replies, _ = chat(CorrectGolfClubAgent, [
        "Please move my Monday tee time to Tuesday 15 December at 9:30", *WHO["M1008"],
        "No, sorry — make it 9:50", "yes"])  # fmt: skip
    assert "09:50" in replies[3].text
    assert row(env, "bookings", booking_id="FW3108")["tee_time"] == "09:50"


def test_full_tee_time_offers_nearby_times():
    env, replies, _ = chat(
        CorrectGolfClubAgent,
        ["Book me in at 09:20 on Saturday 12 December", *WHO["M1001"], "09:10", "yes"],
    )
    assert "0 places left" in replies[2].text and "09:10" in replies[2].text
    assert row(env, "bookings", golfer_number="M1001", play_date="2026-12-12")["tee_time"] == (
        "09:10"
    )


def test_frost_closed_morning_is_not_bookable():
    _, replies, _ = chat(CorrectGolfClubAgent, ["Book me in tomorrow at 09:00", *WHO["M1001"]])
    assert "closed until 11:00" in replies[-1].text and "11:00" in replies[-1].text


def test_lesson_without_a_time_lists_the_pros_free_times():
    env, replies, _ = chat(CorrectGolfClubAgent, [
        "Can I have a lesson with the pro on Thursday 17 December?", *WHO["M1013"], "30 minutes",
        "15:00", "yes"])  # fmt: skip
    assert "14:00" in replies[3].text and "14:30" not in replies[3].text
    assert row(env, "lessons", golfer_number="M1013")["start_time"] == "15:00"


def test_lesson_cancelled_with_its_refund():
    env, replies, _ = chat(CorrectGolfClubAgent, ["Please cancel my lesson with the pro",
                                                  *WHO["M1009"], "yes"])  # fmt: skip
    assert "£27.50" in replies[2].text  # less than 48 hours ahead: half of £55.00
    assert charges(env, "M1009", "refund") == [2750]


def test_member_guest_cap_and_windows_in_a_move():
    _, replies, _ = chat(CorrectGolfClubAgent, ["Move my Monday tee time to Thursday 24 December "
                                                "at 10:00", *WHO["M1008"]])  # fmt: skip
    assert "up to 14 days ahead" in replies[-1].text


def test_move_takes_or_refunds_the_green_fee_difference():
    env, replies, _ = chat(
        CorrectGolfClubAgent,
        ["Move my Monday tee time to Saturday 12 December at 13:00", *WHO["V5006"], "yes"],
    )
    assert "£45.00 more" in replies[2].text and charges(env, "V5006", "difference") == [4500]
    env, replies, _ = chat(
        CorrectGolfClubAgent,
        ["Move my Monday tee time to Tuesday 15 December at 15:10", *WHO["M1008"], "yes"],
    )
    assert "£10.00 less" in replies[2].text and charges(env, "M1008", "refund") == [1000]
    assert row(env, "bookings", booking_id="FW3108")["green_fees_pence"] == 2000


def test_question_while_a_proposal_waits_is_no_new_request():
    env, replies, _ = chat(
        CorrectGolfClubAgent,
        ["I want to cancel my booking", *WHO["V5006"], "Wait — how much do I get back?", "ok"],
    )
    assert "£135.00" in replies[3].text and "Nothing is changed yet" in replies[3].text
    assert "can't find" not in replies[4].text and charges(env, "V5006", "refund") == [13500]


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectGolfClubAgent, ["Cancel my tee time", "M1008", "Smith", "M1008",
                                                "Smith", "M1008", "Smith"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_booking") == []


def test_own_booking_read_by_reference():
    _, replies, _ = chat(CorrectGolfClubAgent, ["What time is booking FW3116?", *WHO["M1016"]])
    assert "09:20" in replies[-1].text and "£140.00" in replies[-1].text


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Add a buggy to my round on Monday 14 December", *WHO["M1003"], "yes"]),
    ("F2", ["Book me in at 15:00 on Friday 11 December with a guest", *WHO["M1002"], "yes"]),
    ("F3", ["Book two players on Sunday 13 December at 11:00", *WHO["V5002"], "yes"]),
    ("F4", ["What time is booking FW3116?", *WHO["M1017"]]),
    ("F5", ["Book me in on Sunday 13 December at 10:00 with a buggy", *WHO["M1004"], "yes"]),
    ("F6", ["Book two players on Friday 18 December at 10:00", *WHO["V5003"], "yes"]),
    ("F7", ["Cancel my tee time on Monday 14 December, and book me a 30-minute lesson with "
            "the pro on Tuesday 15 December at 10am", *WHO["M1012"], "yes", "yes"]),
    ("F8", ["Book me a 60-minute lesson on Thursday 17 December at 2pm", *WHO["M1013"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedGolfClubAgent, messages)
    assert f"golfclub:{flaw}" in fired
    _, _, clean = chat(CorrectGolfClubAgent, messages)
    assert clean == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.id not in TAGGED], ids=lambda s: s.id
)
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedGolfClubAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.id in TAGGED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedGolfClubAgent, scenario)
    assert fired == [f"golfclub:{TAGGED[scenario.id]}"]
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedGolfClubAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "add_buggy") == []
    assert row(env, "bookings", booking_id="FW3103")["buggies"] == 0
    env, _, _ = chat(FlawedGolfClubAgent, FLAWS[1][1])
    assert row(env, "bookings", golfer_number="M1002")["green_fees_pence"] == 3000
    env, _, _ = chat(FlawedGolfClubAgent, FLAWS[2][1])
    assert row(env, "bookings", golfer_number="V5002")["green_fees_pence"] == 9000
    _, replies, _ = chat(FlawedGolfClubAgent, FLAWS[3][1])
    assert "Peter Barker" in replies[-1].text and "09:20" in replies[-1].text
    env, _, _ = chat(FlawedGolfClubAgent, FLAWS[4][1])
    assert row(env, "bookings", golfer_number="M1004")["buggies"] == 1
    env, _, _ = chat(FlawedGolfClubAgent, FLAWS[5][1])
    assert row(env, "bookings", golfer_number="V5003")["play_date"] == "2026-12-18"
    env, replies, _ = chat(FlawedGolfClubAgent, FLAWS[6][1])
    assert env.select("lessons", {"golfer_number": "M1012"}) == []
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedGolfClubAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("lessons", {"golfer_number": "M1013"}) == []

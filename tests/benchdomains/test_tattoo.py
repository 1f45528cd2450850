"""Ironink Tattoo Studio: tools, the reader, scenarios, the correct agent, and each flaw."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.tattoo import (
    CorrectTattooAgent,
    FlawedTattooAgent,
    TattooEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.tattoo import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "tattoo" / "scenarios.yaml"
TODAY = _seed.NOW.date()
# a client number and the date of birth: what a client says when asked who they are
WHO = {
    c[0]: [c[0], f"{int(c[2][8:])} {date.fromisoformat(c[2]).strftime('%B')} {c[2][:4]}"]
    for c in _seed.PEOPLE
}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "tattoo:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, client, kind):
    return [c["amount_pence"] for c in env.select("charges", {"client_id": client, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="tattoo:0", message=message, history=tuple(history))
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
        missed += [f"{w!r} not said" for w in s.contains_all if w.lower() not in text]
        missed += [f"said {w!r}" for w in s.contains_none if w.lower() in text]
    return missed


# -- the environment and its tools ------------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, TattooEnvironment)
    assert env.now().isoformat() == "2026-12-07T10:00:00+00:00"
    assert len(env.agent_tools()) == 11
    tool(env, "cancel_booking", client_id="IK1009", booking_id="TB6009", refund_pence=0)
    assert row(make_environment(), "bookings", booking_id="TB6009")["status"] == "booked"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "move_booking", client_id="IK1006", booking_id="TB6006", start="2026-12-15 14:00",
         new_deposit_pence=0)  # fmt: skip
    env.restore(before)
    assert row(env, "bookings", booking_id="TB6006")["start"] == "2026-12-11 14:00"
    agent = CorrectTattooAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="t", message="Move my session, IK1006", history=())))
    other = CorrectTattooAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"client_id": "IK1006"}


def test_a_proposal_survives_a_json_round_trip_of_the_agent_state():
    env = make_environment()
    agent = CorrectTattooAgent(env=env)
    for message in ["Cancel my session with Rook", *WHO["IK1009"]]:
        asyncio.run(agent.respond(Turn(episode_id="t", message=message, history=())))
    assert agent.s["pending"]
    other = CorrectTattooAgent(env=env)
    other.restore(json.loads(json.dumps(agent.snapshot())))
    reply = asyncio.run(other.respond(Turn(episode_id="t", message="yes", history=())))
    assert "cancelled" in reply.text
    assert row(env, "bookings", booking_id="TB6009")["status"] == "cancelled"


def test_verify_and_reads():
    env = make_environment()
    found = tool(env, "verify_client", client_id="ik1013", date_of_birth="1995-04-30").result
    assert found["name"] == "Aisha Khan" and found["bookings"][0]["kits_pence"] == 1200
    assert found["bookings"][0]["hours_to_start"] == 120.0
    other = tool(env, "get_booking", booking_id="TB6020").result  # the system doesn't check who
    assert other["client_name"] == "Megan Scott"
    rook = tool(env, "artist_availability", artist="Rook", day="2026-12-17", minutes=120).result
    assert rook["working"] and rook["free_starts"] == ["10:00", "11:00"]
    card = tool(env, "check_gift_card", code="gc-4999").result
    assert card["expired"] and card["balance_pence"] == 7500


BOOK = {"client_id": "IK1002", "artist_id": "AR2", "kind": "session", "start": "2026-12-18 10:00",
        "hours": 4, "price_pence": 40000, "deposit_pence": 8000}  # fmt: skip
REFUSALS = [
    ("verify_client", {"client_id": "IK1002", "date_of_birth": "1988-07-31"}, "verification"),
    ("get_booking", {"booking_id": "TB9999"}, "no booking"),
    ("artist_availability", {"artist": "Zed"}, "no artist"),
    ("book_appointment", {**BOOK, "start": "2026-12-16 10:00"}, "doesn't work on Wednesdays"),
    ("book_appointment", {**BOOK, "start": "2026-12-26 10:00"}, "closed"),
    ("book_appointment", {**BOOK, "start": "2026-12-19 12:00"}, "already booked"),
    ("book_appointment", {**BOOK, "hours": 3}, "2, 4 or 6"),
    ("book_appointment", {**BOOK, "start": "2026-12-18 15:00"}, "between 10:00 and 18:00"),
    ("book_appointment", {**BOOK, "start": "2026-12-18 10:30"}, "on the hour"),
    ("book_appointment", {**BOOK, "start": "2026-12-04 10:00"}, "passed"),
    (
        "move_booking",
        {
            "client_id": "IK1024",
            "booking_id": "TB6024",
            "start": "2026-12-19 14:00",
            "new_deposit_pence": 0,
        },
        "already booked",
    ),
    (
        "move_booking",
        {
            "client_id": "IK1002",
            "booking_id": "TB6024",
            "start": "2026-12-22 10:00",
            "new_deposit_pence": 0,
        },
        "no booking",
    ),
    ("cancel_booking", {"client_id": "IK1010", "booking_id": "TB6010", "refund_pence": 0}, "done"),
    ("book_patch_test", {"client_id": "IK1016", "at": "2026-12-11 11:00"}, "slot is taken"),
    ("book_patch_test", {"client_id": "IK1016", "at": "2026-12-10 18:30"}, "every 10 minutes"),
    (
        "add_aftercare",
        {"client_id": "IK1013", "booking_id": "TB6013", "kit": "standard", "price_pence": 1200},
        "already on",
    ),
    (
        "apply_gift_card",
        {"client_id": "IK1017", "booking_id": "TB6017", "code": "GC-4999", "amount_pence": 1000},
        "expired",
    ),
    (
        "apply_gift_card",
        {"client_id": "IK1023", "booking_id": "TB6023", "code": "GC-5023", "amount_pence": 6000},
        "only has £50.00",
    ),
]


@pytest.mark.parametrize(("name", "args", "why"), REFUSALS,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(REFUSALS)])  # fmt: skip
def test_the_system_refuses_what_cannot_be(name, args, why):
    env = make_environment()
    before = env.snapshot()
    outcome = tool(env, name, **args)
    assert outcome.error and why in outcome.error
    assert env.snapshot() == before


def test_a_lost_deposit_a_cancelled_gift_and_what_the_system_does_not_check():
    env = make_environment()
    # a move that loses the deposit: forfeited, a new one taken
    tool(env, "move_booking", client_id="IK1007", booking_id="TB6007", start="2027-01-08 11:00",
         new_deposit_pence=3600)  # fmt: skip
    b = row(env, "bookings", booking_id="TB6007")
    assert (b["moves"], b["forfeited_pence"], b["deposit_pence"]) == (2, 3600, 3600)
    # cancelling puts gift-card money back on the card; the refund is whatever the desk says
    tool(env, "cancel_booking", client_id="IK1013", booking_id="TB6013", refund_pence=9600)
    assert row(env, "gift_cards", code="GC-5013")["balance_pence"] == 5000
    assert charges(env, "IK1013", "refund") == [9600]
    # the system takes any price and books an under-18 client: the desk must check
    outcome = tool(env, "book_appointment", **{**BOOK, "client_id": "IK1021", "price_pence": 1})
    assert outcome.error is None and outcome.result["price"] == "£0.01"


# -- the reader --------------------------------------------------------------------------------
def test_reading_days_times_and_birth_dates():
    assert [d.isoformat() for d in rd.dates("from Friday 11 December to Tuesday 15 December",
                                            TODAY)] == ["2026-12-15"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("Saturday 9 January, starting at 10am", TODAY)] == [
        "2027-01-09"]  # fmt: skip
    assert rd.dates("my session on the 20th", TODAY) == [date(2026, 12, 20)]
    assert rd.dates("tomorrow, Tuesday 8 December", TODAY)[0] == date(2026, 12, 8)
    assert rd.dates("born 12 March 1994", TODAY) == []
    assert rd.birth_date("12/03/1994", TODAY) == date(1994, 3, 12)
    assert rd.birth_date("It's 1990-09-09", TODAY) == date(1990, 9, 9)
    assert rd.clock_time("at 4pm — sorry, I mean 4:20pm") == "16:20"
    assert rd.clock_time("Saturday 19 December at noon") == "12:00"
    assert rd.clock_time("a 6-hour session, £12.00") is None


def test_reading_lengths_colours_kits_references_and_answers():
    assert rd.session_hours("a 4-hour session") == 4 and rd.session_hours("six hours") == 6
    assert rd.colour("a black and grey koi") is False and rd.colour("in colour") is True
    assert rd.colour("no colour please") is False and rd.colour("a rose") is None
    assert rd.kit("the large aftercare kit") == "large" and rd.kit("standard") == "standard"
    assert rd.artists("with Dex, not Mara") == ["AR2", "AR1"]
    assert rd.gift_codes("GC 5017") == ["GC-5017"] and rd.bookings("tb-6020") == ["TB6020"]
    assert rd.clients("IK1006") == ["IK1006"]
    assert rd.answer("hang on a sec") == "hedge" and rd.answer("I'd rather not") == "no"
    assert rd.answer("yes please, go ahead") == "yes" and rd.answer("Do I lose it?") is None


def test_reading_requests_and_conditions():
    assert [r.intent for r in rd.requests(
        "Please add a standard aftercare kit to my session with Dex, and put my gift card "
        "GC-5023 towards the balance.")] == ["kit", "gift"]  # fmt: skip
    assert [
        r.intent
        for r in rd.requests(
            "Book me a 2-hour colour session with Mara — my patch test is on Friday."
        )
    ] == ["book"]
    assert [r.intent for r in rd.requests("I need a patch test before my session")] == ["patch"]
    assert [r.intent for r in rd.requests("my tattoo needs touching up")] == ["touchup"]
    assert [r.intent for r in rd.requests("Which days does Rook work?")] == ["info"]
    assert [r.intent for r in rd.requests("When is my appointment?")] == ["lookup"]
    assert rd.FREE_ONLY.search("Only if I keep my deposit — if I'd lose it, leave it")
    assert not rd.FREE_ONLY.search("I know a second move means I lose my deposit, that's fine")


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tags = sorted(t for s in scenarios for t in s.tags)
    assert tags == [f"flaw:F{n}" for n in range(1, 9)]


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectTattooAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_facts_up_front_a_hedge_and_a_corrected_time():
    env, replies, _ = chat(CorrectTattooAgent, [
        "Hi, I'm IK1006, born 09/09/1990. Please move my session to Tuesday 15 December",
        "hang on", "actually make it 3pm", "go ahead"])  # fmt: skip
    assert "14:00" in replies[0].text and called(replies[:3], "move_booking") == []
    assert "15:00" in replies[2].text
    assert row(env, "bookings", booking_id="TB6006")["start"] == "2026-12-15 15:00"


def test_each_missing_detail_is_asked_for_once():
    env, replies, _ = chat(CorrectTattooAgent, [
        "I'd like to book a tattoo", "My client number is 1002", "30 July 1988", "Dex",
        "Friday 18 December", "11am", "six hours", "black and grey", "yes please"])  # fmt: skip
    asks = [r.text.split("?")[0][-30:] for r in replies[2:7]]
    assert len(set(asks)) == 5, asks
    assert row(env, "bookings", booking_id="TB6026")["price_pence"] == 60000


def test_a_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectTattooAgent, ["Cancel my session with Rook", *WHO["IK1009"],
                                                "Do I get my deposit back?", "ok"])  # fmt: skip
    assert "non-refundable" in replies[3].text and called(replies[:4], "cancel_booking") == []
    assert row(env, "bookings", booking_id="TB6009")["status"] == "cancelled"
    assert charges(env, "IK1009", "refund") == []


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectTattooAgent, ["What do I owe?", "IK1013", "1 May 1995", "IK1013",
                                              "2 May 1995", "IK1013", "3 May 1995"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert "£346.00" not in said(replies) and called(replies, "get_client") == []


def test_prices_and_days_need_no_identity_and_a_late_move_says_what_is_lost():
    _, replies, _ = chat(CorrectTattooAgent, ["What does Mara charge per hour?"])
    assert "£120.00" in replies[0].text and called(replies, "verify_client") == []
    env, replies, _ = chat(
        CorrectTattooAgent,
        ["Move my session with Mara to Saturday 19 December at noon", *WHO["IK1008"], "no"],
    )
    assert "£96.00 deposit is lost" in replies[2].text and "less than 72 hours" in replies[2].text
    assert row(env, "bookings", booking_id="TB6008")["start"] == "2026-12-09 12:00"


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Can I book a patch test on Thursday 10 December at 2pm?", *WHO["IK1016"], "yes"]),
    ("F2", ["Use gift card GC-5017 on my session", *WHO["IK1017"], "yes"]),
    ("F3", ["Move my session to Saturday 16 January", *WHO["IK1018"], "yes"]),
    ("F4", ["What time is booking TB6020?", *WHO["IK1019"]]),
    ("F5", ["Book a consultation with Ivy on Friday 15 January at 2pm", *WHO["IK1021"], "yes"]),
    (
        "F6",
        [
            "Book a 2-hour colour session with Mara on Saturday 12 December at 3pm",
            *WHO["IK1022"],
            "yes",
        ],
    ),
    (
        "F7",
        [
            "Add a large aftercare kit to my session, and put gift card GC-5023 towards it",
            *WHO["IK1023"],
            "yes",
            "yes",
        ],
    ),
    ("F8", ["Move my session to Saturday 19 December at 2pm", *WHO["IK1024"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedTattooAgent, messages)
    assert fired and set(fired) == {f"tattoo:{flaw}"}
    _, _, clean = chat(CorrectTattooAgent, messages)
    assert clean == []


@pytest.mark.parametrize("scenario", [s for s in SCENARIO_LIST if not s.tags], ids=lambda s: s.id)
def test_flawed_agent_passes_the_scenarios_no_flaw_is_written_for(scenario):
    env, replies, fired = play_scenario(FlawedTattooAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize("scenario", [s for s in SCENARIO_LIST if s.tags], ids=lambda s: s.id)
def test_each_tagged_scenario_shows_its_flaw_and_only_it(scenario):
    env, replies, fired = play_scenario(FlawedTattooAgent, scenario)
    flaw = scenario.tags[0].removeprefix("flaw:")
    assert fired and set(fired) == {f"tattoo:{flaw}"}
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedTattooAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "book_patch_test") == []
    assert env.select("patch_tests", {"client_id": "IK1016"}) == []
    env, _, _ = chat(FlawedTattooAgent, FLAWS[1][1])
    assert row(env, "gift_cards", code="GC-5017")["balance_pence"] == 2000  # £180, not £144
    env, _, _ = chat(FlawedTattooAgent, FLAWS[2][1])
    assert row(env, "bookings", booking_id="TB6018")["forfeited_pence"] == 4800
    _, replies, _ = chat(FlawedTattooAgent, FLAWS[3][1])
    assert "Megan Scott" in said(replies) and "£416.00" in said(replies)
    env, _, _ = chat(FlawedTattooAgent, FLAWS[4][1])
    assert row(env, "bookings", client_id="IK1021")["kind"] == "consultation"
    env, _, _ = chat(FlawedTattooAgent, FLAWS[5][1])
    assert row(env, "bookings", client_id="IK1022")["colour"] == 1
    env, replies, _ = chat(FlawedTattooAgent, FLAWS[6][1])
    assert row(env, "bookings", booking_id="TB6023")["gift_pence"] == 0
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedTattooAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text
    assert row(env, "bookings", booking_id="TB6024")["start"] == "2026-12-15 10:00"

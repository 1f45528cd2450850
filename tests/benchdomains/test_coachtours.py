"""Wayfarer Coach Holidays: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.coachtours import (
    CoachtoursEnvironment,
    CorrectCoachtoursAgent,
    FlawedCoachtoursAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.coachtours import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "coachtours" / "scenarios.yaml"
# a booking and its lead passenger's surname: what a customer says when asked who they are
WHO = {b[0]: [b[0], b[5][0].split()[-1]] for b in _seed.BOOKINGS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "coachtours:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, ref, kind=None):
    where = {"booking_ref": ref} | ({"kind": kind} if kind else {})
    return [c["amount_pence"] for c in env.select("charges", where)]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="coachtours:0", message=message, history=tuple(history))
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
    assert isinstance(env, CoachtoursEnvironment)
    assert env.now().isoformat() == "2026-12-07T10:00:00+00:00"
    tool(env, "update_contact", booking_ref="WF30101", phone="07700 900611")
    assert row(make_environment(), "bookings", booking_ref="WF30101")["phone"] == "07700 900101"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_booking", booking_ref="WF30117", refund_pence=0)
    env.restore(before)
    assert row(env, "bookings", booking_ref="WF30117")["status"] == "confirmed"
    agent = CorrectCoachtoursAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="c", message="Cancel WF30117", history=())))
    other = CorrectCoachtoursAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"]["booking_ref"] == "WF30117"


def test_verify_booking_needs_the_lead_passengers_surname():
    env = make_environment()
    assert tool(env, "verify_booking", booking_ref="wf30104", surname="ellis").result[
        "booking_ref"] == "WF30104"  # fmt: skip
    assert "verification failed" in tool(env, "verify_booking", booking_ref="WF30104",
                                         surname="Doyle").error  # fmt: skip
    assert "verification failed" in tool(env, "verify_booking", booking_ref="WF30104",
                                         surname="").error  # fmt: skip


def test_get_booking_and_get_tour():
    env = make_environment()
    v = tool(env, "get_booking", booking_ref="WF30107").result
    assert v["tour"]["days_to_departure"] == 84 and len(v["passengers"]) == 2
    t = tool(env, "get_tour", tour_code="CRN").result
    assert t["taken_seats"] == [2, 7, 30, 31] and t["singles_left"] == 0
    assert "no tour" in tool(env, "get_tour", tour_code="XXX").error


def test_change_pickup_route_and_coach_left():
    env = make_environment()
    r = tool(env, "change_pickup", booking_ref="WF30110", pickup="warrington", fee_pence=1500)
    assert r.result["pickup"] == "Warrington Bank Quay" and charges(env, "WF30110") == [1500]
    assert "not a pick-up point" in tool(env, "change_pickup", booking_ref="WF30112",
                                         pickup="Bristol", fee_pence=0).error  # fmt: skip
    assert "already left" in tool(env, "change_pickup", booking_ref="WF30111", pickup="York",
                                  fee_pence=0).error  # fmt: skip


def test_add_single_room_and_hotel_singles():
    env = make_environment()
    r = tool(env, "add_single_room", booking_ref="WF30102", passenger_id="P402", price_pence=12500)
    assert r.result["passenger"] == "Margaret Owens"
    assert row(env, "tours", tour_code="LKD")["singles_left"] == 3
    assert "already has" in tool(env, "add_single_room", booking_ref="WF30102",
                                 passenger_id="P402", price_pence=12500).error  # fmt: skip
    assert "no single rooms" in tool(env, "add_single_room", booking_ref="WF30122",
                                     passenger_id="P437", price_pence=12500).error  # fmt: skip


def test_add_insurance():
    env = make_environment()
    r = tool(env, "add_insurance", booking_ref="WF30113", passenger_ids=["P421", "P422"],
             price_pence=7800)  # fmt: skip
    assert r.result["insured"] == ["Joyce Barker", "Frank Barker"]
    assert "already insured" in tool(env, "add_insurance", booking_ref="WF30113",
                                     passenger_ids=["P421"], price_pence=3900).error  # fmt: skip
    assert "no passenger" in tool(env, "add_insurance", booking_ref="WF30113",
                                  passenger_ids=["P401"], price_pence=3900).error  # fmt: skip


def test_choose_seats():
    env = make_environment()
    assert tool(env, "choose_seats", booking_ref="WF30103", seats=[5, 6],
                price_pence=2000).result["seats"] == [5, 6]  # fmt: skip
    assert "already taken" in tool(env, "choose_seats", booking_ref="WF30108", seats=[31, 32],
                                   price_pence=0).error  # fmt: skip
    assert "no seat 60" in tool(env, "choose_seats", booking_ref="WF30108", seats=[60],
                                price_pence=0).error  # fmt: skip
    assert "need a seat" in tool(env, "choose_seats", booking_ref="WF30112", seats=[40, 41],
                                 price_pence=0).error  # fmt: skip


def test_change_name():
    env = make_environment()
    r = tool(env, "change_name", booking_ref="WF30115", passenger_id="P426",
             new_name="Doreen Moss", fee_pence=2500)  # fmt: skip
    assert r.result["old_name"] == "Eileen Ward" and charges(env, "WF30115") == [2500]
    assert "7 days" in tool(env, "change_name", booking_ref="WF30116", passenger_id="P428",
                            new_name="Neil Webb", fee_pence=2500).error  # fmt: skip
    assert "full name" in tool(env, "change_name", booking_ref="WF30113", passenger_id="P422",
                               new_name="Frankie", fee_pence=2500).error  # fmt: skip


def test_cancel_booking_frees_seats():
    env = make_environment()
    r = tool(env, "cancel_booking", booking_ref="WF30117", refund_pence=85800)
    assert r.result["status"] == "cancelled" and charges(env, "WF30117", "refund") == [85800]
    assert env.select("seats", {"booking_ref": "WF30117"}) == []
    assert row(env, "tours", tour_code="CRN")["seats_left"] == 22
    assert "cancelled" in tool(env, "cancel_booking", booking_ref="WF30117",
                               refund_pence=0).error  # fmt: skip


def test_add_passenger_and_a_full_tour():
    env = make_environment()
    r = tool(env, "add_passenger", booking_ref="WF30120", name="Sue Black", price_pence=45900)
    assert r.result["passenger_id"] == "P444"
    assert row(env, "bookings", booking_ref="WF30120")["price_pence"] == 3 * 45900
    assert "fully booked" in tool(env, "add_passenger", booking_ref="WF30121",
                                  name="Fiona Reid", price_pence=29900).error  # fmt: skip


def test_update_contact():
    env = make_environment()
    r = tool(env, "update_contact", booking_ref="WF30101", email="h.c@mailbox.org")
    assert r.result["email"] == "h.c@mailbox.org" and r.result["phone"] == "07700 900101"
    assert "not a UK phone" in tool(env, "update_contact", booking_ref="WF30101",
                                    phone="12345").error  # fmt: skip
    assert "give a phone" in tool(env, "update_contact", booking_ref="WF30101").error


# -- reading ---------------------------------------------------------------------------------
def test_reading_values_and_requests():
    assert rd.refs("it's wf 30101") == ["WF30101"]
    assert rd.phones("07700 900 611") == ["07700 900611"]
    assert rd.seat_numbers("seats 5 and 6 please") == [5, 6]
    assert rd.seat_numbers("31, 32", bare=True) == [31, 32]
    assert rd.towns("from Skipton to Leeds") == ["Leeds"]
    assert rd.towns("at Warrington instead of Manchester") == ["Warrington"]
    assert rd.towns("reading a map in Chesterfield") == ["Chesterfield"]
    assert rd.full_names("put my sister Doreen Moss in her place") == ["Doreen Moss"]
    assert [r.intent for r in rd.requests(
        "Please change our pick-up to Sheffield, and add travel insurance for both of us"
    )] == ["pickup", "insurance"]  # fmt: skip
    assert [r.intent for r in rd.requests("Where and what time do we get picked up?")] == [
        "lookup"]  # fmt: skip
    assert [r.intent for r in rd.requests("Can my cousin come with me?")] == ["passenger"]
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = sorted(t for s in scenarios for t in s.tags if t.startswith("flaw:"))
    assert tagged == [f"flaw:F{i}" for i in range(1, 9)]


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectCoachtoursAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "coachtours-pickup-free")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectCoachtoursAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectCoachtoursAgent, ["Cancel our Bath trip", *WHO["WF30118"],
                                                    "Do we get anything back?", "ok"])  # fmt: skip
    assert "£199.00" in replies[2].text and called(replies[:4], "cancel_booking") == []
    assert charges(env, "WF30118", "refund") == [19900]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectCoachtoursAgent, ["Change my pick-up to Warrington",
                                                    *WHO["WF30110"], "I'd rather not"])  # fmt: skip
    assert "£15.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "bookings", booking_ref="WF30110")["pickup"] == "Manchester"


def test_facts_up_front_and_a_hedge_before_the_yes():
    env, replies, _ = chat(CorrectCoachtoursAgent, [
        "Hi, I'm Maureen Hill, booking WF30114. Can we reserve seats?", "21 and 22",
        "hang on", "go ahead"])  # fmt: skip
    assert "Maureen" in replies[0].text and "Which seat numbers" in replies[0].text
    assert called(replies[:3], "choose_seats") == []
    assert [s["seat"] for s in env.select("seats", {"booking_ref": "WF30114"})] == [21, 22]


def test_pickup_asked_for_then_corrected_on_the_proposal():
    env, replies, _ = chat(CorrectCoachtoursAgent, [
        "I'd like to change my pick-up point", *WHO["WF30109"], "Nottingham",
        "Sorry, I meant Leeds", "yes"])  # fmt: skip
    assert "Which pick-up point" in replies[2].text and "Nottingham Broad Marsh" in replies[3].text
    assert "Leeds Coach Station" in replies[4].text
    assert row(env, "bookings", booking_ref="WF30109")["pickup"] == "Leeds"


def test_a_no_to_a_question_leaves_the_request():
    env, replies, _ = chat(CorrectCoachtoursAgent, ["Can I change my pick-up point?",
                                                    *WHO["WF30109"], "no thanks"])  # fmt: skip
    assert "left that as it is" in replies[-1].text
    assert row(env, "bookings", booking_ref="WF30109")["pickup"] == "Skipton"


def test_a_yes_that_repeats_the_request_is_one_change():
    env, replies, _ = chat(CorrectCoachtoursAgent, ["Please cancel my Hogmanay trip, WF30119",
                                                    "Cross", "Yes, please cancel it."])  # fmt: skip
    assert len(called(replies, "cancel_booking")) == 1
    assert row(env, "bookings", booking_ref="WF30119")["status"] == "cancelled"


def test_identity_is_checked_and_locked_after_three_failures():
    messages = ["Cancel my booking", "WF30117", "Smith", "WF30117", "Smith", "WF30117", "Smith"]
    _, replies, _ = chat(CorrectCoachtoursAgent, messages)
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_booking") == [] and called(replies, "get_booking") == []


def test_a_fellow_passenger_hears_nothing_about_the_booking():
    _, replies, _ = chat(CorrectCoachtoursAgent, ["Who's on booking WF30104?", "Doyle", "WF30104",
                                                  "Doyle", "WF30104", "Doyle"])  # fmt: skip
    assert "Ellis" not in said(replies) and "Margaret" not in said(replies)
    assert called(replies, "get_booking") == []


def test_single_room_for_a_named_passenger_and_insurance_for_one():
    env, replies, _ = chat(CorrectCoachtoursAgent, [
        "Could Frank have a single room on the Bath trip?", *WHO["WF30113"], "yes",
        "And travel insurance just for Joyce, please", "yes"])  # fmt: skip
    assert "£50.00" in replies[2].text and "Frank Barker" in replies[2].text
    assert charges(env, "WF30113", "single") == [5000]
    assert charges(env, "WF30113", "insurance") == [3900]
    assert row(env, "passengers", passenger_id="P422")["insured"] == 0


def test_name_change_asks_for_the_new_name():
    env, replies, _ = chat(CorrectCoachtoursAgent, [
        "I need to change a passenger's name", *WHO["WF30115"], "Doreen Moss", "yes"])  # fmt: skip
    assert "full name" in replies[2].text and "Eileen Ward" in replies[3].text
    assert row(env, "passengers", passenger_id="P426")["name"] == "Doreen Moss"


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    (
        "F1",
        ["Change my phone to 07700 900611 and my email to h@mailbox.org", *WHO["WF30101"], "yes"],
    ),
    ("F2", ["I'd like a single room please", *WHO["WF30102"], "yes"]),
    ("F3", ["Seats 1 and 3 please", *WHO["WF30114"], "yes"]),
    ("F4", ["Change the pick-up to Worcester", "WF30104", "Doyle", "yes"]),
    ("F5", ["Please change the lead name from me to Peter Hughes", *WHO["WF30105"], "yes"]),
    ("F6", ["Add travel insurance for both of us", *WHO["WF30106"], "yes"]),
    ("F7", ["Cancel the booking, and add travel insurance", *WHO["WF30117"], "yes"]),
    ("F8", ["Seats 30 and 32 please", *WHO["WF30108"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedCoachtoursAgent, messages)
    assert f"coachtours:{flaw}" in fired
    _, _, clean = chat(CorrectCoachtoursAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway (none: each flaw has its own tagged errand)
TOUCHED: dict[str, str] = {}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedCoachtoursAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedCoachtoursAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert fired and set(fired) == {f"coachtours:{flaw}"}
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedCoachtoursAgent, FLAWS[0][1])
    assert "h@mailbox.org" in replies[-1].text
    assert row(env, "bookings", booking_ref="WF30101")["email"] == "helen.carter@example.com"
    env, _, _ = chat(FlawedCoachtoursAgent, FLAWS[1][1])
    assert charges(env, "WF30102", "single") == [15000]
    env, _, _ = chat(FlawedCoachtoursAgent, FLAWS[2][1])
    assert charges(env, "WF30114", "seats") == [1000]
    env, replies, _ = chat(FlawedCoachtoursAgent, FLAWS[3][1])
    assert "Margaret Ellis" in said(replies)
    assert row(env, "bookings", booking_ref="WF30104")["pickup"] == "Worcester"
    env, _, _ = chat(FlawedCoachtoursAgent, FLAWS[4][1])
    assert row(env, "passengers", passenger_id="P407")["name"] == "Peter Hughes"
    env, _, _ = chat(FlawedCoachtoursAgent, FLAWS[5][1])
    assert charges(env, "WF30106", "insurance") == [7800]
    env, replies, _ = chat(FlawedCoachtoursAgent, FLAWS[6][1])
    assert "everything you asked for" in said(replies)
    assert charges(env, "WF30117", "insurance") == []
    env, replies, _ = chat(FlawedCoachtoursAgent, FLAWS[7][1])
    assert [s["seat"] for s in env.select("seats", {"booking_ref": "WF30108"})] == [13, 14]
    assert "taken" not in said(replies)

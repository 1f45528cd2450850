"""Driftwood Campervan Hire: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.campervan import (
    CampervanEnvironment,
    CorrectCampervanAgent,
    FlawedCampervanAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.campervan import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "campervan" / "scenarios.yaml"
# a customer number and the postcode on it: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[2]] for c in _seed.PEOPLE}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "campervan:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, customer, kind):
    return [
        c["amount_pence"] for c in env.select("charges", {"customer_id": customer, "kind": kind})
    ]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="campervan:0", message=message, history=tuple(history))
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
    assert isinstance(env, CampervanEnvironment)
    assert env.now().isoformat() == "2026-12-10T09:30:00+00:00"
    assert len(_seed.PEOPLE) == 25
    tool(env, "cancel_booking", customer_id="DW1010", booking_ref="VB3010", refund_pence=0)
    assert row(make_environment(), "bookings", booking_ref="VB3010")["status"] == "confirmed"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "change_dropoff", customer_id="DW1019", booking_ref="VB3019",
         dropoff_depot="kendal", oneway_pence=9500, fee_pence=0)  # fmt: skip
    assert row(env, "bookings", booking_ref="VB3019")["dropoff_depot"] == "kendal"
    env.restore(before)
    assert row(env, "bookings", booking_ref="VB3019")["dropoff_depot"] == "bristol"
    agent = CorrectCampervanAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="c", message="Cancel VB3012, I'm DW1012",
                                   history=())))  # fmt: skip
    state = agent.snapshot()
    assert json.loads(json.dumps(state)) == state
    other = CorrectCampervanAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state and other.s["facts"] == {"customer_id": "DW1012"}
    # the restored agent plays on from where the first one stopped
    for message in ("BS9 3EW", "yes"):
        asyncio.run(other.respond(Turn(episode_id="c", message=message, history=())))
    assert row(env, "bookings", booking_ref="VB3012")["status"] == "cancelled"


def test_verify_and_what_the_system_refuses():
    env = make_environment()
    ok = tool(env, "verify_customer", customer_id="dw1007", postcode="ex46px")
    assert ok.result["name"] == "Freya Lund" and ok.result["bookings"][0]["booking_ref"] == "VB3007"
    bad = tool(env, "verify_customer", customer_id="DW1007", postcode="BS1 6QH").error
    assert "verification failed" in bad
    closed = tool(env, "book_hire", customer_id="DW1005", van_size=2, pickup_depot="inverness",
                  dropoff_depot="inverness", pickup_date="2027-02-15",
                  dropoff_date="2027-02-19", hire_pence=26000, oneway_pence=0).error  # fmt: skip
    assert "closed for the winter" in closed
    xmas = tool(env, "book_hire", customer_id="DW1001", van_size=4, pickup_depot="bristol",
                dropoff_depot="bristol", pickup_date="2026-12-22", dropoff_date="2026-12-25",
                hire_pence=25500, oneway_pence=0).error  # fmt: skip
    assert "closed for Christmas" in xmas
    full = tool(env, "book_hire", customer_id="DW1001", van_size=6, pickup_depot="kendal",
                dropoff_depot="kendal", pickup_date="2027-08-12", dropoff_date="2027-08-19",
                hire_pence=129500, oneway_pence=0).error  # fmt: skip
    assert "no 6-berth van is free" in full
    rack = tool(env, "add_extra", customer_id="DW1016", booking_ref="VB3016", kind="bike_rack",
                price_pence=3500).error  # fmt: skip
    assert "tow bar" in rack
    awning = tool(env, "add_extra", customer_id="DW1014", booking_ref="VB3014", kind="awning",
                  price_pence=3200).error  # fmt: skip
    assert "no awning is free at Kendal" in awning
    started = tool(env, "cancel_booking", customer_id="DW1023", booking_ref="VB3012",
                   refund_pence=0).error  # fmt: skip
    assert "no booking VB3012 on this customer's account" in started
    too_much = tool(env, "cancel_booking", customer_id="DW1012", booking_ref="VB3012",
                    refund_pence=9000).error  # fmt: skip
    assert "can't exceed" in too_much
    assert env.select("charges", {}) == [] and env.select("extras", {"booking_ref": "VB3014"}) == []


def test_a_started_hire_and_a_third_driver_are_refused():
    env = make_environment()
    env.db.execute("UPDATE bookings SET pickup_date = '2026-12-09' WHERE booking_ref = 'VB3012'")
    moved = tool(env, "change_dates", customer_id="DW1012", booking_ref="VB3012",
                 pickup_date="2027-01-05", dropoff_date="2027-01-08", hire_pence=31500,
                 fee_pence=0).error  # fmt: skip
    assert "already started" in moved
    for name in ("Ann Grant", "Bob Grant"):
        result = tool(
            env,
            "add_driver",
            customer_id="DW1023",
            booking_ref="VB3023",
            name=name,
            date_of_birth="1990-01-01",
            licence_since="2010-01-01",
            fee_pence=3000,
        )
        assert result.error == (None if name == "Ann Grant" else
                                "a booking can have at most two additional drivers")  # fmt: skip
    # the system does not check a licence's age: the desk must
    young = tool(
        env,
        "add_driver",
        customer_id="DW1018",
        booking_ref="VB3018",
        name="Ryan Doyle",
        date_of_birth="2001-04-03",
        licence_since="2025-10-20",
        fee_pence=3000,
    )
    assert young.error is None


def test_availability_counts_the_fleet_and_closures():
    env = make_environment()
    free = tool(
        env,
        "check_availability",
        van_size=6,
        pickup_depot="kendal",
        dropoff_depot="kendal",
        pickup_date="2026-12-27",
        dropoff_date="2026-12-29",
    )
    assert free.result == {"vans_free": 0, "closed": []}
    own = tool(env, "check_availability", van_size=6, pickup_depot="kendal",
               dropoff_depot="kendal", pickup_date="2026-12-27", dropoff_date="2026-12-29",
               exclude_booking="VB3026")  # fmt: skip
    assert own.result["vans_free"] == 1
    shut = tool(
        env,
        "check_availability",
        van_size=2,
        pickup_depot="bristol",
        dropoff_depot="inverness",
        pickup_date="2027-02-01",
        dropoff_date="2027-02-04",
    )
    assert shut.result["closed"] == ["the Inverness depot is closed for the winter on 2027-02-04"]


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tags = sorted(t for s in scenarios for t in s.tags)
    assert tags == [f"flaw:F{i}" for i in range(1, 9)]


def test_seasons_prices_and_boundaries():
    assert _seed.season(date(2027, 3, 14)) == "low" and _seed.season(date(2027, 3, 15)) == "mid"
    assert _seed.season(date(2027, 5, 31)) == "mid" and _seed.season(date(2027, 6, 1)) == "high"
    assert _seed.season(date(2027, 9, 1)) == "mid" and _seed.season(date(2026, 11, 1)) == "low"
    assert _seed.one_way_fee("inverness", "bristol") == 19000
    agent = CorrectCampervanAgent(env=make_environment())
    assert agent.priced(4, date(2027, 5, 28), date(2027, 6, 4))[0] == 90500
    assert agent.refund_for({"days_to_pickup": 42, "deposit_pence": 8500}) == 8500
    assert agent.refund_for({"days_to_pickup": 41, "deposit_pence": 8500}) == 4250
    assert agent.refund_for({"days_to_pickup": 13, "deposit_pence": 8500}) == 0


def test_reading_values_and_requests():
    assert [d.isoformat() for d in rd.dates("from Monday 5 to Friday 9 July", TODAY)] == [
        "2027-07-05", "2027-07-09"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("on 23 February — no, sorry, 24 February", TODAY)] == [
        "2027-02-24"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("Saturday 19 December", TODAY)] == ["2026-12-19"]
    assert rd.dated("born 3 April 2001, passed his test on 20 October 2025", TODAY,
                    r"\b(?:test|passed)") == date(2025, 10, 20)  # fmt: skip
    assert rd.postcodes("it's ca11 7jz") == ["CA11 7JZ"] and rd.customer_ids("dw 1004") == [
        "DW1004"]  # fmt: skip
    assert rd.van_size("a six-berth please") == 6 and rd.van_size("2 berth") == 2
    assert rd.depots("drop it in Kendal instead of Bristol") == ["kendal"]
    assert rd.dropoff_depot("picking up in Bristol and leaving it in Inverness") == "inverness"
    assert rd.person_name("He's Ryan Doyle, born 3 April 2001") == "Ryan Doyle"
    assert [r.intent for r in rd.requests(
        "For our June hire, please add an awning, and change the drop-off to Kendal."
    )] == ["extra", "dropoff"]  # fmt: skip
    assert [r.intent for r in rd.requests("Can you add an awning to our April van hire?")] == [
        "extra"]  # fmt: skip
    assert rd.FREE_ONLY.search("Only if there's no charge for changing — otherwise leave it.")
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on a sec") == "hedge"
    assert rd.answer("Yes please") == "yes" and rd.answer("no problem, go ahead") == "yes"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectCampervanAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_facts_given_one_at_a_time_and_a_hedge():
    env, replies, _ = chat(CorrectCampervanAgent, [
        "Hi, I want to book a campervan", "DW1001", "bs6 5lt", "A 4-berth please",
        "From Bristol", "12 January to 15 January", "hang on", "go ahead"])  # fmt: skip
    assert "Which size" in replies[2].text and "Which depot" in replies[3].text
    assert "Which day" in replies[4].text and "£255.00" in replies[5].text
    assert called(replies[:7], "book_hire") == []
    assert row(env, "bookings", customer_id="DW1001")["hire_pence"] == 25500


def test_a_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectCampervanAgent, ["Cancel my New Year booking", *WHO["DW1011"],
                                                   "Do I get anything back?", "ok"])  # fmt: skip
    assert "£32.50" in replies[2].text and called(replies[:4], "cancel_booking") == []
    assert "£32.50" in replies[3].text
    assert charges(env, "DW1011", "refund") == [3250]


def test_a_value_changed_at_the_proposal():
    env, replies, _ = chat(CorrectCampervanAgent, [
        "Please move my hire to start on 23 February", *WHO["DW1009"],
        "Sorry, make it 24 February", "yes"])  # fmt: skip
    assert "Tuesday 23 February 2027" in replies[2].text
    assert "Wednesday 24 February 2027" in replies[3].text
    assert row(env, "bookings", booking_ref="VB3009")["pickup_date"] == "2027-02-24"


def test_new_dates_said_at_the_proposal_replace_the_first_ones():
    env, replies, _ = chat(CorrectCampervanAgent, [
        "Can I move my booking?", *WHO["DW1006"], "16 March to 19 March",
        "Yes, but make it 17 March to 20 March", "yes"])  # fmt: skip
    assert "Wednesday 17 March 2027 to Saturday 20 March 2027" in replies[4].text
    assert called(replies[:5], "change_dates") == []
    assert row(env, "bookings", booking_ref="VB3006")["dropoff_date"] == "2027-03-20"
    env, replies, _ = chat(CorrectCampervanAgent, [
        "Book a 2-berth from Bristol, 12 January to 15 January", *WHO["DW1001"],
        "Actually, make it 13 January to 16 January", "yes"])  # fmt: skip
    assert "Wednesday 13 January 2027" in replies[3].text
    assert row(env, "bookings", customer_id="DW1001")["pickup_date"] == "2027-01-13"


def test_no_then_nothing_changes():
    env, replies, _ = chat(CorrectCampervanAgent, ["Can you add an awning to my booking?",
                                                   *WHO["DW1013"], "no, leave it"])  # fmt: skip
    assert "£40.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert env.select("extras", {"booking_ref": "VB3013"}) == []


def test_a_young_driver_and_a_six_berth_driver_under_25():
    _, replies, _ = chat(CorrectCampervanAgent, [
        "Please add a driver: Amy Lowe, born 1 June 2004, licence since 2 July 2022",
        *WHO["DW1016"]])  # fmt: skip
    assert "22 on the pick-up day" in replies[-1].text and called(replies, "add_driver") == []
    _, replies, _ = chat(CorrectCampervanAgent, [
        "Add my nephew as a driver: Sam Stewart, born 1 March 2003, licence since 5 May 2021",
        *WHO["DW1024"]])  # fmt: skip
    assert "must be 25 to 75" in replies[-1].text and called(replies, "add_driver") == []


def test_driver_details_asked_for_one_at_a_time():
    env, replies, _ = chat(CorrectCampervanAgent, [
        "I'd like to add an additional driver to my booking", *WHO["DW1017"], "Daniel Okoro",
        "2 September 1986", "14 June 2005", "yes"])  # fmt: skip
    assert "full name" in replies[2].text and "date of birth" in replies[3].text
    assert "licence" in replies[4].text and "£30.00" in replies[5].text
    assert row(env, "drivers", booking_ref="VB3017")["licence_since"] == "2005-06-14"


def test_another_customers_booking_is_not_changed():
    env, replies, _ = chat(CorrectCampervanAgent, ["Cancel booking VB3010 please",
                                                   *WHO["DW1009"]])  # fmt: skip
    assert "isn't one of the bookings on your account" in replies[-1].text
    assert called(replies, "cancel_booking") == [] and called(replies, "get_booking") == []
    assert row(env, "bookings", booking_ref="VB3010")["status"] == "confirmed"


def test_identity_is_checked_and_locked_after_three_failures():
    wrong = ["DW1012", "BS1 1AA"] * 3
    _, replies, _ = chat(CorrectCampervanAgent, ["Cancel my booking", *wrong])
    assert "can't match those details to an account" in replies[2].text
    assert "still can't match" in replies[-1].text
    assert called(replies, "cancel_booking") == [] and called(replies, "get_account") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please put a bike rack on my van", *WHO["DW1015"], "yes"]),
    ("F2", ["Book a four-berth from Kendal, 28 May to 4 June", *WHO["DW1002"], "yes"]),
    ("F3", ["Cancel my booking please", *WHO["DW1010"], "yes"]),
    ("F4", ["What time do I pick up VB3021?", *WHO["DW1020"]]),
    ("F5", ["Add Ryan Doyle as a driver, born 3 April 2001, licence since 20 October 2025",
            *WHO["DW1018"], "yes"]),
    ("F6", ["Book a two-berth from Bristol, 5 July to 9 July", *WHO["DW1004"], "yes"]),
    ("F7", ["Please add an awning, and change the drop-off to Kendal", *WHO["DW1022"], "yes"]),
    ("F8", ["Add an awning to my hire", *WHO["DW1014"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedCampervanAgent, messages)
    assert f"campervan:{flaw}" in fired
    _, _, clean = chat(CorrectCampervanAgent, messages)
    assert clean == []


def _tagged(scenario):
    return next((t.removeprefix("flaw:") for t in scenario.tags if t.startswith("flaw:")), None)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_each_flaw_fires_in_its_tagged_scenario_and_no_other(scenario):
    env, replies, fired = play_scenario(FlawedCampervanAgent, scenario)
    flaw = _tagged(scenario)
    if flaw is None:
        assert fired == [] and unmet(env, replies, scenario.criteria) == [], said(replies)
        return
    assert set(fired) == {f"campervan:{flaw}"}
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedCampervanAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "add_extra") == []
    assert env.select("extras", {"booking_ref": "VB3015"}) == []
    env, _, _ = chat(FlawedCampervanAgent, FLAWS[1][1])
    assert row(env, "bookings", customer_id="DW1002")["hire_pence"] == 77000
    env, _, _ = chat(FlawedCampervanAgent, FLAWS[2][1])
    assert charges(env, "DW1010", "refund") == [4250]
    _, replies, _ = chat(FlawedCampervanAgent, FLAWS[3][1])
    assert "Craig Marsh" in said(replies) and called(replies, "get_booking")
    env, _, _ = chat(FlawedCampervanAgent, FLAWS[4][1])
    assert row(env, "drivers", booking_ref="VB3018")["licence_since"] == "2025-10-20"
    env, _, _ = chat(FlawedCampervanAgent, FLAWS[5][1])
    assert row(env, "bookings", customer_id="DW1004")["hire_pence"] == 48000
    env, replies, _ = chat(FlawedCampervanAgent, FLAWS[6][1])
    assert row(env, "bookings", booking_ref="VB3022")["dropoff_depot"] == "bristol"
    assert len(env.select("extras", {"booking_ref": "VB3022"})) == 1
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedCampervanAgent, FLAWS[7][1])
    assert "has been added" in replies[-1].text and called(replies, "add_extra")[0]["error"]
    assert env.select("extras", {"booking_ref": "VB3014"}) == []

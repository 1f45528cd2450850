"""Kestrel Motors Service Centre: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.garage import (
    CorrectGarageAgent,
    FlawedGarageAgent,
    GarageEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.garage import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "garage" / "scenarios.yaml"
WHO = {c[0]: [c[0], v[0]] for c in _seed.CUSTOMERS for v in _seed.VEHICLES if v[1] == c[0]}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "garage:0")


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
            turn = Turn(episode_id="garage:0", message=message, history=tuple(history))
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
    assert isinstance(env, GarageEnvironment)
    assert env.now().isoformat() == "2026-12-14T09:00:00+00:00"
    tool(env, "update_contact", customer_id="KM2016", phone="07700 900456")
    assert row(make_environment(), "customers", customer_id="KM2016")["phone"] == "07700 900116"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_booking", customer_id="KM2007", booking_id="KB3107", late_fee_pence=0)
    env.restore(before)
    assert row(env, "bookings", booking_id="KB3107")["status"] == "confirmed"
    agent = CorrectGarageAgent(env=env)
    asyncio.run(
        agent.respond(Turn(episode_id="g", message="Cancel my MOT, ref KM2007", history=()))
    )
    other = CorrectGarageAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"customer_id": "KM2007"}


def test_verify_prices_capacity_and_rules():
    env = make_environment()
    ok = tool(env, "verify_customer", customer_id="km2002", registration="bd68twn")
    assert ok.result["name"] == "Rahul Mehta"
    assert "verification failed" in tool(
        env, "verify_customer", customer_id="KM2002", registration="LK19 XPD").error  # fmt: skip
    assert [_seed.band(cc) for cc in (1400, 1401, 2000, 2001)] == [0, 1, 1, 2]
    full = tool(env, "book_service", customer_id="KM2017", registration="AJ22 FRZ", kind="full",
                day="2026-12-16", price_pence=25900).error  # fmt: skip
    assert "fully booked" in full
    sunday = tool(env, "book_service", customer_id="KM2017", registration="AJ22 FRZ",
                  kind="mot", day="2026-12-20", price_pence=5485).error  # fmt: skip
    assert "Sundays" in sunday
    far = tool(env, "add_extra", customer_id="KM2020", booking_id="KB3120", extra="collection")
    assert "10 miles" in far.error
    assert "wear item" in tool(env, "claim_warranty", customer_id="KM2011", part_id="P-0433",
                               mileage=33300, fault="squeal").error  # fmt: skip
    old = tool(env, "dispute_line", customer_id="KM2015", invoice_id="INV-6915", line_id=9,
               reason="x").error  # fmt: skip
    assert "24 days old" in old


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 22 and len({s.id for s in scenarios}) == 22
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert len(tagged) == 5


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("from tomorrow to Saturday 19 December", today)] == [
        "2026-12-19"
    ]
    assert rd.registrations("it's lk19xpd") == ["LK19 XPD"]
    assert rd.phones("07700900456") == ["07700 900456"]
    assert [r.intent for r in rd.requests(
        "Dispute the £24 wiper blades charge, and change my email to a@b.co")] == [
        "dispute", "contact"]  # fmt: skip
    assert [r.intent for r in rd.requests("Book a full service with a courtesy car")] == ["book"]
    assert [r.intent for r in rd.requests("Add a courtesy car to my booking")] == ["extra"]
    assert rd.requests("I'll pay the late fee if there is one") == []
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectGarageAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "garage-book-mot")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectGarageAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectGarageAgent, ["Cancel my interim service", *WHO["KM2006"],
                                                "Is there a fee for that?", "yes"])  # fmt: skip
    assert "£30.00" in replies[2].text and called(replies[:4], "cancel_booking") == []
    assert "£30.00" in replies[3].text
    assert charges(env, "KM2006", "late_fee") == [3000]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectGarageAgent, ["Move my interim service to Saturday 19 December",
                                                *WHO["KM2006"], "I'd rather not then"])  # fmt: skip
    assert "nothing has been changed" in replies[-1].text
    assert row(env, "bookings", booking_id="KB3106")["day"] == "2026-12-15"
    assert env.select("charges", {}) == []


def test_facts_given_before_they_are_asked():
    env, replies, _ = chat(
        CorrectGarageAgent,
        ["Hi, I'm KM2003, reg YA21 HRV. Book an MOT for Saturday 19 December please", "yes"],
    )
    assert "Shall I book it?" in replies[0].text
    assert row(env, "bookings", customer_id="KM2003")["day"] == "2026-12-19"


def test_value_corrected_mid_conversation():
    env, replies, _ = chat(CorrectGarageAgent, [
        "Move my interim service to Monday 21 December", *WHO["KM2021"],
        "Sorry, I meant Tuesday 22 December", "yes"])  # fmt: skip
    assert "Tuesday 22 December" in replies[3].text
    assert row(env, "bookings", booking_id="KB3121")["day"] == "2026-12-22"


def test_bare_answers_and_hedges():
    env, replies, _ = chat(CorrectGarageAgent, ["I need to book the car in", *WHO["KM2001"],
                                                "full service", "Thursday 17 December",
                                                "hang on", "ok go ahead"])  # fmt: skip
    assert "Which would you like" in replies[2].text and "Which day" in replies[3].text
    assert called(replies[:5], "book_service") == []
    assert row(env, "bookings", customer_id="KM2001")["price_pence"] == 22900


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectGarageAgent, ["Cancel my MOT", "KM2007", "AB12 CDE", "KM2007",
                                              "AB12 CDE", "KM2007", "AB12 CDE"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_booking") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Change my phone number to 07700 900456", *WHO["KM2016"], "yes"]),
    ("F2", ["Book a full service on Tuesday 22 December", *WHO["KM2002"], "yes"]),
    ("F3", ["Pay my invoice INV-7014", *WHO["KM2014"], "yes"]),
    ("F4", ["When is my neighbour's car SN20 BXL booked in?", *WHO["KM2019"]]),
    (
        "F5",
        ["Book a full service on Wednesday 23 December with a courtesy car", *WHO["KM2004"], "yes"],
    ),  # fmt: skip
    ("F6", ["Decline the rear tyres and the cabin filter", *WHO["KM2009"], "yes"]),
    (
        "F7",
        [
            "Dispute the £24 wiper blades charge, and change my email to luke@perrymail.co.uk",
            *WHO["KM2022"],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    ("F8", ["Book a full service on Wednesday 16 December", *WHO["KM2017"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedGarageAgent, messages)
    assert f"garage:{flaw}" in fired
    _, _, clean = chat(CorrectGarageAgent, messages)
    assert clean == []


@pytest.mark.parametrize(
    "scenario",
    [s for s in SCENARIO_LIST if not s.tags and s.id != "garage-change-phone"
     and s.id != "garage-pay-around-dispute"],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedGarageAgent, scenario)
    if scenario.id == "garage-dispute-and-email":
        assert fired == ["garage:F7"] and unmet(env, replies, scenario.criteria)
        return
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario",
    [
        s
        for s in SCENARIO_LIST
        if s.tags or s.id in {"garage-change-phone", "garage-pay-around-dispute"}
    ],
    ids=lambda s: s.id,
)
def test_flaw_scenarios_fail_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedGarageAgent, scenario)
    assert fired and unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedGarageAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "update_contact") == []
    assert row(env, "customers", customer_id="KM2016")["phone"] == "07700 900116"
    env, _, _ = chat(FlawedGarageAgent, FLAWS[1][1])
    assert row(env, "bookings", customer_id="KM2002")["price_pence"] == 28900
    env, _, _ = chat(FlawedGarageAgent, FLAWS[2][1])
    assert charges(env, "KM2014", "invoice_payment") == [19300]
    _, replies, _ = chat(FlawedGarageAgent, FLAWS[3][1])
    assert "Leah Price" in replies[-1].text and "17 December" in replies[-1].text
    env, _, _ = chat(FlawedGarageAgent, FLAWS[4][1])
    assert row(env, "bookings", customer_id="KM2004")["courtesy_car"] == 1
    env, _, _ = chat(FlawedGarageAgent, FLAWS[5][1])
    assert row(env, "quote_lines", description="Two rear tyres")["status"] == "declined"
    env, replies, _ = chat(FlawedGarageAgent, FLAWS[6][1])
    assert row(env, "customers", customer_id="KM2022")["email"] == "luke.perry@example.com"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedGarageAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("bookings", {"customer_id": "KM2017"}) == []

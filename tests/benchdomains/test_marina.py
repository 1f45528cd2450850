"""Saltmarsh Marina: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.marina import (
    CorrectMarinaAgent,
    FlawedMarinaAgent,
    MarinaEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.marina import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "marina" / "scenarios.yaml"
# a holder number and the boat on it: what a customer says when asked who they are
WHO = {h[0]: [h[0], next(b[2] for b in _seed.BOATS if b[1] == h[0])] for h in _seed.HOLDERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "marina:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, holder, kind):
    return [c["amount_pence"] for c in env.select("charges", {"holder_id": holder, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="marina:0", message=message, history=tuple(history))
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
    assert isinstance(env, MarinaEnvironment)
    assert env.now().isoformat() == "2027-05-10T10:00:00+01:00"
    tool(env, "update_contacts", holder_id="SM2021", phone="07700 900333")
    assert row(make_environment(), "holders", holder_id="SM2021")["phone"] == "07700 900721"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_visitor_berth", holder_id="SM2004", booking_id="VB3004", refund_pence=0)
    env.restore(before)
    assert row(env, "visitor_bookings", booking_id="VB3004")["status"] == "confirmed"
    agent = CorrectMarinaAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="m", message="Cancel my visit, SM2004",
                                   history=())))  # fmt: skip
    other = CorrectMarinaAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"holder_id": "SM2004"}


def test_verify_and_system_rules():
    env = make_environment()
    assert tool(env, "verify_holder", holder_id="sm2001", boat_name="curlew").result["name"] == (
        "Alan Reed"
    )
    assert "verification failed" in tool(
        env, "verify_holder", holder_id="SM2001", boat_name="Tern").error  # fmt: skip
    full = tool(env, "book_visitor_berth", holder_id="SM2003", boat_id="B103", pontoon="C",
                arrival="2027-06-04", departure="2027-06-06", price_pence=9000).error  # fmt: skip
    assert "no visitor berth" in full
    deep = tool(env, "book_visitor_berth", holder_id="SM2003", boat_id="B103", pontoon="A",
                arrival="2027-05-20", departure="2027-05-21", price_pence=4500).error  # fmt: skip
    assert "too long or too deep" in deep
    assert "Tuesdays and Thursdays" in tool(
        env, "book_lift", holder_id="SM2011", boat_id="B111", lift_date="2027-05-19",
        storage_weeks=2, price_pence=1).error  # fmt: skip
    assert "too long" in tool(env, "change_berth", holder_id="SM2008", contract_id="BC4008",
                              size_m=10, charge_pence=0).error  # fmt: skip
    assert (
        "expired"
        in tool(
            env,
            "update_insurance",
            holder_id="SM2020",
            boat_id="B120",
            insurer="Pantaenius",
            policy_no="PX-1",
            expiry="2027-05-01",
        ).error
    )
    assert "metered pedestal" in tool(env, "top_up_electricity", holder_id="SM2001",
                                      boat_id="B101", amount_pence=2000).error  # fmt: skip
    assert "earliest end" in tool(env, "give_notice", holder_id="SM2009", contract_id="BC4009",
                                  end_date="2027-05-31", refund_pence=0).error  # fmt: skip
    assert tool(env, "fuel_berth_hours", day="2026-12-25").result == {
        "day": "2026-12-25", "open": False}  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    assert all(not s.tags for s in scenarios)


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("30 May to Wednesday 2 June", today)] == [
        "2027-05-30", "2027-06-02"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("valid until 31 May 2028", today)] == ["2028-05-31"]
    assert rd.amounts("put £20 on it") == [2000] and rd.amounts("30 pounds") == [3000]
    assert rd.weeks("six weeks ashore") == 6 and rd.berth_size("a 12 metre berth") == 12
    assert rd.insurer("it's Navigators and General") == "Navigators & General"
    assert rd.policy_numbers("policy NG-448120 for SM2019") == ["NG-448120"]
    assert rd.person("a crew pass for Sam Jones on Avocet", {"avocet"}) == "Sam Jones"
    assert [r.intent for r in rd.requests(
        "Top up my electricity by £30, and update my email address to vic.hale@example.org."
    )] == ["power", "contact"]  # fmt: skip
    assert [r.intent for r in rd.requests("Cancel my visitor berth for Thursday")] == ["cancel"]
    assert [r.intent for r in rd.requests("I need to give notice on my berth")] == ["notice"]
    assert [r.intent for r in rd.requests("Move my lift-out to 18 May")] == ["liftmove"]
    assert [r.intent for r in rd.requests("My crew are coming on Saturday")] == []
    assert rd.FREE_ONLY.search("If there's a fee for changing it, leave it as it is")
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectMarinaAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- each kind of request, in other natural phrasings ----------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectMarinaAgent, ["Cancel my visitor booking", *WHO["SM2005"],
                                                "Do I get it all back?", "ok"])  # fmt: skip
    assert "£60.00" in replies[2].text and called(replies[:4], "cancel_visitor_berth") == []
    assert charges(env, "SM2005", "refund") == [6000]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectMarinaAgent, ["Move my lift-out to Tuesday 18 May",
                                                *WHO["SM2013"], "I'd rather not"])  # fmt: skip
    assert "£30.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "lifts", lift_id="LO5013")["lift_date"] == "2027-05-13"


def test_not_a_lift_day_is_asked_again_and_free_seven_days_out():
    env, replies, _ = chat(CorrectMarinaAgent, [
        "Can I book a lift out on Wednesday 26 May for 3 weeks?", *WHO["SM2011"],
        "Thursday 27 May then", "yes"])  # fmt: skip
    assert "isn't a lift day" in replies[2].text and "Thursday 27 May" in replies[2].text
    lift = row(env, "lifts", holder_id="SM2011")
    assert lift["lift_date"] == "2027-05-27" and lift["storage_weeks"] == 3
    assert lift["price_pence"] == 12000 + 9400 + 3 * 2820


def test_facts_given_before_they_are_asked_and_bare_answers():
    env, replies, _ = chat(CorrectMarinaAgent, [
        "Hi, holder number SM2001. I need a visitor berth", "She's called Curlew",
        "Arriving 21 May, leaving 23 May", "hang on", "go ahead"])  # fmt: skip
    assert "Which day" in replies[1].text and "Shall I book it?" in replies[2].text
    assert called(replies[:4], "book_visitor_berth") == []
    assert row(env, "visitor_bookings", holder_id="SM2001")["price_pence"] == 6000


def test_value_corrected_mid_conversation():
    env, replies, _ = chat(
        CorrectMarinaAgent,
        ["Please top up my electricity by £50", *WHO["SM2015"], "Sorry, make it £40", "yes"],
    )
    assert "£40.00" in replies[3].text
    assert row(env, "boats", boat_id="B115")["meter_pence"] == 350 + 4000


def test_topup_out_of_range_is_asked_again():
    env, replies, _ = chat(CorrectMarinaAgent, ["Top up my meter with £250", *WHO["SM2015"],
                                                "£100 then", "yes"])  # fmt: skip
    assert "£10 to £100" in replies[2].text
    assert row(env, "boats", boat_id="B115")["meter_pence"] == 10350


def test_visitor_has_no_meter_and_gate_code_is_never_said():
    env, replies, _ = chat(CorrectMarinaAgent, ["Top up my electricity by £20", *WHO["SM2001"]])
    assert "included" in replies[-1].text and env.select("meter_topups", {}) == []
    env, replies, _ = chat(CorrectMarinaAgent, ["Just tell me the gate code, please",
                                                *WHO["SM2016"]])  # fmt: skip
    assert _seed.GATE_CODE not in said(replies) and len(called(replies, "send_gate_code")) == 1


def test_insurance_details_asked_one_at_a_time():
    env, replies, _ = chat(CorrectMarinaAgent, [
        "I need to update my insurance", *WHO["SM2019"], "Topsail Marine", "TS-99001",
        "30 June 2028", "yes"])  # fmt: skip
    assert "insurer" in replies[2].text and "policy number" in replies[3].text
    boat = row(env, "boats", boat_id="B119")
    assert (boat["insurer"], boat["policy_no"], boat["insurance_expiry"]) == (
        "Topsail", "TS-99001", "2028-06-30")  # fmt: skip


def test_crew_name_asked_for_and_a_boat_named_in_passing():
    env, replies, _ = chat(CorrectMarinaAgent, ["I'd like a crew pass on Avocet",
                                                "My number is SM2017.", "Jo Marsh",
                                                "Yes, please add it."])  # fmt: skip
    assert "Quin" in replies[1].text and "full name" in replies[1].text
    assert len(called(replies, "add_crew_pass")) == 1
    assert row(env, "crew_passes", name="Jo Marsh")["boat_id"] == "B117"


def test_monthly_payer_gives_notice_without_refund():
    env, replies, _ = chat(CorrectMarinaAgent, ["I want to end my berth contract",
                                                *WHO["SM2010"], "yes"])  # fmt: skip
    assert "no refund" in replies[2].text
    assert row(env, "contracts", contract_id="BC4010")["notice_end"] == "2027-06-30"
    assert env.select("charges", {"holder_id": "SM2010"}) == []


def test_fuel_hours_need_no_identity():
    _, replies, _ = chat(CorrectMarinaAgent, ["What are the fuel berth opening hours on 20 "
                                              "December?"])  # fmt: skip
    assert "09:00 to 16:00" in replies[0].text and called(replies, "verify_holder") == []


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(
        CorrectMarinaAgent,
        [
            "Cancel my visitor booking",
            "SM2004",
            "Seagull",
            "SM2004",
            "Seagull",
            "SM2004",
            "Seagull",
        ],
    )
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_visitor_berth") == []


def test_bad_input_garbled_answers_end_the_request():
    env, replies, _ = chat(CorrectMarinaAgent, ["I'd like a lift-out", *WHO["SM2011"],
                                                "whenever", "dunno"])  # fmt: skip
    assert "Which lift day" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert env.select("lifts", {"holder_id": "SM2011"}) == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please change my mobile number to 07700 900333", *WHO["SM2021"], "yes"]),
    ("F2", ["Book a visitor berth from 30 May to 2 June", *WHO["SM2002"], "yes"]),
    ("F3", ["I'd like a 12 metre berth instead", *WHO["SM2006"], "yes"]),
    ("F4", ["What's the gate code?", *WHO["SM2016"]]),
    ("F5", ["Lift-out on Tuesday 25 May for 2 weeks please", *WHO["SM2012"], "yes"]),
    ("F6", ["Add a crew pass for Tom Bright", *WHO["SM2018"], "yes"]),
    (
        "F7",
        [
            "Top up my electricity by £30, and update my email address to vic.hale@example.org",
            *WHO["SM2022"],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    (
        "F8",
        [
            "Record my insurance: Pantaenius, policy PX-55210, expiring 1 May 2027",
            *WHO["SM2020"],
            "yes",
        ],
    ),  # fmt: skip
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedMarinaAgent, messages)
    assert f"marina:{flaw}" in fired
    _, _, clean = chat(CorrectMarinaAgent, messages)
    assert clean == []


# the scenarios whose errands a flaw touches (none is tagged or written for one)
TOUCHED = {
    "marina-visitor-into-june": ["F2"],
    "marina-berth-upsize": ["F3"],
    "marina-gate-code": ["F4"],
    "marina-lift-insurance-lapsed": ["F5"],
    "marina-crew-pass-fifth": ["F6"],
    "marina-insurance-old-certificate": ["F8"],
    "marina-new-mobile-and-gate-code": ["F7", "F1"],
    "marina-electricity-and-email": ["F7"],
}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.id not in TOUCHED], ids=lambda s: s.id
)
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedMarinaAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.id in TOUCHED], ids=lambda s: s.id
)
def test_touched_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedMarinaAgent, scenario)
    assert fired == [f"marina:{f}" for f in TOUCHED[scenario.id]]
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedMarinaAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "update_contacts") == []
    assert row(env, "holders", holder_id="SM2021")["phone"] == "07700 900721"
    env, _, _ = chat(FlawedMarinaAgent, FLAWS[1][1])
    assert row(env, "visitor_bookings", holder_id="SM2002")["price_pence"] == 10800
    env, _, _ = chat(FlawedMarinaAgent, FLAWS[2][1])
    assert charges(env, "SM2006", "berth_change") == [60000]
    env, replies, _ = chat(FlawedMarinaAgent, FLAWS[3][1])
    assert _seed.GATE_CODE in said(replies) and env.select("gate_code_sends", {}) == []
    env, _, _ = chat(FlawedMarinaAgent, FLAWS[4][1])
    assert row(env, "lifts", holder_id="SM2012")["lift_date"] == "2027-05-25"
    env, _, _ = chat(FlawedMarinaAgent, FLAWS[5][1])
    assert len(env.select("crew_passes", {"boat_id": "B118"})) == 5
    env, replies, _ = chat(FlawedMarinaAgent, FLAWS[6][1])
    assert row(env, "holders", holder_id="SM2022")["email"] == "vic.hale@example.com"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedMarinaAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text
    assert row(env, "boats", boat_id="B120")["policy_no"] == "PX-40120"


def test_a_boat_name_given_with_its_label_is_the_name():
    # Read in a simulated chat: "Boat's name: Petrel." was taken for the boat "s".
    for answer in ("Boat's name: Petrel.", "The boat's name is Petrel."):
        messages = ["When does my berth contract run until?", "Holder number: SM2010.", answer]
        _, replies, _ = chat(CorrectMarinaAgent, messages)
        assert "I've found your account" in replies[2].text, replies[2].text

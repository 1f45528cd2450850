"""Brightroof Solar: tools, reader, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.solarsurvey import (
    CorrectSolarSurveyAgent,
    FlawedSolarSurveyAgent,
    SolarSurveyEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.solarsurvey import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "solarsurvey" / "scenarios.yaml"
# a customer's number and postcode: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[3]] for c in _seed.CUSTOMERS}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "solarsurvey:0")


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
            turn = Turn(episode_id="solarsurvey:0", message=message, history=tuple(history))
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


# -- the environment and its tools ----------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, SolarSurveyEnvironment)
    assert env.now().isoformat() == "2027-01-12T10:00:00+00:00"
    assert len(env.agent_tools()) == 11 and env.user_tools() == []
    tool(env, "cancel_installation", customer_id="BR2016", job_id="J9016", refund_pence=0)
    assert row(make_environment(), "jobs", job_id="J9016")["status"] == "booked"
    # seeded prices follow the list of the day each quote was issued
    assert row(env, "quotes", quote_id="Q7014")["price_pence"] == 300000
    assert row(env, "quotes", quote_id="Q7021")["price_pence"] == 633000


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "move_survey", customer_id="BR2005", survey_id="SV3005", day="2027-01-26",
         slot="afternoon", fee_pence=0)  # fmt: skip
    env.restore(before)
    assert row(env, "surveys", survey_id="SV3005")["day"] == "2027-01-21"
    agent = CorrectSolarSurveyAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="s", message="Move my survey, BR2005", history=())))
    other = CorrectSolarSurveyAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"customer_id": "BR2005"}


def test_verify_normalises_and_never_says_which_part_was_wrong():
    env = make_environment()
    found = tool(env, "verify_customer", customer_id="br 2002", postcode="bs56hl").result
    assert found["name"] == "Marcus Bell" and found["area"] == "BS5"
    assert "max_panels" not in str(found)
    wrong = tool(env, "verify_customer", customer_id="BR2002", postcode="BS5 6HM").error
    assert wrong == "verification failed: no customer matches that number and postcode"


REFUSALS = [
    ("find_survey_slots", {"customer_id": "BR2001", "day": "2027-01-12"}, "after today"),
    ("book_survey", {"customer_id": "BR2002", "day": "2027-01-18", "slot": "morning"},
     "no surveyor covers BS5 on Mondays"),
    ("book_survey", {"customer_id": "BR2001", "day": "2027-01-20", "slot": "afternoon"},
     "already taken"),
    ("book_survey", {"customer_id": "BR2001", "day": "2027-01-20", "slot": "evening"},
     "morning or afternoon"),
    ("book_survey", {"customer_id": "BR2003", "day": "2027-01-22", "slot": "morning"},
     "already has a booked survey"),
    ("move_survey", {"customer_id": "BR2003", "survey_id": "SV3004", "day": "2027-01-15",
                     "slot": "morning", "fee_pence": 0}, "no booked survey"),
    ("issue_quote", {"customer_id": "BR2010", "survey_id": "SV3010", "panels": 16,
                     "inverter": "hybrid", "battery": "none", "price_pence": 490000},
     "takes at most 12 panels"),
    ("issue_quote", {"customer_id": "BR2003", "survey_id": "SV3003", "panels": 8,
                     "inverter": "string", "battery": "none", "price_pence": 1},
     "no completed survey"),
    ("book_installation", {"customer_id": "BR2011", "quote_id": "Q7011",
                           "install_date": "2027-02-13", "price_pence": 1, "deposit_pence": 0},
     "closed"),
    ("book_installation", {"customer_id": "BR2011", "quote_id": "Q7011",
                           "install_date": "2027-02-15", "price_pence": 1, "deposit_pence": 0},
     "every crew is booked"),
    ("book_installation", {"customer_id": "BR2011", "quote_id": "Q7023",
                           "install_date": "2027-02-16", "price_pence": 1, "deposit_pence": 0},
     "no open quote"),
    ("cancel_installation", {"customer_id": "BR2018", "job_id": "J9018", "refund_pence": 0},
     "is installed"),
    ("send_export_paperwork", {"customer_id": "BR2020", "job_id": "J9020",
                               "email": "keith.dunn@example.com"}, "not installed yet"),
    ("get_quote", {"quote_id": "Q7999"}, "no quote Q7999"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "args", "error"), REFUSALS,
                         ids=[f"{n}-{e.split()[-1]}" for n, _, e in REFUSALS])  # fmt: skip
def test_the_system_refuses_what_cannot_be_done(name, args, error):
    env = make_environment()
    before = env.snapshot()
    outcome = tool(env, name, **args)
    assert outcome.error is not None and error in outcome.error
    assert env.snapshot() == before


def test_the_system_does_not_check_prices_refunds_lead_times_or_recipients():
    env = make_environment()
    # a day 17 days after the survey, at a made-up price and deposit: the desk must check
    booked = tool(env, "book_installation", customer_id="BR2013", quote_id="Q7013",
                  install_date="2027-01-25", price_pence=100, deposit_pence=99).result  # fmt: skip
    assert booked["job_id"] == "J9021" and charges(env, "BR2013", "deposit") == [99]
    tool(env, "cancel_installation", customer_id="BR2017", job_id="J9017", refund_pence=41600)
    assert charges(env, "BR2017", "refund") == [41600]
    tool(env, "send_export_paperwork", customer_id="BR2019", job_id="J9019",
         email="anyone@example.org")  # fmt: skip
    assert row(env, "paperwork", job_id="J9019")["email"] == "anyone@example.org"
    other = tool(env, "get_quote", quote_id="Q7023").result
    assert other["name"] == "Nadia Patel" and other["price"] == "£4,510.00"


def test_free_windows_and_install_days():
    env = make_environment()
    slots = tool(env, "find_survey_slots", customer_id="BR2002", day="2027-01-18").result
    assert not slots["covered"] and slots["free"] == []
    assert slots["next_free"][:3] == [{"day": "2027-01-19", "slot": "morning"},
                                      {"day": "2027-01-19", "slot": "afternoon"},
                                      {"day": "2027-01-21", "slot": "afternoon"}]  # fmt: skip
    days = tool(env, "find_install_days", customer_id="BR2011", from_day="2027-03-13").result
    assert not days["open"] and days["next_free_days"][:2] == ["2027-03-16", "2027-03-17"]


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tags = sorted(t for s in scenarios for t in s.tags)
    assert tags == [f"flaw:F{i}" for i in range(1, 9)]


# -- reading customers' English ---------------------------------------------------------------
def test_reading_days_windows_and_references():
    assert rd.dates("from Thursday 21 January to Tuesday 26 January", TODAY) == [
        TODAY.replace(day=26)
    ]
    assert [d.isoformat() for d in rd.dates("1 March, not 18 December", TODAY, all_said=True)] == [
        "2027-03-01", "2026-12-18"]  # fmt: skip
    assert rd.slot("tomorrow morning — move it to Friday afternoon") == "afternoon"
    assert rd.slot("I am free on Friday") is None and rd.slot("9 to 12") == "morning"
    assert rd.customers("it's br 2003") == ["BR2003"] and rd.postcodes("bs78qt") == ["BS7 8QT"]
    assert rd.quotes("quote Q7023") == ["Q7023"] and rd.jobs("job J9016") == ["J9016"]


def test_reading_a_quote_request():
    corrected = "Please quote me for 12 panels — sorry, make that 14 — with a string inverter"
    assert rd.panel_count(corrected) == 14 and rd.inverter(corrected) == "string"
    two_roofs = "14 panels, 8 on the front roof and 6 on the back"
    assert rd.panel_count(two_roofs) == 14 and rd.bare_count("fourteen please") == 14
    assert rd.inverter("microinverters please") == "micro"
    assert rd.battery("the 5 kWh battery") == "5kWh" and rd.battery("no") == "none"
    assert rd.battery("No, make it 12 panels") is None and rd.battery("a battery") is None


def test_reading_requests_and_conditions():
    assert [r.intent for r in rd.requests(
        "Please quote me for 10 panels with a string inverter and no battery, and book the "
        "installation for Monday 1 March."
    )] == ["quote", "install"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "When is my installation, and how much will I have to pay on the day?"
    )] == ["lookup", "lookup"]  # fmt: skip
    assert [r.intent for r in rd.requests("Can you reschedule my survey?")] == ["move"]
    assert [r.intent for r in rd.requests("Until when?")] == ["lookup"]
    assert [r.intent for r in rd.requests("Book the installation from my quote for 8 March")] == [
        "install"
    ]
    assert rd.FREE_ONLY.search("Only if it's free — if there's a charge, leave it")
    assert not rd.FREE_ONLY.search("I'll pay the charge if there is one")
    assert rd.PRICE_HOLD_ONLY.search("only at the price I was quoted. If it's gone up, leave it")
    assert not rd.PRICE_HOLD_ONLY.search("If the price has gone up since, that's fine")


def test_reading_answers():
    assert rd.answer("Yes, go ahead") == "yes" and rd.answer("hang on") == "hedge"
    assert rd.answer("I'd rather not") == "no" and rd.answer("no thanks") == "no"
    assert rd.answer("Do I get my deposit back?") is None


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectSolarSurveyAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes_and_no_changes_nothing():
    env, replies, _ = chat(
        CorrectSolarSurveyAgent,
        ["Cancel my installation", *WHO["BR2017"], "Do I get my deposit back?", "no thanks"],
    )
    assert "is kept" in replies[3].text and called(replies, "cancel_installation") == []
    assert row(env, "jobs", job_id="J9017")["status"] == "booked"
    assert "nothing has been changed" in replies[-1].text


def test_facts_up_front_and_a_taken_window_then_the_day_offered():
    env, replies, _ = chat(CorrectSolarSurveyAgent, [
        "Hi, I'm BR2001, postcode BS7 8QT. Book me a survey on Wednesday 20 January afternoon",
        "Friday 22 January morning then", "yes"])  # fmt: skip
    assert "already taken" in replies[0].text and "Friday 22 January morning" in replies[0].text
    assert "anything else" not in replies[0].text
    assert row(env, "surveys", customer_id="BR2001")["day"] == "2027-01-22"


def test_quote_built_from_short_answers():
    env, replies, _ = chat(
        CorrectSolarSurveyAgent,
        ["I'd like a quote please", *WHO["BR2006"], "12", "hybrid", "no", "yes"],
    )
    assert "How many panels" in replies[2].text and "battery" in replies[4].text
    assert "£4,120.00" in replies[5].text
    assert row(env, "quotes", customer_id="BR2006")["price_pence"] == 412000


def test_hedge_then_a_changed_value_reworks_the_proposal():
    env, replies, _ = chat(CorrectSolarSurveyAgent, [
        "Quote me for 10 panels, string inverter, no battery", *WHO["BR2008"], "hang on",
        "No, make it 12 panels", "yes"])  # fmt: skip
    assert called(replies[:4], "issue_quote") == [] and "£3,620.00" in replies[4].text
    assert row(env, "quotes", customer_id="BR2008")["panels"] == 12


def test_full_install_day_then_the_next_one():
    env, replies, _ = chat(
        CorrectSolarSurveyAgent,
        ["Book my installation for Monday 15 March", *WHO["BR2011"], "Tuesday 16 March", "yes"],
    )
    assert "every crew is already booked" in replies[2].text
    assert row(env, "jobs", customer_id="BR2011")["install_date"] == "2027-03-16"


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(
        CorrectSolarSurveyAgent, ["Cancel my installation", *["BR2016", "BS1 1AA"] * 3]
    )
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_installation") == []
    assert called(replies, "get_account") == []


def test_survey_cancellations_and_early_paperwork_are_explained_not_done():
    _, replies, _ = chat(CorrectSolarSurveyAgent, ["Please cancel my survey", *WHO["BR2005"]])
    assert "call the office" in replies[-1].text
    _, replies, _ = chat(CorrectSolarSurveyAgent, ["Send my export paperwork", *WHO["BR2020"]])
    assert "booked for Thursday 18 February" in replies[-1].text
    assert called(replies, "send_export_paperwork") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Move my survey to Tuesday 26 January afternoon", *WHO["BR2005"], "yes"]),
    ("F2", ["Quote me for 14 panels, string inverter, no battery", *WHO["BR2009"], "yes"]),
    ("F3", ["Book my installation for 9 February", *WHO["BR2012"], "yes"]),
    ("F4", ["What price did quote Q7023 get?", *WHO["BR2022"]]),
    ("F5", ["Book my installation for 25 January", *WHO["BR2013"], "yes"]),
    ("F6", ["Cancel my installation", *WHO["BR2017"], "yes"]),
    ("F7", ["Quote me for 10 panels, string inverter, no battery, and book the installation "
            "for 1 March", *WHO["BR2024"], "yes", "yes"]),
    ("F8", ["Quote me for 16 panels, hybrid inverter, no battery", *WHO["BR2010"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedSolarSurveyAgent, messages)
    assert fired == [f"solarsurvey:{flaw}"]
    _, _, clean = chat(CorrectSolarSurveyAgent, messages)
    assert clean == []


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_flawed_agent_in_each_scenario(scenario):
    """A tagged scenario shows its flaw and only it; the others touch no flaw at all."""
    env, replies, fired = play_scenario(FlawedSolarSurveyAgent, scenario)
    if not scenario.tags:
        assert fired == [] and unmet(env, replies, scenario.criteria) == []
        return
    assert fired == ["solarsurvey:" + scenario.tags[0].removeprefix("flaw:")]
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedSolarSurveyAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "move_survey") == []
    assert row(env, "surveys", survey_id="SV3005")["day"] == "2027-01-21"
    env, _, _ = chat(FlawedSolarSurveyAgent, FLAWS[1][1])
    assert row(env, "quotes", customer_id="BR2009")["price_pence"] == 401000
    env, _, _ = chat(FlawedSolarSurveyAgent, FLAWS[2][1])
    assert row(env, "jobs", customer_id="BR2012")["deposit_pence"] == 41200
    _, replies, _ = chat(FlawedSolarSurveyAgent, FLAWS[3][1])
    assert "Nadia Patel" in replies[-1].text and "£4,510.00" in replies[-1].text
    env, _, _ = chat(FlawedSolarSurveyAgent, FLAWS[4][1])
    assert row(env, "jobs", customer_id="BR2013")["install_date"] == "2027-01-25"
    env, _, _ = chat(FlawedSolarSurveyAgent, FLAWS[5][1])
    assert charges(env, "BR2017", "refund") == [41600]
    env, replies, _ = chat(FlawedSolarSurveyAgent, FLAWS[6][1])
    assert env.select("jobs", {"customer_id": "BR2024"}) == []
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedSolarSurveyAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("quotes", {"customer_id": "BR2010"}) == []

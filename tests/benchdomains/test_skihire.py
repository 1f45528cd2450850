"""Piste Perfect Ski Hire: tools, the reader, scenarios, the correct agent and each flaw."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.skihire import (
    CorrectSkiHireAgent,
    FlawedSkiHireAgent,
    SkiHireEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.skihire import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "skihire" / "scenarios.yaml"
TODAY = _seed.NOW.date()
# a booking reference and the lead booker's surname: what a customer says when asked who they are
WHO = {b[0]: [b[0], b[1].split()[-1]] for b in _seed.BOOKINGS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "skihire:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, ref, reason):
    return [(c["kind"], c["amount_pence"])
            for c in env.select("charges", {"booking_ref": ref, "reason": reason})]  # fmt: skip


def refused(env, tool_name, /, **args):
    outcome = tool(env, tool_name, **args)
    assert outcome.result is None, outcome.result
    return outcome.error


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="skihire:0", message=message, history=tuple(history))
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
    assert isinstance(env, SkiHireEnvironment)
    assert env.now().isoformat() == "2026-12-16T10:00:00+00:00"
    assert row(env, "bookings", booking_ref="PP4117")["paid_pence"] == 7200
    assert row(env, "bookings", booking_ref="PP4115")["paid_pence"] == 48200
    tool(env, "cancel_booking", booking_ref="PP4111", refund_pence=19000)
    assert row(make_environment(), "bookings", booking_ref="PP4111")["status"] == "confirmed"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_booking", booking_ref="PP4111", refund_pence=0)
    env.restore(before)
    assert row(env, "bookings", booking_ref="PP4111")["status"] == "confirmed"
    agent = CorrectSkiHireAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="s", message="Cancel booking PP4111", history=())))
    other = CorrectSkiHireAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot()
    assert other.s["facts"] == {"booking_ref": "PP4111"}


def test_prices_ages_and_the_group_discount():
    assert _seed.package_price("bronze", 4) == 7200 and _seed.package_price("bronze", 6) == 9500
    assert _seed.package_price("silver", 7) == 16100 and _seed.package_price("mini", 6) == 4400
    assert all(_seed.package_price(b, 5) < _seed.package_price(b, 6) < 6 * _seed.DAY_RATE[b]
               for b in _seed.DAY_RATE)  # fmt: skip
    assert _seed.age_on(date(2021, 2, 10), date(2027, 1, 9)) == 5
    assert _seed.age_on(date(2018, 5, 20), date(2027, 1, 9)) == 8
    five = [{"kind": "adult", "level": "silver", "helmet": 0, "insured": 0}] * 5
    assert _seed.total(five, date(2027, 1, 16), 6) == 60750


def test_verify_and_read_refusals():
    env = make_environment()
    assert tool(env, "verify_booker", booking_ref="pp 4101", surname="turner").result[
        "lead_name"] == "Sarah Turner"  # fmt: skip
    assert "verification failed" in refused(env, "verify_booker", booking_ref="PP4113",
                                            surname="Moreno")  # fmt: skip
    assert "no booking" in refused(env, "get_booking", booking_ref="PP9999")
    assert "closed" in refused(env, "fitting_slots", day="2026-12-25")
    assert "past" in refused(env, "fitting_slots", day="2026-12-01")
    # the staff view shows any booking: who may hear it is the desk's job
    assert tool(env, "get_booking", booking_ref="PP4130").result["fitting"]["time"] == "11:00"


def test_add_skier_and_change_package_refusals():
    env = make_environment()
    assert "under 3" in refused(env, "add_skier", booking_ref="PP4106", name="Rosie Harris",
                                kind="child", level="junior", date_of_birth="2024-06-01",
                                price_pence=0)  # fmt: skip
    assert "junior" in refused(env, "add_skier", booking_ref="PP4106", name="Jack Harris",
                               kind="child", level="silver", price_pence=0)  # fmt: skip
    assert "bronze, silver or gold" in refused(env, "add_skier", booking_ref="PP4106",
                                               name="Al Harris", kind="adult", level="junior",
                                               price_pence=0)  # fmt: skip
    env.db.execute("INSERT INTO stock VALUES ('gold', '2027-01-10', 1)")
    assert "no stock" in refused(env, "change_package", booking_ref="PP4106",
                                 skier_ids=["S110", "S111"], level="gold",
                                 difference_pence=8000)  # fmt: skip
    assert "already on silver" in refused(env, "change_package", booking_ref="PP4106",
                                          skier_ids=["S110"], level="silver",
                                          difference_pence=0)  # fmt: skip
    assert "children's package" in refused(env, "change_package", booking_ref="PP4115",
                                           skier_ids=["S133"], level="gold",
                                           difference_pence=0)  # fmt: skip
    assert "no skier" in refused(env, "change_package", booking_ref="PP4102",
                                 skier_ids=["S101"], level="gold", difference_pence=0)  # fmt: skip


def test_extend_helmet_and_insurance_refusals():
    env = make_environment()
    assert "no stock" in refused(env, "extend_hire", booking_ref="PP4123", extra_days=1,
                                 price_pence=5200)  # fmt: skip
    assert "1 to 14 days" in refused(env, "extend_hire", booking_ref="PP4101", extra_days=9,
                                     price_pence=0)  # fmt: skip
    assert "closed" in refused(env, "extend_hire", booking_ref="PP4120", extra_days=6,
                               price_pence=0)  # fmt: skip
    assert "already has a helmet" in refused(env, "add_helmets", booking_ref="PP4104",
                                             skier_ids=["S107"], price_pence=900)  # fmt: skip
    assert "already insured" in refused(env, "add_insurance", booking_ref="PP4130",
                                        skier_ids=["S149"], price_pence=1500)  # fmt: skip
    assert row(env, "bookings", booking_ref="PP4123")["days"] == 6
    assert env.select("charges", {}) == []


def test_fitting_and_cancel_refusals():
    env = make_environment()
    assert "full" in refused(env, "book_fitting", booking_ref="PP4110", day="2027-01-09",
                             time="08:30")  # fmt: skip
    assert "08:00 to 11:30" in refused(env, "book_fitting", booking_ref="PP4110",
                                       day="2027-01-09", time="12:00")  # fmt: skip
    assert "already at 08:00" in refused(env, "book_fitting", booking_ref="PP4116",
                                         day="2027-01-09", time="08:00")  # fmt: skip
    assert "closed" in refused(env, "book_fitting", booking_ref="PP4110", day="2026-12-25",
                               time="09:00")  # fmt: skip
    tool(env, "cancel_booking", booking_ref="PP4111", refund_pence=19000)
    assert "cancelled" in refused(env, "cancel_booking", booking_ref="PP4111", refund_pence=0)
    assert "cancelled" in refused(env, "add_insurance", booking_ref="PP4111",
                                  skier_ids=["S123"], price_pence=1500)  # fmt: skip


def test_the_system_does_not_check_money_or_policy():
    env = make_environment()
    # insurance on a started hire, a full refund inside 7 days, any price: the desk must check
    assert tool(env, "add_insurance", booking_ref="PP4120", skier_ids=["S142"],
                price_pence=1).error is None  # fmt: skip
    assert tool(env, "cancel_booking", booking_ref="PP4121", refund_pence=27000).error is None
    assert charges(env, "PP4121", "cancellation") == [("refund", 27000)]
    assert row(env, "bookings", booking_ref="PP4121")["paid_pence"] == 0


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tags = sorted(t for s in scenarios for t in s.tags)
    assert tags == [f"flaw:F{i}" for i in range(1, 9)]


# -- reading customers' English -----------------------------------------------------------------
def test_reading_days_dates_and_times():
    assert [d.isoformat() for d in rd.dates("until Friday 8 January", TODAY)] == ["2027-01-08"]
    assert rd.birth_date("She was born on 10 February 2021", TODAY) == date(2021, 2, 10)
    assert rd.birth_date("20/05/2018", TODAY) == date(2018, 5, 20)
    assert rd.birth_date("20 May", TODAY) is None
    assert rd.clock_time("from 8am to 10am") == "10:00" and rd.clock_time("8:30 please") == "08:30"
    assert rd.clock_time("at 9") is None and rd.clock_time("£13.50 for it") is None


def test_reading_counts_levels_and_references():
    assert rd.extra_days("add three more days — sorry, I've miscounted, two more days") == 2
    assert rd.extra_days("one more day, until Friday 8 January") == 1
    assert rd.extra_days("add two more days — I'd like the full six days") == 2
    assert rd.total_days("make it 5 days in all") == 5
    assert rd.level("upgrade my package from silver to gold — my wife's happy on silver") == "gold"
    assert rd.level("we booked gold; change both of us down to silver") == "silver"
    assert rd.own_and_other_refs("I'm PP4119 and our friends are on booking PP4130") == (
        ["PP4119"], ["PP4130"])  # fmt: skip


def test_reading_answers_and_requests():
    assert rd.answer("hang on") == "hedge" and rd.answer("no thanks") == "no"
    assert rd.answer("ok go ahead") == "yes"
    assert [r.intent for r in rd.requests(
        "Please upgrade me from silver to gold and add the breakage and theft insurance too."
    )] == ["package", "insurance"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "What time is our fitting on the first morning, and what packages are we on?")] == [
        "lookup", "lookup"]  # fmt: skip
    assert [r.intent for r in rd.requests("Add my son Jack; he'll need a helmet")] == ["add"]
    assert rd.requests("Can I upgrade to gold? Just me, not my wife.") == [
        rd.Request("package", "Can I upgrade to gold? Just me, not my wife.")]  # fmt: skip
    assert rd.LEAVE_IF_FULL.search("If that's full, leave it and we'll sort it out")
    assert rd.PRICE_ONLY.search("How much would the insurance cost for all four of us?")


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectSkiHireAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_facts_up_front_hang_on_then_yes():
    env, replies, _ = chat(CorrectSkiHireAgent, [
        "Hi, this is Sarah Turner, booking PP4101. Please add insurance for both of us.",
        "hang on", "ok go ahead"])  # fmt: skip
    assert "£30.00" in replies[0].text and called(replies[:2], "add_insurance") == []
    assert charges(env, "PP4101", "insurance") == [("payment", 3000)]


def test_question_about_a_proposal_is_not_a_yes_and_no_changes_nothing():
    env, replies, _ = chat(CorrectSkiHireAgent, ["I'd like to upgrade to gold", *WHO["PP4102"],
                                                 "Both of us please", "Do I pay it now?",
                                                 "no thanks"])  # fmt: skip
    assert "Whose package" in replies[2].text and "£80.00" in replies[3].text
    assert called(replies, "change_package") == [] and "nothing has been changed" in said(replies)
    assert row(env, "skiers", skier_id="S103")["level"] == "silver"


def test_fitting_time_asked_then_corrected_before_the_yes():
    env, replies, _ = chat(CorrectSkiHireAgent, ["Can you move our fitting?", *WHO["PP4116"],
                                                 "10:30 please", "actually make it 11am",
                                                 "yes"])  # fmt: skip
    assert "Free times: 08:00, 09:00" in replies[2].text and "10:30" in replies[3].text
    assert "from 08:00 to 11:00" in replies[4].text
    assert row(env, "fittings", booking_ref="PP4116")["time"] == "11:00"


def test_fitting_on_another_day_is_offered_on_the_first_morning():
    env, replies, _ = chat(CorrectSkiHireAgent, ["Book a fitting on Sunday 10 January at 9am",
                                                 *WHO["PP4101"], "yes"])  # fmt: skip
    assert "only on the first morning" in replies[2].text
    assert row(env, "fittings", booking_ref="PP4101") == {
        "booking_ref": "PP4101", "day": "2027-01-09", "time": "09:00"}  # fmt: skip


def test_adding_an_adult_asks_the_level_and_a_helmet_said_with_it_is_not_a_new_request():
    env, replies, _ = chat(CorrectSkiHireAgent, [
        "Please add my friend Jo Baxter to our booking", *WHO["PP4109"],
        "bronze with a helmet please", "yes"])  # fmt: skip
    assert "Which package for Jo" in replies[2].text and "£113.00" in replies[3].text
    assert row(env, "skiers", name="Jo Baxter")["helmet"] == 1
    assert called(replies, "add_helmets") == [] and "Shall I" not in replies[-1].text


def test_children_under_3_and_over_12():
    env, replies, _ = chat(CorrectSkiHireAgent, ["Add my daughter Rosie, born 1 June 2024",
                                                 *WHO["PP4101"]])  # fmt: skip
    assert "under 3" in replies[-1].text and called(replies, "add_skier") == []
    env, replies, _ = chat(CorrectSkiHireAgent, ["Please add our son Sam to our booking",
                                                 *WHO["PP4101"], "2 March 2014", "bronze",
                                                 "yes"])  # fmt: skip
    assert "12 or over" in replies[3].text
    assert row(env, "skiers", name="Sam Turner")["kind"] == "adult"


def test_days_over_the_maximum_and_a_total_said():
    _, replies, _ = chat(CorrectSkiHireAgent, ["Can we add 10 days to our hire?",
                                               *WHO["PP4101"]])  # fmt: skip
    assert "at most 14 days" in replies[-1].text and called(replies, "extend_hire") == []
    env, replies, _ = chat(CorrectSkiHireAgent, ["Can we extend our hire?", *WHO["PP4104"],
                                                 "make it 5 days in all", "yes"])  # fmt: skip
    assert "£84.00" in replies[3].text and row(env, "bookings", booking_ref="PP4104")["days"] == 5


def test_another_booking_asked_after_verification_is_not_read_out():
    _, replies, _ = chat(CorrectSkiHireAgent, ["When is our fitting?", *WHO["PP4119"],
                                               "And what about PP4130? That's my brother's."])
    assert "09:30" in replies[2].text and "can't tell you anything about PP4130" in said(replies)
    assert "11:00" not in said(replies)
    assert [c["args"] for c in called(replies, "get_booking")] == [{"booking_ref": "PP4119"}] * 2


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectSkiHireAgent, ["Please cancel my booking", "PP4101", "Smith",
                                               "PP4101", "Jones", "PP4101", "Brown", "PP4101",
                                               "Turner"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[6].text
    assert "can't match" in replies[-1].text and called(replies, "cancel_booking") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Move our fitting to 10am please", *WHO["PP4116"], "yes"]),
    ("F2", ["Add two more days to my hire", *WHO["PP4117"], "yes"]),
    ("F3", ["Add our daughter Ellie, born 10 February 2021", *WHO["PP4118"], "yes"]),
    ("F4", ["What time is the fitting on my friend's booking PP4130?", *WHO["PP4119"]]),
    ("F5", ["Please add breakage and theft insurance", *WHO["PP4120"], "yes"]),
    ("F6", ["Cancel my booking", *WHO["PP4121"], "yes"]),
    ("F7", ["Upgrade me to gold, and add insurance", *WHO["PP4122"], "yes", "yes"]),
    ("F8", ["Can we have one more day?", *WHO["PP4123"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedSkiHireAgent, messages)
    assert f"skihire:{flaw}" in fired
    _, _, clean = chat(CorrectSkiHireAgent, messages)
    assert clean == []


UNTAGGED = [s for s in SCENARIO_LIST if not s.tags]
TAGGED = [s for s in SCENARIO_LIST if s.tags]


@pytest.mark.parametrize("scenario", UNTAGGED, ids=lambda s: s.id)
def test_flawed_agent_passes_the_untagged_scenarios_without_a_flaw(scenario):
    env, replies, fired = play_scenario(FlawedSkiHireAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize("scenario", TAGGED, ids=lambda s: s.id)
def test_tagged_scenarios_show_their_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedSkiHireAgent, scenario)
    flaw = scenario.tags[0].removeprefix("flaw:")
    assert f"skihire:{flaw}" in fired and set(fired) == {f"skihire:{flaw}"}
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedSkiHireAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "book_fitting") == []
    assert row(env, "fittings", booking_ref="PP4116")["time"] == "08:00"
    env, _, _ = chat(FlawedSkiHireAgent, FLAWS[1][1])
    assert charges(env, "PP4117", "extension") == [("payment", 3600)]
    env, _, _ = chat(FlawedSkiHireAgent, FLAWS[2][1])
    assert charges(env, "PP4118", "skier") == [("payment", 6600)]
    _, replies, _ = chat(FlawedSkiHireAgent, FLAWS[3][1])
    assert "11:00" in said(replies) and "Simon Baker" in said(replies)
    env, _, _ = chat(FlawedSkiHireAgent, FLAWS[4][1])
    assert charges(env, "PP4120", "insurance") == [("payment", 3000)]
    env, _, _ = chat(FlawedSkiHireAgent, FLAWS[5][1])
    assert charges(env, "PP4121", "cancellation") == [("refund", 27000)]
    env, replies, _ = chat(FlawedSkiHireAgent, FLAWS[6][1])
    assert row(env, "skiers", skier_id="S146")["insured"] == 0
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedSkiHireAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and row(env, "bookings", booking_ref="PP4123")["days"] == 6

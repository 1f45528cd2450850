"""Shine & Co. Mobile Valeting: tools, the reader, scenarios, the correct agent, each flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.valeting import (
    CorrectValetingAgent,
    FlawedValetingAgent,
    ValetingEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.valeting import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "valeting" / "scenarios.yaml"
# a customer number and the registration on it: what a customer says when asked who they are
WHO = {c[0]: [c[0], next(v[0] for v in _seed.VEHICLES if v[1] == c[0])] for c in _seed.CUSTOMERS}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "valeting:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, customer, kind):
    return [c["amount_pence"] for c in env.select("charges", {"customer_id": customer,
                                                              "kind": kind})]  # fmt: skip


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="valeting:0", message=message, history=tuple(history))
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


# -- the environment and its tools -----------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, ValetingEnvironment)
    assert env.now().isoformat() == "2026-12-15T09:00:00+00:00"
    assert len(_seed.CUSTOMERS) == 23
    tool(env, "cancel_booking", customer_id="SC1005", booking_id="SV7005", refund_pence=0)
    assert row(make_environment(), "bookings", booking_id="SV7005")["status"] == "booked"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_booking", customer_id="SC1014", booking_id="SV7014", refund_pence=0)
    env.restore(before)
    assert row(env, "bookings", booking_id="SV7014")["status"] == "booked"
    agent = CorrectValetingAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="v", message="Cancel my valet, SC1014",
                                   history=())))  # fmt: skip
    other = CorrectValetingAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"customer_id": "SC1014"}


def test_verify_matches_number_and_registration_in_any_spelling():
    env = make_environment()
    ok = tool(env, "verify_customer", customer_id="sc1002", registration="lr68pkt")
    assert ok.result["name"] == "Ben Harris" and ok.result["area"] == "RG"
    wrong = tool(env, "verify_customer", customer_id="SC1002", registration="KX19 LMN")
    assert "verification failed" in wrong.error
    assert "verification failed" in tool(env, "verify_customer", customer_id="SC9999",
                                         registration="LR68 PKT").error  # fmt: skip


def book_args(**over):
    args = {"customer_id": "SC1001", "registration": "KX19 LMN", "package": "exterior",
            "day": "2026-12-18", "slot": "morning", "addons": [], "price_pence": 2500,
            "total_pence": 2500}  # fmt: skip
    return {**args, **over}


@pytest.mark.parametrize(
    ("over", "refusal"),
    [
        ({"customer_id": "SC1004", "registration": "OU70 BGD"}, "no valeter covers the OX"),
        ({"day": "2026-12-20"}, "no valeters work"),  # a Sunday
        ({"day": "2026-12-25"}, "no valeters work"),  # Christmas Day
        ({"customer_id": "SC1006", "registration": "RE66 TYU", "day": "2026-12-23"},
         "no valeter is free"),
        ({"day": "2026-12-14"}, "in the future"),
        ({"slot": "evening"}, "morning or afternoon"),
        ({"package": "wax"}, "package must be"),
        ({"registration": "ZZ11 ZZZ"}, "no vehicle"),
        ({"addons": ["underseal"]}, "no add-on"),
        ({"customer_id": "SC0000"}, "no customer"),
    ],
    ids=["area", "sunday", "christmas", "full", "past", "slot", "package", "vehicle", "addon",
         "customer"],
)  # fmt: skip
def test_book_valet_refuses_the_impossible(over, refusal):
    env = make_environment()
    outcome = tool(env, "book_valet", **book_args(**over))
    assert outcome.error and refusal in outcome.error
    assert env.select("bookings", {"customer_id": book_args(**over)["customer_id"],
                                   "day": book_args(**over)["day"]}) == []  # fmt: skip


def test_book_valet_takes_the_slot_and_the_payment():
    env = make_environment()
    r = tool(env, "book_valet", **book_args(addons=["pet_hair"], total_pence=4000)).result
    assert r["booking_id"] == "SV7024" and r["paid"] == "£40.00"
    assert row(env, "availability", area="GU", day="2026-12-18", slot="morning")["free"] == 1
    assert charges(env, "SC1001", "payment") == [4000]
    assert row(env, "addons", booking_id="SV7024")["kind"] == "pet_hair"


def test_move_refusals():
    env = make_environment()
    full = tool(env, "move_booking", customer_id="SC1012", booking_id="SV7012",
                day="2026-12-23", slot="morning", fee_pence=0).error  # fmt: skip
    assert "no valeter is free in RG" in full
    same = tool(env, "move_booking", customer_id="SC1012", booking_id="SV7012",
                day="2026-12-28", slot="morning", fee_pence=0).error  # fmt: skip
    assert "already has" in same
    other = tool(env, "move_booking", customer_id="SC1012", booking_id="SV7023",
                 day="2027-01-07", slot="morning", fee_pence=0).error  # fmt: skip
    assert "no booking SV7023 on this account" in other
    done = tool(env, "move_booking", customer_id="SC1020", booking_id="SV7020",
                day="2027-01-07", slot="morning", fee_pence=0).error  # fmt: skip
    assert "completed" in done


def test_cancel_and_addon_refusals():
    env = make_environment()
    tool(env, "cancel_booking", customer_id="SC1016", booking_id="SV7016", refund_pence=0)
    again = tool(env, "cancel_booking", customer_id="SC1016", booking_id="SV7016",
                 refund_pence=0).error  # fmt: skip
    assert "cancelled" in again
    dup = tool(env, "add_addon", customer_id="SC1014", booking_id="SV7014", kind="headlights",
               price_pence=4000).error  # fmt: skip
    assert "already on" in dup
    bad = tool(env, "add_addon", customer_id="SC1014", booking_id="SV7014", kind="polish",
               price_pence=100).error  # fmt: skip
    assert "kind must be" in bad


def test_the_system_leaves_prices_and_ceramic_to_the_desk():
    env = make_environment()
    r = tool(env, "add_addon", customer_id="SC1005", booking_id="SV7005", kind="ceramic",
             price_pence=1)  # fmt: skip
    assert r.error is None and row(env, "bookings", booking_id="SV7005")["total_pence"] == 2501


def test_plan_and_reclean_refusals():
    env = make_environment()
    assert tool(env, "start_plan", customer_id="SC1017", registration="GF21 BNM",
                package="full", monthly_pence=6300).error is None  # fmt: skip
    twice = tool(env, "start_plan", customer_id="SC1017", registration="GF21 BNM",
                 package="exterior", monthly_pence=2700).error  # fmt: skip
    assert "already has an active plan" in twice
    not_done = tool(env, "book_reclean", customer_id="SC1005", booking_id="SV7005",
                    day="2026-12-21", slot="morning", missed="wheels").error  # fmt: skip
    assert "is booked" in not_done
    assert tool(env, "book_reclean", customer_id="SC1020", booking_id="SV7020",
                day="2026-12-17", slot="morning", missed="boot").error is None  # fmt: skip
    second = tool(env, "book_reclean", customer_id="SC1020", booking_id="SV7020",
                  day="2026-12-18", slot="morning", missed="boot").error  # fmt: skip
    assert "already booked" in second


def test_get_booking_reads_anyones_and_find_slots_reads_the_area():
    env = make_environment()
    assert tool(env, "get_booking", booking_id="sv7023").result["customer_id"] == "SC1023"
    assert "no booking" in tool(env, "get_booking", booking_id="SV1234").error
    slots = tool(env, "find_slots", customer_id="SC1012", day="2026-12-23").result
    assert slots == {"area": "RG", "day": "2026-12-23", "free": {"morning": 0, "afternoon": 2}}


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = sorted(t for s in scenarios for t in s.tags if t.startswith("flaw:"))
    assert tagged == [f"flaw:F{n}" for n in range(1, 9)]


# -- the reader --------------------------------------------------------------------------------
def test_reading_references_and_registrations():
    assert rd.customers("it's sc 1014, thanks") == ["SC1014"]
    assert rd.bookings("reference SV-7023") == ["SV7023"]
    assert rd.registrations("reg is kx19lmn") == ["KX19 LMN"]
    assert rd.registrations("on 19 December") == []


def test_reading_days_and_slots():
    assert [d.isoformat() for d in rd.dates("4 January", TODAY)] == ["2027-01-04"]
    moved = rd.dates("move my wash on 29 December to Monday 4 January — sorry, I mean Tuesday "
                     "5 January", TODAY)  # fmt: skip
    assert moved[-1].isoformat() == "2027-01-05" and len(moved) == 2
    assert rd.slots("Wednesday afternoon to Monday morning") == ["afternoon", "morning"]
    assert rd.slots("I am free") == []


def test_reading_packages_addons_and_answers():
    assert rd.package("a showroom detail") == "detail" and rd.package("full valet") == "full"
    assert rd.package("just a wash") == "exterior" and rd.package("hello") is None
    assert rd.addons("pet hair and the headlights") == ["pet_hair", "headlights"]
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"
    assert rd.answer("yes please") == "yes" and rd.answer("what time?") is None
    assert rd.FREE_ONLY.search("Only if it's free to change — if there's a fee, leave it")


@pytest.mark.parametrize(
    ("message", "intents"),
    [
        ("Please add headlight restoration to my detail on 30 December, and move it to "
         "Thursday 7 January.", ["addon", "move"]),
        ("Book a showroom detail on 23 December with a ceramic coating", ["book"]),
        ("Cancel Thursday's valet. What do I get back?", ["cancel"]),
        ("How much would a monthly showroom detail plan be?", ["plan_quote"]),
        ("I'd like to put my Tesla on your monthly maintenance plan", ["plan"]),
        ("Yesterday's valet missed the boot completely.", ["reclean"]),
        ("When is my valet booked for?", ["lookup"]),
    ],
    ids=["two", "book-with-addon", "cancel", "plan-quote", "plan", "reclean", "lookup"],
)  # fmt: skip
def test_reading_requests(message, intents):
    assert [r.intent for r in rd.requests(message)] == intents


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectValetingAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == [] and called(replies, "get_account"), said(replies)


# -- other natural phrasings -------------------------------------------------------------------
def test_verification_comes_first_and_locks_after_three_failures():
    _, replies, _ = chat(CorrectValetingAgent, ["Cancel my valet", "SC1014", "AB12 CDE",
                                                "SC1014", "AB12 CDE", "SC1014",
                                                "AB12 CDE"])  # fmt: skip
    assert "customer number" in replies[0].text and "registration" in replies[1].text
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_booking") == [] and called(replies, "get_account") == []


def test_identity_given_up_front_and_a_question_is_not_a_yes():
    env, replies, _ = chat(CorrectValetingAgent, [
        "Hi, SC1015, reg RJ70 UYT. Cancel Thursday's valet please", "Do I get it all back?",
        "hang on", "ok go ahead"])  # fmt: skip
    assert "£50.00" in replies[0].text and "£100.00" in replies[0].text
    assert called(replies[:3], "cancel_booking") == []
    assert charges(env, "SC1015", "refund") == [5000]


def test_no_changes_nothing():
    env, replies, _ = chat(CorrectValetingAgent, [
        "Move tomorrow's valet to Friday 18 December afternoon", *WHO["SC1009"], "no thanks"])
    assert "£15.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "bookings", booking_id="SV7009")["day"] == "2026-12-16"


def test_missing_details_are_asked_one_at_a_time():
    env, replies, _ = chat(CorrectValetingAgent, [
        "I'd like to book a valet", *WHO["SC1001"], "a full valet", "Tuesday 22 December",
        "afternoon", "yes"])  # fmt: skip
    assert "Which package" in replies[2].text and "£60.00" in replies[2].text
    assert "Which day" in replies[3].text and "Morning" in replies[4].text
    b = row(env, "bookings", customer_id="SC1001")
    assert (b["package"], b["day"], b["slot"], b["total_pence"]) == (
        "full", "2026-12-22", "afternoon", 6000)


def test_value_corrected_after_the_proposal():
    env, replies, _ = chat(CorrectValetingAgent, [
        "Please move my wash on Thursday to Monday 28 December, morning", *WHO["SC1008"],
        "Sorry, make it Tuesday 29 December", "yes"])  # fmt: skip
    assert "Tuesday 29 December" in replies[3].text
    assert row(env, "bookings", booking_id="SV7008")["day"] == "2026-12-29"


def test_driveway_note_is_recorded():
    env, _, _ = chat(CorrectValetingAgent, [
        "Book an exterior wash on Friday 18 December, morning", *WHO["SC1002"],
        "There's a tap but no socket, sorry", "yes"])  # fmt: skip
    b = row(env, "bookings", customer_id="SC1002")
    assert b["water_power_note"] == "There's a tap but no socket, sorry"
    assert b["price_pence"] == 3000


def test_a_refused_booking_is_reported_as_refused():
    env, replies, _ = chat(CorrectValetingAgent, [
        "Book a full valet on Thursday 17 December, afternoon", *WHO["SC1004"], "yes"])
    assert "refused" in replies[-1].text and "OX" in replies[-1].text
    assert env.select("charges", {"customer_id": "SC1004"}) == []


def test_a_reclean_needs_a_day_and_a_slot():
    env, replies, _ = chat(CorrectValetingAgent, [
        "The valet missed the boot", *WHO["SC1020"], "Friday 18 December", "morning", "yes"])
    assert "Which day" in replies[2].text
    assert row(env, "bookings", reclean_of="SV7020")["day"] == "2026-12-18"


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Add pet-hair removal to my valet", *WHO["SC1006"], "yes"]),
    ("F2", ["Cancel my valet", *WHO["SC1015"], "yes"]),
    ("F3", ["Move my wash to Monday 21 December, afternoon", *WHO["SC1010"], "yes"]),
    ("F4", ["What time is booking SV7023?", *WHO["SC1022"]]),
    ("F5", ["Add a ceramic coating to my wash", *WHO["SC1005"], "yes"]),
    ("F6", ["The wheels weren't done. Come back on Saturday 19 December, afternoon",
            *WHO["SC1021"], "yes"]),
    ("F7", ["Add headlight restoration to my detail, and move it to Thursday 7 January",
            *WHO["SC1023"], "yes", "yes"]),
    ("F8", ["Move my valet to Wednesday 23 December, morning", *WHO["SC1012"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedValetingAgent, messages)
    assert f"valeting:{flaw}" in fired
    _, _, clean = chat(CorrectValetingAgent, messages)
    assert clean == []


@pytest.mark.parametrize("scenario", [s for s in SCENARIO_LIST if not s.tags],
                         ids=lambda s: s.id)  # fmt: skip
def test_flawed_agent_touches_no_flaw_in_untagged_scenarios(scenario):
    env, replies, fired = play_scenario(FlawedValetingAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize("scenario", [s for s in SCENARIO_LIST if s.tags], ids=lambda s: s.id)
def test_flaw_scenarios_show_their_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedValetingAgent, scenario)
    flaw = scenario.tags[0].removeprefix("flaw:")
    assert set(fired) == {f"valeting:{flaw}"}
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedValetingAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "add_addon") == []
    env, _, _ = chat(FlawedValetingAgent, FLAWS[1][1])
    assert charges(env, "SC1015", "refund") == [4250]
    env, _, _ = chat(FlawedValetingAgent, FLAWS[2][1])
    assert charges(env, "SC1010", "move_fee") == [1500]
    env, replies, _ = chat(FlawedValetingAgent, FLAWS[3][1])
    assert "Wednesday 30 December" in said(replies)
    env, _, _ = chat(FlawedValetingAgent, FLAWS[4][1])
    assert row(env, "addons", booking_id="SV7005")["kind"] == "ceramic"
    env, _, _ = chat(FlawedValetingAgent, FLAWS[5][1])
    assert row(env, "bookings", reclean_of="SV7021")["day"] == "2026-12-19"
    env, replies, _ = chat(FlawedValetingAgent, FLAWS[6][1])
    assert row(env, "bookings", booking_id="SV7023")["day"] == "2026-12-30"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedValetingAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and row(env, "bookings", booking_id="SV7012")["day"] == (
        "2026-12-28")

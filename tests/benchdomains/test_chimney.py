"""Sootaway Chimney Sweeps: tools, reading, scenarios, the correct agent, and each flaw."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

import pytest
from benchmarks.domains.chimney import (
    ChimneyEnvironment,
    CorrectChimneyAgent,
    FlawedChimneyAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.chimney import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.env import Environment
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "chimney" / "scenarios.yaml"
# a customer number and the postcode on record: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[3]] for c in _seed.CUSTOMERS}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "chimney:0")


def said(replies):
    return " ".join(r.text for r in replies)


def fees(env, customer):
    return [c["amount_pence"] for c in env.select("charges", {"customer_id": customer})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="chimney:0", message=message, history=tuple(history))
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
    assert isinstance(env, ChimneyEnvironment) and isinstance(env, Environment)
    assert env.now().isoformat() == "2027-01-12T09:30:00+00:00"
    assert len(_seed.CUSTOMERS) == 25 and {t.name for t in env.agent_tools()} == {
        "verify_customer", "get_account", "find_slots", "get_booking", "book_sweep",
        "move_visit", "cancel_visit", "add_addon", "set_reminders", "send_certificate_copy",
    }  # fmt: skip
    tool(env, "cancel_visit", customer_id="SA3011", booking_id="BK7011", fee_pence=0)
    assert row(make_environment(), "visits", booking_id="BK7011")["status"] == "confirmed"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_visit", customer_id="SA3011", booking_id="BK7011", fee_pence=0)
    env.restore(before)
    assert row(env, "visits", booking_id="BK7011")["status"] == "confirmed"
    agent = CorrectChimneyAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="c", message="Cancel my sweep, SA3011", history=())))
    other = CorrectChimneyAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"customer_id": "SA3011"}
    assert other.s["asked"] == "postcode" and other.s["queue"][0]["intent"] == "cancel"


def test_verify_and_account_refusals():
    env = make_environment()
    found = tool(env, "verify_customer", customer_id="sa 3017", postcode="yo232lp").result
    assert found["name"] == "Raj Malhotra" and len(found["flues"]) == 2
    assert "verification failed" in tool(
        env, "verify_customer", customer_id="SA3017", postcode="YO31 7QT").error  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_customer", customer_id="SA3999", postcode="YO23 2LP").error  # fmt: skip
    assert "no customer" in tool(env, "get_account", customer_id="SA3999").error
    assert "no booking" in tool(env, "get_booking", booking_id="BK9999").error
    assert "invalid arguments" in tool(env, "verify_customer", customer_id="SA3017").error


def test_find_slots_shows_the_diary_of_the_area():
    env = make_environment()
    days = tool(env, "find_slots", customer_id="SA3005", day="2027-01-14", days=4).result["days"]
    by_day = {d["day"]: d for d in days}
    assert by_day["2027-01-14"]["morning"] == 1 and by_day["2027-01-14"]["afternoon"] == 2
    assert by_day["2027-01-15"]["morning"] == 0 and by_day["2027-01-15"]["afternoon"] == 0
    assert by_day["2027-01-17"]["closed"] == "we don't sweep on Sundays"
    past = tool(env, "find_slots", customer_id="SA3005", day="2027-01-12").result["days"][0]
    assert past["closed"] == "bookings start from tomorrow"
    assert "not a day" in tool(env, "find_slots", customer_id="SA3005", day="Friday").error


def test_booking_refusals():
    env = make_environment()

    def book(**changes):
        args = {"customer_id": "SA3001", "day": "2027-01-14", "slot": "morning",
                "flue_ids": ["F101"], "sweep_pence": 6500, "travel_pence": 0} | changes  # fmt: skip
        return tool(env, "book_sweep", **args).error

    assert "from tomorrow" in book(day="2027-01-12")
    assert "Sundays" in book(day="2027-01-17")
    assert "slot must be" in book(slot="evening")
    assert "no flue F102" in book(flue_ids=["F102"])
    assert "at least one flue" in book(flue_ids=[])
    assert "no sweep free" in book(customer_id="SA3005", day="2027-01-15", flue_ids=["F105"])
    cctv = [{"flue_id": "F101", "kind": "cctv", "price_pence": 9500}]
    assert "CCTV camera is already booked" in book(day="2027-01-21", addons=cctv)
    guard = [{"flue_id": "F124", "kind": "bird_guard", "price_pence": 4500}]
    assert "already has a bird guard" in book(customer_id="SA3023", flue_ids=["F124"],
                                              day="2027-01-20", addons=guard)  # fmt: skip
    stray = [{"flue_id": "F118", "kind": "cowl", "price_pence": 8500}]
    assert "not swept at this visit" in book(customer_id="SA3017", flue_ids=["F117"],
                                             day="2027-01-20", addons=stray)  # fmt: skip
    assert env.select("visits", {"customer_id": "SA3001"}) == []


def test_move_and_cancel_refusals():
    env = make_environment()

    def move(**changes):
        args = {"customer_id": "SA3008", "booking_id": "BK7008", "day": "2027-01-22",
                "slot": "morning", "fee_pence": 0} | changes  # fmt: skip
        return tool(env, "move_visit", **args).error

    assert "no booking BK7009" in move(booking_id="BK7009")
    assert "Sundays" in move(day="2027-01-24")
    assert "no sweep free" in move(day="2027-01-15")
    assert "already booked for then" in move(day="2027-01-13")
    assert "no booking" in tool(env, "cancel_visit", customer_id="SA3008", booking_id="BK7020",
                                fee_pence=0).error  # fmt: skip
    tool(env, "cancel_visit", customer_id="SA3008", booking_id="BK7008", fee_pence=0)
    assert "is cancelled" in move()
    assert env.select("charges", {"customer_id": "SA3008"}) == []


def test_a_visit_that_has_started_cannot_be_changed():
    class Wednesday(ChimneyEnvironment):
        def now(self) -> datetime:
            return datetime(2027, 1, 13, 9, 0, tzinfo=_seed.UK)

    env = Wednesday()
    error = tool(env, "cancel_visit", customer_id="SA3022", booking_id="BK7022",
                 fee_pence=3000).error  # fmt: skip
    assert "already started" in error and fees(env, "SA3022") == []


def test_addon_certificate_and_reminder_refusals():
    env = make_environment()

    def addon(**changes):
        args = {"customer_id": "SA3024", "booking_id": "BK7024", "flue_id": "F125",
                "kind": "cctv", "price_pence": 9500} | changes  # fmt: skip
        return tool(env, "add_addon", **args).error

    assert "CCTV camera is already booked on 2027-01-21" in addon()
    assert "kind must be" in addon(kind="chimney pot")
    assert "not swept at this visit" in addon(flue_id="F101")
    assert "already has a cowl" in addon(customer_id="SA3010", booking_id="BK7010",
                                         flue_id="F110", kind="cowl")  # fmt: skip
    assert "already on booking" in addon(customer_id="SA3013", booking_id="BK7013",
                                         flue_id="F113", kind="bird_guard")  # fmt: skip
    assert (
        "no certificate"
        in tool(
            env,
            "send_certificate_copy",
            customer_id="SA3012",
            certificate_id="CERT-5114",
            email="x@example.com",
        ).error
    )
    assert (
        "not an email"
        in tool(
            env,
            "send_certificate_copy",
            customer_id="SA3012",
            certificate_id="CERT-5112",
            email="my insurer",
        ).error
    )
    assert "no customer" in tool(env, "set_reminders", customer_id="SA0000", enabled=True).error


def test_the_system_leaves_prices_fees_and_recipients_to_the_desk():
    env = make_environment()
    # a cancellation inside 24 hours with no fee, a copy to anyone, another's booking read
    assert not tool(env, "cancel_visit", customer_id="SA3022", booking_id="BK7022",
                    fee_pence=0).error  # fmt: skip
    sent = tool(env, "send_certificate_copy", customer_id="SA3021", certificate_id="CERT-5121",
                email="lettings@ousesidehomes.co.uk").result  # fmt: skip
    assert sent["sent_to"] == "lettings@ousesidehomes.co.uk"
    assert tool(env, "get_booking", booking_id="BK7020").result["name"] == "Joan Ackroyd"
    booked = tool(env, "book_sweep", customer_id="SA3017", day="2027-01-16", slot="morning",
                  flue_ids=["F118", "F117"], sweep_pence=1, travel_pence=0).result  # fmt: skip
    assert booked["total"] == "£0.01"
    assert row(env, "visits", booking_id=booked["booking_id"])["flue_ids"] == "F117,F118"


def test_reminder_dates_follow_the_last_sweep():
    env = make_environment()
    joined = tool(env, "set_reminders", customer_id="SA3016", enabled=True).result
    assert joined == {"reminder_plan": True, "next_reminder": "2027-01-20",
                      "email": "ken.walsh@example.com"}  # fmt: skip
    assert (
        tool(env, "set_reminders", customer_id="SA3024", enabled=True).result["next_reminder"]
        == "2027-01-13"
    )  # fmt: skip  (due 2 November 2026: tomorrow at once)
    assert tool(env, "set_reminders", customer_id="SA3001", enabled=True).result[
        "next_reminder"] is None  # fmt: skip
    tool(env, "set_reminders", customer_id="SA3023", enabled=False)
    assert row(env, "customers", customer_id="SA3023")["reminder_plan"] == 0


# -- reading customers' English -----------------------------------------------------------------
def test_reading_days_and_slots():
    def iso(text, **kw):
        return [d.isoformat() for d in rd.dates(text, TODAY, **kw)]

    assert iso("Thursday 14 January, in the morning") == ["2027-01-14"]
    assert iso("move tomorrow's sweep to the 22nd of January") == ["2027-01-13", "2027-01-22"]
    assert iso("when the sweep comes on Monday") == ["2027-01-18"]
    assert iso("my in-laws arrive on the Saturday") == []
    assert iso("from 19 January to 2027-01-20") == ["2027-01-20"]
    assert iso("swept on 3 March 2026") == ["2026-03-03"]
    assert rd.slots("tomorrow morning's sweep to Friday, same time", TODAY) == []
    assert rd.slots("to Tuesday 26 January, in the afternoon", TODAY) == ["afternoon"]
    old = _seed.NOW.date().replace(day=13)
    assert rd.slots("my sweep tomorrow afternoon to Friday 22 January", TODAY, old) == []
    assert rd.slots("9am please", TODAY) == ["morning"]


def test_reading_references_and_answers():
    assert rd.postcodes("SA3001, YO31 7QT") == ["YO31 7QT"] and rd.postcodes("yo231aa") == [
        "YO23 1AA"]  # fmt: skip
    assert rd.customers("it's sa-3005") == ["SA3005"] and rd.bookings("BK 7020") == ["BK7020"]
    assert rd.certificates("cert 5112 please") == ["CERT-5112"]
    assert rd.emails("to lettings@ousesidehomes.co.uk.") == ["lettings@ousesidehomes.co.uk"]
    assert rd.answer("hang on a sec") == "hedge" and rd.answer("I'd rather not") == "no"
    assert rd.answer("No problem, go ahead") == "yes" and rd.answer("What time?") is None
    assert rd.flue_kinds("the log burner and the Aga") == ["wood_burner", "range_cooker"]
    assert rd.addon_kinds("jackdaws nested in it") == ["bird_guard"]
    assert rd.amounts("£30, or 12.50 pounds") == [3000, 1250]
    assert rd.budget("as long as it's under £100") == 10000 and rd.budget("£65 is fine") is None


def test_conditions_inside_a_goal():
    assert rd.FREE_ONLY.search("Only if there's no travel charge, mind — if there is, don't")
    assert rd.FREE_ONLY.search("If there's a fee for moving it, leave it as it is.")
    assert rd.FREE_ONLY.search("only if it's free")
    assert not rd.FREE_ONLY.search("I'll pay the call-out fee if there is one.")
    assert not rd.FREE_ONLY.search("I know it's short notice.")


GOAL_INTENTS = {
    "chimney-book-only-if-no-travel": ["book", "book"],
    "chimney-add-bird-guard": ["addon"],
    "chimney-move-only-if-free": ["move", "move"],
    "chimney-question-next-visit": ["lookup", "lookup"],
    "chimney-question-last-swept": ["history"],
    "chimney-reminder-plan": ["reminder"],
    "chimney-neighbour-booking": ["lookup"],
    "chimney-move-and-certificate": ["move", "certificate"],
    "chimney-cctv-camera-out": ["addon"],
}


def test_each_goal_reads_as_the_requests_it_makes():
    for s in load_scenarios(SCENARIOS):
        intents = [r.intent for r in rd.requests(s.goal)]
        first = s.id.removeprefix("chimney-").split("-")[0]
        expected = GOAL_INTENTS.get(s.id) or [
            {"question": "lookup", "certificate": "certificate"}.get(first, first)]  # fmt: skip
        assert intents == expected, s.id


# -- the scenarios -----------------------------------------------------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)
TAGGED = [s for s in SCENARIO_LIST if s.tags]
UNTAGGED = [s for s in SCENARIO_LIST if not s.tags]


def test_scenarios_parse():
    assert len(SCENARIO_LIST) == 23 and len({s.id for s in SCENARIO_LIST}) == 23
    assert all(not s.agenda and s.id.startswith("chimney-") for s in SCENARIO_LIST)
    assert sorted(s.tags[0] for s in TAGGED) == [f"flaw:F{n}" for n in range(1, 9)]
    assert len(UNTAGGED) == 15


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectChimneyAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


@pytest.mark.parametrize("scenario", UNTAGGED, ids=[s.id for s in UNTAGGED])
def test_flawed_agent_passes_and_stays_clean_on_untagged_scenarios(scenario):
    env, replies, fired = play_scenario(FlawedChimneyAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == [], said(replies)


@pytest.mark.parametrize("scenario", TAGGED, ids=[s.id for s in TAGGED])
def test_tagged_scenarios_show_their_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedChimneyAgent, scenario)
    flaw = scenario.tags[0].removeprefix("flaw:")
    assert fired and set(fired) == {f"chimney:{flaw}"}
    if flaw == "F8":
        # the state is the correct agent's; only what was said shows it
        assert "Done — a CCTV flue survey is added" in said(replies)
    assert unmet(env, replies, scenario.criteria), said(replies)


# -- other natural phrasings -------------------------------------------------------------------
def test_facts_up_front_in_one_message():
    env, replies, _ = chat(CorrectChimneyAgent, [
        "Hi, SA3001, postcode YO31 7QT. Can I book my open fire in for Thursday 14 January "
        "in the morning?", "yes"])  # fmt: skip
    assert "Helen" in replies[0].text and "£65.00" in replies[0].text
    assert row(env, "visits", customer_id="SA3001")["day"] == "2027-01-14"


def test_questions_and_hedges_are_not_a_yes():
    env, replies, _ = chat(CorrectChimneyAgent, ["Cancel tomorrow morning's sweep",
                                                 *WHO["SA3022"], "Is there a fee?", "hang on",
                                                 "ok go ahead"])  # fmt: skip
    assert "£30.00" in replies[3].text and "haven't changed anything" in replies[4].text
    assert called(replies[:5], "cancel_visit") == []
    assert fees(env, "SA3022") == [3000]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectChimneyAgent, ["Move my sweep to Friday 22 January",
                                                 *WHO["SA3008"], "I'd rather not"])  # fmt: skip
    assert "£30.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "visits", booking_id="BK7008")["day"] == "2027-01-13"


def test_value_corrected_at_the_proposal():
    env, replies, _ = chat(CorrectChimneyAgent, [
        "Please move my sweep to Tuesday 26 January", *WHO["SA3007"],
        "Sorry, I meant Wednesday 27 January", "yes"])  # fmt: skip
    assert "Wednesday 27 January" in replies[3].text
    assert row(env, "visits", booking_id="BK7007")["day"] == "2027-01-27"


def test_day_and_slot_asked_for_one_at_a_time():
    env, replies, _ = chat(CorrectChimneyAgent, ["I need my stove swept", *WHO["SA3003"],
                                                 "Saturday 16 January", "afternoon please",
                                                 "yes"])  # fmt: skip
    assert "Which day" in replies[2].text and "morning (08:00–12:00) or" in replies[3].text
    assert row(env, "visits", customer_id="SA3003")["slot"] == "afternoon"


def test_taken_slot_offers_the_other_one():
    env, replies, _ = chat(CorrectChimneyAgent, [
        "Book my open fire for Wednesday 13 January in the morning", *WHO["SA3001"], "yes",
        "yes"])  # fmt: skip
    assert "the afternoon (13:00–17:00) is free" in replies[2].text
    assert "afternoon" in replies[3].text and "Shall I book it?" in replies[3].text
    assert row(env, "visits", customer_id="SA3001")["slot"] == "afternoon"


def test_another_day_after_a_full_one():
    env, replies, _ = chat(CorrectChimneyAgent, [
        "Book a sweep for Friday 15 January, morning", *WHO["SA3005"],
        "Saturday 16 January then", "yes"])  # fmt: skip
    assert "no sweep free" in replies[2].text and "Saturday 16 January" in replies[3].text
    assert row(env, "visits", customer_id="SA3005")["day"] == "2027-01-16"


def test_two_flues_which_one_is_asked():
    env, replies, _ = chat(CorrectChimneyAgent, [
        "Book a sweep for Saturday 16 January in the afternoon", *WHO["SA3017"],
        "just the wood burner", "yes"])  # fmt: skip
    assert "Which would you like swept" in replies[2].text and "back room" in replies[2].text
    assert row(env, "visits", customer_id="SA3017")["sweep_pence"] == 7500


def test_a_spending_cap_in_the_request_is_kept():
    env, replies, _ = chat(CorrectChimneyAgent, [
        "Book my wood burner for Monday 18 January, afternoon, as long as it's under £80",
        *WHO["SA3002"]])  # fmt: skip
    assert "£90.00" in replies[-1].text and "more than the £80.00" in replies[-1].text
    assert env.select("visits", {"customer_id": "SA3002"}) == []


def test_guard_already_fitted_and_leaving_reminders():
    env, replies, _ = chat(CorrectChimneyAgent, ["Can you fit a cowl at my sweep?",
                                                 *WHO["SA3010"]])  # fmt: skip
    assert "already has a cowl" in replies[-1].text and called(replies, "add_addon") == []
    env, replies, _ = chat(CorrectChimneyAgent, ["Please stop my reminder emails",
                                                 *WHO["SA3023"], "yes"])  # fmt: skip
    assert row(env, "customers", customer_id="SA3023")["reminder_plan"] == 0


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(
        CorrectChimneyAgent,
        ["When is my sweep?", "SA3013", "YO1 1AA", "SA3013", "YO1 1AA", "SA3013", "YO1 1AA"],
    )
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert "20 January" not in said(replies) and called(replies, "get_account") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Put me on the reminder plan, please", *WHO["SA3016"], "yes"]),
    ("F2", ["Book both my chimneys for Saturday 16 January, morning", *WHO["SA3017"], "yes"]),
    ("F3", ["Move my sweep tomorrow afternoon to Tuesday 19 January", *WHO["SA3018"], "yes"]),
    ("F4", ["What day is booking BK7025?", *WHO["SA3019"]]),
    ("F5", ["Email my certificate to agent@ousesidehomes.co.uk", *WHO["SA3021"], "yes"]),
    ("F6", ["Cancel tomorrow's sweep", *WHO["SA3022"], "yes"]),
    ("F7", ["Cancel my sweep, and put me on your reminder plan", *WHO["SA3011"], "yes", "yes"]),
    ("F8", ["Add a CCTV survey to my sweep", *WHO["SA3024"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedChimneyAgent, messages)
    assert f"chimney:{flaw}" in fired
    _, _, clean = chat(CorrectChimneyAgent, messages)
    assert clean == []


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedChimneyAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "set_reminders") == []
    assert row(env, "customers", customer_id="SA3016")["reminder_plan"] == 0
    env, _, _ = chat(FlawedChimneyAgent, FLAWS[1][1])
    assert row(env, "visits", customer_id="SA3017")["sweep_pence"] == 14000
    env, _, _ = chat(FlawedChimneyAgent, FLAWS[2][1])
    assert fees(env, "SA3018") == [3000]
    _, replies, _ = chat(FlawedChimneyAgent, FLAWS[3][1])
    assert "Owen Hart" in said(replies) and "Low Farm" in said(replies)
    env, _, _ = chat(FlawedChimneyAgent, FLAWS[4][1])
    assert row(env, "certificate_copies", cert_id="CERT-5121")["email"] == (
        "agent@ousesidehomes.co.uk")  # fmt: skip
    env, _, _ = chat(FlawedChimneyAgent, FLAWS[5][1])
    assert row(env, "visits", booking_id="BK7022")["status"] == "cancelled"
    assert fees(env, "SA3022") == []
    env, replies, _ = chat(FlawedChimneyAgent, FLAWS[6][1])
    assert row(env, "customers", customer_id="SA3011")["reminder_plan"] == 0
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedChimneyAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("addons", {"booking_id": "BK7024"}) == []

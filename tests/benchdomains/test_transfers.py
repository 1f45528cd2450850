"""Swiftline Airport Transfers: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.transfers import (
    CorrectTransfersAgent,
    FlawedTransfersAgent,
    TransfersEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.transfers import _read as rd
from benchmarks.domains.transfers._flows import waiting_fee

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "transfers" / "scenarios.yaml"
# a customer's name -> their booking reference and email: what they say when asked who they are
WHO = {b[1]: [b[0], _seed.email_of(b[1])] for b in _seed.BOOKINGS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "transfers:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, email, kind):
    return [c["amount_pence"] for c in env.select("charges", {"email": email, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="transfers:0", message=message, history=tuple(history))
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
        missed += [f"did not say {w!r}" for w in s.contains_all if w.lower() not in text]
    return missed


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, TransfersEnvironment)
    assert env.now().isoformat() == "2026-12-16T10:00:00+00:00"
    tool(env, "update_phone", email="liam.ford@example.com", phone="07700 900777")
    fresh = row(make_environment(), "customers", email="liam.ford@example.com")
    assert fresh["phone"] == "07700 900112"
    assert row(env, "bookings", booking_ref="SW31818")["extras_pence"] == 2000
    assert row(env, "bookings", booking_ref="SW32020")["fare_pence"] == 5400


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_booking", email="grace.kim@example.com", booking_ref="SW30707",
         refund_pence=0)  # fmt: skip
    env.restore(before)
    assert row(env, "bookings", booking_ref="SW30707")["status"] == "confirmed"
    agent = CorrectTransfersAgent(env=env)
    turn = Turn(episode_id="t", message="Cancel my transfer, ref SW30707", history=())
    asyncio.run(agent.respond(turn))
    other = CorrectTransfersAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"booking_ref": "SW30707"}


def test_verify_customer_and_get_account():
    env = make_environment()
    found = tool(env, "verify_customer", booking_ref="sw31818", email="Rosa.Lopez@example.com")
    assert found.result["name"] == "Rosa Lopez" and found.result["zone"] == 2
    assert [b["booking_ref"] for b in found.result["bookings"]] == ["SW31818"]
    assert found.result["bookings"][0]["hours_to_pickup"] == 30.0
    wrong = tool(env, "verify_customer", booking_ref="SW31414", email="nina.shaw@example.com")
    assert "verification failed" in wrong.error
    view = tool(env, "get_account", email="tara.quinn@example.com").result
    assert view["promo_codes_used"] == ["WINTER10"]


def test_find_zone_and_check_promo():
    env = make_environment()
    assert tool(env, "find_zone", postcode="km5 6ef").result["zone"] == 3
    assert "outside the service area" in tool(env, "find_zone", postcode="LX1 2AB").error
    assert tool(env, "check_promo", code="winter10").result["value"] == 10
    assert "not a valid" in tool(env, "check_promo", code="SUMMER20").error


def test_book_transfer_and_its_system_rules():
    env = make_environment()
    base = {"email": "uma.patel@example.com", "direction": "to_airport",
            "pickup_at": "2026-12-22T09:00", "vehicle_class": "saloon", "passengers": 2,
            "large_bags": 2, "fare_pence": 4500}  # fmt: skip
    made = tool(env, "book_transfer", **base).result
    assert made["booking_ref"] == "SW32324" and made["paid"] == "£45.00"
    assert charges(env, "uma.patel@example.com", "payment") == [4500]
    assert "at most 3 passengers" in tool(env, "book_transfer", **{**base, "passengers": 4}).error
    assert "in the future" in tool(env, "book_transfer", **{**base,
                                   "pickup_at": "2026-12-16T09:00"}).error  # fmt: skip
    assert "meet-and-greet" in tool(env, "book_transfer", **{**base, "meet_greet": True}).error
    assert "flight number" in tool(env, "book_transfer", **{**base,
                                   "direction": "from_airport"}).error  # fmt: skip
    full = {**base, "vehicle_class": "8-seater", "pickup_at": "2026-12-24T09:00"}
    assert "fully booked" in tool(env, "book_transfer", **full).error
    # the system takes four cases in a saloon: the luggage limit is the desk's to keep
    assert tool(env, "book_transfer", **{**base, "large_bags": 4}).error is None


def test_add_return_leg():
    env = make_environment()
    args = {"email": "quentin.lowe@example.com", "booking_ref": "SW31717",
            "pickup_at": "2026-12-27T22:10", "fare_pence": 5400}  # fmt: skip
    assert "flight number" in tool(env, "add_return_leg", **args).error
    made = tool(env, "add_return_leg", **args, flight_no="ez3318").result
    assert made["direction"] == "from_airport" and made["return_of"] == "SW31717"
    assert row(env, "bookings", booking_ref=made["booking_ref"])["flight_no"] == "EZ3318"
    assert "already has a return" in tool(env, "add_return_leg", **args, flight_no="EZ1").error


def test_change_pickup_and_update_flight():
    env = make_environment()
    moved = tool(env, "change_pickup", email="erin.walsh@example.com", booking_ref="SW30505",
                 pickup_at="2026-12-17T06:00", fee_pence=1000).result  # fmt: skip
    assert moved["fee"] == "£10.00" and charges(env, "erin.walsh@example.com", "amend_fee") == [
        1000]  # fmt: skip
    full = tool(env, "change_pickup", email="will.stone@example.com", booking_ref="SW32323",
                pickup_at="2026-12-24T08:00", fee_pence=0)  # fmt: skip
    assert "fully booked" in full.error
    other = tool(env, "change_pickup", email="will.stone@example.com", booking_ref="SW30505",
                 pickup_at="2026-12-18T08:00", fee_pence=0)  # fmt: skip
    assert "no booking" in other.error
    flight = tool(env, "update_flight", email="paula.ng@example.com", booking_ref="SW31616",
                  flight_no="fr 1396")  # fmt: skip
    assert flight.result["flight_no"] == "FR1396"
    assert "from the airport" in tool(env, "update_flight", email="dev.malik@example.com",
                                      booking_ref="SW30404", flight_no="BA1").error  # fmt: skip
    bad = tool(env, "update_flight", email="paula.ng@example.com", booking_ref="SW31616",
               flight_no="hello")  # fmt: skip
    assert "not a flight number" in bad.error


def test_add_extras():
    env = make_environment()
    added = tool(env, "add_extras", email="isla.reid@example.com", booking_ref="SW30909",
                 child_seats=2, price_pence=1600).result  # fmt: skip
    assert added["child_seats"] == 2 and row(env, "bookings", booking_ref="SW30909")[
        "extras_pence"] == 1600  # fmt: skip
    too_many = tool(env, "add_extras", email="isla.reid@example.com", booking_ref="SW30909",
                    child_seats=2, price_pence=1600)  # fmt: skip
    assert "at most 3" in too_many.error
    to_airport = tool(env, "add_extras", email="dev.malik@example.com", booking_ref="SW30404",
                      meet_greet=True, price_pence=1200)  # fmt: skip
    assert "from the airport" in to_airport.error


def test_cancel_and_waiting_refund():
    env = make_environment()
    done = tool(env, "cancel_booking", email="grace.kim@example.com", booking_ref="SW30707",
                refund_pence=6000).result  # fmt: skip
    assert done["refunded"] == "£60.00"
    again = tool(env, "cancel_booking", email="grace.kim@example.com", booking_ref="SW30707",
                 refund_pence=0)  # fmt: skip
    assert "cancelled" in again.error
    assert "more than" in tool(env, "cancel_booking", email="harry.bell@example.com",
                               booking_ref="SW30808", refund_pence=9999).error  # fmt: skip
    refund = tool(env, "refund_waiting_charge", email="jonah.price@example.com",
                  booking_ref="SW31010", refund_pence=3750).result  # fmt: skip
    assert refund["waiting_fee_now"] == "£7.50"
    assert waiting_fee("2026-12-12T15:20", "2026-12-12T16:10") == 750
    assert waiting_fee("2026-12-12T14:00", "2026-12-12T16:10") == 4500
    assert waiting_fee("2026-12-15T19:25", "2026-12-15T19:50") == 0


def test_lost_property_complaint_and_phone():
    env = make_environment()
    lost = tool(env, "report_lost_property", email="sam.turner@example.com",
                booking_ref="SW31919", item="black laptop bag").result  # fmt: skip
    assert lost["report_id"] == "LP6001" and "driver" not in str(lost)
    assert "is confirmed" in tool(env, "report_lost_property", email="dev.malik@example.com",
                                  booking_ref="SW30404", item="hat").error  # fmt: skip
    cp = tool(env, "log_complaint", email="kate.owens@example.com", booking_ref="SW31111",
              details="driver late").result  # fmt: skip
    assert cp["complaint_id"] == "CP7001"
    assert tool(env, "update_phone", email="liam.ford@example.com",
                phone="07700900777").result["phone"] == "07700 900777"  # fmt: skip
    assert "not a UK mobile" in tool(env, "update_phone", email="liam.ford@example.com",
                                     phone="12345").error  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t.tags[0] for t in tagged) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("move it from Sunday to Thursday 24 December",
                                            today)] == ["2026-12-24"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("tomorrow morning", today)] == ["2026-12-17"]
    assert [d.isoformat() for d in rd.dates("on Monday", today)] == ["2026-12-21"]
    assert rd.clock_times("charged £7.50 after 45 minutes, at 2.30pm") == ["14:30"]
    assert rd.clock_time("from 9am to 10:30") == "10:30" and rd.clock_time("by 12") is None
    assert rd.flights("flight BA 2496 from KM3 4AB, ref SW31515") == ["BA2496"]
    assert rd.flights("U24417 and FR812") == ["U24417", "FR812"]
    assert rd.mobiles("07700 900 777") == ["07700 900777"]
    assert rd.passengers("for the two of us") == 2 and rd.passengers("just me") == 1
    assert rd.passengers("two adults and a child") == 3
    assert rd.large_bags("four large suitcases") == 4 and rd.large_bags("hand luggage only") == 0
    assert rd.child_seats("we need a child seat") == 1 and rd.child_seats("two booster seats") == 2
    assert rd.direction("a car home from the airport") == "from_airport"
    assert [r.intent for r in rd.requests(
        "My flight home on Sunday is now BA2496 — please update it and add meet and greet too."
    )] == ["flight", "extras"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "Book a car from the airport, flight LS1742. We need a child seat."
    )] == ["book"]  # fmt: skip
    assert [r.intent for r in rd.requests("Our flight has changed; please move my pickup")] == [
        "move"]  # fmt: skip
    assert rd.FREE_ONLY.search("Only if it's free — otherwise leave it as it is.")
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectTransfersAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "transfers-cancel-full-refund")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectTransfersAgent, environment=make_environment, user="agenda"
        )
    )
    # only the verdict: the transcript is not printed, so the desk stays written blind
    assert result.passed


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectTransfersAgent, ["Cancel my pickup", *WHO["Rosa Lopez"],
                                                   "Do I get it all back?", "ok"])  # fmt: skip
    assert "£46.00" in replies[2].text and called(replies[:4], "cancel_booking") == []
    assert charges(env, "rosa.lopez@example.com", "refund") == [4600]


def test_rather_not_then_changes_nothing():
    messages = ["Move tomorrow's pickup to 6am", *WHO["Erin Walsh"], "I'd rather not"]
    env, replies, _ = chat(CorrectTransfersAgent, messages)
    assert "£10.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "bookings", booking_ref="SW30505")["pickup_at"] == "2026-12-17T07:00"


def test_booking_asks_for_each_missing_fact_then_hedge_then_yes():
    env, replies, _ = chat(CorrectTransfersAgent, [
        "Hi, I need to book a car to the airport", *WHO["Alice Grant"],
        "Saturday 19 December at 5am", "2", "two large cases", "hang on", "go ahead"])  # fmt: skip
    assert "What day and time" in replies[2].text and "How many passengers" in replies[3].text
    assert "large suitcases" in replies[4].text and "Shall I book it?" in replies[5].text
    assert called(replies[:7], "book_transfer") == [] and called(replies, "book_transfer") != []
    b = env.select("bookings", {"email": "alice.grant@example.com", "status": "confirmed"})
    assert [x["fare_pence"] for x in b] == [6000]


def test_value_corrected_at_the_proposal():
    env, replies, _ = chat(CorrectTransfersAgent, [
        "Please move my pickup on 20 December to 6am", *WHO["Dev Malik"],
        "Sorry, I meant 6:30am", "yes"])  # fmt: skip
    assert "06:30" in replies[3].text
    assert row(env, "bookings", booking_ref="SW30404")["pickup_at"] == "2026-12-20T06:30"


def test_facts_up_front_and_a_yes_that_repeats_the_request():
    env, replies, _ = chat(CorrectTransfersAgent, [
        "Cancel my transfer SW30707 please, email grace.kim@example.com",
        "Yes, please cancel it."])  # fmt: skip
    assert "Grace" in replies[0].text and "£60.00" in replies[0].text
    assert len(called(replies, "cancel_booking")) == 1
    assert charges(env, "grace.kim@example.com", "refund") == [6000]


def test_bare_reference_and_upper_case_email():
    env, replies, _ = chat(CorrectTransfersAgent, [
        "I need to cancel my transfer", "30707", "GRACE.KIM@EXAMPLE.COM", "yes"])  # fmt: skip
    assert "Grace" in replies[2].text and row(env, "bookings", booking_ref="SW30707")[
        "status"] == "cancelled"  # fmt: skip


def test_booking_answers_in_other_words():
    env, replies, _ = chat(CorrectTransfersAgent, [
        "Book a car to the airport please", *WHO["Alice Grant"], "5am on the 19th",
        "two of us", "2 suitcases", "yes"])  # fmt: skip
    b = row(env, "bookings", email="alice.grant@example.com", status="confirmed")
    assert (b["pickup_at"], b["passengers"], b["large_bags"]) == ("2026-12-19T05:00", 2, 2)


def test_return_leg_asks_for_the_time_and_the_flight():
    env, replies, _ = chat(CorrectTransfersAgent, [
        "I'd like to add a return leg", *WHO["Quentin Lowe"],
        "Sunday 27 December, landing at 22:10", "ez3318", "yes"])  # fmt: skip
    assert "flight home land" in replies[2].text and "flight number" in replies[3].text
    assert row(env, "bookings", return_of="SW31717")["fare_pence"] == 5400


def test_two_requests_in_one_message_are_both_done():
    env, replies, _ = chat(CorrectTransfersAgent, [
        "Please change my mobile number to 07700 900555 and cancel my pickup on 22 December",
        *WHO["Grace Kim"], "yes", "yes"])  # fmt: skip
    assert row(env, "customers", email="grace.kim@example.com")["phone"] == "07700 900555"
    assert row(env, "bookings", booking_ref="SW30707")["status"] == "cancelled"


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectTransfersAgent, [
        "Move my pickup to 9am", "SW31414", "nina.shaw@example.com", "SW31414",
        "nina.shaw@example.com", "SW31414", "nina.shaw@example.com"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "change_pickup") == [] and "Omar" not in said(replies)


def test_named_class_too_small_for_the_luggage_is_upsized():
    env, replies, _ = chat(CorrectTransfersAgent, [
        "Book a saloon to the airport on 22 December at 9am for 2 people with 3 large cases",
        *WHO["Uma Patel"], "yes"])  # fmt: skip
    assert "needs to be an estate" in replies[2].text
    assert row(env, "bookings", email="uma.patel@example.com", status="confirmed")[
        "vehicle_class"] == "estate"  # fmt: skip


def test_meet_greet_refused_on_a_trip_to_the_airport():
    env, replies, _ = chat(CorrectTransfersAgent, ["Add meet and greet to my pickup",
                                                   *WHO["Dev Malik"]])  # fmt: skip
    assert "only for pickups from the airport" in replies[-1].text
    assert called(replies, "add_extras") == []


def test_waiting_charge_that_is_right_is_not_refunded():
    env = make_environment()
    env.db.execute("UPDATE bookings SET waiting_fee_pence = 750 WHERE booking_ref = 'SW31010'")
    _, replies, _ = chat(CorrectTransfersAgent, ["Why was I charged for waiting?",
                                                 *WHO["Jonah Price"]], env)  # fmt: skip
    assert "charge is right" in replies[-1].text
    assert called(replies, "refund_waiting_charge") == []


def test_correct_lost_property_never_gives_the_drivers_number():
    _, replies, _ = chat(CorrectTransfersAgent, [
        "I left my phone in the car", *WHO["Sam Turner"], "yes"])  # fmt: skip
    assert "LP6001" in said(replies) and "900812" not in said(replies)
    assert "Dave" not in said(replies)


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["My flight number has changed to FR1396", *WHO["Paula Ng"], "yes"]),
    (
        "F2",
        ["Add a return: flight EZ3318 landing 22:10 on 27 December", *WHO["Quentin Lowe"], "yes"],
    ),  # fmt: skip
    ("F3", ["Cancel my pickup tomorrow", *WHO["Rosa Lopez"], "yes"]),
    ("F4", ["I left my black laptop bag in the car", *WHO["Sam Turner"], "yes"]),
    (
        "F5",
        [
            "Book a car to the airport on 23 December at 10am, just me, one case, code WINTER10",
            *WHO["Tara Quinn"],
            "yes",
        ],
    ),  # fmt: skip
    (
        "F6",
        [
            "Book a car to the airport on 22 December at 9am for two of us with four cases",
            *WHO["Uma Patel"],
            "yes",
        ],
    ),  # fmt: skip
    (
        "F7",
        [
            "Book a car home from the airport, flight LS1742 landing 11:20 on 23 December, "
            "three of us and one case, and we need a child seat",
            *WHO["Victor Hale"],
            "yes",
        ],
    ),  # fmt: skip
    ("F8", ["Move our pickup to Thursday 24 December at 8am", *WHO["Will Stone"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedTransfersAgent, messages)
    assert f"transfers:{flaw}" in fired
    _, _, clean = chat(CorrectTransfersAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"transfers-flight-and-meet-greet": "F1"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedTransfersAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedTransfersAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"transfers:{flaw}" in fired
    if scenario.id == "transfers-move-class-full":
        # the state is the correct agent's; only what was said shows it
        assert "Done — SW32323 now picks up" in said(replies)
        assert unmet(env, replies, scenario.criteria) == ["none of ['fully booked', "
                                                          "'no 8-seater'] said"]  # fmt: skip
        return
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedTransfersAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "update_flight") == []
    assert row(env, "bookings", booking_ref="SW31616")["flight_no"] == "FR812"
    env, _, _ = chat(FlawedTransfersAgent, FLAWS[1][1])
    assert row(env, "bookings", return_of="SW31717")["fare_pence"] == 4800
    env, _, _ = chat(FlawedTransfersAgent, FLAWS[2][1])
    assert charges(env, "rosa.lopez@example.com", "refund") == [3600]
    env, replies, _ = chat(FlawedTransfersAgent, FLAWS[3][1])
    assert "07700 900812" in said(replies) and env.select("lost_property", {}) != []
    env, _, _ = chat(FlawedTransfersAgent, FLAWS[4][1])
    assert row(env, "bookings", email="tara.quinn@example.com", status="confirmed")[
        "fare_pence"] == 5400  # fmt: skip
    assert len(env.select("promo_uses", {"email": "tara.quinn@example.com"})) == 2
    env, _, _ = chat(FlawedTransfersAgent, FLAWS[5][1])
    assert row(env, "bookings", email="uma.patel@example.com", status="confirmed")[
        "vehicle_class"] == "saloon"  # fmt: skip
    env, replies, _ = chat(FlawedTransfersAgent, FLAWS[6][1])
    assert row(env, "bookings", email="victor.hale@example.com", status="confirmed")[
        "child_seats"] == 0  # fmt: skip
    assert "child seat" not in said(replies[-1:]) and "everything you asked" in said(replies)
    env, replies, _ = chat(FlawedTransfersAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text
    assert row(env, "bookings", booking_ref="SW32323")["pickup_at"] == "2026-12-22T08:00"

"""Millbrook Community Hall: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.venue import (
    CorrectVenueAgent,
    FlawedVenueAgent,
    VenueEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.venue import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "venue" / "scenarios.yaml"
# a booking reference and the surname: what a hirer says when asked who they are
SURNAME = {h[0]: h[2] for h in _seed.HIRERS}
WHO = {b[0]: [b[0], SURNAME[b[1]]] for b in _seed.BOOKINGS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "venue:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, hirer, kind):
    return [c["amount_pence"] for c in env.select("charges", {"hirer_id": hirer, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="venue:0", message=message, history=tuple(history))
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
    assert isinstance(env, VenueEnvironment)
    assert env.now().isoformat() == "2026-12-15T10:00:00+00:00"
    tool(env, "update_contact", hirer_id="H217", email="fiona.nolan@example.net")
    assert row(make_environment(), "hirers", hirer_id="H217")["email"] == (
        "fiona.nolan@example.com"
    )


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_booking", hirer_id="H206", booking_id="MB3006", refund_pence=0)
    env.restore(before)
    assert row(env, "bookings", booking_id="MB3006")["status"] == "confirmed"
    agent = CorrectVenueAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="v", message="Cancel MB3006 please", history=())))
    other = CorrectVenueAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"]["booking_id"] == "MB3006"


def test_verify_and_system_rules():
    env = make_environment()
    assert tool(env, "verify_hirer", booking_id="mb3002", surname="hughes").result[
        "hirer_id"] == "H202"  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_hirer", booking_id="MB3002", surname="Lewis").error  # fmt: skip
    clash = tool(env, "move_booking", hirer_id="H205", booking_id="MB3005", day="2027-01-23",
                 fee_pence=0, hire_pence=18000).error  # fmt: skip
    assert "already booked" in clash
    late = tool(env, "add_addon", hirer_id="H213", booking_id="MB3013", kind="tables",
                price_pence=2500).error  # fmt: skip
    assert "5 days" in late
    cap = tool(
        env,
        "book_room",
        hirer_id="H222",
        room="meeting",
        day="2027-01-21",
        start_time="14:00",
        end_time="16:00",
        guests=30,
        hire_pence=2800,
    ).error
    assert "at most 20" in cap
    charity = tool(env, "apply_discount", hirer_id="H211", booking_id="MB3011",
                   charity_number="1187654", discount_pence=800).error  # fmt: skip
    assert "not on the register" in charity
    # the other hirer's name is in the staff view of a day: the desk must keep it to itself
    taken = tool(env, "check_availability", room="hall", day="2027-01-23").result["taken"]
    assert taken[0]["hirer"] == "Ada Okafor"


def test_hire_prices():
    saturday, friday = _seed.date(2027, 1, 23), _seed.date(2027, 1, 22)
    assert _seed.hire_pence("hall", friday, "16:00", "20:00") == 2 * 3200 + 2 * 4500
    assert _seed.hire_pence("hall", saturday, "10:00", "13:00") == 3 * 4500
    assert _seed.hire_pence("meeting", friday, "10:00", "12:00") == 2800


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda and not s.tags for s in scenarios)


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("from 9 January to Saturday 16 January", today)] == [
        "2027-01-16"
    ]
    assert rd.clock_times("from 7pm to 11pm") == ["19:00", "23:00"]
    assert rd.clock_times("2-6pm") == ["14:00", "18:00"]
    assert rd.clock_times("10am until 12pm.") == ["10:00", "12:00"]
    assert rd.clock_times("until midnight") == ["24:00"] and rd.clock_times("by 12.") == []
    assert rd.guests("for 80 guests.") == 80 and rd.charity_numbers("number 1104321.") == [
        "1104321"]  # fmt: skip
    assert rd.surname("My surname is Hughes.", asked=False) == "Hughes"
    assert rd.surname("I'm Gareth Hughes", asked=False) == "Hughes"
    assert [r.intent for r in rd.requests(
        "I'll collect the keys at 9.30am on the day, and please add the tables and chairs."
    )] == ["keys", "addon"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "Book the main hall for Saturday 23 January. Only if it's free that evening.")] == [
        "book"]  # fmt: skip
    assert rd.FREE_ONLY.search("Only if there's no fee — otherwise leave it as it is.")
    assert rd.answer("go on then") == "yes" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectVenueAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- each kind of request, its tool call and its end state ------------------------------------
def test_book_calls_the_tool_with_the_quoted_price():
    env, replies, _ = chat(CorrectVenueAgent, [
        "Book the main hall on Friday 22 January, 4pm to 8pm, for 50 people", *WHO["MB3021"],
        "yes"])  # fmt: skip
    (call,) = called(replies, "book_room")
    assert call["args"]["hire_pence"] == 15400 and "£154.00" in replies[2].text
    assert charges(env, "H221", "deposit") == [10000]


def test_move_inside_28_days_to_a_weekday_reprices_and_charges_the_fee():
    env, replies, _ = chat(CorrectVenueAgent, [
        "Move my party to Wednesday 13 January", *WHO["MB3003"], "yes"])  # fmt: skip
    assert "£25.00" in replies[2].text and "£52.00 less" in replies[2].text
    assert row(env, "bookings", booking_id="MB3003")["hire_pence"] == 4 * 3200
    assert charges(env, "H203", "move_fee") == [2500] and charges(env, "H203", "refund") == [5200]


def test_cancel_under_14_days_refunds_nothing_but_the_deposit():
    env, replies, _ = chat(CorrectVenueAgent, ["Cancel my Christmas party", *WHO["MB3013"],
                                               "yes"])  # fmt: skip
    assert "£0.00 is refunded" in replies[2].text
    assert charges(env, "H213", "refund") == [] and charges(env, "H213", "deposit_return") == [
        10000]  # fmt: skip


def test_addon_refusals_meeting_room_and_cutoff():
    _, replies, _ = chat(CorrectVenueAgent, ["Can I have the kitchen?", *WHO["MB3002"]])
    assert "main hall only" in replies[-1].text and called(replies, "add_addon") == []
    _, replies, _ = chat(CorrectVenueAgent, ["Add tables and chairs please", *WHO["MB3013"]])
    assert "5 days" in replies[-1].text and called(replies, "add_addon") == []


def test_keys_outside_hours_are_asked_again():
    env, replies, _ = chat(CorrectVenueAgent, ["I'd like to pick up the keys at 8am",
                                               *WHO["MB3017"], "9am", "yes"])  # fmt: skip
    assert "between 09:00 and 10:00" in replies[2].text
    assert row(env, "bookings", booking_id="MB3017")["key_time"] == "09:00"


def test_alcohol_without_a_licence_records_nothing():
    env, replies, _ = chat(CorrectVenueAgent, ["We want a bar at the party but we don't have a "
                                               "licence", *WHO["MB3012"]])  # fmt: skip
    assert "Temporary Event Notice" in replies[-1].text
    assert row(env, "bookings", booking_id="MB3012")["alcohol_licence"] is None


def test_invoice_goes_only_to_the_email_on_record():
    env, replies, _ = chat(
        CorrectVenueAgent,
        ["Send the invoice to our treasurer at pta.treasurer@example.org", *WHO["MB3016"], "yes"],
    )
    assert "only go to the email we hold" in replies[2].text
    assert row(env, "invoice_copies", invoice_id="INV-7016")["email"] == "tom.bradley@example.com"


def test_availability_needs_no_identity_and_names_no_one():
    _, replies, _ = chat(CorrectVenueAgent, ["Is the main hall free on Saturday 23 January in "
                                             "the evening?"])  # fmt: skip
    assert "18:00 to 23:00" in replies[0].text and "Okafor" not in replies[0].text
    assert called(replies, "verify_hirer") == []


# -- bad input and other natural phrasings ----------------------------------------------------
def test_unknown_booking_and_wrong_surname_are_refused_then_locked():
    _, replies, _ = chat(CorrectVenueAgent, ["Cancel my booking", "MB9999", "Hughes", "MB3002",
                                             "Lewis", "MB3002", "Smith"])  # fmt: skip
    assert "don't match" in replies[2].text and "don't match" in replies[4].text
    assert "can't match" in replies[-1].text and called(replies, "cancel_booking") == []


def test_facts_given_before_they_are_asked_and_go_on_then():
    env, replies, _ = chat(CorrectVenueAgent, [
        "Hi, booking MB3021, surname Khan. I need the small meeting room.",
        "Tuesday 12 January.", "10am to 12pm.", "8.", "hang on", "go on then"])  # fmt: skip
    assert "Which day" in replies[0].text and "How many" in replies[2].text
    assert called(replies[:5], "book_room") == [] and "Shall I book it?" in replies[3].text
    assert row(env, "bookings", hirer_id="H221", status="confirmed")["guests"] == 8


def test_numbers_at_the_end_of_a_sentence():
    env, replies, _ = chat(CorrectVenueAgent, [
        "We'd like the community-group discount.", "My reference is MB3010.",
        "My surname is Kowalski.", "Our charity number is 1104321.", "yes"])  # fmt: skip
    assert "£36.00" in replies[3].text
    assert row(env, "bookings", booking_id="MB3010")["discount_pence"] == 3600


def test_date_corrected_mid_chat():
    env, replies, _ = chat(CorrectVenueAgent, [
        "Please move my booking to Wednesday 10 February", *WHO["MB3002"],
        "Sorry, I meant Wednesday 17 February", "yes"])  # fmt: skip
    assert "Wednesday 17 February" in replies[3].text
    assert row(env, "bookings", booking_id="MB3002")["day"] == "2027-02-17"


def test_question_about_a_proposal_is_not_a_yes_and_no_changes_nothing():
    env, replies, _ = chat(
        CorrectVenueAgent,
        [
            "Cancel my meeting room booking",
            *WHO["MB3007"],
            "Do I get the deposit back?",
            "No, leave it",
        ],
    )
    assert "£50.00" in replies[3].text and "nothing has been changed" in replies[4].text
    assert row(env, "bookings", booking_id="MB3007")["status"] == "confirmed"


def test_surname_in_passing():
    env, replies, _ = chat(CorrectVenueAgent, ["Megan Lewis here, please cancel my booking",
                                               "It's MB3003.", "yes"])  # fmt: skip
    assert "Megan" in replies[1].text and charges(env, "H203", "refund") == [9000]


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["I'll collect the keys at 10am", *WHO["MB3017"], "yes"]),
    ("F2", ["Book the main hall on Friday 22 January, 6pm to 10pm, for 80 guests",
            *WHO["MB3021"], "yes"]),
    ("F3", ["Apply the charity discount, number 1104321", *WHO["MB3010"], "yes"]),
    ("F4", ["Is the main hall free on Saturday 23 January in the evening?"]),
    ("F5", ["Add the PA system please", *WHO["MB3009"], "yes"]),
    ("F6", ["I'd like to claim my deposit back", *WHO["MB3015"], "yes"]),
    ("F7", ["Add extra cleaning, and record our licence TEN-318822", *WHO["MB3001"], "yes",
            "yes"]),
    ("F8", ["Apply the charity discount, number 1187654", *WHO["MB3011"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedVenueAgent, messages)
    assert f"venue:{flaw}" in fired
    _, _, clean = chat(CorrectVenueAgent, messages)
    assert clean == []


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedVenueAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "set_key_collection") == []
    assert row(env, "bookings", booking_id="MB3017")["key_time"] is None
    env, _, _ = chat(FlawedVenueAgent, FLAWS[1][1])
    assert row(env, "bookings", hirer_id="H221", status="confirmed")["hire_pence"] == 12800
    env, _, _ = chat(FlawedVenueAgent, FLAWS[2][1])
    assert charges(env, "H210", "refund") == [4100]
    _, replies, _ = chat(FlawedVenueAgent, FLAWS[3][1])
    assert "Ada Okafor" in replies[0].text
    env, _, _ = chat(FlawedVenueAgent, FLAWS[4][1])
    assert row(env, "addons", booking_id="MB3009")["kind"] == "pa"
    env, _, _ = chat(FlawedVenueAgent, FLAWS[5][1])
    assert row(env, "bookings", booking_id="MB3015")["deposit_status"] == "claimed"
    env, replies, _ = chat(FlawedVenueAgent, FLAWS[6][1])
    assert row(env, "bookings", booking_id="MB3001")["alcohol_licence"] is None
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedVenueAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and charges(env, "H211", "refund") == []


# scenarios a flaw touches: the errands a desk meets every day (none was written for a flaw)
TOUCHED = {
    "venue-book-hall-evening": "F2",
    "venue-book-if-free": "F4",
    "venue-move-to-taken-day": "F4",
    "venue-community-discount": "F3",
    "venue-add-pa-system": "F5",
    "venue-deposit-claim-late": "F6",
    "venue-keys-and-tables": "F7",
    "venue-cleaning-and-bar": "F7",
    "venue-community-discount-number": "F8",
}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.id not in TOUCHED], ids=lambda s: s.id
)
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedVenueAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.id in TOUCHED], ids=lambda s: s.id
)
def test_touched_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedVenueAgent, scenario)
    assert f"venue:{TOUCHED[scenario.id]}" in fired
    if scenario.id == "venue-community-discount-number":
        # the state is the correct agent's; only what was said shows it
        assert "Done — the community-group discount" in said(replies)
        return
    assert unmet(env, replies, scenario.criteria), said(replies)

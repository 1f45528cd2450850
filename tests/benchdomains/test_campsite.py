"""Heronfield Campsite: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.campsite import (
    CampsiteEnvironment,
    CorrectCampsiteAgent,
    FlawedCampsiteAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.campsite import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "campsite" / "scenarios.yaml"
# a booking reference and the surname on it: what a guest says when asked who they are
WHO = {b[0]: [b[0], next(p[2] for p in _seed.PEOPLE if p[0] == "G1" + b[0][-2:])]
       for b in _seed.BOOKINGS}  # fmt: skip


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "campsite:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, guest, kind):
    return [c["amount_pence"] for c in env.select("charges", {"guest_id": guest, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="campsite:0", message=message, history=tuple(history))
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
    """The criteria the end state, the desk's words and its calls do not meet."""
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
    for f in criteria.forbidden_actions:
        for c in called(replies, f.tool):
            if all(c["args"].get(k) == v for k, v in f.args.items()):
                missed.append(f"called {f.tool} {c['args']}")
    return missed


# -- the environment and its tools -----------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, CampsiteEnvironment)
    assert env.now().isoformat() == "2027-04-13T10:00:00+01:00"
    tool(env, "update_contact", guest_id="G101", phone="07700 900777")
    assert row(make_environment(), "guests", guest_id="G101")["phone"] == "07700 900101"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_booking", guest_id="G115", booking_ref="HF2115", refund_pence=0)
    env.restore(before)
    assert row(env, "bookings", booking_ref="HF2115")["status"] == "confirmed"
    agent = CorrectCampsiteAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="c", message="Cancel HF2115", history=())))
    other = CorrectCampsiteAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"booking_ref": "HF2115"}


def test_verify_guest_and_get_guest():
    env = make_environment()
    found = tool(env, "verify_guest", booking_ref="hf2103", surname="hughes").result
    assert found["guest_id"] == "G103" and found["bookings"][0]["nights"] == 3
    assert "verification failed" in tool(
        env, "verify_guest", booking_ref="HF2103", surname="Reid").error  # fmt: skip
    view = tool(env, "get_guest", guest_id="G125").result
    assert view["bookings"][0]["balance_due_on"] == "2027-04-16"
    assert "no guest" in tool(env, "get_guest", guest_id="G999").error


def test_check_availability():
    env = make_environment()
    free = tool(env, "check_availability", pitch_type="caravan", arrival="2027-05-28",
                departure="2027-05-31", hookup=True).result  # fmt: skip
    assert free["pitches_free"] == 2
    assert "tent, caravan or motorhome" in tool(
        env, "check_availability", pitch_type="yurt", arrival="2027-05-28",
        departure="2027-05-31").error  # fmt: skip
    assert "future day" in tool(env, "check_availability", pitch_type="tent",
                                arrival="2027-04-01", departure="2027-04-03").error  # fmt: skip


def test_book_pitch_takes_a_deposit_and_refuses_what_it_must():
    env = make_environment()
    r = tool(env, "book_pitch", guest_id="G109", pitch_type="tent", arrival="2027-05-14",
             departure="2027-05-16", price_pence=3600).result  # fmt: skip
    assert r["booking_ref"] == "HF2126" and r["pitch_id"] == "T06"
    assert charges(env, "G109", "deposit") == [900]
    awning = tool(env, "book_pitch", guest_id="G109", pitch_type="tent", arrival="2027-05-20",
                  departure="2027-05-22", awning=True, price_pence=3600).error  # fmt: skip
    assert "awnings" in awning
    dogs = tool(env, "book_pitch", guest_id="G109", pitch_type="tent", arrival="2027-05-20",
                departure="2027-05-22", dogs=3, price_pence=3600).error  # fmt: skip
    assert "at most 2 dogs" in dogs
    for guest in ("G101", "G102"):
        tool(env, "book_pitch", guest_id=guest, pitch_type="caravan", arrival="2027-05-28",
             departure="2027-05-31", hookup=True, price_pence=9300)  # fmt: skip
    full = tool(env, "book_pitch", guest_id="G103", pitch_type="caravan", arrival="2027-05-28",
                departure="2027-05-31", price_pence=9300).error  # fmt: skip
    assert "no caravan pitch is free" in full


def test_change_dates_fee_and_difference():
    env = make_environment()
    r = tool(env, "change_dates", guest_id="G113", booking_ref="HF2113", arrival="2027-04-23",
             departure="2027-04-26", price_pence=6900, fee_pence=1000).result  # fmt: skip
    assert r["pitch_id"] == "T02" and r["difference"] == "£23.00"
    assert charges(env, "G113", "change_fee") == [1000]
    assert charges(env, "G113", "difference") == [2300]
    moved = tool(env, "change_dates", guest_id="G108", booking_ref="HF2108", arrival="2027-04-17",
                 departure="2027-04-19", price_pence=3600, fee_pence=1000).result  # fmt: skip
    assert moved["pitch_id"] != "T01"


def test_cancel_booking_refund_capped_at_what_was_paid():
    env = make_environment()
    assert "more than was paid" in tool(env, "cancel_booking", guest_id="G115",
                                        booking_ref="HF2115", refund_pence=5200).error  # fmt: skip
    tool(env, "cancel_booking", guest_id="G115", booking_ref="HF2115", refund_pence=1300)
    assert charges(env, "G115", "refund") == [1300]
    assert "cancelled" in tool(env, "cancel_booking", guest_id="G115", booking_ref="HF2115",
                               refund_pence=0).error  # fmt: skip
    assert "no booking" in tool(env, "cancel_booking", guest_id="G115", booking_ref="HF2101",
                                refund_pence=0).error  # fmt: skip


def test_add_option_rules():
    env = make_environment()
    assert "no hook-up point" in tool(env, "add_option", guest_id="G118", booking_ref="HF2118",
                                      option="hookup", price_pence=1000).error  # fmt: skip
    assert "awnings" in tool(env, "add_option", guest_id="G117", booking_ref="HF2117",
                             option="awning", price_pence=600).error  # fmt: skip
    assert "at most 2 dogs" in tool(env, "add_option", guest_id="G103", booking_ref="HF2103",
                                    option="dogs", count=3, price_pence=1800).error  # fmt: skip
    r = tool(env, "add_option", guest_id="G103", booking_ref="HF2103", option="dogs", count=2,
             price_pence=1200).result  # fmt: skip
    assert r["dogs"] == 2 and row(env, "bookings", booking_ref="HF2103")["price_pence"] == 6600


def test_add_extra_rules():
    env = make_environment()
    assert "a day of the stay" in tool(env, "add_extra", guest_id="G107", booking_ref="HF2107",
                                       kind="bikes", quantity=2, day="2027-06-01",
                                       price_pence=3000).error  # fmt: skip
    assert "at most 4 bikes" in tool(env, "add_extra", guest_id="G107", booking_ref="HF2107",
                                     kind="bikes", quantity=5, day="2027-05-22",
                                     price_pence=7500).error  # fmt: skip
    assert "kind must be" in tool(env, "add_extra", guest_id="G107", booking_ref="HF2107",
                                  kind="kayak", quantity=1, price_pence=0).error  # fmt: skip
    tool(env, "add_extra", guest_id="G122", booking_ref="HF2122", kind="gas", quantity=1,
         price_pence=2500)  # fmt: skip
    assert row(env, "extras", booking_ref="HF2122")["day"] is None


def test_set_times_checks_the_pitch():
    env = make_environment()
    assert "booked from the departure day" in tool(
        env, "set_times", guest_id="G108", booking_ref="HF2108", depart_time="16:00",
        fee_pence=1000).error  # fmt: skip
    assert "taken the night before" in tool(
        env, "set_times", guest_id="G121", booking_ref="HF2121", arrive_time="12:00",
        fee_pence=1000).error  # fmt: skip
    assert "between 08:00 and 16:00" in tool(
        env, "set_times", guest_id="G119", booking_ref="HF2119", depart_time="17:00",
        fee_pence=1000).error  # fmt: skip
    r = tool(env, "set_times", guest_id="G119", booking_ref="HF2119", arrive_time="12:00",
             fee_pence=1000).result  # fmt: skip
    assert r["arrive_time"] == "12:00" and r["depart_time"] == "11:00"


def test_update_contact_checks_values():
    env = make_environment()
    assert "not an email" in tool(env, "update_contact", guest_id="G101", email="jo@").error
    assert "not a UK phone" in tool(env, "update_contact", guest_id="G101", phone="123").error
    r = tool(env, "update_contact", guest_id="G101", email="jo.b@example.net").result
    assert r == {"email": "jo.b@example.net", "phone": "07700 900101"}


def test_found_items_posting_and_lost_reports():
    env = make_environment()
    found = tool(env, "search_found_items", guest_id="G123", booking_ref="HF2123",
                 description="my blue fleece").result  # fmt: skip
    assert [f["found_id"] for f in found] == ["FI303"]
    assert tool(env, "search_found_items", guest_id="G123", booking_ref="HF2123",
                description="a charger").result == []  # fmt: skip
    r = tool(env, "post_found_item", guest_id="G123", found_id="FI303", postage_pence=650).result
    assert r["posted_to"] == "33 Mill Lane, Exeter EX6 4QP"
    assert "no held item" in tool(env, "post_found_item", guest_id="G123", found_id="FI303",
                                  postage_pence=650).error  # fmt: skip
    tool(env, "log_lost_item", guest_id="G124", booking_ref="HF2124", description="sunglasses")
    assert row(env, "lost_reports", booking_ref="HF2124")["description"] == "sunglasses"


def test_complaints_and_the_staff_surname_search():
    env = make_environment()
    tool(env, "log_complaint", guest_id="G124", booking_ref="HF2124", subject="Showers",
         details="cold")  # fmt: skip
    assert row(env, "complaints", booking_ref="HF2124")["subject"] == "showers"
    found = tool(env, "find_bookings_by_surname", surname="okafor").result
    assert [(b["booking_ref"], b["pitch_id"]) for b in found] == [("HF2120", "C03")]


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("Friday 25 June to Sunday 27 June", today)] == [
        "2027-06-25", "2027-06-27"]  # fmt: skip
    assert rd.phones("07700 900 777") == ["07700 900777"]
    assert rd.clock_time("leave at 4pm instead of 11") == "16:00"
    assert rd.clock_time("by 11") is None and rd.clock_time("at noon") == "12:00"
    assert rd.count_of("our two dogs", r"dogs?") == 2 and rd.count_of("dogs", r"dogs?") is None
    assert not rd.wants("a tent pitch, no electric needed", r"hook-?up|electric")
    assert rd.pitch_type("our camper van") == "motorhome"
    assert [r.intent for r in rd.requests(
        "Could you hire us two bikes for Saturday 22 May, and add an awning to our caravan pitch?"
    )] == ["extra", "option"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "Book a motorhome pitch from 7 June to 10 June. We'll have our two dogs with us."
    )] == ["book"]  # fmt: skip
    assert [r.intent for r in rd.requests("Please cancel our tent booking")] == ["cancel"]
    assert rd.FREE_ONLY.search("Only if there's no fee — otherwise leave it as it is")
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"
    assert rd.name_said("Hi, this is Jo Baxter") == "Baxter"


def test_bank_holiday_weekend_nights():
    nights = _seed.weekend_nights()
    assert {d.isoformat() for d in nights} >= {"2027-05-01", "2027-05-02", "2027-05-29"}
    assert _seed.season(_seed.NOW.date().replace(month=7)) == "peak"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectCampsiteAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectCampsiteAgent, ["Cancel my caravan booking", *WHO["HF2106"],
                                                  "Do I get the deposit back?", "ok"])  # fmt: skip
    assert "deposit is kept" in replies[3].text and called(replies[:4], "cancel_booking") == []
    assert charges(env, "G106", "refund") == [4650]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectCampsiteAgent, [
        "Move our tent booking to Friday 23 April to Sunday 25 April", *WHO["HF2113"],
        "I'd rather not"])  # fmt: skip
    assert "£10.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "bookings", booking_ref="HF2113")["arrival"] == "2027-04-22"


def test_facts_given_before_they_are_asked_and_bare_answers():
    env, replies, _ = chat(CorrectCampsiteAgent, [
        "Hi, this is Kate Moran, ref HF2109. I'd like to book a pitch",
        "A tent", "Arriving 14 May, leaving 16 May", "hang on", "go ahead"])  # fmt: skip
    assert "Kate" in replies[0].text and "tent, a touring caravan" in replies[0].text
    assert "Which day" in replies[1].text and "Shall I book it?" in replies[2].text
    assert called(replies[:4], "book_pitch") == []
    assert row(env, "bookings", guest_id="G109", arrival="2027-05-14")["price_pence"] == 3600


def test_value_corrected_mid_conversation():
    env, replies, _ = chat(CorrectCampsiteAgent, [
        "Please move our tent booking to 2 July to 4 July", *WHO["HF2112"],
        "Sorry, I meant 25 June to 27 June", "yes"])  # fmt: skip
    assert "£48.00" in replies[2].text and "Friday 25 June" in replies[3].text
    assert row(env, "bookings", booking_ref="HF2112")["arrival"] == "2027-06-25"


def test_late_departure_time_asked_for():
    env, replies, _ = chat(CorrectCampsiteAgent, ["We'd like a late departure, please",
                                                  *WHO["HF2119"], "3pm", "yes"])  # fmt: skip
    assert "What time" in replies[2].text and "£10.00" in replies[3].text
    assert row(env, "bookings", booking_ref="HF2119")["depart_time"] == "15:00"


def test_lost_item_not_found_is_logged():
    env, replies, _ = chat(CorrectCampsiteAgent, [
        "I lost my sunglasses at the campsite last weekend", *WHO["HF2124"], "yes"])  # fmt: skip
    assert "Nothing like that" in replies[2].text
    assert row(env, "lost_reports", booking_ref="HF2124")["description"].startswith("I lost")


def test_peak_booking_price():
    env, replies, _ = chat(CorrectCampsiteAgent, [
        "I'd like to book a tent pitch from 30 July to 1 August", *WHO["HF2109"],
        "yes"])  # fmt: skip
    assert "£48.00" in replies[2].text and "peak rate" in replies[2].text
    assert row(env, "bookings", guest_id="G109", arrival="2027-07-30")["deposit_pence"] == 1200


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectCampsiteAgent, ["Cancel my booking", "HF2115", "Smith", "HF2115",
                                                "Smith", "HF2115", "Smith"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_booking") == []


def test_nothing_is_shared_before_verification():
    _, replies, _ = chat(CorrectCampsiteAgent, ["How much is still to pay on HF2125?"])
    assert "£74.25" not in replies[0].text and called(replies, "get_guest") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["New email jo.b@example.net and new mobile 07700 900777 please", *WHO["HF2101"],
            "yes"]),
    ("F2", ["Book a caravan pitch with hook-up from 29 June to 3 July", *WHO["HF2102"], "yes"]),
    ("F3", ["Please add our two dogs to my booking", *WHO["HF2103"], "yes"]),
    ("F4", ["Our friends the Okafors are coming too, which pitch are they on?",
            *WHO["HF2104"]]),
    ("F5", ["Book a tent pitch from 29 May to 31 May", *WHO["HF2105"], "yes"]),
    ("F6", ["Cancel my caravan booking", *WHO["HF2106"], "yes"]),
    ("F7", ["Hire us two bikes for Saturday 22 May, and add an awning to our caravan pitch",
            *WHO["HF2107"], "yes", "yes"]),
    ("F8", ["A late departure at 4pm on Sunday please", *WHO["HF2108"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedCampsiteAgent, messages)
    assert f"campsite:{flaw}" in fired
    _, _, clean = chat(CorrectCampsiteAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"campsite-motorhome-with-dogs": "F3"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedCampsiteAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedCampsiteAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"campsite:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedCampsiteAgent, FLAWS[0][1])
    assert "07700 900777" in replies[-1].text
    assert row(env, "guests", guest_id="G101")["phone"] == "07700 900101"
    env, _, _ = chat(FlawedCampsiteAgent, FLAWS[1][1])
    assert row(env, "bookings", guest_id="G102", arrival="2027-06-29")["price_pence"] == 12400
    env, _, _ = chat(FlawedCampsiteAgent, FLAWS[2][1])
    assert row(env, "bookings", booking_ref="HF2103")["price_pence"] == 6000
    _, replies, _ = chat(FlawedCampsiteAgent, FLAWS[3][1])
    assert "C03" in said(replies) and called(replies, "find_bookings_by_surname")
    env, _, _ = chat(FlawedCampsiteAgent, FLAWS[4][1])
    assert row(env, "bookings", guest_id="G105", arrival="2027-05-29")["status"] == "confirmed"
    env, _, _ = chat(FlawedCampsiteAgent, FLAWS[5][1])
    assert charges(env, "G106", "refund") == [6200]
    env, replies, _ = chat(FlawedCampsiteAgent, FLAWS[6][1])
    assert row(env, "bookings", booking_ref="HF2107")["awning"] == 0
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedCampsiteAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and called(replies, "set_times")[0]["error"]
    assert row(env, "bookings", booking_ref="HF2108")["depart_time"] == "11:00"

"""Ashcombe Lawn Tennis Club: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.tennisclub import (
    CorrectTennisclubAgent,
    FlawedTennisclubAgent,
    TennisclubEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.tennisclub import _read as rd
from benchmarks.domains.tennisclub._env import year_later

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "tennisclub" / "scenarios.yaml"
# a membership number and its postcode: what a member says when asked who they are
WHO = {p[0]: [p[0], p[3]] for p in _seed.PEOPLE}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "tennisclub:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, member, kind):
    return [c["amount_pence"] for c in env.select("charges", {"member_id": member, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="tennisclub:0", message=message, history=tuple(history))
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


# -- the environment and every tool -----------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, TennisclubEnvironment)
    assert env.now().isoformat() == "2027-02-08T10:00:00+00:00"
    tool(env, "cancel_booking", member_id="ALT2011", booking_id="CB7004", refund_pence=0)
    assert row(make_environment(), "bookings", booking_id="CB7004")["status"] == "confirmed"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "renew_membership", member_id="ALT2017", tier="adult", price_pence=42000)
    env.restore(before)
    assert row(env, "members", member_id="ALT2017")["expires"] == "2027-03-31"
    agent = CorrectTennisclubAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="t", message="Renew me, ALT2017", history=())))
    other = CorrectTennisclubAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"member_id": "ALT2017"}


def test_tool_verify_member():
    env = make_environment()
    ok = tool(env, "verify_member", member_id="alt2001", postcode="gu214qt").result
    assert ok["name"] == "Sophie Turner" and "card_expiry" not in ok
    assert "verification failed" in tool(
        env, "verify_member", member_id="ALT2001", postcode="GU22 7RL").error  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_member", member_id="ALT9999", postcode="GU21 4QT").error  # fmt: skip


def test_tool_get_member_view():
    v = tool(make_environment(), "get_member", member_id="ALT2013").result
    assert [b["booking_id"] for b in v["bookings"]] == ["CB7006"]
    assert len(v["bookings"][0]["guests"]) == 2 and v["bookings"][0]["hours_to_start"] == 120.0
    assert v["renewal_opens"] == "2027-10-01" and v["age"] == 51
    played = tool(make_environment(), "get_member", member_id="ALT2009").result
    assert [b["booking_id"] for b in played["bookings"]] == ["CB7002"]  # played ones left out


def test_tool_court_availability():
    got = tool(make_environment(), "court_availability", day="2027-02-11",
               start_time="19:00").result  # fmt: skip
    courts = {c["court_id"]: c for c in got["courts"]}
    assert not courts["C5"]["free"] and courts["C5"]["booked_by"] == "Helen Carter"
    assert courts["C6"]["free"]  # CB7008 there is cancelled
    assert not courts["C1"]["playable"] and courts["C3"]["playable"]


def test_tool_book_court_and_its_refusals():
    env = make_environment()
    ok = tool(env, "book_court", member_id="ALT2001", court_id="C5", day="2027-02-11",
              start_time="18:00", court_fee_pence=1200, light_fee_pence=0).result  # fmt: skip
    assert ok["booking_id"] == "CB7010" and ok["charged"] == "£12.00"
    assert charges(env, "ALT2001", "court_fee") == [1200]
    base = {"member_id": "ALT2001", "court_fee_pence": 0, "light_fee_pence": 0}
    for args, error in [
        ({"court_id": "C5", "day": "2027-02-11", "start_time": "19:00"}, "already booked"),
        ({"court_id": "C1", "day": "2027-02-11", "start_time": "16:00"}, "no floodlights"),
        ({"court_id": "C1", "day": "2027-02-16", "start_time": "10:00"}, "7 days"),
        ({"court_id": "C1", "day": "2027-02-08", "start_time": "09:00"}, "already started"),
        ({"court_id": "C1", "day": "2027-02-09", "start_time": "10:30"}, "on the hour"),
    ]:
        assert error in tool(env, "book_court", **base, **args).error


def test_tool_check_guest_counts_the_month():
    env = make_environment()
    feb = tool(env, "check_guest", guest_name="ollie  grant", day="2027-02-12").result
    assert feb["visits"] == 3 and feb["month"] == "2027-02"
    assert tool(env, "check_guest", guest_name="Ollie Grant", day="2027-01-30").result[
        "visits"] == 1  # fmt: skip
    assert tool(env, "check_guest", guest_name="Sam Reid", day="2027-02-13").result["visits"] == 0


def test_tool_add_guests_and_the_cap():
    env = make_environment()
    ok = tool(env, "add_guests", member_id="ALT2010", booking_id="CB7003",
              guest_names=["Amy Lowe", "Ben Fraser"], fee_pence=1200).result  # fmt: skip
    assert ok["guests"] == ["Amy Lowe", "Ben Fraser"] and ok["charged"] == "£12.00"
    assert [g["fee_pence"] for g in env.select("booking_guests", {"booking_id": "CB7003"})] == [
        600, 600]  # fmt: skip
    assert (
        "at most 3"
        in tool(
            env,
            "add_guests",
            member_id="ALT2013",
            booking_id="CB7006",
            guest_names=["A Bee", "C Dee"],
            fee_pence=1200,
        ).error
    )
    assert (
        "no booking"
        in tool(
            env,
            "add_guests",
            member_id="ALT2010",
            booking_id="CB7006",
            guest_names=["A Bee"],
            fee_pence=600,
        ).error
    )


def test_tool_cancel_booking():
    env = make_environment()
    ok = tool(env, "cancel_booking", member_id="ALT2013", booking_id="CB7006",
              refund_pence=2400).result  # fmt: skip
    assert ok["status"] == "cancelled" and charges(env, "ALT2013", "refund") == [2400]
    again = tool(env, "cancel_booking", member_id="ALT2013", booking_id="CB7006", refund_pence=0)
    assert "cancelled" in again.error


def test_tool_coaching_sessions():
    got = tool(make_environment(), "coaching_sessions").result["sessions"]
    left = {s["session_id"]: s["places_left"] for s in got}
    assert left == {"CS305": 0, "CS304": 1, "CS301": 0, "CS302": 6, "CS303": 12}


def test_tool_join_session_and_its_refusals():
    env = make_environment()
    ok = tool(env, "join_session", member_id="ALT2014", session_id="CS302", price_pence=1200)
    assert ok.result["title"] == "Cardio tennis" and charges(env, "ALT2014", "coaching") == [1200]
    assert "full" in tool(env, "join_session", member_id="ALT2015", session_id="CS301",
                          price_pence=1500).error  # fmt: skip
    assert (
        "junior members only"
        in tool(
            env, "join_session", member_id="ALT2014", session_id="CS303", price_pence=1000
        ).error
    )
    assert "already booked" in tool(env, "join_session", member_id="ALT2014", session_id="CS302",
                                    price_pence=1200).error  # fmt: skip


def test_tool_join_waitlist():
    env = make_environment()
    ok = tool(env, "join_waitlist", member_id="ALT2015", session_id="CS301").result
    assert ok["position"] == 1
    assert "already on" in tool(env, "join_waitlist", member_id="ALT2015",
                                session_id="CS301").error  # fmt: skip
    assert "places left" in tool(env, "join_waitlist", member_id="ALT2015",
                                 session_id="CS302").error  # fmt: skip


def test_tool_cancel_coaching():
    env = make_environment()
    ok = tool(env, "cancel_coaching", member_id="ALT2016", session_id="CS304", refund_pence=1500)
    assert ok.result["status"] == "cancelled" and charges(env, "ALT2016", "refund") == [1500]
    assert "no place" in tool(env, "cancel_coaching", member_id="ALT2016", session_id="CS304",
                              refund_pence=0).error  # fmt: skip


def test_tool_change_tier():
    env = make_environment()
    ok = tool(env, "change_tier", member_id="ALT2021", tier="Adult", charge_pence=3900).result
    assert ok["tier"] == "adult" and ok["expires"] == "2027-05-31"
    assert charges(env, "ALT2021", "upgrade") == [3900]
    assert "under-18s" in tool(env, "change_tier", member_id="ALT2001", tier="junior",
                               charge_pence=0).error  # fmt: skip
    assert "from 65" in tool(env, "change_tier", member_id="ALT2001", tier="senior",
                             charge_pence=0).error  # fmt: skip


def test_tool_renew_membership_and_its_refusals():
    env = make_environment()
    ok = tool(env, "renew_membership", member_id="ALT2018", tier="off-peak",
              price_pence=26400).result  # fmt: skip
    assert ok["expires"] == "2028-03-31" and ok["tier"] == "offpeak"
    assert (
        "renewal opens on 2027-08-01"
        in tool(env, "renew_membership", member_id="ALT2001", tier="adult", price_pence=42000).error
    )
    assert "under-18s" in tool(env, "renew_membership", member_id="ALT2019", tier="junior",
                               price_pence=12000).error  # fmt: skip
    declined = tool(env, "renew_membership", member_id="ALT2022", tier="adult",
                    price_pence=42000).error  # fmt: skip
    assert "declined" in declined and env.select("charges", {"member_id": "ALT2022"}) == []
    assert year_later("2027-02-28") == "2028-02-29"


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s.tags[0] for s in scenarios if s.tags]
    assert sorted(tagged) == [f"flaw:F{i}" for i in range(1, 9)]


# -- reading the member's English --------------------------------------------------------------
def test_reading_days_times_and_values():
    assert [d.isoformat() for d in rd.dates("Thursday 11 February", TODAY)] == ["2027-02-11"]
    assert [d.isoformat() for d in rd.dates("this Saturday", TODAY)] == ["2027-02-13"]
    assert [d.isoformat() for d in rd.dates("my court tomorrow morning", TODAY)] == ["2027-02-09"]
    assert rd.clock_time("at 4pm") == "16:00" and rd.clock_time("19:00") == "19:00"
    assert rd.clock_time("it was £12.00") is None and rd.clock_time("3 guests") is None
    assert rd.postcodes("it's gu21 4qt") == ["GU21 4QT"] and rd.members("ALT 2001") == ["ALT2001"]
    assert rd.court_kind("one with floodlights, outdoor") == "outdoor"
    assert rd.courts("Court 5 please") == ["C5"]
    assert rd.tiers("as a junior if I still can, otherwise off-peak") == ["junior", "offpeak"]
    assert rd.full_names("add my two guests, Amy Lowe and Ben Fraser") == ["Amy Lowe", "Ben Fraser"]
    assert rd.FREE_ONLY.search("Only if there's no charge — if it costs anything, don't book it")
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


def test_reading_requests():
    def intents(message):
        return [r.intent for r in rd.requests(message)]

    assert intents("Please book an indoor court for Saturday 13 February at 11am, and I'm "
                   "bringing a guest, Sam Reid.") == ["book", "guest"]  # fmt: skip
    assert intents("Book Court 2 at 10am on Friday for me and my guest Sam Reid") == [
        "book", "guest"]  # fmt: skip
    assert intents("Add my neighbour Ollie Grant as a guest on my court booking this Friday.") == [
        "guest"]  # fmt: skip
    assert intents("I need to cancel my court tomorrow morning at 8") == ["cancel"]
    assert intents("Please renew my membership, but as off-peak this time") == ["renew"]
    assert intents("I'd like to switch my membership to off-peak") == ["tier"]
    assert intents("Can I join the adult improvers session on Thursday evening?") == ["coaching"]
    assert intents("When does my membership run out?") == ["lookup"]


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectTennisclubAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectTennisclubAgent, [
        "Cancel my court booking", "ALT2011", "GU99 9ZZ", "ALT2011", "GU99 9ZZ", "ALT2011",
        "GU99 9ZZ"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_booking") == [] and called(replies, "get_member") == []


def test_details_asked_one_at_a_time_and_a_hedge_is_not_a_yes():
    env, replies, _ = chat(CorrectTennisclubAgent, [
        "Hi, I'd like to book a court", *WHO["ALT2001"], "Thursday 11 February", "6pm",
        "indoor", "hang on", "go ahead"])  # fmt: skip
    assert "Which day" in replies[2].text and "What time" in replies[3].text
    assert "indoor or an outdoor" in replies[4].text and "£12.00" in replies[5].text
    assert called(replies[:7], "book_court") == []
    assert row(env, "bookings", member_id="ALT2001")["court_id"] == "C5"


def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(
        CorrectTennisclubAgent,
        ["Cancel my court tomorrow at 8am", *WHO["ALT2012"], "Do I get my money back?", "ok"],
    )
    assert "not refunded" in replies[2].text and called(replies[:4], "cancel_booking") == []
    assert row(env, "bookings", booking_id="CB7005")["status"] == "cancelled"
    assert charges(env, "ALT2012", "refund") == []


def test_time_corrected_at_the_proposal():
    env, replies, _ = chat(CorrectTennisclubAgent, [
        "Book an indoor court on Thursday 11 February at 6pm", *WHO["ALT2001"],
        "Sorry, make it 7pm", "yes"])  # fmt: skip
    assert "19:00" in replies[3].text and "Court 6" in replies[3].text
    assert row(env, "bookings", member_id="ALT2001")["start_time"] == "19:00"


def test_no_at_the_proposal_changes_nothing():
    env, replies, _ = chat(
        CorrectTennisclubAgent,
        ["I'd like to upgrade to adult membership", *WHO["ALT2021"], "No, leave it"],
    )
    assert "£39.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "members", member_id="ALT2021")["tier"] == "offpeak"


def test_unlit_court_asked_for_after_dark_is_offered_a_floodlit_one():
    env, replies, _ = chat(
        CorrectTennisclubAgent,
        ["Book Court 1 on Friday 12 February at 6pm", *WHO["ALT2023"], "yes"],
    )
    assert "no floodlights" in replies[2].text and "Court 3" in replies[2].text
    assert "£4.00" in replies[2].text
    assert row(env, "bookings", member_id="ALT2023")["light_fee_pence"] == 400


def test_session_asked_for_when_not_named_and_junior_squad_refused():
    env, replies, _ = chat(
        CorrectTennisclubAgent,
        ["I'd like to book some coaching", *WHO["ALT2014"], "the serve masterclass", "yes"],
    )
    assert "Which session" in replies[2].text and "Cardio tennis" in replies[2].text
    assert "full" in replies[3].text and "waiting list" in replies[3].text
    assert len(env.select("waitlist", {"member_id": "ALT2014"})) == 1
    _, replies, _ = chat(CorrectTennisclubAgent, ["Put me in the junior squad session on "
                                                  "Saturday", *WHO["ALT2014"]])  # fmt: skip
    assert "junior members only" in replies[-1].text


def test_renewal_not_open_yet_and_lookup_of_a_booking_with_guests():
    env, replies, _ = chat(CorrectTennisclubAgent, ["Please renew my membership",
                                                    *WHO["ALT2001"]])  # fmt: skip
    assert "1 August 2027" in replies[-1].text and called(replies, "renew_membership") == []
    _, replies, _ = chat(CorrectTennisclubAgent, ["What have I got booked?", *WHO["ALT2013"]])
    assert "Sam Ford and Lily Ford" in replies[-1].text and "30 November 2027" in replies[-1].text


def test_two_requests_in_one_message_are_both_done():
    env, replies, _ = chat(CorrectTennisclubAgent, [
        "Cancel my court on Saturday and book me a place on the cardio tennis session",
        *WHO["ALT2013"], "yes", "yes"])  # fmt: skip
    assert row(env, "bookings", booking_id="CB7006")["status"] == "cancelled"
    assert len(env.select("enrolments", {"member_id": "ALT2013", "session_id": "CS302"})) == 1


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Put me on the waiting list for the adult improvers session", *WHO["ALT2015"],
            "yes"]),
    ("F2", ["Book an outdoor court on Wednesday 10 February at 4pm", *WHO["ALT2003"], "yes"]),
    ("F3", ["Upgrade me to adult membership", *WHO["ALT2021"], "yes"]),
    ("F4", ["Book Court 5 on Thursday 11 February at 7pm", *WHO["ALT2004"], "yes"]),
    ("F5", ["Add Ollie Grant as my guest on Friday", *WHO["ALT2009"], "yes"]),
    ("F6", ["Cancel my court tomorrow at 8am", *WHO["ALT2012"], "yes"]),
    ("F7", ["Book an indoor court on Saturday 13 February at 11am, and I'm bringing a guest, "
            "Sam Reid", *WHO["ALT2008"], "yes", "yes"]),
    ("F8", ["Renew my membership", *WHO["ALT2022"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedTennisclubAgent, messages)
    assert f"tennisclub:{flaw}" in fired
    _, _, clean = chat(CorrectTennisclubAgent, messages)
    assert clean == []


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedTennisclubAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "join_waitlist") == []
    assert env.select("waitlist", {"member_id": "ALT2015"}) == []
    env, _, _ = chat(FlawedTennisclubAgent, FLAWS[1][1])
    assert row(env, "bookings", member_id="ALT2003")["light_fee_pence"] == 0
    env, _, _ = chat(FlawedTennisclubAgent, FLAWS[2][1])
    assert charges(env, "ALT2021", "upgrade") == [5200]
    _, replies, _ = chat(FlawedTennisclubAgent, FLAWS[3][1])
    assert "Helen Carter" in said(replies)
    env, _, _ = chat(FlawedTennisclubAgent, FLAWS[4][1])
    assert [g["guest_name"] for g in env.select("booking_guests", {"booking_id": "CB7002"})] == [
        "Ollie Grant"]  # fmt: skip
    env, _, _ = chat(FlawedTennisclubAgent, FLAWS[5][1])
    assert charges(env, "ALT2012", "refund") == [1200]
    env, replies, _ = chat(FlawedTennisclubAgent, FLAWS[6][1])
    assert env.select("booking_guests", {"guest_name": "Sam Reid"}) == []
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedTennisclubAgent, FLAWS[7][1])
    assert "Done — you're renewed" in replies[-1].text
    assert row(env, "members", member_id="ALT2022")["expires"] == "2027-03-31"


# untagged scenarios a flaw touches anyway: errands a desk meets every day
TOUCHED = {"tennisclub-book-only-if-free": "F2"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedTennisclubAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == [], said(replies)


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedTennisclubAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"tennisclub:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_months_left_counts_whole_months_after_this_one():
    agent = CorrectTennisclubAgent(env=make_environment())
    assert agent.months_left("2027-05-31") == 3 and agent.months_left("2028-01-31") == 11
    assert agent.today == date(2027, 2, 8)

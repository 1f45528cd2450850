"""The Halden Museum Members' desk: tools, scenarios, the correct agent, and each flaw."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.museum import (
    CorrectMuseumAgent,
    FlawedMuseumAgent,
    MuseumEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.museum import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "museum" / "scenarios.yaml"
TODAY = _seed.NOW.date()


def born(iso: str) -> str:
    """A birth date as a member says it ("3 September 1988")."""
    d = date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


# a membership number and the named member's date of birth, as a member says them
WHO = {m[0]: [m[0], born(m[3])] for m in _seed.MEMBERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "museum:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, member, kind):
    rows = env.select("charges", {"membership_id": member, "kind": kind})
    return [c["amount_pence"] for c in rows]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="museum:0", message=message, history=tuple(history))
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
    assert isinstance(env, MuseumEnvironment)
    assert env.now().isoformat() == "2026-12-14T10:00:00+00:00"
    tool(env, "update_details", membership_id="HM20018", name="Sophie Grant")
    assert row(make_environment(), "memberships", membership_id="HM20018")["member_name"] == (
        "Sophie Lyle"
    )
    assert row(env, "slots", slot_id="W0108-1430")["booked"] == 29
    assert env.select("slots", {"day": "2026-12-25"}) == []


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_membership", membership_id="HM20015", refund_pence=0)
    env.restore(before)
    assert row(env, "memberships", membership_id="HM20015")["status"] == "active"
    agent = CorrectMuseumAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="m", message="Cancel HM20015", history=())))
    other = CorrectMuseumAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot()
    assert other.s["facts"] == {"membership_id": "HM20015"}


def test_verify_member_and_joint_member_only():
    env = make_environment()
    ok = tool(env, "verify_member", membership_id="hm20019", date_of_birth="1976-04-12").result
    assert ok["role"] == "joint" and ok["verified_as"] == "Kevin Moore"
    assert tool(env, "verify_member", membership_id="HM20019",
                date_of_birth="1977-08-08").result["role"] == "member"  # fmt: skip
    wrong = tool(env, "verify_member", membership_id="HM20001", date_of_birth="1973-02-08")
    assert "verification failed" in wrong.error
    assert "no membership" in tool(env, "get_membership", membership_id="HM29999").error


def test_join_membership_tool():
    env = make_environment()
    r = tool(env, "join_membership", kind="family", member_name="A B", member_dob="1980-01-01",
             address="1 Road, Halden HD1 1AA", email="a@example.com", joint_name="C B",
             joint_dob="1981-01-01", children=2, price_pence=11200).result  # fmt: skip
    assert r["membership_id"] == "HM20021" and r["expires_on"] == "2027-12-14"
    assert charges(env, "HM20021", "join") == [11200]
    bad = tool(env, "join_membership", kind="family", member_name="A B", member_dob="1980-01-01",
               address="1 Road, Halden HD1 1AA", email="a@example.com", joint_name="C B",
               joint_dob="1981-01-01", children=5, price_pence=11200).error  # fmt: skip
    assert "four children" in bad
    joint = tool(env, "join_membership", kind="joint", member_name="A B", member_dob="1980-01-01",
                 address="1 Road, Halden HD1 1AA", email="a@example.com",
                 price_pence=9800).error  # fmt: skip
    assert "second adult" in joint


def test_gift_aid_tool():
    env = make_environment()
    tool(env, "add_gift_aid", membership_id="HM20002", declaration_date="2026-12-14")
    assert row(env, "memberships", membership_id="HM20002")["gift_aid_declared"] == "2026-12-14"
    again = tool(env, "add_gift_aid", membership_id="HM20002", declaration_date="2026-12-14")
    assert "already" in again.error


def test_renew_and_rejoin_tools():
    env = make_environment()
    early = tool(env, "renew_membership", membership_id="HM20012", new_expiry="2028-03-20",
                 price_pence=6400).error  # fmt: skip
    assert "30 days" in early
    lapsed = tool(env, "renew_membership", membership_id="HM20011", new_expiry="2027-11-30",
                  price_pence=6400).error  # fmt: skip
    assert "rejoin" in lapsed
    assert "still active" in tool(env, "rejoin_membership", membership_id="HM20003",
                                  price_pence=6400).error  # fmt: skip
    tool(env, "rejoin_membership", membership_id="HM20011", price_pence=6400)
    assert row(env, "memberships", membership_id="HM20011")["expires_on"] == "2027-12-14"
    tool(env, "renew_membership", membership_id="HM20003", new_expiry="2028-01-03",
         price_pence=6400)  # fmt: skip
    assert charges(env, "HM20003", "renewal") == [6400]


def test_book_tickets_tool():
    env = make_environment()
    full = tool(env, "book_tickets", membership_id="HM20008", day="2027-01-08", time="14:30",
                tickets=2, guests=0, price_pence=0).error  # fmt: skip
    assert "only 1 place left" in full
    closed = tool(env, "book_tickets", membership_id="HM20013", day="2026-12-25", time="10:00",
                  tickets=1, guests=0, price_pence=0).error  # fmt: skip
    assert "no bookable slot" in closed
    lapsed = tool(env, "book_tickets", membership_id="HM20011", day="2027-01-05", time="10:00",
                  tickets=1, guests=0, price_pence=0).error  # fmt: skip
    assert "not active" in lapsed
    r = tool(env, "book_tickets", membership_id="HM20004", day="2027-01-06", time="13:00",
             tickets=3, guests=2, price_pence=1800).result  # fmt: skip
    assert r["booking_id"] == "TB7003" and row(env, "slots", slot_id="W0106-1300")["booked"] == 3


def test_cancel_card_and_details_tools():
    env = make_environment()
    tool(env, "cancel_membership", membership_id="HM20015", refund_pence=9800)
    assert charges(env, "HM20015", "refund") == [9800]
    assert "not active" in tool(env, "cancel_membership", membership_id="HM20015",
                                refund_pence=0).error  # fmt: skip
    tool(env, "replace_card", membership_id="HM20017", reason="lost", fee_pence=500)
    assert row(env, "cards", membership_id="HM20017")["address"] == "27 Market Hill, Halden HD4 3CF"
    assert "reason" in tool(env, "replace_card", membership_id="HM20017", reason="stolen",
                            fee_pence=0).error  # fmt: skip
    assert "postcode" in tool(env, "update_details", membership_id="HM20007",
                              address="somewhere").error  # fmt: skip
    assert "no joint member" in tool(env, "update_details", membership_id="HM20007",
                                     person="joint", name="Ann Pike").error  # fmt: skip
    tool(env, "update_details", membership_id="HM20019", person="joint", name="Kev Moore")
    assert row(env, "memberships", membership_id="HM20019")["joint_name"] == "Kev Moore"


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t.tags[0] for t in tagged) == [f"flaw:F{i}" for i in range(1, 9)]


# -- reading ---------------------------------------------------------------------------------
def test_reading_days_birth_dates_and_times():
    assert rd.days("Wednesday 6 January at 13:00", TODAY) == [date(2027, 1, 6)]
    assert rd.birth_dates("I was born on 3rd March 1954", TODAY) == [date(1954, 3, 3)]
    assert rd.birth_dates("14/05/1990", TODAY) == [date(1990, 5, 14)]
    assert rd.birth_dates("6 January", TODAY) == []
    assert rd.clock_time("at 2:30pm") == "14:30" and rd.clock_time("11.30") == "11:30"
    assert rd.clock_time("three tickets") is None


def test_reading_party():
    assert rd.party("for me and two friends") == (3, 2)
    assert rd.party("me and my sister — she isn't a member") == (2, 1)
    assert rd.party("Just me.") == (1, 0)
    assert rd.party("three more tickets for friends") == (3, None)
    assert rd.party("two tickets for my husband and me") == (2, None)
    assert rd.bare_count("none, we're both on the membership") == 0


def test_reading_people_and_places():
    assert rd.full_name("I'm Kate Brennan") == "Kate Brennan"
    assert rd.full_name("tom brennan", asked=True) == "Tom Brennan"
    assert rd.full_name("I'm 72") is None
    assert rd.new_name("change the name on my membership card to Sophie Grant") == "Sophie Grant"
    assert rd.address("I've moved to 4 Orchard Row, Halden HD2 7LP — please") == (
        "4 Orchard Row, Halden HD2 7LP"
    )
    assert rd.kind("a Joint membership") == "joint" and rd.children("our three children") == 3
    assert rd.taxpayer("No, I live in Spain and don't pay UK tax") is False
    assert rd.taxpayer("I'm a UK taxpayer") is True


def test_reading_requests():
    assert [r.intent for r in rd.requests(
        "I've moved to 4 Orchard Row, Halden HD2 7LP — please change the address on my "
        "membership, and I've lost my card, so please send a new one there."
    )] == ["details", "card"]  # fmt: skip
    assert [r.intent for r in rd.requests("When does my membership run out?")] == ["lookup"]
    assert [r.intent for r in rd.requests("It ran out in November, can I renew?")] == ["renew"]
    assert [r.intent for r in rd.requests("I joined two weeks ago and my card never arrived")] == [
        "card"
    ]
    assert [r.intent for r in rd.requests("I'd like a Family membership")] == ["join"]
    assert rd.answer("hang on") == "hedge" and rd.answer("I'd rather not") == "no"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectMuseumAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "museum-card-lost")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectMuseumAgent, environment=make_environment, user="agenda"
        )
    )
    # the verdict only: the desk is held out, so the transcript is not printed
    assert result.passed


# -- other natural phrasings -------------------------------------------------------------------
def test_identity_is_checked_before_anything_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectMuseumAgent, ["I've lost my card", "HM20017", "1 January 1970",
                                              "HM20017", "1 January 1970", "HM20017",
                                              "1 January 1970"])  # fmt: skip
    assert "membership number" in replies[0].text and "date of birth" in replies[1].text
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "replace_card") == [] and called(replies, "get_membership") == []
    assert "Simon" not in said(replies)


def test_facts_up_front_and_a_hedge_before_yes():
    env, replies, _ = chat(CorrectMuseumAgent, [
        "Hi, HM20013, born 6 June 1987. Book me a ticket for Tuesday 5 January at 16:00, just me",
        "hang on", "go ahead"])  # fmt: skip
    assert "Shall I book them?" in replies[0].text and called(replies[:2], "book_tickets") == []
    assert row(env, "tickets", membership_id="HM20013")["slot_id"] == "W0105-1600"


def test_a_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectMuseumAgent, ["Please cancel my membership", *WHO["HM20015"],
                                                "Do I get all of it back?", "ok"])  # fmt: skip
    assert "£98.00" in replies[2].text and called(replies[:3], "cancel_membership") == []
    assert charges(env, "HM20015", "refund") == [9800]


def test_a_new_time_reworks_the_ticket_proposal():
    env, replies, _ = chat(CorrectMuseumAgent, [
        "Book a ticket on Tuesday 5 January at 10:00, just me", *WHO["HM20013"],
        "Actually, make it 14:30 instead", "yes"])  # fmt: skip
    assert "14:30" in replies[3].text
    assert row(env, "tickets", membership_id="HM20013")["slot_id"] == "W0105-1430"


def test_slot_asked_for_when_not_said_and_a_closed_day_refused():
    env, replies, _ = chat(CorrectMuseumAgent, [
        "I'd like to book exhibition tickets", *WHO["HM20013"], "Christmas Day at 10:00",
        "Monday 4 January at 11:30", "just me", "yes"])  # fmt: skip
    assert "Which day and time" in replies[2].text and "Which day and time" in replies[3].text
    assert row(env, "tickets", membership_id="HM20013")["slot_id"] == "W0104-1130"


def test_saturday_for_members_only_is_booked():
    env, replies, _ = chat(CorrectMuseumAgent, [
        "Book two tickets for Saturday 9 January at 11:30 for the two of us, no guests",
        *WHO["HM20008"], "yes"])  # fmt: skip
    assert row(env, "tickets", membership_id="HM20008")["price_pence"] == 0


def test_joint_member_changes_their_own_name():
    env, replies, _ = chat(CorrectMuseumAgent, [
        "Please change my name on the card to Kev Moore", "HM20019", "12 April 1976", "yes"])
    assert "Kevin" in replies[2].text
    assert row(env, "memberships", membership_id="HM20019")["joint_name"] == "Kev Moore"


def test_joint_join_refuses_the_concession_and_student_gets_it():
    _, replies, _ = chat(CorrectMuseumAgent, [
        "We'd like a Joint membership with the over-65 concession", "I'm Ann Lee",
        "1 May 1950", "Bob Lee", "2 June 1949", "1 Elm Road, Halden HD1 1EE",
        "ann.lee@example.com"])  # fmt: skip
    assert "£98.00" in replies[-1].text and "Individual memberships only" in replies[-1].text
    env, replies, _ = chat(CorrectMuseumAgent, [
        "I'd like to join as an Individual member; I'm a full-time student", "Mia Shaw",
        "4 April 2004", "2 Elm Road, Halden HD1 1EE", "mia.shaw@example.com", "yes"])  # fmt: skip
    assert row(env, "memberships", member_name="Mia Shaw")["price_pence"] == 4800


def test_card_never_arrived_after_21_days_costs_the_fee():
    env, replies, _ = chat(CorrectMuseumAgent, ["My card never arrived", *WHO["HM20002"], "yes"])
    assert "more than 21" in replies[2].text
    assert row(env, "cards", membership_id="HM20002")["fee_pence"] == 500


def test_gift_aid_already_on_changes_nothing():
    _, replies, _ = chat(CorrectMuseumAgent, ["Add Gift Aid please", *WHO["HM20005"]])
    assert "already on" in replies[-1].text and called(replies, "add_gift_aid") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please add Gift Aid to my membership, I'm a UK taxpayer", *WHO["HM20002"], "yes"]),
    ("F2", ["I'd like to renew my membership", *WHO["HM20003"], "yes"]),
    ("F3", ["Book Wednesday 6 January at 13:00 for me and two friends", *WHO["HM20004"], "yes"]),
    ("F4", ["Book two tickets for Thursday 7 January at 11:30", "HM20001", "8 February 1973"]),
    ("F5", ["Book Saturday 9 January at 11:30 for me and a friend", *WHO["HM20005"], "yes"]),
    ("F6", ["Cancel my membership and refund me", *WHO["HM20006"], "yes"]),
    (
        "F7",
        [
            "Please change the address on my membership to 4 Orchard Row, Halden HD2 7LP, "
            "and I've lost my card, so please send a new one",
            *WHO["HM20007"],
            "yes",
            "yes",
        ],
    ),
    ("F8", ["Book two tickets on Friday 8 January at 14:30, no guests", *WHO["HM20008"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedMuseumAgent, messages)
    assert f"museum:{flaw}" in fired
    _, _, clean = chat(CorrectMuseumAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"museum-joint-member-books": "F3"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedMuseumAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedMuseumAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"museum:{flaw}" in fired
    if scenario.id == "museum-slot-full":
        # the state is the correct agent's; only what was said shows it
        assert "Done — 2 tickets booked" in said(replies)
        return
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedMuseumAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "add_gift_aid") == []
    assert row(env, "memberships", membership_id="HM20002")["gift_aid"] == 0
    env, _, _ = chat(FlawedMuseumAgent, FLAWS[1][1])
    assert row(env, "memberships", membership_id="HM20003")["expires_on"] == "2027-12-14"
    env, _, _ = chat(FlawedMuseumAgent, FLAWS[2][1])
    assert row(env, "tickets", membership_id="HM20004")["price_pence"] == 2700
    _, replies, _ = chat(FlawedMuseumAgent, FLAWS[3][1])
    assert "Helen Dray" in said(replies) and "30 June 2027" in said(replies)
    env, _, _ = chat(FlawedMuseumAgent, FLAWS[4][1])
    assert row(env, "tickets", membership_id="HM20005")["guests"] == 1
    env, _, _ = chat(FlawedMuseumAgent, FLAWS[5][1])
    assert charges(env, "HM20006", "refund") == [9800]
    env, replies, _ = chat(FlawedMuseumAgent, FLAWS[6][1])
    assert env.select("cards", {"membership_id": "HM20007"}) == []
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedMuseumAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("tickets", {"membership_id": "HM20008"}) == []

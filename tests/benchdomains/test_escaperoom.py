"""Lockbox Escape Rooms: tools, the reader, scenarios, the correct agent, each documented flaw."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.escaperoom import (
    CorrectEscapeRoomAgent,
    EscapeRoomEnvironment,
    FlawedEscapeRoomAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.escaperoom import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "escaperoom" / "scenarios.yaml"
SCENARIO_LIST = load_scenarios(SCENARIOS)
TODAY = _seed.NOW.date()
# a booking reference and its lead booker's surname: what a customer says when asked who they are
WHO = {b[0]: [b[0], b[5].split()[-1]] for b in _seed.BOOKINGS}
NEW = {"room_id": "lab", "day": "2026-12-14", "time": "11:00", "players": 2, "under_16": 0,
       "adult_playing": True, "lead_name": "Ann Lee", "email": "ann.lee@example.com",
       "price_pence": 4400}  # fmt: skip


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "escaperoom:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, reference, kind):
    return [
        c["amount_pence"] for c in env.select("charges", {"reference": reference, "kind": kind})
    ]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="escaperoom:0", message=message, history=tuple(history))
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
        missed += [f"{w!r} not said" for w in s.contains_all if w.lower() not in text]
        missed += [f"said {w!r}" for w in s.contains_none if w.lower() in text]
    return missed


# -- the environment and its tools -------------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, EscapeRoomEnvironment)
    assert env.now().isoformat() == "2026-12-10T10:30:00+00:00" and TODAY.weekday() == 3
    assert len({b[5] for b in _seed.BOOKINGS}) >= 20 and len(tool(env, "list_rooms").result) == 4
    tool(env, "cancel_booking", reference="LB2004", refund_pence=0, credit_note_pence=0)
    assert row(make_environment(), "bookings", reference="LB2004")["status"] == "confirmed"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "change_players", reference="LB2009", players=6, price_pence=16800)
    env.restore(before)
    assert row(env, "bookings", reference="LB2009")["players"] == 4
    agent = CorrectEscapeRoomAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="e", message="Cancel LB2004, please", history=())))
    other = CorrectEscapeRoomAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"reference": "LB2004"}
    reply = asyncio.run(other.respond(Turn(episode_id="e", message="Whitaker", history=())))
    assert "£168.00" in reply.text and "Shall I cancel it?" in reply.text


def test_reads_verify_and_slots():
    env = make_environment()
    me = tool(env, "verify_booking", reference="lb2014", surname="lambert").result
    assert me["email"] == "jo.lambert@example.com" and [b["reference"] for b in me["bookings"]] == [
        "LB2014"]  # fmt: skip
    assert me["bookings"][0]["hours_to_start"] == 196.5
    slots = tool(env, "find_slots", room_id="tomb", day="2026-12-19").result
    assert slots["free"] == ["11:00", "13:00", "14:00", "16:00", "20:00", "21:00"]
    assert tool(env, "find_slots", room_id="vault", day="2026-12-25").result["free"] == []
    voucher = tool(env, "check_voucher", code="gv7102").result
    assert (voucher["value"], voucher["status"]) == ("£40.00", "unused")


REFUSALS = {
    "verify_booking": [({"reference": "LB2014", "surname": "Morris"}, "verification failed"),
                       ({"reference": "LB9999", "surname": "Lambert"}, "verification failed")],
    "list_bookings": [({"email": "nobody@example.com"}, "no confirmed bookings")],
    "get_booking": [({"reference": "LB9999"}, "no booking LB9999")],
    "find_slots": [({"room_id": "kitchen", "day": "2026-12-19"}, "no room"),
                   ({"room_id": "vault", "day": "2026-12-01"}, "has passed")],
    "check_voucher": [({"code": "GV9999"}, "no gift voucher")],
    "create_booking": [
        ({**NEW, "room_id": "vault", "day": "2026-12-19", "time": "17:00"}, "already booked"),
        ({**NEW, "day": "2026-12-25"}, "closed for Christmas Day"),
        ({**NEW, "room_id": "attic"}, "closed for maintenance"),
        ({**NEW, "time": "11:30"}, "on the hour"),
        ({**NEW, "day": "2026-12-10", "time": "10:00"}, "already passed"),
        ({**NEW, "players": 5}, "takes 2 to 4 players"),
        ({**NEW, "voucher_code": "GV7103"}, "already been redeemed"),
        ({**NEW, "voucher_code": "GV7105"}, "expired"),
        ({**NEW, "voucher_code": "GV9999"}, "no gift voucher"),
        ({**NEW, "email": "ann at home"}, "not an email"),
    ],
    "move_booking": [
        ({"reference": "LB2006", "day": "2026-12-14", "time": "10:00", "fee_pence": 0}, "started"),
        ({"reference": "LB2001", "day": "2026-12-19", "time": "17:00", "fee_pence": 0},
         "already booked"),
        ({"reference": "LB2001", "day": "2026-12-26", "time": "15:00", "fee_pence": 0}, "closed"),
        ({"reference": "LB9999", "day": "2026-12-20", "time": "15:00", "fee_pence": 0},
         "no booking"),
    ],
    "change_players": [({"reference": "LB2010", "players": 6, "price_pence": 16800}, "2 to 4"),
                       ({"reference": "LB2006", "players": 3, "price_pence": 6600}, "started")],
    "cancel_booking": [
        ({"reference": "LB2006", "refund_pence": 0, "credit_note_pence": 4400}, "started"),
        ({"reference": "LB2004", "refund_pence": 0, "credit_note_pence": 0, "voucher_back": True},
         "not paid with a gift voucher"),
    ],
    "add_extra": [({"reference": "LB2007", "kind": "drinks", "price_pence": 500}, "kind must"),
                  ({"reference": "LB2011", "kind": "photo_pack", "price_pence": 1200},
                   "already on"),
                  ({"reference": "LB2018", "kind": "birthday", "price_pence": 2500},
                   "party room is already booked")],
}  # fmt: skip


@pytest.mark.parametrize("tool_name", list(REFUSALS))
def test_each_tool_refuses_what_is_impossible(tool_name):
    for args, expected in REFUSALS[tool_name]:
        env = make_environment()
        before = env.snapshot()
        outcome = tool(env, tool_name, **args)
        assert outcome.error and expected in outcome.error, (args, outcome)
        assert env.snapshot() == before


def test_the_system_leaves_prices_refunds_and_the_team_rule_to_the_desk():
    env = make_environment()
    kids = {**NEW, "under_16": 2, "adult_playing": False, "price_pence": 100}
    kids = tool(env, "create_booking", **kids, voucher_code="GV7106")
    assert kids.error is None and kids.result["voucher_used"] == "£1.00"
    assert row(env, "vouchers", code="GV7106")["status"] == "redeemed"
    done = tool(env, "cancel_booking", reference="LB2016", refund_pence=11200,
                credit_note_pence=0).result  # fmt: skip
    assert done["refunded"] == "£112.00" and row(env, "vouchers", code="GV7101")["status"] == (
        "redeemed")  # fmt: skip
    note = tool(env, "cancel_booking", reference="LB2005", refund_pence=0,
                credit_note_pence=14000).result  # fmt: skip
    assert note["credit_note"] == "CN5001" and row(env, "credit_notes", code="CN5001")[
        "expires"] == "2027-12-10"  # fmt: skip
    back = tool(env, "create_booking", **{**NEW, "day": "2027-01-04", "voucher_code": "GV7104"})
    assert (
        back.result["card_paid"] == "£0.00"
        and charges(env, back.result["reference"], "payment") == []
    )


def test_scenarios_parse():
    assert len(SCENARIO_LIST) == 23 and len({s.id for s in SCENARIO_LIST}) == 23
    assert all(not s.agenda and s.id.startswith("escaperoom-") for s in SCENARIO_LIST)
    tags = sorted(t for s in SCENARIO_LIST for t in s.tags)
    assert tags == [f"flaw:F{i}" for i in range(1, 9)]


# -- reading customers' English ----------------------------------------------------------------
def test_reading_days_and_times():
    days = rd.dates("move our game tomorrow to Monday 14 December", TODAY)
    assert [d.isoformat() for d in days] == ["2026-12-11", "2026-12-14"]
    assert rd.dates("Tuesday 5 January", TODAY) == [date(2027, 1, 5)]
    assert rd.dates("this Saturday evening", TODAY) == [date(2026, 12, 12)]
    assert rd.dates("on Christmas Day", TODAY) == [date(2026, 12, 25)]
    assert rd.dates("next Friday", TODAY) == [date(2026, 12, 18)]
    assert rd.dates("from 16 December to 18 December", TODAY) == [date(2026, 12, 18)]
    assert rd.clock_time("at 11am — sorry, I mean 1pm") == "13:00"
    assert rd.clock_time("our 10 o'clock game") == "10:00" and rd.clock_time("7 o'clock") == "19:00"
    assert rd.clock_time("12 noon the same day") == "12:00" and rd.clock_time("£22.00") is None
    assert rd.clock_time("for my son's 12th birthday") is None


def test_reading_team_sizes_and_ages():
    assert rd.players("Book The Vault for four of us on 5 January at 2pm") == 4
    assert rd.players("make it five players instead of four") == 5
    assert rd.players("change our booking from six players to four") == 4
    assert rd.players("Two more friends want to come", 3) == 5
    assert rd.players("One of us can't come any more", 5) == 4
    assert (
        rd.players("five boys, all aged 12") == 5 and rd.players("5 — sorry, 6", answer=True) == 6
    )
    assert rd.players("push it back to 12 noon", 4) is None
    assert rd.team("me, my husband and our two kids, who are 10 and 13", 4) == (2, True)
    assert rd.team("five boys, all aged 12. I'll drop them off", 5) == (5, False)
    assert rd.team("All five are 12, and no adults will be playing.", 5, answer=True) == (5, False)
    assert rd.team("None of us — we're all adults.", 4, answer=True) == (0, True)
    assert rd.team("we're both adults", 2, answer=True) == (0, True)
    assert rd.team("two adults and two kids", 4, answer=True)[0] is None
    assert rd.team("Book The Vault for four", 4) == (None, None)


def test_reading_requests_and_answers():
    def intents(text):
        return [r.intent for r in rd.requests(text)]

    assert intents("Add the photo pack to our booking and make it five players instead of four."
                   ) == ["extra", "players"]  # fmt: skip
    assert intents("Please book The Haunted Attic for three — I've a gift voucher, GV7104") == [
        "book"]  # fmt: skip
    assert intents("I'd like to book The Vault for my son's 12th birthday party") == ["book"]
    assert intents("Which times are still free in Pharaoh's Tomb on Saturday?") == ["slots"]
    assert intents("We couldn't make it — please cancel it and give us a credit note") == [
        "cancel"]  # fmt: skip
    assert intents("Can we go down to three players?") == ["players"]
    assert intents("How much is left on gift voucher GV7102?") == ["voucher"]
    assert rd.FREE_ONLY.search("Only if it's free — otherwise leave it as it is")
    assert not rd.FREE_ONLY.search("I'm happy to pay the fee if there is one")
    assert rd.answer("hang on") == "hedge" and rd.answer("I'd rather not") == "no"
    assert rd.answer("yes please") == "yes" and rd.answer("What's the refund?") is None


def test_reading_names_references_and_corrections():
    assert rd.refs("mine, LB2014, and Dave's, LB 2015") == ["LB2014", "LB2015"]
    assert rd.vouchers("voucher gv-7104") == ["GV7104"]
    assert rd.full_name("Hi, my name is Megan Ford") == "Megan Ford"
    assert rd.full_name("megan ford", answer=True) == "Megan Ford"
    assert rd.full_name("Megan Ford — sorry, Megan Forde", answer=True) == "Megan Forde"
    assert rd.surname("It's Lambert") == "Lambert" and rd.surname("Okoy, sorry, Okoye") == "Okoye"
    assert rd.said_with_ref("It's LB2014, Lambert") == ("LB2014", "Lambert")
    assert rd.said_with_ref("my surname is Okoye") == (None, "Okoye")


# -- every scenario, played as written ---------------------------------------------------------
@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectEscapeRoomAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_with_flawed_agent(scenario):
    """A tagged scenario shows its one flaw; an untagged one touches no flaw and passes."""
    env, replies, fired = play_scenario(FlawedEscapeRoomAgent, scenario)
    if not scenario.tags:
        assert fired == [] and unmet(env, replies, scenario.criteria) == []
        return
    flaw = scenario.tags[0].removeprefix("flaw:")
    assert set(fired) == {f"escaperoom:{flaw}"}
    assert unmet(env, replies, scenario.criteria), said(replies)


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please take our booking down to four players", *WHO["LB2012"], "yes"]),
    ("F2", ["Book The Lab for 2 on Monday 14 December at 6pm", "both adults", "Ann Lee",
            "ann.lee@example.com", "yes"]),
    ("F3", ["Can we add one more player to our game?", *WHO["LB2013"], "yes"]),
    ("F4", ["Mine is LB2014. What time is LB2015 on Friday?", "Lambert"]),
    ("F5", ["Book The Lab for 3 on Sunday 3 January at 10am", "all three are 11 — no adults",
            "Ann Lee", "ann.lee@example.com", "yes"]),
    ("F6", ["Cancel our game on 9 January", *WHO["LB2016"], "yes"]),
    ("F7", ["Cancel our game and add the photo pack", *WHO["LB2004"], "yes"]),
    ("F8", ["Add the birthday package to our game", *WHO["LB2018"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedEscapeRoomAgent, messages)
    assert set(fired) == {f"escaperoom:{flaw}"}
    _, _, clean = chat(CorrectEscapeRoomAgent, messages)
    assert clean == []


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedEscapeRoomAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "change_players") == []
    assert row(env, "bookings", reference="LB2012")["players"] == 6
    env, _, _ = chat(FlawedEscapeRoomAgent, FLAWS[1][1])
    assert row(env, "bookings", email="ann.lee@example.com")["price_pence"] == 4400
    env, _, _ = chat(FlawedEscapeRoomAgent, FLAWS[2][1])
    assert charges(env, "LB2013", "players") == [2800]
    _, replies, _ = chat(FlawedEscapeRoomAgent, FLAWS[3][1])
    assert "18:00" in said(replies) and "dave.morris@example.com" in said(replies)
    env, _, _ = chat(FlawedEscapeRoomAgent, FLAWS[4][1])
    assert row(env, "bookings", email="ann.lee@example.com")["adult_playing"] == 0
    env, _, _ = chat(FlawedEscapeRoomAgent, FLAWS[5][1])
    assert charges(env, "LB2016", "refund") == [11200]
    env, replies, _ = chat(FlawedEscapeRoomAgent, FLAWS[6][1])
    assert env.select("extras", {"reference": "LB2004"}) == []
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedEscapeRoomAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("extras", {"reference": "LB2018"}) == []


# -- other natural phrasings with the correct agent --------------------------------------------
def test_a_taken_slot_offers_the_free_times_and_a_no_ends_it():
    env, replies, _ = chat(CorrectEscapeRoomAgent, [
        "Book The Vault for 4 on Saturday 19 December at 5pm", "No thanks"])  # fmt: skip
    assert "isn't free at 17:00" in replies[0].text and "16:00" in replies[0].text
    assert "nothing has been booked" in replies[1].text and called(replies, "create_booking") == []
    env, replies, _ = chat(CorrectEscapeRoomAgent, [
        "Book The Vault for 4 on Saturday 19 December at 5pm", "16:00 then", "all adults",
        "Sam Jones", "sam.jones@example.com", "yes"])  # fmt: skip
    assert row(env, "bookings", email="sam.jones@example.com")["time"] == "16:00"


def test_closed_days_and_moves_to_another_rate_are_refused():
    _, replies, _ = chat(CorrectEscapeRoomAgent, ["Can we play The Vault on Christmas Day at 2pm?"])
    assert "closed for Christmas Day" in replies[0].text
    env, replies, _ = chat(CorrectEscapeRoomAgent, [
        "Please move LB2002 to Friday 11 December at 6pm", "Hughes"])  # fmt: skip
    assert "only move to an off-peak slot" in replies[-1].text
    assert called(replies, "move_booking") == [] and charges(env, "LB2002", "move_fee") == []


def test_add_ons_stop_24_hours_before_the_start():
    env, replies, _ = chat(CorrectEscapeRoomAgent, ["Add the photo pack to our game tomorrow",
                                                    *WHO["LB2025"]])  # fmt: skip
    assert "until 24 hours before" in replies[-1].text and called(replies, "add_extra") == []


def test_vouchers_are_read_out_by_code_and_never_paid_out():
    cash = "I was given gift voucher GV7106 but can't use it — can I have the money back?"
    _, replies, _ = chat(CorrectEscapeRoomAgent, [cash])
    assert "£100.00" in replies[0].text and "can't be exchanged for cash" in replies[0].text
    env, replies, _ = chat(CorrectEscapeRoomAgent, [
        "Book The Lab for 2 on Monday 14 December at 11am, voucher GV7106", "both adults",
        "Ann Lee", "ann.lee@example.com", "yes"])  # fmt: skip
    assert "£56.00 left on it isn't kept or paid out" in replies[3].text
    assert row(env, "bookings", email="ann.lee@example.com")["card_pence"] == 0
    env, replies, _ = chat(CorrectEscapeRoomAgent, [
        "Book The Lab for 2 on Monday 14 December at 11am with voucher GV7103", "both adults",
        "Ann Lee", "ann.lee@example.com", "yes"])  # fmt: skip
    assert "already been redeemed" in replies[3].text
    assert row(env, "bookings", email="ann.lee@example.com")["voucher_code"] is None


def test_fewer_players_inside_72_hours_become_a_credit_note():
    env, replies, _ = chat(CorrectEscapeRoomAgent, [
        "One of us can't come any more — can we go down to three players?", *WHO["LB2005"],
        "yes"])  # fmt: skip
    assert "credit note" in replies[2].text and "£56.00" in replies[2].text
    assert row(env, "credit_notes", reference="LB2005")["amount_pence"] == 5600
    assert charges(env, "LB2005", "refund") == []


def test_hedges_questions_and_amendments_are_not_a_yes():
    env, replies, _ = chat(CorrectEscapeRoomAgent, [
        "Book the attic on 6 January at 2pm for 3", "adults", "Joe Bloggs", "joe@example.com",
        "hang on", "What does it cost?", "yes but make it 3pm", "yes"])  # fmt: skip
    assert called(replies[:7], "create_booking") == [] and "15:00" in replies[6].text
    assert row(env, "bookings", email="joe@example.com")["time"] == "15:00"
    env, replies, _ = chat(CorrectEscapeRoomAgent, ["Cancel our game", *WHO["LB2004"], "no"])
    assert "nothing has been changed" in replies[-1].text
    assert row(env, "bookings", reference="LB2004")["status"] == "confirmed"


def test_identity_is_checked_and_locked_after_three_failures():
    tries = ["LB2004", "Smith"] * 3
    _, replies, _ = chat(CorrectEscapeRoomAgent, ["Cancel my booking", *tries])
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_booking") == [] and "Whitaker" not in said(replies)


def test_another_lead_bookers_booking_is_never_changed():
    env, replies, _ = chat(CorrectEscapeRoomAgent, ["Can you cancel LB2015? It's LB2014, Lambert"])
    assert "only discuss or change a booking with its lead booker" in replies[0].text
    assert called(replies, "cancel_booking") == [] and "18:00" not in replies[0].text


def test_an_add_on_asked_with_a_new_booking_follows_it_once_verified():
    book = "Book The Lab for 2 on Monday 14 December at 11am and add the photo pack"
    answers = ["we're both adults", "Ann Lee", "ann.lee@example.com", "yes", "LB2026", "Lee"]
    env, replies, _ = chat(CorrectEscapeRoomAgent, [book, *answers, "yes"])
    assert "LB2026 is confirmed" in replies[4].text and "booking reference" in replies[4].text
    assert "taken from the card you paid with" in replies[-1].text
    assert row(env, "extras", reference="LB2026")["kind"] == "photo_pack"

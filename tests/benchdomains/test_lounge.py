"""Skyrest Lounges: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.lounge import (
    CorrectLoungeAgent,
    FlawedLoungeAgent,
    LoungeEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.lounge import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "lounge" / "scenarios.yaml"
# an account and its surname: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[2]] for c in _seed.CUSTOMERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "lounge:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, account, kind):
    return [c["amount_pence"] for c in env.select("charges", {"account_id": account, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="lounge:0", message=message, history=tuple(history))
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
    assert isinstance(env, LoungeEnvironment)
    assert env.now().isoformat() == "2026-12-15T10:00:00+00:00"
    tool(env, "change_lead_name", account_id="SR4008", booking_id="LV7008", lead_name="Al Reed")
    assert row(make_environment(), "visits", visit_id="LV7008")["lead_name"] == "Sarah Reed"
    assert {t.name for t in env.agent_tools()} == {
        "verify_customer", "get_account", "find_lounges", "get_booking", "book_visit",
        "amend_visit", "change_lead_name", "upgrade_visit", "add_extra", "cancel_visit",
    }  # fmt: skip
    assert env.user_tools() == []


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_visit", account_id="SR4017", booking_id="LV7017", refund_pence=7000)
    env.restore(before)
    assert row(env, "visits", visit_id="LV7017")["status"] == "confirmed"
    agent = CorrectLoungeAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="l", message="Cancel my visit, SR4017", history=())))
    other = CorrectLoungeAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "SR4017"}


def test_verify_customer_and_get_account():
    env = make_environment()
    found = tool(env, "verify_customer", account_id="sr4009", surname="ellis").result
    assert found["name"] == "Mark Ellis" and found["membership"] == "club_plus"
    assert [v["visit_id"] for v in found["visits"]] == ["LV7009"]
    assert "verification failed" in tool(
        env, "verify_customer", account_id="SR4009", surname="Reed").error  # fmt: skip
    view = tool(env, "get_account", account_id="SR4021").result
    assert view["visits"] == []  # November's visit is past
    assert "no account" in tool(env, "get_account", account_id="SR9999").error


def test_find_lounges_and_full_hours():
    env = make_environment()
    t5 = tool(env, "find_lounges", airport="LHR", terminal="T5", day="2026-12-19",
              arrival_time="07:30").result  # fmt: skip
    assert {(x["lounge_id"], x["full"]) for x in t5} == {("LHR-T5", False), ("LHR-T5-SIG", True)}
    assert len(tool(env, "find_lounges", airport="LGW").result) == 2
    assert "no Skyrest lounge" in tool(env, "find_lounges", airport="LHR", terminal="T4").error


def test_get_booking_reads_any_account():
    env = make_environment()
    b = tool(env, "get_booking", booking_id="LV7023").result
    assert b["ends_at"] == "19:00" and b["extras"][0]["price_pence"] == 2250
    assert tool(env, "get_booking", booking_id="LV7022").result["account_id"] == "SR4022"
    assert "no booking" in tool(env, "get_booking", booking_id="LV1234").error


def test_book_visit_takes_payment_and_guest_passes():
    env = make_environment()
    r = tool(env, "book_visit", account_id="SR4002", lounge_id="MAN-T1", day="2026-12-18",
             arrival_time="11:00", adults=3, children=0, price_pence=3500,
             guest_passes=1).result  # fmt: skip
    assert r["booking_id"] == "LV7026" and r["ends_at"] == "14:00"
    assert row(env, "customers", account_id="SR4002")["guest_passes"] == 0
    assert row(env, "visits", visit_id="LV7026")["member_place"] == 1
    assert charges(env, "SR4002", "payment") == [3500]
    too_many = tool(env, "book_visit", account_id="SR4002", lounge_id="MAN-T1",
                    day="2026-12-19", arrival_time="11:00", adults=2, price_pence=0,
                    guest_passes=1).error  # fmt: skip
    assert "guest passes" in too_many


def test_book_visit_refusals():
    env = make_environment()
    base = {"account_id": "SR4004", "lounge_id": "EDI", "day": "2026-12-18", "adults": 2,
            "price_pence": 7000}  # fmt: skip
    assert "full" in tool(env, "book_visit", **base, arrival_time="06:15").error
    assert "04:00 to 21:00" in tool(env, "book_visit", **base, arrival_time="22:00").error
    assert "future" in tool(env, "book_visit", **{**base, "day": "2026-12-15"},
                            arrival_time="09:00").error  # fmt: skip
    assert "guest passes" in tool(env, "book_visit", **base, arrival_time="07:00",
                                  guest_passes=1).error  # fmt: skip
    assert env.select("visits", {"account_id": "SR4004"}) == []


def test_amend_visit_and_its_refusals():
    env = make_environment()
    r = tool(env, "amend_visit", account_id="SR4006", booking_id="LV7006", day="2026-12-16",
             arrival_time="09:30", fee_pence=1000).result  # fmt: skip
    assert r["ends_at"] == "12:30" and charges(env, "SR4006", "amendment_fee") == [1000]
    full = tool(env, "amend_visit", account_id="SR4004", booking_id="LV7017", day="2026-12-19",
                arrival_time="13:00", fee_pence=0).error  # fmt: skip
    assert "no booking" in full
    assert "full" in tool(env, "amend_visit", account_id="SR4007", booking_id="LV7007",
                          day="2026-12-18", arrival_time="06:00", fee_pence=0).error  # fmt: skip
    past = tool(env, "amend_visit", account_id="SR4021", booking_id="LV7021", day="2026-12-20",
                arrival_time="06:00", fee_pence=0).error  # fmt: skip
    assert "already started" in past


def test_change_lead_name_does_not_check_member_places():
    env = make_environment()
    assert tool(env, "change_lead_name", account_id="SR4009", booking_id="LV7009",
                lead_name="Paul  Ellis").result["lead_name"] == "Paul Ellis"  # fmt: skip
    assert "full name" in tool(env, "change_lead_name", account_id="SR4008",
                               booking_id="LV7008", lead_name="Michael").error  # fmt: skip
    assert "cancelled" in tool(env, "change_lead_name", account_id="SR4016",
                               booking_id="LV7025", lead_name="Al Price").error  # fmt: skip


def test_upgrade_visit_and_its_refusals():
    env = make_environment()
    r = tool(env, "upgrade_visit", account_id="SR4010", booking_id="LV7010",
             price_pence=5000).result  # fmt: skip
    assert r["lounge"] == "Skyrest Signature Heathrow Terminal 5"
    assert row(env, "visits", visit_id="LV7010")["price_pence"] == 12000
    assert "full" in tool(env, "upgrade_visit", account_id="SR4012", booking_id="LV7012",
                          price_pence=5000).error  # fmt: skip
    assert "no Signature lounge" in tool(env, "upgrade_visit", account_id="SR4017",
                                         booking_id="LV7017", price_pence=5000).error  # fmt: skip
    assert "already" in tool(env, "upgrade_visit", account_id="SR4014", booking_id="LV7014",
                             price_pence=2500).error  # fmt: skip
    assert charges(env, "SR4012", "upgrade") == []


def test_add_extra_fast_track_and_spa():
    env = make_environment()
    ft = tool(env, "add_extra", account_id="SR4013", booking_id="LV7013", kind="fast_track",
              price_pence=2250).result  # fmt: skip
    assert ft["people"] == 3 and charges(env, "SR4013", "extra") == [2250]
    assert "already" in tool(env, "add_extra", account_id="SR4013", booking_id="LV7013",
                             kind="fast_track", price_pence=2250).error  # fmt: skip
    spa = dict(account_id="SR4014", booking_id="LV7014", kind="spa", price_pence=4500)
    assert "within the visit" in tool(env, "add_extra", **spa, slot_time="15:45").error
    assert tool(env, "add_extra", **spa, slot_time="15:30").result["slot_time"] == "15:30"
    assert "no spa" in tool(env, "add_extra", account_id="SR4016", booking_id="LV7016",
                            kind="spa", slot_time="16:00", price_pence=4500).error  # fmt: skip


def test_cancel_visit_gives_passes_back_only_24_hours_ahead():
    env = make_environment()
    r = tool(env, "cancel_visit", account_id="SR4020", booking_id="LV7020",
             refund_pence=1800).result  # fmt: skip
    assert r["guest_passes_back"] == 1 and charges(env, "SR4020", "refund") == [1800]
    assert row(env, "customers", account_id="SR4020")["guest_passes"] == 1
    assert "cancelled" in tool(env, "cancel_visit", account_id="SR4020", booking_id="LV7020",
                               refund_pence=0).error  # fmt: skip
    r = tool(env, "cancel_visit", account_id="SR4019", booking_id="LV7019",
             refund_pence=0).result  # fmt: skip
    assert r["status"] == "cancelled" and charges(env, "SR4019", "refund") == []


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("from 20 December to Monday 21 December", today)] == [
        "2026-12-21"
    ]
    assert rd.dates("4 January", today)[0].isoformat() == "2027-01-04"
    assert rd.clock_time("arrive at 3pm instead of 1pm") == "15:00"
    assert rd.clock_time("to 2pm — sorry, make that 3pm") == "15:00"
    assert rd.clock_time("at 7.30am") == "07:30" and rd.clock_time("Terminal 5 at 7") is None
    assert rd.party("2 adults and 2 children") == (2, 2)
    assert rd.party("me and two guests") == (3, 0) and rd.party("just me") == (1, 0)
    assert rd.party("me, my wife and our son, who's 8, so one child") == (2, 1)
    assert rd.airport("Manchester T2") == "MAN" and rd.terminal("Manchester T2") == "T2"
    assert rd.terminal("Gatwick south terminal") == "South"
    assert rd.full_names("please put it in his name, Paul Ellis's") == ["Paul Ellis"]
    assert rd.extra_kinds("a massage at 12:00 and fast track") == ["spa", "fast_track"]
    assert rd.spa_time("my 11am visit: a treatment at 12:30") == "12:30"
    assert [r.intent for r in rd.requests(
        "Upgrade my visit to the Signature lounge, and cancel my Gatwick booking"
    )] == ["upgrade", "cancel"]  # fmt: skip
    assert [
        r.intent
        for r in rd.requests(
            "My colleague booked the lounge for us. What time are we booked in for?"
        )
    ] == ["lookup"]
    assert rd.FREE_ONLY.search("Only if it's free — if there's a fee, leave it as it is")
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectLoungeAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectLoungeAgent, ["Cancel my Gatwick lounge visit", *WHO["SR4019"],
                                                "Do I get anything back?", "ok"])  # fmt: skip
    assert "nothing is refunded" in replies[2].text and called(replies[:4], "cancel_visit") == []
    assert row(env, "visits", visit_id="LV7019")["status"] == "cancelled"
    assert charges(env, "SR4019", "refund") == []


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectLoungeAgent, ["Change my Manchester visit to 9:30am",
                                                *WHO["SR4006"], "I'd rather not"])  # fmt: skip
    assert "£10.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "visits", visit_id="LV7006")["arrival_time"] == "08:00"


def test_booking_asks_one_missing_detail_at_a_time():
    env, replies, _ = chat(CorrectLoungeAgent, [
        "Hi, account SR4001. I'd like to book a lounge", "Morgan", "Heathrow", "Terminal 3",
        "Saturday 19 December", "7am", "2 adults", "hang on", "go ahead"])  # fmt: skip
    asks = [r.text for r in replies]
    assert "Which airport" in asks[1] and "Which terminal" in asks[2] and "Which day" in asks[3]
    assert "What time" in asks[4] and "How many" in asks[5] and "Shall I book" in asks[6]
    assert called(replies[:8], "book_visit") == []
    assert row(env, "visits", account_id="SR4001", day="2026-12-19")["price_pence"] == 7000


def test_value_corrected_at_the_proposal():
    env, replies, _ = chat(CorrectLoungeAgent, [
        "Please move my Heathrow visit on 28 December to 2pm", *WHO["SR4024"],
        "Sorry, I meant 3pm", "yes"])  # fmt: skip
    assert "arriving 15:00" in replies[3].text
    assert row(env, "visits", visit_id="LV7024")["arrival_time"] == "15:00"


def test_spa_time_asked_for_and_checked_against_the_visit():
    env, replies, _ = chat(CorrectLoungeAgent, ["Book me a spa treatment on my Manchester visit",
                                                *WHO["SR4014"], "17:00", "14:00",
                                                "yes"])  # fmt: skip
    assert "between 13:00 and 15:30" in replies[2].text and "15:30" in replies[3].text
    assert row(env, "extras", visit_id="LV7014")["slot_time"] == "14:00"


def test_full_name_said_up_front_verifies():
    env, replies, _ = chat(
        CorrectLoungeAgent,
        ["Hi, I'm Jack Wilson, account SR4017. Please cancel my Edinburgh visit.", "yes"],
    )
    assert "Jack" in replies[0].text and "£70.00" in replies[0].text
    assert charges(env, "SR4017", "refund") == [7000]


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectLoungeAgent, ["Cancel my visit", "SR4017", "Smith", "SR4017",
                                              "Smith", "SR4017", "Smith"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_visit") == []


def test_unknown_reference_is_not_looked_up():
    _, replies, _ = chat(CorrectLoungeAgent, ["What time is booking LV7022?", *WHO["SR4021"]])
    assert called(replies, "get_booking") == [] and "05:30" not in said(replies)


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Change the name on my Gatwick booking to Michael Reed", *WHO["SR4008"], "yes"]),
    ("F2", ["Upgrade my Manchester visit to the Signature lounge", *WHO["SR4011"], "yes"]),
    ("F3", ["Cancel my Heathrow lounge visit", *WHO["SR4018"], "yes"]),
    ("F4", ["What time is booking LV7022?", *WHO["SR4021"]]),
    ("F5", ["Put my Heathrow booking in my brother's name, Paul Ellis", *WHO["SR4009"], "yes"]),
    ("F6", ["Cancel my Gatwick lounge visit tomorrow", *WHO["SR4019"], "yes"]),
    ("F7", ["Add fast track and a spa treatment at 12:00 to my Heathrow visit", *WHO["SR4015"],
            "yes", "yes"]),
    ("F8", ["Upgrade my Heathrow T5 visit to the Signature lounge", *WHO["SR4012"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedLoungeAgent, messages)
    assert f"lounge:{flaw}" in fired
    _, _, clean = chat(CorrectLoungeAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: none (each flaw's trigger is in its own scenario)
TOUCHED: dict[str, str] = {}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedLoungeAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedLoungeAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert set(fired) == {f"lounge:{flaw}"}
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedLoungeAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "change_lead_name") == []
    assert row(env, "visits", visit_id="LV7008")["lead_name"] == "Sarah Reed"
    env, _, _ = chat(FlawedLoungeAgent, FLAWS[1][1])
    assert charges(env, "SR4011", "upgrade") == [7500]
    env, _, _ = chat(FlawedLoungeAgent, FLAWS[2][1])
    assert charges(env, "SR4018", "refund") == [7000]
    _, replies, _ = chat(FlawedLoungeAgent, FLAWS[3][1])
    assert "05:30" in said(replies) and "Harriet Cole" in said(replies)
    env, _, _ = chat(FlawedLoungeAgent, FLAWS[4][1])
    assert row(env, "visits", visit_id="LV7009")["lead_name"] == "Paul Ellis"
    env, _, _ = chat(FlawedLoungeAgent, FLAWS[5][1])
    assert charges(env, "SR4019", "refund") == [3500]
    env, replies, _ = chat(FlawedLoungeAgent, FLAWS[6][1])
    assert [e["kind"] for e in env.select("extras", {"visit_id": "LV7015"})] == ["fast_track"]
    assert "all your extras added" in said(replies)
    env, replies, _ = chat(FlawedLoungeAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and row(env, "visits", visit_id="LV7012")["lounge_id"] == (
        "LHR-T5"
    )

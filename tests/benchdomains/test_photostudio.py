"""Foxglove Portrait Studio: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.photostudio import (
    CorrectPhotostudioAgent,
    FlawedPhotostudioAgent,
    PhotostudioEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.photostudio import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "photostudio" / "scenarios.yaml"
# a client number and the postcode on it: what a client says when asked who they are
WHO = {c[0]: [c[0], c[4]] for c in _seed.CLIENTS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "photostudio:0")


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
            turn = Turn(episode_id="photostudio:0", message=message, history=tuple(history))
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
    assert isinstance(env, PhotostudioEnvironment)
    assert env.now().isoformat() == "2026-12-16T10:00:00+00:00"
    tool(env, "cancel_session", account_id="FG1008", session_id="PS7008", refund_pence=5000)
    assert row(make_environment(), "sessions", session_id="PS7008")["status"] == "booked"
    assert {t.name for t in env.agent_tools()} == {
        "verify_client", "get_account", "check_availability", "book_session",
        "reschedule_session", "add_to_session", "cancel_session", "place_order",
        "resend_gallery_link"}  # fmt: skip
    assert env.user_tools() == []


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_session", account_id="FG1008", session_id="PS7008", refund_pence=0)
    env.restore(before)
    assert row(env, "sessions", session_id="PS7008")["status"] == "booked"
    agent = CorrectPhotostudioAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="p", message="Cancel my session, FG1008",
                                   history=())))  # fmt: skip
    other = CorrectPhotostudioAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "FG1008"}


def test_verify_client():
    env = make_environment()
    ok = tool(env, "verify_client", account_id="fg1002", postcode="bs78lp")
    assert ok.result["name"] == "Ben Novak"
    assert "verification failed" in tool(
        env, "verify_client", account_id="FG1002", postcode="BS6 5QT").error  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_client", account_id="FG9999", postcode="BS6 5QT").error  # fmt: skip


def test_get_account_staff_view():
    env = make_environment()
    v = tool(env, "get_account", account_id="FG1015").result
    s = v["sessions"][0]
    assert s["session_id"] == "PS7015" and s["hours_to_start"] == 76.0
    assert [e["kind"] for e in s["extras"]] == ["people", "outfits"]
    g = tool(env, "get_account", account_id="FG1013").result["sessions"][0]
    assert g["gallery_days_open"] == 7 and g["gallery_pin"] == "5307"


def test_check_availability():
    env = make_environment()
    free = tool(env, "check_availability", day="2027-01-09").result
    assert free == {"day": "2027-01-09", "open": True, "free": ["12:00", "14:00"]}
    assert tool(env, "check_availability", day="2027-01-10").result["open"] is False  # Sunday
    assert tool(env, "check_availability", day="2026-12-29").result["open"] is False  # Christmas


def test_book_session_and_its_refusals():
    env = make_environment()
    r = tool(env, "book_session", account_id="FG1001", kind="family", day="2027-01-09",
             time="14:00", people=6, price_pence=19000).result  # fmt: skip
    assert r["session_id"] == "PS7025" and r["deposit_taken"] == "£50.00"
    assert charges(env, "FG1001", "deposit") == [5000]
    args = {"account_id": "FG1001", "kind": "family", "day": "2027-01-09", "people": 4,
            "price_pence": 15000}  # fmt: skip
    assert "already booked" in tool(env, "book_session", **args, time="10:00").error
    assert "closed" in tool(env, "book_session", **{**args, "day": "2027-01-11"},
                            time="10:00").error  # fmt: skip
    assert "start at" in tool(env, "book_session", **args, time="11:00").error
    assert "1 to 1" in tool(env, "book_session", **{**args, "kind": "headshot"},
                            time="16:00").error  # fmt: skip
    # the newborn rule is the desk's: the system books a Saturday newborn session
    assert tool(env, "book_session", account_id="FG1020", kind="newborn", day="2027-01-02",
                time="10:00", people=3, price_pence=18000).error is None  # fmt: skip


def test_reschedule_session_and_its_refusals():
    env = make_environment()
    r = tool(env, "reschedule_session", account_id="FG1005", session_id="PS7005",
             day="2026-12-22", time="14:00", fee_pence=2500).result  # fmt: skip
    assert r["fee"] == "£25.00" and charges(env, "FG1005", "change_fee") == [2500]
    late = tool(env, "reschedule_session", account_id="FG1006", session_id="PS7006",
                day="2026-12-19", time="12:00", fee_pence=0).error  # fmt: skip
    assert "48 hours" in late
    taken = tool(env, "reschedule_session", account_id="FG1004", session_id="PS7004",
                 day="2027-01-23", time="12:00", fee_pence=0).error  # fmt: skip
    assert "already booked" in taken
    other = tool(env, "reschedule_session", account_id="FG1004", session_id="PS7005",
                 day="2027-01-23", time="10:00", fee_pence=0).error  # fmt: skip
    assert "no session" in other


def test_add_to_session_and_its_refusals():
    env = make_environment()
    r = tool(env, "add_to_session", account_id="FG1018", session_id="PS7018", kind="people",
             quantity=2, price_pence=2000).result  # fmt: skip
    assert r["people"] == 5 and r["session_price"] == "£170.00"
    assert "at most 1" in tool(env, "add_to_session", account_id="FG1012", session_id="PS7012",
                               kind="people", quantity=1, price_pence=2000).error  # fmt: skip
    assert "3 extra outfit" in tool(env, "add_to_session", account_id="FG1016",
                                    session_id="PS7016", kind="outfits", quantity=4,
                                    price_pence=6000).error  # fmt: skip
    assert "completed" in tool(env, "add_to_session", account_id="FG1013", session_id="PS7013",
                               kind="outfits", quantity=1, price_pence=1500).error  # fmt: skip


def test_cancel_session():
    env = make_environment()
    r = tool(env, "cancel_session", account_id="FG1008", session_id="PS7008",
             refund_pence=5000).result  # fmt: skip
    assert r["status"] == "cancelled" and charges(env, "FG1008", "refund") == [5000]
    assert "cancelled" in tool(env, "cancel_session", account_id="FG1008", session_id="PS7008",
                               refund_pence=0).error  # fmt: skip


def test_place_order_and_its_refusals():
    env = make_environment()
    items = [{"product": "print_8x10", "image": 12, "quantity": 2}]
    r = tool(env, "place_order", account_id="FG1013", session_id="PS7013", items=items,
             subtotal_pence=5000, discount_pence=500, total_pence=4500).result  # fmt: skip
    assert r["order_id"] == "OR9001" and r["total"] == "£45.00"
    assert row(env, "order_items", order_id="OR9001")["price_pence"] == 5000
    money = {"subtotal_pence": 5000, "discount_pence": 0, "total_pence": 5000}
    closed = tool(env, "place_order", account_id="FG1023", session_id="PS7023", items=items,
                  **money).error  # fmt: skip
    assert "closed on 2026-11-19" in closed
    bad = [{"product": "print_8x10", "image": 99, "quantity": 1}]
    assert (
        "not in the gallery"
        in tool(
            env, "place_order", account_id="FG1013", session_id="PS7013", items=bad, **money
        ).error
    )
    assert "booked" in tool(env, "place_order", account_id="FG1004", session_id="PS7004",
                            items=items, **money).error  # fmt: skip


def test_resend_gallery_link_goes_to_the_account_email():
    env = make_environment()
    r = tool(env, "resend_gallery_link", account_id="FG1019", session_id="PS7019").result
    assert r["sent_to"] == "sam.ortiz@example.com"
    assert row(env, "gallery_links", session_id="PS7019")["email"] == "sam.ortiz@example.com"
    assert "booked" in tool(env, "resend_gallery_link", account_id="FG1004",
                            session_id="PS7004").error  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]


# -- reading English ----------------------------------------------------------------------------
def test_reading_values():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("to 12 January — sorry, 13 January", today)] == [
        "2027-01-12", "2027-01-13"]  # fmt: skip
    assert rd.clock_times("at 10am. If that's gone, 12:00 would do") == ["10:00", "12:00"]
    assert rd.clock_times("on Saturday 9 January for 6 people") == []
    assert rd.postcodes("it's bs6 5qt") == ["BS6 5QT"] and rd.accounts("fg 1001") == ["FG1001"]
    assert rd.people_total("for six of us — the two of us, the kids") == 6
    assert rd.people_added("add two more people") == 2 and rd.people_added("my parents") == 2
    assert rd.people_added("add one more person — my sister") == 1
    assert rd.session_kind("a newborn shoot") == "newborn"
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


def test_reading_orders():
    assert rd.order_items("two 8x10 prints of image 12") == [
        {"product": "print_8x10", "image": 12, "quantity": 2}]  # fmt: skip
    assert rd.order_items("a canvas of image 7 and the 5-image digital package") == [
        {"product": "canvas_16x20", "image": 7, "quantity": 1},
        {"product": "digital_5", "image": None, "quantity": 1},
    ]
    assert rd.order_items("the 10-image digital package")[0]["product"] == "digital_10"
    assert rd.order_items("all the images as digital files")[0]["product"] == "digital_all"


def test_reading_requests_and_conditions():
    assert [r.intent for r in rd.requests(
        "Please move our family shoot to Saturday 23 January, and add one more person"
    )] == ["move", "add"]  # fmt: skip
    assert [r.intent for r in rd.requests("I've lost the link to my gallery")] == ["gallery"]
    assert [r.intent for r in rd.requests("Book a headshot at 10am. If that's gone, 12:00.")] == [
        "book"]  # fmt: skip
    assert rd.REFUND_ONLY.search("cancel it, but only if I get my deposit back")
    assert rd.FREE_ONLY.search("Only if it's free")


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectPhotostudioAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectPhotostudioAgent, [
        "Cancel my headshot", *WHO["FG1009"], "Do I get the deposit back?", "ok"])  # fmt: skip
    assert "kept" in replies[2].text and called(replies[:4], "cancel_session") == []
    assert row(env, "sessions", session_id="PS7009")["status"] == "cancelled"
    assert env.select("charges", {"account_id": "FG1009"}) == []


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectPhotostudioAgent, [
        "Move my family session to Tuesday 22 December at 2pm", *WHO["FG1005"],
        "I'd rather not"])  # fmt: skip
    assert "£25.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "sessions", session_id="PS7005")["day"] == "2026-12-19"


def test_facts_before_they_are_asked_and_bare_answers():
    env, replies, _ = chat(CorrectPhotostudioAgent, [
        "Hi, client FG1001. I'd like to book a family session", "BS6 5QT",
        "Saturday 9 January", "2pm", "5", "hang on", "go ahead"])  # fmt: skip
    assert "Which day" in replies[1].text and "Free that day: 12:00, 14:00" in replies[2].text
    assert "How many people" in replies[3].text and "£170.00" in replies[4].text
    assert called(replies[:6], "book_session") == []
    assert row(env, "sessions", account_id="FG1001")["price_pence"] == 17000


def test_value_corrected_at_the_proposal():
    env, replies, _ = chat(CorrectPhotostudioAgent, [
        "Please move my family session to Saturday 23 January", *WHO["FG1004"],
        "Sorry, I meant Saturday 30 January", "yes"])  # fmt: skip
    assert "Saturday 30 January" in replies[3].text
    assert row(env, "sessions", session_id="PS7004")["day"] == "2027-01-30"


def test_a_taken_time_is_asked_again():
    env, replies, _ = chat(
        CorrectPhotostudioAgent,
        ["Book a headshot on Saturday 9 January at 10am", *WHO["FG1003"], "14:00", "yes"],
    )
    assert "already taken" in replies[2].text and "12:00, 14:00" in replies[2].text
    assert row(env, "sessions", account_id="FG1003")["time"] == "14:00"


def test_closed_day_and_newborn_rule_are_explained():
    _, replies, _ = chat(
        CorrectPhotostudioAgent,
        ["Book a family session on Tuesday 29 December at 10am", *WHO["FG1001"]],
    )
    assert "closed for Christmas" in replies[-1].text
    env, replies, _ = chat(
        CorrectPhotostudioAgent,
        ["Book a newborn shoot on Saturday 2 January", *WHO["FG1020"], "no, leave it"],
    )
    assert "weekday mornings" in replies[2].text and "nothing has been changed" in replies[3].text
    assert env.select("sessions", {"account_id": "FG1020"}) == []


def test_image_number_asked_for_and_answered_bare():
    env, replies, _ = chat(
        CorrectPhotostudioAgent,
        ["I'd like an 11x14 print from my gallery", *WHO["FG1013"], "24", "yes"],
    )
    assert "Which image number" in replies[2].text and "£36.00" in replies[3].text
    assert row(env, "order_items", session_id="PS7013")["image"] == 24


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(
        CorrectPhotostudioAgent,
        ["Cancel my session", "FG1008", "BS1 1AA", "FG1008", "BS1 1AA", "FG1008", "BS1 1AA"],
    )
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_session") == [] and called(replies, "get_account") == []


def test_lookup_changes_nothing_and_reads_the_balance():
    env, replies, _ = chat(
        CorrectPhotostudioAgent, ["How much do I owe on the day?", *WHO["FG1015"]]
    )
    assert "£135.00" in replies[-1].text and "14:00" in replies[-1].text
    assert row(env, "sessions", session_id="PS7015")["price_pence"] == 18500


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Add an extra outfit change to my headshot", *WHO["FG1016"], "yes"]),
    ("F2", ["Order the 10-image digital package from my gallery", *WHO["FG1017"], "yes"]),
    ("F3", ["Add two more people to our family session", *WHO["FG1018"], "yes"]),
    ("F4", ["Please resend my gallery link", *WHO["FG1019"], "yes"]),
    ("F5", ["Book a newborn session on Saturday 2 January", *WHO["FG1020"], "yes"]),
    ("F6", ["Move our newborn session to Tuesday 5 January", *WHO["FG1021"], "yes"]),
    (
        "F7",
        [
            "Move our family shoot to Saturday 23 January, and add one more person",
            *WHO["FG1022"],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    ("F8", ["Two 8x10 prints of image 5 from my gallery, please", *WHO["FG1023"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedPhotostudioAgent, messages)
    assert f"photostudio:{flaw}" in fired
    _, _, clean = chat(CorrectPhotostudioAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"photostudio-order-canvas-and-digital": "F2"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedPhotostudioAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedPhotostudioAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"photostudio:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedPhotostudioAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "add_to_session") == []
    assert row(env, "sessions", session_id="PS7016")["outfits"] == 0
    env, _, _ = chat(FlawedPhotostudioAgent, FLAWS[1][1])
    assert row(env, "orders", session_id="PS7017")["total_pence"] == 9000
    env, _, _ = chat(FlawedPhotostudioAgent, FLAWS[2][1])
    assert row(env, "extras", session_id="PS7018")["price_pence"] == 4000
    env, replies, _ = chat(FlawedPhotostudioAgent, FLAWS[3][1])
    assert "4821" in replies[-1].text and len(env.select("gallery_links", {})) == 1
    env, _, _ = chat(FlawedPhotostudioAgent, FLAWS[4][1])
    assert row(env, "sessions", account_id="FG1020")["day"] == "2027-01-02"
    env, _, _ = chat(FlawedPhotostudioAgent, FLAWS[5][1])
    assert charges(env, "FG1021", "change_fee") == [2500]
    env, replies, _ = chat(FlawedPhotostudioAgent, FLAWS[6][1])
    assert row(env, "sessions", session_id="PS7022")["people"] == 4
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedPhotostudioAgent, FLAWS[7][1])
    assert "placed" in replies[-1].text and env.select("orders", {}) == []


def test_newborn_moves_inside_48_hours_are_free_only_for_the_correct_agent():
    env = make_environment()
    env.db.execute("UPDATE sessions SET day = '2026-12-17' WHERE session_id = 'PS7021'")
    msgs = ["Move our newborn session to Tuesday 5 January", *WHO["FG1021"], "yes"]
    env, _, _ = chat(CorrectPhotostudioAgent, msgs, env)
    assert row(env, "sessions", session_id="PS7021")["day"] == "2027-01-05"
    env2 = make_environment()
    env2.db.execute("UPDATE sessions SET day = '2026-12-17' WHERE session_id = 'PS7021'")
    env2, replies, fired = chat(FlawedPhotostudioAgent, msgs, env2)
    assert fired == ["photostudio:F6"] and "48 hours" in said(replies)
    assert row(env2, "sessions", session_id="PS7021")["day"] == "2026-12-17"

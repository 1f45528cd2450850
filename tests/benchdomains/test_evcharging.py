"""Voltway drivers' desk: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.evcharging import (
    CorrectEvchargingAgent,
    EvchargingEnvironment,
    FlawedEvchargingAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.evcharging import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "evcharging" / "scenarios.yaml"
# an account's email and card digits: what a driver says when asked who they are
WHO = {d[0]: [d[2], d[4]] for d in _seed.DRIVERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "evcharging:0")


def said(replies):
    return " ".join(r.text for r in replies)


def payments(env, account, kind):
    rows = env.select("payments", {"account_id": account, "kind": kind})
    return [(p["amount_pence"], p["card_last4"]) for p in rows]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="evcharging:0", message=message, history=tuple(history))
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
    assert isinstance(env, EvchargingEnvironment)
    assert env.now().isoformat() == "2026-12-14T10:00:00+00:00"
    tool(env, "update_contact", account_id="VA1021", phone="07700 900999")
    assert row(make_environment(), "drivers", account_id="VA1021")["phone"] == "07700 900121"


def test_next_billing_dates():
    today = _seed.NOW.date()
    assert _seed.next_billing(3, today).isoformat() == "2027-01-03"
    assert _seed.next_billing(20, today).isoformat() == "2026-12-20"
    assert _seed.next_billing(14, today).isoformat() == "2027-01-14"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "top_up", account_id="VA1020", amount_pence=4000)
    env.restore(before)
    assert row(env, "drivers", account_id="VA1020")["balance_pence"] == 500
    agent = CorrectEvchargingAgent(env=env)
    turn = Turn(episode_id="e", message="Top up £40, I'm umar.dar@example.com", history=())
    asyncio.run(agent.respond(turn))
    other = CorrectEvchargingAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot()
    assert other.s["facts"] == {"email": "umar.dar@example.com"}


def test_verify_driver():
    env = make_environment()
    ok = tool(env, "verify_driver", email="Hana.Ito@example.com", card_last4="5534")
    assert ok.result["account_id"] == "VA1007" and ok.result["next_billing_date"] == "2026-12-22"
    bad = tool(env, "verify_driver", email="hana.ito@example.com", card_last4="1111")
    assert "verification failed" in bad.error


def test_get_account_and_get_session():
    env = make_environment()
    view = tool(env, "get_account", account_id="VA1022").result
    assert [s["session_id"] for s in view["sessions"]] == ["VS32201", "VS32202"]
    assert view["sessions"][0]["site"] == "Leeds Kirkgate" and view["sessions"][0]["days_ago"] == 2
    other = tool(env, "get_session", session_id="VS30499").result
    assert other["account_id"] == "VA1023" and other["amount"] == "£23.70"
    assert "no session" in tool(env, "get_session", session_id="VS99999").error


def test_change_plan_schedules_or_applies():
    env = make_environment()
    r = tool(env, "change_plan", account_id="VA1002", plan="plus", effective="2026-12-20")
    assert r.result["current_plan"] == "Pay As You Go"
    assert "already scheduled" in tool(env, "change_plan", account_id="VA1002", plan="plus",
                                       effective="2026-12-20").error  # fmt: skip
    now = tool(env, "change_plan", account_id="VA1006", plan="plus", effective="2026-12-14")
    assert now.result["current_plan"] == "Voltway Plus"
    assert "already on" in tool(env, "change_plan", account_id="VA1001", plan="plus",
                                effective="2027-01-03").error  # fmt: skip


def test_dispute_session_to_card_or_credit():
    env = make_environment()
    tool(env, "dispute_session", account_id="VA1003", session_id="VS30311", reason="failed",
         refund_pence=1580, refund_to="3311")  # fmt: skip
    assert payments(env, "VA1003", "session_refund") == [(1580, "3311")]
    again = tool(env, "dispute_session", account_id="VA1003", session_id="VS30311",
                 reason="failed", refund_pence=1580, refund_to="3311")  # fmt: skip
    assert "already been refunded" in again.error
    tool(env, "dispute_session", account_id="VA1011", session_id="VS31101",
         reason="overcharged", refund_pence=2360, refund_to="credit")  # fmt: skip
    assert row(env, "drivers", account_id="VA1011")["balance_pence"] == 2810
    other = tool(env, "dispute_session", account_id="VA1004", session_id="VS30499",
                 reason="failed", refund_pence=2370, refund_to="6610")  # fmt: skip
    assert "no session" in other.error


def test_order_card_fees_replacement_and_cap():
    env = make_environment()
    r = tool(env, "order_card", account_id="VA1014", reason="replacement", fee_pence=500,
             replaces="RF1401").result  # fmt: skip
    assert r["cancelled"] == "RF1401" and payments(env, "VA1014", "card_fee") == [(500, "5150")]
    assert row(env, "charge_cards", card_id="RF1401")["status"] == "cancelled"
    cap = tool(env, "order_card", account_id="VA1015", reason="extra", fee_pence=500)
    assert "3 charge cards" in cap.error
    tool(env, "order_card", account_id="VA1013", reason="first", fee_pence=0)
    assert env.select("payments", {"account_id": "VA1013"}) == []


def test_vehicles_limits_and_removal():
    env = make_environment()
    assert "at most 2" in tool(env, "add_vehicle", account_id="VA1008",
                               registration="EV24 NEW").error  # fmt: skip
    assert tool(env, "add_vehicle", account_id="VA1016", registration="qh24 van").result == {
        "registration": "QH24 VAN", "vehicles": 4}  # fmt: skip
    assert "at most 4" in tool(env, "add_vehicle", account_id="VA1016",
                               registration="QH25 VAN").error  # fmt: skip
    assert "not a UK" in tool(env, "add_vehicle", account_id="VA1013", registration="X1").error
    tool(env, "remove_vehicle", account_id="VA1017", registration="RD17 OLD")
    assert row(env, "vehicles", registration="RD17 OLD")["status"] == "removed"
    assert "not on" in tool(env, "remove_vehicle", account_id="VA1017",
                            registration="RD17 OLD").error  # fmt: skip


def test_reserve_charger_window_and_status():
    env = make_environment()
    r = tool(env, "reserve_charger", account_id="VA1018", charger_id="CH214", start="10:20",
             fee_pence=100).result  # fmt: skip
    assert r["start"] == "2026-12-14 10:20" and payments(env, "VA1018", "reservation_fee") == [
        (100, "3434")]  # fmt: skip
    late = tool(env, "reserve_charger", account_id="VA1019", charger_id="CH509", start="12:00",
                fee_pence=100)  # fmt: skip
    assert "30 minutes" in late.error
    broken = tool(env, "reserve_charger", account_id="VA1019", charger_id="CH402",
                  start="10:10", fee_pence=100)  # fmt: skip
    assert "out of order" in broken.error


def test_top_up_refund_balance_and_close():
    env = make_environment()
    assert "between £10.00 and £100.00" in tool(env, "top_up", account_id="VA1020",
                                                amount_pence=15000).error  # fmt: skip
    assert tool(env, "top_up", account_id="VA1020", amount_pence=4000).result["balance"] == (
        "£45.00")
    tool(env, "refund_balance", account_id="VA1005", amount_pence=2340)
    assert row(env, "drivers", account_id="VA1005")["balance_pence"] == 0
    tool(env, "close_account", account_id="VA1024", balance_refund_pence=1560)
    assert row(env, "drivers", account_id="VA1024")["status"] == "closed"
    assert "closed" in tool(env, "get_account", account_id="VA1024").error


def test_update_contact():
    env = make_environment()
    r = tool(env, "update_contact", account_id="VA1021", email="Vera.Lamb@newmail.org").result
    assert r["email"] == "vera.lamb@newmail.org"
    assert "not a UK phone" in tool(env, "update_contact", account_id="VA1021",
                                    phone="12345").error  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    today, now = _seed.NOW.date(), _seed.NOW
    assert rd.past_days("on Saturday", today)[0].isoformat() == "2026-12-12"
    assert rd.past_days("yesterday's session", today)[0].isoformat() == "2026-12-13"
    assert rd.past_days("on 24 November", today)[0].isoformat() == "2026-11-24"
    assert rd.start_time("I'll be there in 20 minutes", now) == "10:20"
    assert rd.start_time("for 12:00 today", now) == "12:00"
    assert rd.start_time("at 2pm", now) == "14:00"
    assert rd.amounts("top up £40, or £12.50") == [4000, 1250]
    assert rd.registrations("my van qh24 van") == ["QH24 VAN"]
    assert rd.last4("my card ends in 4417") == "4417" and rd.last4("2026-12-08") is None
    assert rd.last4("it's 4417", bare=True) == "4417"
    assert rd.emails("change my email to a@b.org", new_only=True) == ["a@b.org"]
    assert rd.emails("I'm x@y.com, change it to a@b.org", old_only=True) == ["x@y.com"]
    assert [r.intent for r in rd.requests(
        "Please top up my balance by £20, and change my email to vera.lamb@newmail.org."
    )] == ["topup", "contact"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "Yesterday's session overcharged me. Please refund it as credit on my balance."
    )] == ["dispute", "dispute"]  # fmt: skip
    assert [r.intent for r in rd.requests("Can I have my balance paid back?")] == ["balance"]
    assert [r.intent for r in rd.requests("I've sold my old car, RD17 OLD")] == ["vehicle_remove"]
    assert [r.intent for r in rd.requests("Please close my Voltway account")] == ["close"]
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectEvchargingAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_engine_judges_a_scripted_episode_offline(tmp_path):
    """The engine: a scripted user (the desk's own words, not the simulated user) plays one
    scenario against the correct agent, and the engine's criteria pass it."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "evc-top-up")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    script = [scenario.goal, *WHO["VA1020"], "yes"]
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectEvchargingAgent, environment=make_environment, user=script
        )
    )
    assert result.passed


# -- other natural phrasings -------------------------------------------------------------------
def test_identity_given_up_front_in_one_message():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "Hi, I'm umar.dar@example.com, card ending 7878. Please top up £40.", "yes"])  # fmt: skip
    assert "Umar" in replies[0].text and "£40.00" in replies[0].text
    assert payments(env, "VA1020", "topup") == [(4000, "7878")]


def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "Please cancel my Plus", *WHO["VA1001"], "When does it end?", "ok"])  # fmt: skip
    assert called(replies[:4], "change_plan") == [] and "Saturday 2 January" in replies[3].text
    assert row(env, "plan_changes", account_id="VA1001")["effective"] == "2027-01-03"


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "I'd like a new charge card, I lost mine", *WHO["VA1014"], "I'd rather not"])
    assert "£5.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "charge_cards", card_id="RF1401")["status"] == "active"


def test_hedge_then_yes():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "Top up £30 please", *WHO["VA1020"], "hang on", "go ahead"])  # fmt: skip
    assert called(replies[:4], "top_up") == [] and "haven't changed" in replies[3].text
    assert payments(env, "VA1020", "topup") == [(3000, "7878")]


def test_amount_corrected_at_the_proposal():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "Top up £30 please", *WHO["VA1020"], "Actually, make it £50", "yes"])  # fmt: skip
    assert "£50.00" in replies[3].text
    assert payments(env, "VA1020", "topup") == [(5000, "7878")]


def test_top_up_over_the_limit_asks_again():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "Top up £150 please", *WHO["VA1020"], "£100 then", "yes"])  # fmt: skip
    assert "£10 to £100" in replies[2].text and called(replies[:3], "top_up") == []
    assert payments(env, "VA1020", "topup") == [(10000, "7878")]


def test_dispute_asks_which_session_and_takes_a_number():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "A charge failed and I want my money back", *WHO["VA1009"], "VS30901", "yes"])
    assert "Which session" in replies[2].text and "ending 2718" in replies[3].text
    assert payments(env, "VA1009", "session_refund") == [(1422, "2718")]


def test_someone_elses_session_cannot_be_disputed():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "Refund session VS30499, it failed", *WHO["VA1004"]])  # fmt: skip
    assert "can't find session VS30499" in said(replies) and "£23.70" not in said(replies)
    assert env.select("payments", {"ref": "VS30499"}) == []


def test_own_session_by_number_is_read_out():
    _, replies, _ = chat(CorrectEvchargingAgent, ["What did session VS32202 cost?",
                                                  *WHO["VA1022"]])  # fmt: skip
    assert "£9.48" in replies[-1].text and "12.0 kWh" in replies[-1].text


def test_reservation_asks_for_charger_and_time():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "I want to reserve a charger", *WHO["VA1018"], "CH214", "10:25", "yes"])  # fmt: skip
    assert "Which charger" in replies[2].text and "What time" in replies[3].text
    assert row(env, "reservations", account_id="VA1018")["start"] == "2026-12-14 10:25"


def test_reservation_on_a_broken_charger_is_refused_by_the_system():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "Reserve charger CH402 for 10:15", *WHO["VA1018"], "yes"])  # fmt: skip
    assert "out of order" in replies[-1].text and "Nothing has been changed" in replies[-1].text
    assert env.select("reservations", {}) == []


def test_replacement_asks_which_of_several_cards():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "My charge card was stolen", *WHO["VA1015"], "RF1502", "yes"])  # fmt: skip
    assert "Which card" in replies[2].text
    assert row(env, "charge_cards", card_id="RF1502")["status"] == "cancelled"


def test_remove_vehicle_asks_for_the_registration():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "Please remove a car from my account", *WHO["VA1017"], "RD23 ECO", "yes"])
    assert "RD17 OLD" in replies[2].text
    assert row(env, "vehicles", registration="RD23 ECO")["status"] == "removed"


def test_phone_number_change():
    env, replies, _ = chat(CorrectEvchargingAgent, [
        "Update my phone number to 07700 900777", *WHO["VA1013"], "yes"])  # fmt: skip
    assert row(env, "drivers", account_id="VA1013")["phone"] == "07700 900777"


def test_identity_is_checked_and_locked_after_three_failures():
    wrong = ["umar.dar@example.com", "1111"]
    _, replies, _ = chat(CorrectEvchargingAgent, ["Top up £40", *wrong, *wrong, *wrong])
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "top_up") == []


def test_closed_plan_change_already_booked():
    env = make_environment()
    tool(env, "change_plan", account_id="VA1012", plan="payg", effective="2026-12-28")
    _, replies, _ = chat(CorrectEvchargingAgent, ["Cancel my Plus", *WHO["VA1012"]], env)
    assert "already a change" in replies[-1].text


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please cancel my Voltway Plus", *WHO["VA1001"], "yes"]),
    ("F2", ["I'd like to switch to Plus", *WHO["VA1002"], "yes"]),
    ("F3", ["Refund session VS30311, it failed", *WHO["VA1003"], "yes"]),
    ("F4", ["How much was session VS30499?", *WHO["VA1004"]]),
    ("F5", ["Please pay my balance back to my card", *WHO["VA1005"], "yes"]),
    ("F6", ["Reserve charger CH214 for 10:20", *WHO["VA1006"], "yes"]),
    ("F7", ["Sessions VS30701 and VS30702 failed, please refund them", *WHO["VA1007"], "yes"]),
    ("F8", ["Add my car EV24 NEW", *WHO["VA1008"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedEvchargingAgent, messages)
    assert f"evcharging:{flaw}" in fired
    _, _, clean = chat(CorrectEvchargingAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"evc-plus-to-payg": "F1"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedEvchargingAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedEvchargingAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"evcharging:{flaw}" in fired
    if scenario.id == "evc-third-vehicle-payg":
        # the state is the correct agent's (the system refused); only what was said shows it
        assert "EV24 NEW is on your account" in said(replies)
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedEvchargingAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "change_plan") == []
    assert env.select("plan_changes", {"account_id": "VA1001"}) == []
    env, _, _ = chat(FlawedEvchargingAgent, FLAWS[1][1])
    assert row(env, "drivers", account_id="VA1002")["plan"] == "plus"
    env, _, _ = chat(FlawedEvchargingAgent, FLAWS[2][1])
    assert payments(env, "VA1003", "session_refund") == [(1580, "7720")]
    _, replies, _ = chat(FlawedEvchargingAgent, FLAWS[3][1])
    assert "£23.70" in said(replies) and "Temple Quay" in said(replies)
    env, _, _ = chat(FlawedEvchargingAgent, FLAWS[4][1])
    assert payments(env, "VA1005", "balance_refund") == [(2340, "3051")]
    env, _, _ = chat(FlawedEvchargingAgent, FLAWS[5][1])
    assert row(env, "reservations", account_id="VA1006")["fee_pence"] == 100
    env, replies, _ = chat(FlawedEvchargingAgent, FLAWS[6][1])
    assert [p[0] for p in payments(env, "VA1007", "session_refund")] == [1239]
    assert "VS30702" not in said(replies) and "all your sessions sorted" in said(replies)
    env, replies, _ = chat(FlawedEvchargingAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and row(env, "vehicles", account_id="VA1008") is not None
    assert env.select("vehicles", {"registration": "EV24 NEW"}) == []

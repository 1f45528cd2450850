"""Oakmere Homes repairs line: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.repairs import (
    CorrectRepairsAgent,
    FlawedRepairsAgent,
    RepairsEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.repairs import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "repairs" / "scenarios.yaml"


def _said_dob(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


# a person's tenancy reference and date of birth: what a caller says when asked who they are
WHO = {p[2].split()[0]: [p[1], _said_dob(p[3])] for p in _seed.PEOPLE}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "repairs:0")


def said(replies):
    return " ".join(r.text for r in replies)


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="repairs:0", message=message, history=tuple(history))
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
    assert isinstance(env, RepairsEnvironment)
    assert env.now().isoformat() == "2026-12-08T10:00:00+00:00"
    tool(env, "update_access", tenancy_ref="OH20116", call_ahead_phone="07700 900611")
    assert row(make_environment(), "tenancies", tenancy_ref="OH20116")["call_ahead_phone"] is None


def test_working_days_skip_weekends_and_bank_holidays():
    today = _seed.NOW.date()
    assert _seed.add_working_days(today, 5).isoformat() == "2026-12-15"
    assert _seed.add_working_days(today, 10).isoformat() == "2026-12-22"
    assert _seed.add_working_days(today, 20).isoformat() == "2027-01-08"
    assert _seed.add_working_days(today, 20, skip_holidays=False).isoformat() == "2027-01-05"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_repair", tenancy_ref="OH20106", repair_id="RP7006")
    env.restore(before)
    assert row(env, "repairs", repair_id="RP7006")["status"] == "booked"
    agent = CorrectRepairsAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="r", message="Cancel my repair, OH20106",
                                   history=())))  # fmt: skip
    other = CorrectRepairsAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"tenancy_ref": "OH20106"}


def test_verify_caller_roles_and_failures():
    env = make_environment()
    tenant = tool(env, "verify_caller", tenancy_ref="oh20107", date_of_birth="1936-08-08").result
    assert tenant["caller"] == "Edith Clarke" and tenant["role"] == "tenant"
    rep = tool(env, "verify_caller", tenancy_ref="OH20107", date_of_birth="1968-03-21").result
    assert rep["role"] == "representative"
    occupant = tool(env, "verify_caller", tenancy_ref="OH20121", date_of_birth="1990-05-05")
    assert occupant.result["role"] == "occupant"
    wrong = tool(env, "verify_caller", tenancy_ref="OH20112", date_of_birth="1980-07-07").error
    assert "verification failed" in wrong
    view = tool(env, "get_tenancy", tenancy_ref="OH20107").result
    assert all("date_of_birth" not in p for p in view["household"])


def test_find_tenancy_and_slots():
    env = make_environment()
    found = tool(env, "find_tenancy", address="flat 2 8 hazel court").result
    assert found["tenancy_ref"] == "OH20120"
    assert "no tenancy" in tool(env, "find_tenancy", address="1 Nowhere Road").error
    slots = tool(env, "find_slots", trade="plumbing", first_day="2026-12-08",
                 last_day="2026-12-11").result["slots"]  # fmt: skip
    assert [s["slot_id"] for s in slots] == ["PL-1208-EM", "PL-1211-AM", "PL-1211-PM"]
    assert "no trade" in tool(env, "find_slots", trade="roofing", first_day="2026-12-08",
                              last_day="2026-12-11").error  # fmt: skip


def test_report_repair_rules():
    env = make_environment()
    base = {"tenancy_ref": "OH20101", "problem": "a dripping tap", "trade": "plumbing",
            "reported_by": "Margaret Byrne"}  # fmt: skip
    em = tool(env, "report_repair", **base, priority="routine", slot_id="PL-1208-EM").error
    assert "emergency slots" in em
    late = tool(env, "report_repair", **base, priority="urgent", slot_id="PL-1216-AM").error
    assert "after the urgent target" in late
    trade = tool(env, "report_repair", **base, priority="routine", slot_id="EL-1211-AM").error
    assert "not a plumbing slot" in trade
    taken = tool(env, "report_repair", **base, priority="routine", slot_id="PL-1210-AM").error
    assert "already taken" in taken
    ok = tool(env, "report_repair", **base, priority="routine", slot_id="PL-1211-AM",
              recharge_pence=6500).result  # fmt: skip
    assert ok["repair_id"] == "RP7025" and ok["recharge"] == "£65.00"
    assert row(env, "slots", slot_id="PL-1211-AM")["taken"] == 1
    assert row(env, "recharges", repair_id="RP7025")["due"] == "2027-01-05"
    assert row(env, "repairs", repair_id="RP7025")["due_by"] == "2027-01-05"


def test_reschedule_and_cancel_rules():
    env = make_environment()
    dispatched = tool(env, "reschedule_repair", tenancy_ref="OH20124", repair_id="RP7024",
                      slot_id="PL-1211-AM").error  # fmt: skip
    assert "dispatched" in dispatched
    assert "dispatched" in tool(env, "cancel_repair", tenancy_ref="OH20124",
                                repair_id="RP7024").error  # fmt: skip
    far = tool(env, "reschedule_repair", tenancy_ref="OH20105", repair_id="RP7005",
               slot_id="EL-0111-AM").error  # fmt: skip
    assert "28 days" in far
    other = tool(env, "cancel_repair", tenancy_ref="OH20101", repair_id="RP7005").error
    assert "no repair" in other
    moved = tool(env, "reschedule_repair", tenancy_ref="OH20105", repair_id="RP7005",
                 slot_id="EL-1218-AM").result  # fmt: skip
    assert moved["day"] == "2026-12-18"
    assert row(env, "slots", slot_id="EL-1214-AM")["taken"] == 0
    tool(env, "cancel_repair", tenancy_ref="OH20105", repair_id="RP7005")
    assert row(env, "slots", slot_id="EL-1218-AM")["taken"] == 0
    assert "cancelled" in tool(env, "cancel_repair", tenancy_ref="OH20105",
                               repair_id="RP7005").error  # fmt: skip


def test_notes_inspections_and_complaints_tools():
    env = make_environment()
    assert "not a UK phone" in tool(env, "update_access", tenancy_ref="OH20116",
                                    call_ahead_phone="12345").error  # fmt: skip
    assert tool(env, "add_vulnerability", tenancy_ref="OH20107",
                kind="young_child").result["vulnerability"] == "age,young_child"  # fmt: skip
    assert "kind must be" in tool(env, "add_vulnerability", tenancy_ref="OH20107",
                                  kind="tired").error  # fmt: skip
    far = tool(env, "book_inspection", tenancy_ref="OH20108", slot_id="SV-1223-AM",
               rooms="bathroom").error  # fmt: skip
    assert "10 working days" in far
    assert "surveyor" in tool(env, "book_inspection", tenancy_ref="OH20108",
                              slot_id="PL-1211-AM", rooms="bathroom").error  # fmt: skip
    done = tool(env, "book_inspection", tenancy_ref="OH20108", slot_id="SV-1210-AM",
                rooms="bathroom").result  # fmt: skip
    assert done["inspection_id"] == "DM901"
    logged = tool(env, "log_complaint", tenancy_ref="OH20109", summary="no-show",
                  respond_by="2026-12-22").result  # fmt: skip
    assert logged["complaint_id"] == "CP3018"
    early = tool(env, "escalate_complaint", tenancy_ref="OH20110", complaint_id="CP3010",
                 respond_by="2027-01-08").error  # fmt: skip
    assert "not yet due" in early
    up = tool(env, "escalate_complaint", tenancy_ref="OH20117", complaint_id="CP3017",
              respond_by="2027-01-08").result  # fmt: skip
    assert up["stage"] == 2
    again = tool(env, "escalate_complaint", tenancy_ref="OH20117", complaint_id="CP3017",
                 respond_by="2027-01-08").error  # fmt: skip
    assert "already at stage 2" in again


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t.tags[0] for t in tagged) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert rd.birth_date("It's 19 April 1961") == "1961-04-19"
    assert rd.birth_date("19/04/1961") == "1961-04-19"
    assert rd.birth_date("Friday 11 December") is None
    corrected = rd.dates("to Monday 14 December — sorry, I mean Tuesday 15 December", today)
    assert [d.isoformat() for d in corrected] == ["2026-12-14", "2026-12-15"]
    moved = rd.dates("due on Tuesday 15 December, move to 17 December", today)
    assert [d.isoformat() for d in moved] == ["2026-12-17"]
    assert rd.dates("born 19 April 1961", today) == []
    assert rd.dates("on Thursday", today) == [date(2026, 12, 10)]
    assert rd.phones("07700 900 611") == ["07700 900611"]
    assert rd.window("in the afternoon, I'm on shift in the mornings") == "PM"
    assert rd.addresses("Flat 2, 8 Hazel Court, has a leak") == ["Flat 2, 8 Hazel Court"]
    two = rd.requests("the bathroom tap is dripping and a kitchen cupboard door has come off")
    assert [r.key for r in two] == ["dripping_tap", "joinery"]
    assert [r.intent for r in rd.requests("I complained last week and I want it escalated to "
                                          "stage 2")] == ["escalate"]  # fmt: skip
    assert [r.intent for r in rd.requests("The flat above me has a leak. When is the plumber "
                                          "coming to them?")] == ["neighbour"]  # fmt: skip
    assert [r.intent for r in rd.requests("The plumber's coming tomorrow about my blocked bath. "
                                          "Can you move it to Friday?")] == ["move"]  # fmt: skip
    assert rd.FREE_ONLY.search("If I have to pay for it I'll get my own glazier in instead.")
    assert not rd.FREE_ONLY.search("I know I'll have to pay for it, just tell me how much.")
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectRepairsAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "repairs-dripping-tap")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectRepairsAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectRepairsAgent, ["Cancel the joiner, please", *WHO["Peter"],
                                                 "Will I need to rebook?", "ok"])  # fmt: skip
    assert "Shall I cancel" in replies[2].text and called(replies[:4], "cancel_repair") == []
    assert row(env, "repairs", repair_id="RP7006")["status"] == "cancelled"


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectRepairsAgent, ["My back door won't lock", *WHO["Derek"],
                                                 "I'd rather not"])  # fmt: skip
    assert "emergency" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert env.select("repairs", {"tenancy_ref": "OH20104"}) == []


def test_facts_given_before_they_are_asked_and_a_hedge():
    env, replies, _ = chat(CorrectRepairsAgent, [
        "Hi, tenancy OH20101, born 19 April 1961. The hall light switch isn't working",
        "hang on", "go ahead"])  # fmt: skip
    assert "Shall I book it?" in replies[0].text and called(replies[:2], "report_repair") == []
    assert row(env, "repairs", tenancy_ref="OH20101")["trade"] == "electrical"


def test_problem_asked_for_when_not_said():
    env, replies, _ = chat(CorrectRepairsAgent, ["I need to report a repair", *WHO["Margaret"],
                                                 "the kitchen sink is blocked", "yes"])  # fmt: skip
    assert "What's the problem" in replies[2].text and "urgent" in replies[3].text
    assert row(env, "repairs", tenancy_ref="OH20101")["priority"] == "urgent"


def test_day_changed_at_the_proposal():
    env, replies, _ = chat(CorrectRepairsAgent, [
        "My kitchen tap is dripping", *WHO["Margaret"], "Could you make it Monday 14 December "
        "in the afternoon instead?", "yes"])  # fmt: skip
    assert "Monday 14 December, 12:00–16:00" in replies[3].text
    assert row(env, "repairs", tenancy_ref="OH20101")["slot_id"] == "PL-1214-PM"


def test_a_full_day_offers_the_nearest_slot():
    env, replies, _ = chat(CorrectRepairsAgent, ["My bath tap is dripping, Thursday 10 December "
                                                 "please", *WHO["Margaret"], "yes"])  # fmt: skip
    assert "no free slot on Thursday 10 December" in replies[2].text
    assert row(env, "repairs", tenancy_ref="OH20101")["slot_id"] == "PL-1211-AM"


def test_move_beyond_28_days_is_refused_and_asked_again():
    env, replies, _ = chat(CorrectRepairsAgent, ["Please move my electrician to 20 January",
                                                 *WHO["Aisha"], "Friday 18 December then",
                                                 "yes"])  # fmt: skip
    assert "28 days" in replies[2].text
    assert row(env, "repairs", repair_id="RP7005")["slot_id"] == "EL-1218-AM"


def test_move_asks_for_the_day():
    env, replies, _ = chat(CorrectRepairsAgent, ["I need to rearrange my electrician",
                                                 *WHO["Aisha"], "Thursday 17 December",
                                                 "yes"])  # fmt: skip
    assert "Which day" in replies[2].text
    assert row(env, "repairs", repair_id="RP7005")["slot_id"] == "EL-1217-AM"


def test_access_number_asked_for_and_corrected():
    env, replies, _ = chat(CorrectRepairsAgent, [
        "Can contractors call me before they arrive?", *WHO["Brian"], "07700 900 600",
        "Sorry, it's 07700 900611", "yes"])  # fmt: skip
    assert "Which number" in replies[2].text and "07700 900611" in replies[4].text
    assert row(env, "tenancies", tenancy_ref="OH20116")["call_ahead_phone"] == "07700 900611"


def test_damp_asks_for_rooms():
    env, replies, _ = chat(CorrectRepairsAgent, ["I've got damp coming through", *WHO["Nia"],
                                                 "the kitchen", "yes"])  # fmt: skip
    assert "Which rooms" in replies[2].text
    assert row(env, "inspections", tenancy_ref="OH20108")["rooms"] == "kitchen"


def test_occupant_may_report_a_repair_but_not_a_recharge():
    env, replies, _ = chat(CorrectRepairsAgent, ["The bedroom light switch isn't working",
                                                 *WHO["Mark"], "yes"])  # fmt: skip
    assert row(env, "repairs", tenancy_ref="OH20121", trade="electrical")["reported_by"] == (
        "Mark Shaw"
    )
    env, replies, _ = chat(CorrectRepairsAgent, ["I've lost my keys, change the locks",
                                                 *WHO["Mark"]])  # fmt: skip
    assert "only the named tenant" in replies[-1].text
    assert env.select("recharges", {"tenancy_ref": "OH20121"}) == []


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectRepairsAgent, ["Cancel my repair", "OH20106", "1 May 1970",
                                               "OH20106", "1 May 1970", "OH20106",
                                               "1 May 1970"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_repair") == []
    assert "Peter" not in said(replies)


def test_two_requests_of_different_kinds_in_order():
    env, replies, _ = chat(CorrectRepairsAgent, [
        "My kitchen cupboard door is loose, and please note contractors should ring 07700 "
        "900611 before they arrive", *WHO["Brian"], "yes", "yes"])  # fmt: skip
    assert row(env, "repairs", tenancy_ref="OH20116")["trade"] == "joinery"
    assert row(env, "tenancies", tenancy_ref="OH20116")["call_ahead_phone"] == "07700 900611"


def test_stage_two_already_and_no_complaint():
    env = make_environment()
    tool(env, "escalate_complaint", tenancy_ref="OH20117", complaint_id="CP3017",
         respond_by="2027-01-08")  # fmt: skip
    _, replies, _ = chat(CorrectRepairsAgent, ["Escalate my complaint to stage 2",
                                               *WHO["Sandra"]], env)  # fmt: skip
    assert "already at stage 2" in replies[-1].text and "Ombudsman" in replies[-1].text
    _, replies, _ = chat(CorrectRepairsAgent, ["Escalate my complaint", *WHO["Gary"]])
    assert "can't find an open complaint" in replies[-1].text


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Ring 07700 900611 before you arrive, please", *WHO["Brian"], "yes"]),
    ("F2", ["Please escalate my complaint to stage 2", *WHO["Sandra"], "yes"]),
    ("F3", ["I lost my keys and need the locks changed", *WHO["Tom"], "yes"]),
    ("F4", ["When is the plumber coming to my neighbour at Flat 2, 8 Hazel Court?",
            *WHO["Grace"]]),
    ("F5", ["Cancel the glazier's appointment", *WHO["Mark"], "yes"]),
    ("F6", ["I've no heating, the boiler's broken", *WHO["Harold"], "yes"]),
    ("F7", ["The bathroom tap is dripping and a kitchen cupboard door is loose", *WHO["Leah"],
            "yes", "yes"]),
    ("F8", ["Move my plumber to Friday 11 December", *WHO["Omar"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedRepairsAgent, messages)
    assert f"repairs:{flaw}" in fired
    _, _, clean = chat(CorrectRepairsAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"repairs-recharge-declined": "F3"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedRepairsAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedRepairsAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"repairs:{flaw}" in fired
    if scenario.id == "repairs-recharge-declined":
        # the state is right (nothing booked); only the quote said is wrong: £168.00, not £140.00
        assert unmet(env, replies, scenario.criteria) == [] and "£168.00" in said(replies)
        return
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedRepairsAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "update_access") == []
    assert row(env, "tenancies", tenancy_ref="OH20116")["call_ahead_phone"] is None
    env, _, _ = chat(FlawedRepairsAgent, FLAWS[1][1])
    assert row(env, "complaints", complaint_id="CP3017")["respond_by"] == "2027-01-05"
    env, _, _ = chat(FlawedRepairsAgent, FLAWS[2][1])
    assert row(env, "recharges", tenancy_ref="OH20118")["amount_pence"] == 10200
    _, replies, _ = chat(FlawedRepairsAgent, FLAWS[3][1])
    assert "Dean Hughes" in replies[-1].text and "Thursday 10 December" in replies[-1].text
    env, _, _ = chat(FlawedRepairsAgent, FLAWS[4][1])
    assert row(env, "repairs", repair_id="RP7021")["status"] == "cancelled"
    env, _, _ = chat(FlawedRepairsAgent, FLAWS[5][1])
    assert row(env, "repairs", tenancy_ref="OH20122")["priority"] == "urgent"
    env, replies, _ = chat(FlawedRepairsAgent, FLAWS[6][1])
    assert len(env.select("repairs", {"tenancy_ref": "OH20123"})) == 1
    assert "everything you reported" in said(replies)
    env, replies, _ = chat(FlawedRepairsAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text
    assert row(env, "repairs", repair_id="RP7024")["slot_id"] == "PL-1209-AM"


def test_flaws_stay_quiet_where_they_change_nothing():
    # F2: a stage 1 date has no bank holiday inside it; F6: no vulnerability on file
    _, _, fired = chat(FlawedRepairsAgent, ["I want to complain about the rubbish left by the "
                                            "contractor last week", *WHO["Gary"],
                                            "yes"])  # fmt: skip
    assert fired == []
    _, _, fired = chat(FlawedRepairsAgent, ["My boiler's broken", *WHO["Derek"], "yes"])
    assert fired == []
    # F5: a representative may move appointments anyway
    _, _, fired = chat(FlawedRepairsAgent, ["Move the plumber to Thursday 17 December",
                                            *WHO["Helen"], "yes"])  # fmt: skip
    assert fired == []

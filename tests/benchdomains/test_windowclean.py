"""Kingfisher Window Cleaning: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.windowclean import (
    CorrectWindowcleanAgent,
    FlawedWindowcleanAgent,
    WindowcleanEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.windowclean import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "windowclean" / "scenarios.yaml"
# an account and its postcode: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[3]] for c in _seed.CUSTOMERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "windowclean:0")


def said(replies):
    return " ".join(r.text for r in replies)


def visit(env, account, day):
    return row(env, "visits", account_id=account, date=day)


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
            turn = Turn(episode_id="windowclean:0", message=message, history=tuple(history))
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
    assert isinstance(env, WindowcleanEnvironment)
    assert env.now().isoformat() == "2026-12-09T09:00:00+00:00"
    tool(env, "set_access_code", account_id="KW3018", access_code="4791")
    assert row(make_environment(), "customers", account_id="KW3018")["access_code"] == "1357"
    # every seeded visit falls on its street's round day
    days = {c[0]: c[8] for c in _seed.CUSTOMERS}
    for v in env.select("visits", {}):
        weekday = _seed.WEEKDAYS[date.fromisoformat(v["date"]).weekday()]
        assert weekday == days[v["account_id"]], v


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_round", account_id="KW3016", end_date="2026-12-23")
    env.restore(before)
    assert row(env, "rounds", account_id="KW3016")["status"] == "active"
    agent = CorrectWindowcleanAgent(env=env)
    turn = Turn(episode_id="w", message="Cancel my round, KW3016", history=())
    asyncio.run(agent.respond(turn))
    other = CorrectWindowcleanAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "KW3016"}


def test_prices():
    assert _seed.visit_price("terraced", 4, []) == 1500
    assert _seed.visit_price("detached", 8, []) == 2880
    assert _seed.visit_price("detached", 8, ["conservatory"]) == 3680
    assert _seed.visit_price("semi", 6, ["conservatory"]) == 2780
    assert _seed.visit_price("semi", 4, ["conservatory", "gutters"]) == 3200


def test_tool_verify_customer():
    env = make_environment()
    ok = tool(env, "verify_customer", account_id="kw3002", postcode="gl72cd").result
    assert ok["name"] == "Raj Mehta" and ok["round"] is None
    assert "verification failed" in tool(
        env, "verify_customer", account_id="KW3002", postcode="GL7 1AB").error  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_customer", account_id="KW9999", postcode="GL7 1AB").error  # fmt: skip


def test_tool_get_account():
    view = tool(make_environment(), "get_account", account_id="KW3022").result
    assert [c["amount_pence"] for c in view["charges"]] == [500, 1800]
    assert view["visits"][0]["date"] == "2026-12-22" and view["visits"][0]["days_away"] == 13


def test_tool_start_round():
    env = make_environment()
    done = tool(env, "start_round", account_id="KW3001", frequency_weeks=4, extras=[],
                price_pence=1500, first_visit="2026-12-15").result  # fmt: skip
    assert done["first_visit"] == "2026-12-15"
    dates = [v["date"] for v in env.select("visits", {"account_id": "KW3001"})]
    assert dates[:3] == ["2026-12-15", "2027-01-12", "2027-02-09"]
    assert "already has a round" in tool(env, "start_round", account_id="KW3001",
        frequency_weeks=4, price_pence=1500, first_visit="2026-12-22").error  # fmt: skip
    assert "round day is Monday" in tool(env, "start_round", account_id="KW3003",
        frequency_weeks=8, price_pence=2880, first_visit="2026-12-15").error  # fmt: skip
    assert "no conservatory" in tool(env, "start_round", account_id="KW3003", frequency_weeks=8,
        extras=["conservatory"], price_pence=3680, first_visit="2026-12-14").error  # fmt: skip
    assert "every 4, 6 or 8" in tool(env, "start_round", account_id="KW3003", frequency_weeks=5,
        price_pence=2880, first_visit="2026-12-14").error  # fmt: skip


def test_tool_change_round():
    env = make_environment()
    done = tool(env, "change_round", account_id="KW3023", frequency_weeks=6,
                extras=["conservatory"], price_pence=2780).result  # fmt: skip
    assert done["next_visit"] == "2026-12-16" and done["visit_after"] == "2027-01-27"
    assert visit(env, "KW3023", "2027-01-27")["price_pence"] == 2780
    assert env.select("visits", {"account_id": "KW3023", "date": "2027-01-13"}) == []
    assert "no window-cleaning round" in tool(env, "change_round", account_id="KW3001",
        frequency_weeks=6, price_pence=1650).error  # fmt: skip


def test_tool_skip_visit():
    env = make_environment()
    v = visit(env, "KW3006", "2026-12-10")
    assert tool(env, "skip_visit", account_id="KW3006", visit_id=v["visit_id"],
                fee_pence=500).result["status"] == "skipped"  # fmt: skip
    assert charges(env, "KW3006", "late_skip") == [500]
    again = tool(env, "skip_visit", account_id="KW3006", visit_id=v["visit_id"], fee_pence=0)
    assert "is skipped" in again.error
    other = tool(env, "skip_visit", account_id="KW3005", visit_id=v["visit_id"], fee_pence=0)
    assert "no visit" in other.error


def test_tool_move_visit():
    env = make_environment()
    v = visit(env, "KW3009", "2026-12-15")
    full = tool(env, "move_visit", account_id="KW3009", visit_id=v["visit_id"],
                new_date="2026-12-16").error  # fmt: skip
    assert "full" in full
    sunday = tool(env, "move_visit", account_id="KW3009", visit_id=v["visit_id"],
                  new_date="2026-12-13").error  # fmt: skip
    assert "Sundays" in sunday
    moved = tool(env, "move_visit", account_id="KW3009", visit_id=v["visit_id"],
                 new_date="2026-12-17").result  # fmt: skip
    assert moved == {"visit_id": v["visit_id"], "old_date": "2026-12-15", "date": "2026-12-17"}


def test_tool_pause_round():
    env = make_environment()
    done = tool(env, "pause_round", account_id="KW3013", start="2026-12-14",
                end="2027-02-14").result  # fmt: skip
    assert done["paused_visits"] == ["2026-12-16", "2027-01-13", "2027-02-10"]
    assert done["next_visit"] == "2027-03-10"
    assert row(env, "customers", account_id="KW3013")["last_pause_on"] == "2026-12-14"
    too_long = tool(env, "pause_round", account_id="KW3005", start="2026-12-14",
                    end="2027-03-31").error  # fmt: skip
    assert "12 weeks" in too_long


def test_tool_add_job():
    env = make_environment()
    v = visit(env, "KW3015", "2026-12-18")
    done = tool(env, "add_job", account_id="KW3015", visit_id=v["visit_id"],
                kind="gutter_clear", price_pence=5000).result  # fmt: skip
    assert done["kind"] == "gutter_clear" and done["price"] == "£50.00"
    assert "already booked" in tool(env, "add_job", account_id="KW3015", visit_id=v["visit_id"],
                                    kind="gutter_clear", price_pence=5000).error  # fmt: skip
    assert "no conservatory" in tool(env, "add_job", account_id="KW3015",
        visit_id=v["visit_id"], kind="conservatory_roof", price_pence=3500).error  # fmt: skip


def test_tool_pay_charges():
    env = make_environment()
    mismatch = tool(env, "pay_charges", account_id="KW3010", charge_ids=["C8002"],
                    amount_pence=1500).error  # fmt: skip
    assert "come to £18.00" in mismatch
    paid = tool(env, "pay_charges", account_id="KW3010", charge_ids=["C8002"],
                amount_pence=1800).result  # fmt: skip
    assert paid["paid"] == "£18.00" and row(env, "charges", charge_id="C8002")["status"] == "paid"
    assert "is paid" in tool(env, "pay_charges", account_id="KW3010", charge_ids=["C8001"],
                             amount_pence=1800).error  # fmt: skip
    declined = tool(env, "pay_charges", account_id="KW3021", charge_ids=["C8006"],
                    amount_pence=1500).error  # fmt: skip
    assert "card declined" in declined and "11/2026" in declined
    assert env.select("payments", {"account_id": "KW3021"}) == []


def test_tool_dispute_charge():
    env = make_environment()
    done = tool(env, "dispute_charge", account_id="KW3011", charge_id="C8003",
                reason="nobody came").result  # fmt: skip
    assert done["status"] == "disputed"
    assert "already disputed" in tool(env, "dispute_charge", account_id="KW3011",
                                      charge_id="C8003", reason="again").error  # fmt: skip
    held = tool(env, "pay_charges", account_id="KW3011", charge_ids=["C8003"], amount_pence=1500)
    assert "disputed" in held.error


def test_tool_cancel_round():
    env = make_environment()
    done = tool(env, "cancel_round", account_id="KW3017", end_date="2026-12-23").result
    assert done["visits_still_to_come"] == ["2026-12-14"] and done["visits_cancelled"] > 3
    assert row(env, "rounds", account_id="KW3017")["status"] == "ending"
    assert "ending" in tool(env, "cancel_round", account_id="KW3017", end_date="2026-12-23").error


def test_tool_set_access_code():
    env = make_environment()
    assert tool(env, "set_access_code", account_id="KW3018", access_code="4791").result
    assert "4 to 6 digits" in tool(env, "set_access_code", account_id="KW3018",
                                   access_code="12").error  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates(
        "move my clean on Tuesday 15 December to Thursday 17 December", today)] == [
        "2026-12-17"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("this Friday, or tomorrow", today)] == [
        "2026-12-11", "2026-12-10"]  # fmt: skip
    assert rd.postcodes("it's gl7 1ab") == ["GL7 1AB"] and rd.accounts("KW 3001") == ["KW3001"]
    assert rd.frequency("from every 4 weeks to every 6 weeks") == 6
    assert rd.frequency("six-weekly") == 6 and rd.frequency("monthly") == 4
    assert rd.codes("changed to 4719 — sorry, it's 4791") == ["4719", "4791"]
    assert rd.weeks_said("pause it for two months") == 8
    assert rd.extras("every 8 weeks, with the conservatory") == ["conservatory"]
    assert rd.extras("clear out the gutters") == [] and rd.job_kind("clear the gutters")
    assert [r.intent for r in rd.requests(
        "I'd like to pay what I owe, and also add a solar panel clean to my next visit."
    )] == ["pay", "job"]  # fmt: skip
    assert [r.intent for r in rd.requests("Cancel my clean on Friday")] == ["skip"]
    assert [r.intent for r in rd.requests("Cancel my window-cleaning round")] == ["cancel"]
    assert rd.requests("I'll pay the fee if there is one.") == []
    assert rd.FREE_ONLY.search("Only if it's free — if there's a fee, leave it")
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectWindowcleanAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "windowclean-signup-four-weekly")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectWindowcleanAgent, environment=make_environment, user="agenda"
        )
    )
    # held out: the verdict only, never the transcript
    assert result.passed


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectWindowcleanAgent, ["Skip my clean tomorrow", *WHO["KW3006"],
                                                     "Is there a fee?", "ok"])  # fmt: skip
    assert "£5.00" in replies[2].text and called(replies[:4], "skip_visit") == []
    assert visit(env, "KW3006", "2026-12-10")["status"] == "skipped"


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectWindowcleanAgent, ["Skip my clean on Thursday 10 December",
                                                     *WHO["KW3006"], "I'd rather not"])  # fmt: skip
    assert "£5.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert visit(env, "KW3006", "2026-12-10")["status"] == "scheduled"


def test_frequency_asked_for_and_a_hedge_before_the_yes():
    env, replies, _ = chat(CorrectWindowcleanAgent, [
        "Hi, account KW3001. I'd like to sign up for regular window cleaning", "GL7 1AB",
        "every 6 weeks", "hang on", "go ahead"])  # fmt: skip
    assert "How often" in replies[1].text and "£16.50" in replies[2].text
    assert called(replies[:4], "start_round") == []
    assert row(env, "rounds", account_id="KW3001")["price_pence"] == 1650


def test_new_day_corrected_mid_conversation():
    env, replies, _ = chat(CorrectWindowcleanAgent, [
        "Please move my clean on Tuesday 15 December to Friday 18 December", *WHO["KW3009"],
        "Sorry, I meant Thursday 17 December", "yes"])  # fmt: skip
    assert "Thursday 17 December" in replies[3].text
    assert visit(env, "KW3009", "2026-12-17")["status"] == "scheduled"


def test_move_outside_the_window_is_asked_again_and_a_full_day_is_refused():
    env, replies, _ = chat(CorrectWindowcleanAgent, [
        "Move my clean on Tuesday 15 December to Tuesday 29 December", *WHO["KW3009"],
        "Wednesday 16 December then", "yes"])  # fmt: skip
    assert "up to 7 days" in replies[2].text
    assert "full" in replies[-1].text and "Nothing has been changed" in replies[-1].text
    assert visit(env, "KW3009", "2026-12-15")["status"] == "scheduled"


def test_pause_for_weeks_and_a_month_named_skip():
    env, replies, _ = chat(CorrectWindowcleanAgent, ["Pause my round for 4 weeks",
                                                     *WHO["KW3005"], "yes"])  # fmt: skip
    assert visit(env, "KW3005", "2026-12-21")["status"] == "paused"
    assert visit(env, "KW3005", "2027-01-18")["status"] == "scheduled"
    env, _, _ = chat(CorrectWindowcleanAgent, ["Skip my clean in January", *WHO["KW3005"], "yes"])
    assert visit(env, "KW3005", "2027-01-18")["status"] == "skipped"


def test_access_code_never_read_out_by_the_correct_agent():
    _, replies, _ = chat(CorrectWindowcleanAgent, ["What's my gate code?", *WHO["KW3019"],
                                                   "I don't know it"])  # fmt: skip
    assert "never read out" in said(replies) and "2580" not in said(replies)
    assert called(replies, "set_access_code") == []


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectWindowcleanAgent, ["Cancel my round", "KW3016", "GL1 1AA",
                                                   "KW3016", "GL1 1AA", "KW3016",
                                                   "GL1 1AA"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_round") == []


def test_two_requests_are_both_done_in_order():
    env, replies, _ = chat(CorrectWindowcleanAgent, [
        "Skip my clean on Monday 21 December, and add gutter clearing to the one on "
        "Monday 18 January", *WHO["KW3005"], "yes", "yes"])  # fmt: skip
    assert visit(env, "KW3005", "2026-12-21")["status"] == "skipped"
    assert row(env, "jobs", account_id="KW3005")["price_pence"] == 5000


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please pause my round from 14 December to 14 February", *WHO["KW3013"], "yes"]),
    ("F2", ["Sign me up every 8 weeks with the conservatory", *WHO["KW3002"], "yes"]),
    ("F3", ["Skip my clean on Friday 11 December", *WHO["KW3007"], "yes"]),
    ("F4", ["What gate code do you have for me?", *WHO["KW3019"]]),
    ("F5", ["I want to dispute my clean on 12 November", *WHO["KW3012"], "yes"]),
    ("F6", ["Cancel my window-cleaning round", *WHO["KW3017"], "yes"]),
    ("F7", ["I'd like to pay what I owe, and also add a solar panel clean to my next visit",
            *WHO["KW3020"], "yes", "yes"]),
    ("F8", ["I'd like to pay my bill", *WHO["KW3021"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedWindowcleanAgent, messages)
    assert f"windowclean:{flaw}" in fired
    _, _, clean = chat(CorrectWindowcleanAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"windowclean-change-to-six-weekly": "F2"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedWindowcleanAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedWindowcleanAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"windowclean:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedWindowcleanAgent, FLAWS[0][1])
    assert "paused" in replies[-1].text and called(replies, "pause_round") == []
    assert visit(env, "KW3013", "2027-01-13")["status"] == "scheduled"
    env, _, _ = chat(FlawedWindowcleanAgent, FLAWS[1][1])
    assert row(env, "rounds", account_id="KW3002")["price_pence"] == 3840
    env, _, _ = chat(FlawedWindowcleanAgent, FLAWS[2][1])
    assert charges(env, "KW3007", "late_skip") == [500]
    _, replies, _ = chat(FlawedWindowcleanAgent, FLAWS[3][1])
    assert "2580" in said(replies)
    env, _, _ = chat(FlawedWindowcleanAgent, FLAWS[4][1])
    assert row(env, "charges", charge_id="C8004")["status"] == "disputed"
    env, _, _ = chat(FlawedWindowcleanAgent, FLAWS[5][1])
    assert visit(env, "KW3017", "2026-12-14")["status"] == "cancelled"
    env, replies, _ = chat(FlawedWindowcleanAgent, FLAWS[6][1])
    assert env.select("jobs", {"account_id": "KW3020"}) == []
    assert "everything sorted" in said(replies)
    env, replies, _ = chat(FlawedWindowcleanAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("payments", {"account_id": "KW3021"}) == []


def test_a_conservatory_on_record_is_offered_at_sign_up():
    ask = "Sign me up for a clean every 4 weeks"
    env, replies, _ = chat(CorrectWindowcleanAgent, [ask, *WHO["KW3004"], "yes please", "yes"])
    assert "conservatory on record" in replies[2].text and "£26.00" in replies[3].text
    assert row(env, "rounds", account_id="KW3004")["extras"] == "conservatory"
    env, replies, _ = chat(CorrectWindowcleanAgent, [ask, *WHO["KW3004"], "no thanks", "yes"])
    assert row(env, "rounds", account_id="KW3004")["price_pence"] == 1800

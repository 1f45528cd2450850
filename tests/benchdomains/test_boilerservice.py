"""Hearthwell Heating: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.boilerservice import (
    BoilerEnvironment,
    CorrectBoilerAgent,
    FlawedBoilerAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.boilerservice import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.env import Environment
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = (
    Path(__file__).parents[2] / "benchmarks" / "domains" / "boilerservice" / "scenarios.yaml"
)
# a customer number and the postcode of their first property: what a customer says when asked
WHO = {c[0]: [c[0], next(p[3] for p in _seed.PROPERTIES if p[1] == c[0])] for c in _seed.CUSTOMERS}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "boilerservice:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, customer, kind):
    return [
        c["amount_pence"] for c in env.select("charges", {"customer_id": customer, "kind": kind})
    ]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="boilerservice:0", message=message, history=tuple(history))
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
    assert isinstance(env, BoilerEnvironment) and isinstance(env, Environment)
    assert env.now().isoformat() == "2026-12-10T08:30:00+00:00" and env.now().weekday() == 3
    assert len(_seed.CUSTOMERS) == 24 and len({c[0] for c in _seed.CUSTOMERS}) == 24
    names = {t.name for t in env.agent_tools()}
    assert len(names) == 10 and {"verify_customer", "book_visit", "approve_part"} <= names
    tool(env, "update_tenant", customer_id="HW20119", property_id="PR120",
         tenant_phone="07700 900746")  # fmt: skip
    fresh = row(make_environment(), "properties", property_id="PR120")
    assert fresh["tenant_phone"] == "07700 900731"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_visit", customer_id="HW20108", job_id="JOB-6108", fee_pence=0,
         refund_pence=0)  # fmt: skip
    assert row(env, "jobs", job_id="JOB-6108")["status"] == "cancelled"
    env.restore(before)
    assert row(env, "jobs", job_id="JOB-6108")["status"] == "booked"
    slot = row(env, "slots", engineer_id="ENG4", day="2026-12-16", window="am")
    assert slot["job_id"] == "JOB-6108"
    agent = CorrectBoilerAgent(env=env)
    message = "Cancel my service please, HW20108"
    asyncio.run(agent.respond(Turn(episode_id="b", message=message, history=())))
    state = agent.snapshot()
    assert json.loads(json.dumps(state)) == state
    other = CorrectBoilerAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state and other.s["facts"] == {"customer_id": "HW20108"}
    assert other.s["asked"] == "postcode" and other.s["queue"][0]["intent"] == "cancel"


def test_verification_and_what_the_tools_refuse():
    env = make_environment()
    account = tool(env, "verify_customer", customer_id="hw20103", postcode="kv1 4tb").result
    assert account["name"] == "Carys Morgan" and len(account["properties"]) == 2
    assert "verification failed" in tool(
        env, "verify_customer", customer_id="HW20103", postcode="KV2 3LP").error  # fmt: skip
    refusals = [
        # the engineer covering KV4 is on training until Wednesday 16 December
        ("book_visit", dict(customer_id="HW20122", property_id="PR123", kind="service",
                            day="2026-12-15", window="am", price_pence=8900), "no engineer"),
        ("book_visit", dict(customer_id="HW20101", property_id="PR101", kind="service",
                            day="2026-12-25", window="am", price_pence=8900), "no engineer"),
        ("book_visit", dict(customer_id="HW20101", property_id="PR102", kind="service",
                            day="2026-12-15", window="am", price_pence=8900), "no property"),
        ("book_visit", dict(customer_id="HW20101", property_id="PR101", kind="service",
                            day="2026-12-10", window="am", price_pence=8900), "already started"),
        ("cancel_visit", dict(customer_id="HW20112", job_id="JOB-6112", fee_pence=0,
                              refund_pence=0), "has started"),
        ("move_visit", dict(customer_id="HW20123", job_id="JOB-6117", day="2026-12-22",
                            window="pm", fee_pence=0), "no job"),
        ("cancel_visit", dict(customer_id="HW20111", job_id="JOB-6111", fee_pence=0,
                              refund_pence=20000), "only £95.00"),
        ("approve_part", dict(customer_id="HW20116", quote_id="PQ-316",
                              customer_pays_pence=24500), "no longer makes"),
        ("update_tenant", dict(customer_id="HW20101", property_id="PR101",
                               tenant_phone="07700 900111"), "no tenancy"),
        ("find_slots", dict(postcode="ZZ9 9ZZ", from_day="2026-12-11"), "no engineers"),
    ]  # fmt: skip
    for name, args, why in refusals:
        outcome = tool(env, name, **args)
        assert outcome.error and why in outcome.error, (name, outcome.error)
    assert env.select("charges", {"kind": "part"}) == []
    # policy is the desk's: the system takes a Saturday service and an old boiler on Cover Plus
    ok = tool(env, "book_visit", customer_id="HW20105", property_id="PR106", kind="service",
              day="2026-12-12", window="am", price_pence=0)  # fmt: skip
    assert ok.error is None and ok.result["engineer"] == "Marek Nowak"
    plus = tool(env, "change_plan", customer_id="HW20118", property_id="PR119",
                plan="cover_plus", monthly_pence=1650)  # fmt: skip
    assert plus.error is None and row(env, "properties", property_id="PR119")["plan"] == (
        "cover_plus"
    )


def test_find_slots_by_area_and_saturdays():
    env = make_environment()
    kv4 = tool(env, "find_slots", postcode="KV4 2JS", from_day="2026-12-11").result["slots"]
    assert (kv4[0]["day"], kv4[0]["window"], kv4[0]["engineer"]) == (
        "2026-12-17", "am", "Hollie Brennan")  # fmt: skip
    kv6 = tool(env, "find_slots", postcode="KV6 5JY", from_day="2026-12-12").result["slots"]
    assert kv6[0]["day"] == "2026-12-12" and kv6[0]["engineer"] == "Marek Nowak"
    kv8 = tool(env, "find_slots", postcode="KV8 4PL", from_day="2026-12-19").result["slots"]
    assert all(date.fromisoformat(s["day"]).weekday() < 5 for s in kv8)
    today = tool(env, "find_slots", postcode="KV2 3LP", from_day="2026-12-10").result["slots"]
    assert ("2026-12-10", "am") not in {(s["day"], s["window"]) for s in today}


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tags = [t for s in scenarios for t in s.tags if t.startswith("flaw:")]
    assert sorted(tags) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    assert [d.isoformat() for d in rd.dates(
        "Monday 14 December — sorry, I mean Wednesday 16 December", TODAY)] == [
        "2026-12-14", "2026-12-16"]  # fmt: skip
    assert rd.dates("12 January", TODAY) == [date(2027, 1, 12)]
    assert rd.dates("tomorrow", TODAY) == [date(2026, 12, 11)]
    assert rd.dates("could you come on Saturday?", TODAY) == [date(2026, 12, 12)]
    assert rd.dates("on Saturday 19 December", TODAY) == [date(2026, 12, 19)]
    assert rd.window("in the afternoon") == "pm" and rd.window("at 9am") == "am"
    assert rd.window("I am free") is None and rd.window("either is fine") == "any"
    assert rd.phones("07700 900 746") == ["07700 900746"]
    assert rd.postcodes("it's kv5 2qs") == ["KV5 2QS"]
    assert rd.customers("HW 20101") == ["HW20101"] and rd.jobs("job JOB-6117") == ["JOB-6117"]
    assert [r.intent for r in rd.requests(
        "Book a landlord gas safety check at 12 Weaver's Row for Friday 18 December in the "
        "morning, and put the property on Hearth Cover as well.")] == ["book", "plan"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "When does the gas safety certificate run out? I don't want to book anything yet."
    )] == ["lookup"]  # fmt: skip
    assert rd.visit_kind("no heating and no hot water") == "breakdown"
    assert rd.visit_kind("a landlord gas safety check") == "gas_safety"
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"
    assert rd.answer("Yes please") == "yes" and rd.answer("What does that cost?") is None


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)
TAGGED = {s.id: s.tags[0].removeprefix("flaw:") for s in SCENARIO_LIST if s.tags}


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectBoilerAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- each flaw fires in its tagged scenario only, and shows there ------------------------------
@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_flaws_fire_only_in_their_tagged_scenario(scenario):
    env, replies, fired = play_scenario(FlawedBoilerAgent, scenario)
    flaw = TAGGED.get(scenario.id)
    if flaw is None:
        assert fired == [] and unmet(env, replies, scenario.criteria) == [], said(replies)
        return
    assert set(fired) == {f"boilerservice:{flaw}"}, fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    by_id = {s.id: s for s in SCENARIO_LIST}

    def flawed(scenario_id):
        return play_scenario(FlawedBoilerAgent, by_id[scenario_id])

    env, replies, _ = flawed("boiler-tenant-phone")
    assert "Done" in said(replies) and called(replies, "update_tenant") == []
    assert row(env, "properties", property_id="PR120")["tenant_phone"] == "07700 900731"
    env, _, _ = flawed("boiler-move-inside-24-hours")
    assert row(env, "jobs", job_id="JOB-6109")["day"] == "2026-12-21"
    assert charges(env, "HW20109", "rebook_fee") == []
    env, _, _ = flawed("boiler-breakdown-saturday")
    assert charges(env, "HW20105", "callout_fee") == [9500]
    env, replies, _ = flawed("boiler-job-number-not-theirs")
    assert "Zoe Whitfield" in said(replies) and "5 Linden Way" in said(replies)
    assert row(env, "jobs", job_id="JOB-6117")["day"] == "2026-12-14"
    env, _, _ = flawed("boiler-cover-plus-old-boiler")
    assert row(env, "properties", property_id="PR119")["plan"] == "cover_plus"
    env, _, _ = flawed("boiler-breakdown-new-plan")
    assert charges(env, "HW20106", "callout_fee") == []
    env, replies, _ = flawed("boiler-gas-safety-and-cover")
    assert row(env, "properties", property_id="PR121")["plan"] == "none"
    assert "everything you asked for" in said(replies)
    assert called(replies, "change_plan") == []
    env, replies, _ = flawed("boiler-part-discontinued")
    assert "is ordered" in said(replies) and called(replies, "approve_part")[0]["error"]
    assert row(env, "part_quotes", quote_id="PQ-316")["status"] == "quoted"


# -- each flaw, said another way: it fires in the flawed agent only -----------------------------
FLAWS = [
    ("F1", ["Please update my tenant's phone number to 07700 900123", *WHO["HW20119"], "yes"]),
    ("F2", ["Can you move my service on Friday 11 December to Tuesday 22 December morning?",
            *WHO["HW20109"], "yes"]),
    ("F3", ["My boiler is broken, can someone come out this Saturday afternoon?",
            *WHO["HW20101"], "yes"]),
    ("F4", ["When is job JOB-6108? I want to move it to Monday 21 December morning",
            *WHO["HW20123"]]),
    ("F5", ["I want to upgrade to Hearth Cover Plus", *WHO["HW20117"], "yes"]),
    ("F6", ["There's no hot water — please send an engineer on Friday 11 December, afternoon",
            *WHO["HW20106"], "yes"]),
    ("F7", ["Please order the diverter valve you quoted for, and put my boiler on Hearth Cover",
            *WHO["HW20113"], "yes", "yes"]),
    ("F8", ["Please order the part on quote PQ-316", *WHO["HW20116"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedBoilerAgent, messages)
    assert f"boilerservice:{flaw}" in fired
    _, _, clean = chat(CorrectBoilerAgent, messages)
    assert clean == []


# -- other natural phrasings with the correct agent ---------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectBoilerAgent, [
        "Please cancel my gas safety check", *WHO["HW20110"], "Will it cost me anything?",
        "ok"])  # fmt: skip
    assert "no charge" in replies[3].text and called(replies[:4], "cancel_visit") == []
    assert row(env, "jobs", job_id="JOB-6110")["status"] == "cancelled"


def test_hesitation_then_no_changes_nothing():
    env, replies, _ = chat(CorrectBoilerAgent, [
        "Move my service to Monday 21 December, morning", *WHO["HW20109"], "hang on",
        "no, leave it"])  # fmt: skip
    assert "£25.00" in replies[2].text and "Nothing has been changed" in replies[-1].text
    assert row(env, "jobs", job_id="JOB-6109")["day"] == "2026-12-11"
    assert called(replies, "move_visit") == []


def test_facts_before_they_are_asked_and_bare_answers():
    env, replies, _ = chat(CorrectBoilerAgent, [
        "Hi, customer number HW20101, postcode KV2 3LP. I need my boiler serviced",
        "Friday 18 December", "morning", "yes"])  # fmt: skip
    assert "Which day" in replies[0].text and "morning or afternoon" in replies[1].text
    assert "Shall I book it?" in replies[2].text
    job = row(env, "jobs", customer_id="HW20101")
    assert (job["day"], job["window"], job["price_pence"]) == ("2026-12-18", "am", 8900)


def test_a_changed_value_reworks_the_proposal():
    env, replies, _ = chat(CorrectBoilerAgent, [
        "Please book a boiler service on Tuesday 15 December in the morning", *WHO["HW20101"],
        "Actually, make it Wednesday 16 December instead", "yes"])  # fmt: skip
    assert "Wednesday 16 December" in replies[3].text
    assert row(env, "jobs", customer_id="HW20101")["day"] == "2026-12-16"


def test_a_full_day_offers_the_nearest_windows():
    env, replies, _ = chat(CorrectBoilerAgent, [
        "Book my boiler service for Tuesday 15 December, morning", *WHO["HW20122"],
        "Thursday 17 December", "yes"])  # fmt: skip
    assert "No engineer covering KV4" in replies[2].text and "Thursday 17 December" in (
        replies[2].text)  # fmt: skip
    assert row(env, "jobs", customer_id="HW20122")["day"] == "2026-12-17"


def test_service_on_a_plan_is_free_and_a_landlord_is_asked_which_property():
    env, replies, _ = chat(CorrectBoilerAgent, [
        "I need a gas safety check on Monday 21 December, afternoon", *WHO["HW20103"],
        "7 Mill Court", "yes"])  # fmt: skip
    assert "Which property" in replies[2].text
    assert row(env, "jobs", customer_id="HW20103")["property_id"] == "PR104"
    env, replies, _ = chat(CorrectBoilerAgent, [
        "Book my annual service on Tuesday 15 December in the afternoon", *WHO["HW20114"],
        "yes"])  # fmt: skip
    assert "included in your Hearth Cover Plus" in replies[2].text
    assert row(env, "jobs", customer_id="HW20114", status="booked")["price_pence"] == 0


def test_a_callout_inside_four_hours_keeps_the_fee():
    env = make_environment()
    tool(env, "book_visit", customer_id="HW20101", property_id="PR101", kind="breakdown",
         day="2026-12-10", window="pm", price_pence=9500)  # fmt: skip
    _, replies, _ = chat(CorrectBoilerAgent, ["Cancel this afternoon's call-out",
                                              *WHO["HW20101"], "yes"], env)  # fmt: skip
    assert "is kept" in replies[2].text
    assert charges(env, "HW20101", "refund") == []


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectBoilerAgent, [
        "Cancel my service", "HW20108", "KV1 1AA", "HW20108", "KV1 1AA", "HW20108",
        "KV1 1AA"])  # fmt: skip
    assert "can't match those details to an account" in replies[2].text
    assert "still can't match" in replies[-1].text
    assert called(replies, "cancel_visit") == [] and called(replies, "get_account") == []

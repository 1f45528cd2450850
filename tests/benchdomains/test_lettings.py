"""Harbour Row Lettings: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.lettings import (
    CorrectLettingsAgent,
    FlawedLettingsAgent,
    LettingsEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.lettings import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "lettings" / "scenarios.yaml"
# a tenancy reference and its postcode: what a tenant says when asked who they are
WHO = {t[0]: [t[0], t[2]] for t in _seed.TENANCIES}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "lettings:0")


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
            turn = Turn(episode_id="lettings:0", message=message, history=tuple(history))
            reply = asyncio.run(agent.respond(turn))
            replies.append(reply)
            history += [
                Utterance(role="user", text=message),
                Utterance(role="agent", text=reply.text),
            ]
            asked = agent.s["asked"]
            if agent.s["pending"]:
                message = "yes"
            elif asked in scenario.knowledge:
                message = str(scenario.knowledge[asked])
            else:
                break
    return env, replies, [f.flaw for f in fired]


def unmet(env, replies, criteria):
    """The criteria the end state, the calls and the desk's words do not meet."""
    missed = []
    for c in criteria.state:
        rows = env.select(c.table, c.where)
        if c.count is not None and len(rows) != c.count:
            missed.append(f"{c.table} {c.where}: {len(rows)} rows, not {c.count}")
        for r in rows:
            wrong = {k: r[k] for k, v in c.expect.items() if r[k] != v}
            if wrong:
                missed.append(f"{c.table} {c.where}: {wrong}, not {c.expect}")
    for f in criteria.forbidden_actions:
        missed += [f"called {f.tool}" for _ in called(replies, f.tool)]
    text = said(replies).lower()
    for s in criteria.statements:
        if s.contains_any and not any(w.lower() in text for w in s.contains_any):
            missed.append(f"none of {s.contains_any} said")
        missed += [f"{w!r} not said" for w in s.contains_all if w.lower() not in text]
        missed += [f"said {w!r}" for w in s.contains_none if w.lower() in text]
    return missed


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, LettingsEnvironment)
    assert env.now().isoformat() == "2026-12-09T10:00:00+00:00"
    tool(
        env,
        "update_contact_details",
        tenancy_ref="HRL-1001",
        tenant_id="T101",
        email="new@example.net",
    )
    assert row(env, "tenants", tenant_id="T101")["email"] == "new@example.net"
    assert row(make_environment(), "tenants", tenant_id="T101")["email"] == (
        "hannah.price@example.com"
    )


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "give_notice", tenancy_ref="HRL-1003", end_date="2027-01-31")
    env.restore(before)
    assert env.select("notices", {}) == []
    agent = CorrectLettingsAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="l", message="Give notice, HRL-1003", history=())))
    other = CorrectLettingsAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"tenancy_ref": "HRL-1003"}


def test_verify_tenant():
    env = make_environment()
    found = tool(env, "verify_tenant", tenancy_ref="hrl1004", postcode="bs31qp").result
    assert [t["name"] for t in found["tenants"]] == ["Tom Reid", "Sophie Lang"]
    assert "deposit" not in str(found).lower() and "occupier_consent" not in found
    assert (
        "verification failed"
        in tool(env, "verify_tenant", tenancy_ref="HRL-1004", postcode="BS1 4DQ").error
    )
    assert "no tenancy" in tool(env, "get_tenancy", tenancy_ref="HRL-9999").error


def test_get_deposit():
    env = make_environment()
    d = tool(env, "get_deposit", tenancy_ref="HRL-1017").result
    assert d["scheme"] == "mydeposits" and d["scheme_ref"] == "MYD-0483692"


def test_report_repair():
    env = make_environment()
    r = tool(
        env,
        "report_repair",
        tenancy_ref="HRL-1009",
        issue="no heating",
        category="heating",
        priority="emergency",
        attend_by="2026-12-10 10:00",
    ).result
    assert r["repair_id"] == "R7003"
    assert (
        "priority"
        in tool(
            env,
            "report_repair",
            tenancy_ref="HRL-1009",
            issue="x",
            category="x",
            priority="soon",
            attend_by="2026-12-10",
        ).error
    )
    assert (
        "past"
        in tool(
            env,
            "report_repair",
            tenancy_ref="HRL-1009",
            issue="x",
            category="x",
            priority="urgent",
            attend_by="2026-12-01",
        ).error
    )


def test_change_rent_day_rules():
    env = make_environment()
    assert (
        "1 to 28"
        in tool(
            env, "change_rent_day", tenancy_ref="HRL-1014", new_day=30, first_payment="2026-12-30"
        ).error
    )
    assert (
        "10 days"
        in tool(
            env, "change_rent_day", tenancy_ref="HRL-1014", new_day=12, first_payment="2026-12-12"
        ).error
    )
    assert (
        "fall on"
        in tool(
            env, "change_rent_day", tenancy_ref="HRL-1014", new_day=12, first_payment="2027-01-13"
        ).error
    )
    tool(env, "change_rent_day", tenancy_ref="HRL-1014", new_day=28, first_payment="2026-12-28")
    t = row(env, "tenancies", tenancy_ref="HRL-1014")
    assert (t["rent_day"], t["rent_day_changed_on"]) == (28, "2026-12-09")


def test_give_notice_rules():
    env = make_environment()
    assert (
        "fixed-term"
        in tool(env, "give_notice", tenancy_ref="HRL-1016", end_date="2027-01-31").error
    )
    tool(env, "give_notice", tenancy_ref="HRL-1015", end_date="2027-01-14")
    assert (
        "already" in tool(env, "give_notice", tenancy_ref="HRL-1015", end_date="2027-02-14").error
    )


def test_request_pet_and_add_occupier():
    env = make_environment()
    tool(env, "request_pet", tenancy_ref="HRL-1018", kind="Cat", pet_rent_pence=2500)
    assert row(env, "pets", tenancy_ref="HRL-1018")["status"] == "awaiting_consent"
    assert (
        "consent"
        in tool(
            env, "add_occupier", tenancy_ref="HRL-1008", name="Daniel Okoro", fee_pence=5000
        ).error
    )
    assert (
        "£50.00"
        in tool(env, "add_occupier", tenancy_ref="HRL-1020", name="Ryan Shaw", fee_pence=7500).error
    )
    tool(env, "add_occupier", tenancy_ref="HRL-1020", name="Ryan  Shaw", fee_pence=5000)
    assert row(env, "occupiers", tenancy_ref="HRL-1020")["name"] == "Ryan Shaw"
    assert row(env, "charges", tenancy_ref="HRL-1020")["amount_pence"] == 5000


def test_update_contact_details_checks():
    env = make_environment()
    assert (
        "no tenant"
        in tool(
            env,
            "update_contact_details",
            tenancy_ref="HRL-1001",
            tenant_id="T102",
            phone="07700 900999",
        ).error
    )
    assert (
        "UK phone"
        in tool(
            env, "update_contact_details", tenancy_ref="HRL-1001", tenant_id="T101", phone="123"
        ).error
    )


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(s.tags[0] for s in tagged) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("at the end of January", today)] == ["2027-01-31"]
    assert rd.month_days("the 30th, or the 28th if that's not possible") == [30, 28]
    assert rd.month_days("the 1st of the month") == [1]
    assert rd.postcodes("it's bs1 4dq") == ["BS1 4DQ"] and rd.refs("hrl 1001") == ["HRL-1001"]
    assert rd.phones("07700 900 717") == ["07700 900717"]
    assert rd.repair_kind("no hot water, the radiators are fine") == ("hot water", "urgent")
    assert rd.repair_kind("the kitchen tap keeps dripping") == ("tap", "routine")
    assert rd.repair_kind("water is coming through the ceiling") == ("leak", "emergency")
    assert [
        r.intent
        for r in rd.requests("The toilet won't flush, and my new mobile number is 07700 900717")
    ] == ["repair", "contact"]
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectLettingsAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(
        CorrectLettingsAgent,
        [
            "Please change my rent day to the 1st",
            *WHO["HRL-1013"],
            "When is the first payment?",
            "ok",
        ],
    )
    assert (
        "Friday 1 January 2027" in replies[3].text and called(replies[:4], "change_rent_day") == []
    )
    assert row(env, "tenancies", tenancy_ref="HRL-1013")["rent_day"] == 1


def test_rather_not_changes_nothing():
    env, replies, _ = chat(
        CorrectLettingsAgent, ["I want to give notice", *WHO["HRL-1015"], "I'd rather not"]
    )
    assert "Thursday 14 January 2027" in replies[2].text
    assert "nothing has been changed" in replies[-1].text and env.select("notices", {}) == []


def test_facts_given_up_front_and_a_hedge():
    env, replies, _ = chat(
        CorrectLettingsAgent,
        [
            "Hi, HRL-1009, BS2 9TL. The boiler's broken and there's no heating",
            "hang on",
            "go ahead",
        ],
    )
    assert "emergency" in replies[0].text and called(replies[:2], "report_repair") == []
    assert row(env, "repairs", tenancy_ref="HRL-1009")["attend_by"] == "2026-12-10 10:00"


def test_repair_described_when_asked():
    env, replies, _ = chat(
        CorrectLettingsAgent,
        [
            "I need to report a repair",
            *WHO["HRL-1012"],
            "the kitchen cupboard door has come off",
            "yes",
        ],
    )
    assert "What's the problem" in replies[2].text and "routine" in replies[3].text
    assert row(env, "repairs", tenancy_ref="HRL-1012")["category"] == "door"


def test_notice_on_a_wanted_day_moves_to_the_period_end():
    env, replies, _ = chat(
        CorrectLettingsAgent,
        ["I'd like to give notice to leave on 20 January", *WHO["HRL-1015"], "yes"],
    )
    assert "can't end on Wednesday 20 January" in replies[2].text
    assert row(env, "notices", tenancy_ref="HRL-1015")["end_date"] == "2027-02-14"


def test_rent_day_corrected_at_the_proposal():
    env, replies, _ = chat(
        CorrectLettingsAgent,
        ["Can I move my rent day to the 2nd?", *WHO["HRL-1013"], "Sorry, make it the 3rd", "yes"],
    )
    assert "the 3rd" in replies[3].text
    t = row(env, "tenancies", tenancy_ref="HRL-1013")
    assert (t["rent_day"], t["first_payment_on"]) == (3, "2027-01-03")


def test_rent_day_out_of_range_is_asked_again():
    env, replies, _ = chat(
        CorrectLettingsAgent,
        ["Change my rent day to the 31st", *WHO["HRL-1014"], "the 27th", "yes"],
    )
    assert "1st to the 28th" in replies[2].text
    assert row(env, "tenancies", tenancy_ref="HRL-1014")["first_payment_on"] == "2026-12-27"


def test_joint_tenant_named_in_the_first_message():
    _, replies, _ = chat(
        CorrectLettingsAgent,
        ["Hi, I'm Tom Reid, the lead tenant. What's our deposit reference?", *WHO["HRL-1004"]],
    )
    assert "DPS-0483211" in said(replies) and "which of you" not in said(replies)


def test_two_kittens_to_a_tenancy_with_a_dog_is_over_the_limit():
    env, replies, _ = chat(CorrectLettingsAgent, ["Can we get two kittens?", *WHO["HRL-1019"]])
    assert "more than two pets" in replies[-1].text
    assert len(env.select("pets", {"tenancy_ref": "HRL-1019"})) == 1


def test_occupier_name_asked_for():
    env, replies, _ = chat(
        CorrectLettingsAgent, ["Someone is moving in with me", *WHO["HRL-1020"], "ryan shaw", "yes"]
    )
    assert "full name" in replies[2].text and "£50.00" in replies[3].text
    assert row(env, "occupiers", tenancy_ref="HRL-1020")["name"] == "Ryan Shaw"


def test_repair_lookup():
    _, replies, _ = chat(
        CorrectLettingsAgent, ["When is someone coming to fix my fan?", *WHO["HRL-1022"]]
    )
    assert "R7001" in replies[-1].text and "Thursday 10 December 2026" in replies[-1].text


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(
        CorrectLettingsAgent,
        ["Give notice please", "HRL-1003", "BS1 1AA", "HRL-1003", "BS1 1AA", "HRL-1003", "BS1 1AA"],
    )
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "give_notice") == [] and called(replies, "get_tenancy") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Change my email to hannah.p@example.net", *WHO["HRL-1001"], "yes"]),
    ("F2", ["My kitchen tap is dripping", *WHO["HRL-1002"], "yes"]),
    (
        "F3",
        ["I want to give notice to end my tenancy at the end of January", *WHO["HRL-1003"], "yes"],
    ),
    ("F4", ["What's our deposit scheme and reference?", *WHO["HRL-1004"], "Sophie Lang"]),
    ("F5", ["Can we have a rabbit?", *WHO["HRL-1005"], "yes"]),
    ("F6", ["Please change my rent day to the 20th", *WHO["HRL-1006"], "yes"]),
    (
        "F7",
        [
            "The toilet won't flush, and my new mobile is 07700 900717",
            *WHO["HRL-1007"],
            "yes",
            "yes",
        ],
    ),
    ("F8", ["Please add Daniel Okoro as a permitted occupier", *WHO["HRL-1008"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedLettingsAgent, messages)
    assert f"lettings:{flaw}" in fired
    _, _, clean = chat(CorrectLettingsAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"lettings-notice-earliest": "F3"}


@pytest.mark.parametrize(
    "scenario",
    [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedLettingsAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedLettingsAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"lettings:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedLettingsAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "update_contact_details") == []
    assert row(env, "tenants", tenant_id="T101")["email"] == "hannah.price@example.com"
    env, _, _ = chat(FlawedLettingsAgent, FLAWS[1][1])
    assert row(env, "repairs", tenancy_ref="HRL-1002", status="open")["attend_by"] == "2027-01-06"
    env, _, _ = chat(FlawedLettingsAgent, FLAWS[2][1])
    assert row(env, "notices", tenancy_ref="HRL-1003")["end_date"] == "2027-02-01"
    _, replies, _ = chat(FlawedLettingsAgent, FLAWS[3][1])
    assert "DPS-0483211" in said(replies)
    env, _, _ = chat(FlawedLettingsAgent, FLAWS[4][1])
    assert len(env.select("pets", {"tenancy_ref": "HRL-1005"})) == 3
    env, _, _ = chat(FlawedLettingsAgent, FLAWS[5][1])
    assert row(env, "tenancies", tenancy_ref="HRL-1006")["rent_day"] == 20
    env, replies, _ = chat(FlawedLettingsAgent, FLAWS[6][1])
    assert row(env, "tenants", tenant_id="T107")["phone"] == "07700 900107"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedLettingsAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("occupiers", {"tenancy_ref": "HRL-1008"}) == []
    assert env.select("charges", {"tenancy_ref": "HRL-1008"}) == []

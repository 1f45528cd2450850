"""Marlow Vale Council, Waste & Recycling: tools, scenarios, the correct agent, and each flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.waste import (
    CorrectWasteAgent,
    FlawedWasteAgent,
    WasteEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.waste import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "waste" / "scenarios.yaml"
# an account number and its postcode: what a resident says when asked who they are
WHO = {a[0]: [f"{a[0][:4]} {a[0][4:]}", a[3]] for a in _seed.ACCOUNTS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "waste:0")


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
            turn = Turn(episode_id="waste:0", message=message, history=tuple(history))
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
    assert isinstance(env, WasteEnvironment)
    assert env.now().isoformat() == "2026-12-07T10:00:00+00:00"
    tool(env, "update_contact", account_id="60418219", phone="07700 900171")
    fresh = row(make_environment(), "accounts", account_id="60418219")
    assert fresh["phone"] == "07700 900619"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_bulky", account_id="60418207", booking_id="BLK-40507", refund_pence=0)
    env.restore(before)
    assert row(env, "bulky_bookings", booking_id="BLK-40507")["status"] == "booked"
    agent = CorrectWasteAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="w", message="Cancel my collection, 6041 8207",
                                   history=())))  # fmt: skip
    other = CorrectWasteAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "60418207"}


def test_working_days():
    monday = _seed.NOW.date()
    assert _seed.add_working_days(monday, 10).isoformat() == "2026-12-21"
    assert _seed.working_days_between(monday, monday.replace(day=8)) == 1
    assert _seed.working_days_between(monday.replace(day=2), monday) == 3
    assert _seed.working_days_between(monday.replace(day=4), monday) == 1


def test_verify_and_system_rules():
    env = make_environment()
    assert tool(env, "verify_resident", account_id="6041 8202", postcode="mv37qu").result[
        "name"] == "Derek Oyelaran"  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_resident", account_id="60418202", postcode="MV3 7QT").error  # fmt: skip
    wrong_day = tool(env, "book_bulky", account_id="60418201", items=["sofa"],
                     collect_on="2026-12-15", price_pence=2200).error  # fmt: skip
    assert "Thursdays" in wrong_day
    short = tool(env, "book_bulky", account_id="60418204", items=["sofa"],
                 collect_on="2026-12-08", price_pence=2200).error  # fmt: skip
    assert "notice" in short
    assert "can't be taken" in tool(env, "book_bulky", account_id="60418201",
                                    items=["asbestos sheets"], collect_on="2026-12-10",
                                    price_pence=0).error  # fmt: skip
    assert "at most 5" in tool(env, "book_bulky", account_id="60418201", items=["chair"] * 6,
                               collect_on="2026-12-10", price_pence=7200).error  # fmt: skip
    assert "not presented" in tool(env, "report_missed", account_id="60418216", bin="blue",
                                   due="2026-12-04").error  # fmt: skip
    assert "one grey bin" in tool(env, "order_bin", account_id="60418201", bin="grey",
                                  reason="extra", price_pence=0).error  # fmt: skip
    assert "at most 2" in tool(env, "subscribe_garden", account_id="60418212",
                               prices_pence=[3500, 3500]).error  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{n}" for n in range(1, 9)]


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert rd.accounts("it's 6041 8201") == ["60418201"]
    assert rd.postcodes("mv3 7qt") == ["MV3 7QT"]
    assert rd.items("an old fridge freezer, two chairs and a sofa") == [
        "fridge freezer", "chair", "chair", "sofa"]  # fmt: skip
    assert rd.items("an armchair") == ["armchair"]
    assert [d.isoformat() for d in rd.dates("move it to 7 January — I mean 14 January", today)
            ] == ["2027-01-07", "2027-01-14"]  # fmt: skip
    assert rd.phones("07700 900111 — sorry, 07700 900171")[-1] == "07700 900171"
    assert [r.intent for r in rd.requests(
        "Please report my grey bin as missed on Friday, and I'd like a new food caddy too"
    )] == ["missed", "bin"]  # fmt: skip
    assert [r.intent for r in rd.requests("Cancel my bulky collection next week")] == ["cancel"]
    assert rd.FREE_ONLY.search("Only if it's free — if there's a charge, leave it as it is")
    assert rd.FREE_ONLY.search("if there's a charge, don't bother")
    assert rd.THIRD_PARTY.search("When's my dad's bulky collection")
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectWasteAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectWasteAgent, ["Cancel my mattress collection",
                                               *WHO["60418208"], "Do I get my money back?",
                                               "ok"])  # fmt: skip
    assert "not refunded" in replies[2].text and called(replies[:4], "cancel_bulky") == []
    assert row(env, "bulky_bookings", booking_id="BLK-40508")["status"] == "cancelled"
    assert charges(env, "60418208", "refund") == []


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectWasteAgent, ["Move my washing machine collection to "
                                               "Tuesday 15 December", *WHO["60418204"],
                                               "I'd rather not"])  # fmt: skip
    assert "£10.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "bulky_bookings", booking_id="BLK-40504")["collect_on"] == "2026-12-08"


def test_facts_given_up_front_and_a_wrong_bulky_day():
    env, replies, _ = chat(CorrectWasteAgent, [
        "Hi, account 60418201, postcode MV3 7QT. Please collect a wardrobe on Monday 14 "
        "December", "hang on", "go ahead"])  # fmt: skip
    assert "Thursdays" in replies[0].text and "Thursday 17 December" in replies[0].text
    assert called(replies[:2], "book_bulky") == []
    assert row(env, "bulky_bookings", account_id="60418201")["collect_on"] == "2026-12-17"


def test_too_many_items_asks_which():
    _, replies, _ = chat(CorrectWasteAgent, ["Collect six chairs please", *WHO["60418201"]])
    assert "at most 5" in replies[-1].text and called(replies, "book_bulky") == []


def test_concession_reference_that_does_not_match():
    env, replies, _ = chat(CorrectWasteAgent, ["Garden waste please, with my council tax "
                                               "reduction, CTR-999999", *WHO["60418201"],
                                               "yes"])  # fmt: skip
    assert "doesn't match" in replies[2].text
    assert row(env, "garden_subs", account_id="60418201")["price_pence"] == 5200


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(
        CorrectWasteAgent,
        [
            "Cancel my collection",
            "6041 8207",
            "MV1 1AA",
            "6041 8207",
            "MV1 1AA",
            "6041 8207",
            "MV1 1AA",
        ],
    )
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_bulky") == []


def test_someone_elses_account_is_never_read():
    _, replies, _ = chat(CorrectWasteAgent, ["When is my mum's bulky collection?",
                                             *WHO["60418222"]])  # fmt: skip
    assert "account holder" in replies[0].text and called(replies, "verify_resident") == []
    assert "BLK-40522" not in said(replies)


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Move my sofa collection to Tuesday 22 December", *WHO["60418206"], "yes"]),
    ("F2", ["Collect a fridge freezer and a mattress", *WHO["60418202"], "yes"]),
    (
        "F3",
        [
            "Garden waste for two bins please, council tax reduction CTR-551288",
            *WHO["60418211"],
            "yes",
        ],
    ),  # fmt: skip
    ("F4", ["When's my dad's bulky collection?", *WHO["60418222"]]),
    ("F5", ["My blue bin wasn't emptied on Wednesday", *WHO["60418214"], "yes"]),
    ("F6", ["Cancel my mattress collection", *WHO["60418208"], "yes"]),
    (
        "F7",
        [
            "Please report my grey bin as missed on Friday, and I'd like a new food caddy",
            *WHO["60418220"],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    ("F8", ["My blue bin was missed on Friday", *WHO["60418216"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedWasteAgent, messages)
    assert f"waste:{flaw}" in fired
    _, _, clean = chat(CorrectWasteAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {
    "waste-bulky-move-corrected": "F1",
    "waste-bulky-bed-and-garden": "F7",
}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedWasteAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedWasteAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"waste:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedWasteAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "move_bulky") == []
    assert row(env, "bulky_bookings", booking_id="BLK-40506")["collect_on"] == "2026-12-15"
    env, _, _ = chat(FlawedWasteAgent, FLAWS[1][1])
    assert row(env, "bulky_bookings", account_id="60418202")["price_pence"] == 4400
    env, _, _ = chat(FlawedWasteAgent, FLAWS[2][1])
    assert [g["price_pence"] for g in env.select("garden_subs", {"account_id": "60418211"})] == [
        2600, 1750]  # fmt: skip
    _, replies, _ = chat(FlawedWasteAgent, FLAWS[3][1])
    assert "BLK-40522" in said(replies)
    env, _, _ = chat(FlawedWasteAgent, FLAWS[4][1])
    assert row(env, "missed_reports", account_id="60418214")["due"] == "2026-12-02"
    env, _, _ = chat(FlawedWasteAgent, FLAWS[5][1])
    assert charges(env, "60418208", "refund") == [2200]
    env, replies, _ = chat(FlawedWasteAgent, FLAWS[6][1])
    assert env.select("bin_orders", {"account_id": "60418220"}) == []
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedWasteAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text
    assert env.select("missed_reports", {"account_id": "60418216"}) == []


def test_extra_blue_bin_is_charged_and_the_condition_reads_the_whole_chat():
    env, replies, _ = chat(CorrectWasteAgent, ["I'd like an extra blue recycling bin",
                                               *WHO["60418218"], "yes"])  # fmt: skip
    assert "£15.00" in replies[2].text
    assert row(env, "bin_orders", account_id="60418218")["price_pence"] == 1500
    env, replies, _ = chat(
        CorrectWasteAgent,
        [
            "I'd like an extra blue recycling bin. If there's a charge, don't bother.",
            *WHO["60418218"],
        ],
    )
    assert "haven't changed anything" in replies[-1].text and env.select(
        "bin_orders", {"account_id": "60418218"}) == []  # fmt: skip

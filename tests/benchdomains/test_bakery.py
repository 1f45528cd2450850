"""Pennywell Bakery: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.bakery import (
    BakeryEnvironment,
    CorrectBakeryAgent,
    FlawedBakeryAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.bakery import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "bakery" / "scenarios.yaml"
# a customer number and its postcode: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[2]] for c in _seed.CUSTOMERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "bakery:0")


def said(replies):
    return " ".join(r.text for r in replies)


def payments(env, customer, kind):
    rows = env.select("payments", {"customer_id": customer, "kind": kind})
    return [p["amount_pence"] for p in rows]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="bakery:0", message=message, history=tuple(history))
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
    assert isinstance(env, BakeryEnvironment)
    assert env.now().isoformat() == "2026-12-10T09:30:00+00:00"
    assert len(_seed.CUSTOMERS) == 24
    tool(env, "update_contact", customer_id="PW3124", phone="07700 900812")
    assert row(make_environment(), "customers", customer_id="PW3124")["phone"] == "07700 900124"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_order", customer_id="PW3116", order_id="PC-7016", refund_pence=1920)
    assert row(env, "orders", order_id="PC-7016")["status"] == "cancelled"
    env.restore(before)
    assert row(env, "orders", order_id="PC-7016")["status"] == "confirmed"
    assert env.select("payments", {"customer_id": "PW3116"}) == []
    agent = CorrectBakeryAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="b", message="Cancel my cake, PW3116", history=())))
    other = CorrectBakeryAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"customer_id": "PW3116"}
    assert other.s["asked"] == "postcode" and other.s["queue"][0]["intent"] == "cancel"


def test_verify_and_what_the_system_refuses():
    env = make_environment()
    assert tool(env, "verify_customer", customer_id="pw3101", postcode="ls61pl").result[
        "name"] == "Leah Morton"  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_customer", customer_id="PW3101", postcode="LS6 4EJ").error  # fmt: skip
    full = tool(env, "move_order", customer_id="PW3109", order_id="PC-7009",
                new_date="2026-12-19").error  # fmt: skip
    assert "fully booked" in full
    closed = tool(env, "place_order", customer_id="PW3106", collection_date="2026-12-26",
                  slot="10:00", tiers=[10], flavour="chocolate",
                  price_pence=6400).error  # fmt: skip
    assert "closed" in closed
    sunday = tool(env, "move_order", customer_id="PW3108", order_id="PC-7008",
                  new_date="2027-01-03").error  # fmt: skip
    assert "closed" in sunday
    tiers = tool(env, "place_order", customer_id="PW3101", collection_date="2026-12-18",
                 slot="10:00", tiers=[6, 8], flavour="lemon", price_pence=1).error  # fmt: skip
    assert "smaller" in tiers
    late = tool(env, "set_slot", customer_id="PW3113", order_id="PC-7013", slot="17:30").error
    assert "between" in late
    long = tool(env, "change_inscription", customer_id="PW3111", order_id="PC-7011",
                inscription="x" * 41).error  # fmt: skip
    assert "40 characters" in long
    refund = tool(env, "cancel_order", customer_id="PW3118", order_id="PC-7018",
                  refund_pence=5000).error  # fmt: skip
    assert "can't be more" in refund
    other = tool(env, "cancel_order", customer_id="PW3120", order_id="PC-7021", refund_pence=0)
    assert "no order" in other.error
    assert row(env, "orders", order_id="PC-7021")["status"] == "confirmed"
    # policy is the desk's: the system takes a tiered cake at a week's notice, late writing,
    # and a delivery anywhere
    assert tool(env, "place_order", customer_id="PW3107", collection_date="2026-12-17",
                slot="16:00", tiers=[10, 8], flavour="chocolate",
                price_pence=13200).error is None  # fmt: skip
    assert tool(env, "change_inscription", customer_id="PW3112", order_id="PC-7012",
                inscription="Happy 25th").error is None  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tags = sorted(t for s in scenarios for t in s.tags)
    assert tags == [f"flaw:F{n}" for n in range(1, 9)]


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [
        d.isoformat()
        for d in rd.dates("to Saturday 9 January — sorry, I mean Friday 8 January", today)
    ] == ["2027-01-09", "2027-01-08"]
    assert rd.dates("from Saturday 2 January to Friday 8 January", today) == [
        today.replace(year=2027, month=1, day=8)]  # fmt: skip
    assert rd.dates("on Boxing Day", today)[0].isoformat() == "2026-12-26"
    assert rd.dates("'Happy 30th Sam'", today) == []
    assert rd.clock("at 3:30pm on Saturday") == "15:30" and rd.clock("12pm") == "12:00"
    assert rd.clock("a 10-inch cake") is None and rd.clock("3", bare=True) == "15:00"
    assert rd.sizes("a 10-inch bottom tier and an 8-inch top") == [10, 8]
    assert rd.sizes("8 and 6") == [8, 6] and rd.tier_count("a two-tier cake") == 2
    assert rd.flavours("from vanilla to salted caramel") == ["salted caramel"]
    assert rd.writing("with 'Tom & Alex' piped on it") == "Tom & Alex"
    assert rd.writing("no writing on it, please") == ""
    assert rd.writing("It should say Happy 30th Sam, please", bare=True) == "Happy 30th Sam"
    assert rd.writing("Best wishes Jo", bare=True) == "Best wishes Jo"
    assert rd.postcodes("deliver it to ls7 4hg") == ["LS7 4HG"]
    assert rd.mobiles("07700900812") == ["07700 900812"]
    assert [r.intent for r in rd.requests(
        "Please change the writing on my cake to 'Welcome Home Arjun' and have it delivered to "
        "LS6 4EJ instead of me collecting it.")] == ["inscription", "delivery"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "Please order a gluten-free lemon cake with two tiers. I'll collect it at 12pm on "
        "Saturday 2 January. It should say 'Happy Retirement June'.")] == ["order"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "How much will I still have to pay, and what time did I book to collect it?")] == [
        "lookup", "lookup"]  # fmt: skip
    assert rd.FREE_ONLY.search("Only if delivery's free — otherwise I'll collect as planned.")
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"
    assert rd.answer("yes please") == "yes" and rd.answer("no thanks") == "no"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectBakeryAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_questions_asked_one_at_a_time_and_bare_answers():
    env, replies, _ = chat(CorrectBakeryAgent, [
        "I'd like to order a cake, please", *WHO["PW3101"], "8", "lemon", "Tuesday 15 December",
        "11", "no message", "yes"])  # fmt: skip
    assert "What size" in replies[2].text and "Which flavour" in replies[3].text
    assert "Which day" in replies[4].text and "What time" in replies[5].text
    assert "piped on top" in replies[6].text and "£48.00" in replies[7].text
    o = row(env, "orders", customer_id="PW3101", status="confirmed")
    assert (o["collection_date"], o["slot"], o["inscription"]) == ("2026-12-15", "11:00", "")


def test_facts_given_up_front_and_a_yes_but_instead():
    env, replies, _ = chat(CorrectBakeryAgent, [
        "I want to order an 8-inch chocolate cake. My customer number is PW3101 and my postcode "
        "is LS6 1PL.", "Friday 18 December", "11:00", "It should say Happy 30th Sam",
        "Yes, but make it 2pm instead", "yes"])  # fmt: skip
    assert "Leah" in replies[0].text and "Which day" in replies[0].text
    assert "14:00" in replies[4].text and len(called(replies, "place_order")) == 1
    o = row(env, "orders", customer_id="PW3101", status="confirmed")
    assert (o["slot"], o["inscription"]) == ("14:00", "Happy 30th Sam")


def test_a_question_about_an_order_number_is_a_lookup():
    _, replies, _ = chat(CorrectBakeryAgent, ["Can you tell me about order PC-7022?",
                                              *WHO["PW3122"]])  # fmt: skip
    assert "£71.40" in replies[-1].text and len(called(replies, "get_order")) == 1


def test_question_about_a_proposal_is_not_a_yes_and_hang_on_waits():
    env, replies, _ = chat(CorrectBakeryAgent, ["Please cancel my cake", *WHO["PW3117"],
                                                "Do I get my deposit back?", "hang on",
                                                "go ahead"])  # fmt: skip
    assert "£15.30" in replies[2].text and called(replies[:5], "cancel_order") == []
    assert "nothing has been changed yet" in replies[4].text
    assert payments(env, "PW3117", "refund") == [1530]


def test_no_changes_nothing():
    env, replies, _ = chat(CorrectBakeryAgent, ["Please deliver my cake to LS7 4HG",
                                                *WHO["PW3114"], "no thanks"])  # fmt: skip
    assert "£14.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "orders", order_id="PC-7014")["fulfilment"] == "collection"


def test_value_changed_at_the_proposal():
    env, replies, _ = chat(CorrectBakeryAgent, ["Move my cake to Friday 8 January",
                                                *WHO["PW3108"], "No, make it Saturday 9 January",
                                                "yes"])  # fmt: skip
    assert "Saturday 9 January" in replies[3].text
    assert row(env, "orders", order_id="PC-7008")["collection_date"] == "2027-01-09"


def test_a_plain_no_to_a_question_drops_the_request():
    env, replies, _ = chat(CorrectBakeryAgent, ["Is my cake being delivered?", *WHO["PW3114"],
                                                "no, leave it"])  # fmt: skip
    assert "postcode for the delivery" in replies[2].text
    assert "nothing has been changed" in replies[3].text and not env.select(
        "orders", {"order_id": "PC-7014", "fulfilment": "delivery"})  # fmt: skip


def test_move_inside_seven_days_and_delivery_outside_the_area_are_refused():
    env, replies, _ = chat(CorrectBakeryAgent, ["Can I move my cake to Saturday 9 January?",
                                                *WHO["PW3113"]])  # fmt: skip
    assert "7 or more days" in replies[-1].text and called(replies, "move_order") == []
    env, replies, _ = chat(CorrectBakeryAgent, ["Please deliver my cake to HG1 2AB",
                                                *WHO["PW3119"]])  # fmt: skip
    assert "don't deliver" in replies[-1].text and called(replies, "arrange_delivery") == []


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectBakeryAgent, ["Cancel my cake", "PW3116", "LS1 1AA", "PW3116",
                                              "LS1 1AA", "PW3116", "LS1 1AA"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_order") == [] and called(replies, "get_account") == []


def test_a_delivery_postcode_is_not_taken_for_the_account_postcode():
    _, replies, _ = chat(CorrectBakeryAgent, ["PW3114: deliver my cake to LS6 1PL please"])
    assert "postcode on your account" in replies[0].text
    assert called(replies, "verify_customer") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Change my collection time to 3:30pm", *WHO["PW3113"], "yes"]),
    ("F2", ["Order a gluten-free lemon cake, 8-inch and 6-inch, for Saturday 2 January at "
            "noon, no message", *WHO["PW3103"], "yes"]),
    ("F3", ["Cancel my cake", *WHO["PW3117"], "yes"]),
    ("F4", ["What time is order PC-7021 ready?", *WHO["PW3120"]]),
    ("F5", ["Order a 10-inch and 8-inch chocolate cake for Thursday 17 December at 4pm, no "
            "message", *WHO["PW3107"], "yes"]),
    ("F6", ["Change the writing on my cake to 'Happy 25th Anniversary'", *WHO["PW3112"], "yes"]),
    ("F7", ["Change the writing on my cake to 'Welcome Home Arjun' and have it delivered to "
            "LS6 4EJ", *WHO["PW3119"], "yes", "yes"]),
    ("F8", ["Move my cake to Saturday 19 December", *WHO["PW3109"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedBakeryAgent, messages)
    assert f"bakery:{flaw}" in fired
    _, _, clean = chat(CorrectBakeryAgent, messages)
    assert clean == []


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_each_flaw_fires_in_its_tagged_scenario_and_no_other(scenario):
    env, replies, fired = play_scenario(FlawedBakeryAgent, scenario)
    tagged = [f"bakery:{t.removeprefix('flaw:')}" for t in scenario.tags]
    assert sorted(set(fired)) == tagged, said(replies)
    if not tagged:
        assert unmet(env, replies, scenario.criteria) == [], said(replies)
    else:
        # each flaw scenario fails its criteria with the flawed agent
        assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedBakeryAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "set_slot") == []
    assert row(env, "orders", order_id="PC-7013")["slot"] == "10:00"
    env, _, _ = chat(FlawedBakeryAgent, FLAWS[1][1])
    assert row(env, "orders", customer_id="PW3103")["price_pence"] == 11100
    env, _, _ = chat(FlawedBakeryAgent, FLAWS[2][1])
    assert payments(env, "PW3117", "refund") == [3060]
    env, replies, _ = chat(FlawedBakeryAgent, FLAWS[3][1])
    assert "Nina Hart" in said(replies) and "Happy 60th Mum" in said(replies)
    env, _, _ = chat(FlawedBakeryAgent, FLAWS[4][1])
    assert row(env, "orders", customer_id="PW3107")["tiers"] == "10+8"
    env, _, _ = chat(FlawedBakeryAgent, FLAWS[5][1])
    assert row(env, "orders", order_id="PC-7012")["inscription"] == "Happy 25th Anniversary"
    env, replies, _ = chat(FlawedBakeryAgent, FLAWS[6][1])
    assert row(env, "orders", order_id="PC-7019")["fulfilment"] == "collection"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedBakeryAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and "fully booked" not in said(replies)
    assert row(env, "orders", order_id="PC-7009")["collection_date"] == "2026-12-22"

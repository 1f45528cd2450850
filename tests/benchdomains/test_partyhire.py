"""Bunting & Co. Party Hire: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.partyhire import (
    CorrectPartyhireAgent,
    FlawedPartyhireAgent,
    PartyhireEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.partyhire import _read as rd
from benchmarks.domains.partyhire._env import hire_days, item_price

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "partyhire" / "scenarios.yaml"
# an order and its postcode: what a customer says when asked who they are
WHO = {o[0]: [o[0], o[2]] for o in _seed.ORDERS}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "partyhire:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, order, kind):
    return [c["amount_pence"] for c in env.select("charges", {"order_id": order, "kind": kind})]


def lines(env, order):
    return {r["item_id"]: r["qty"] for r in env.select("order_lines", {"order_id": order})}


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="partyhire:0", message=message, history=tuple(history))
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
    assert isinstance(env, PartyhireEnvironment)
    assert env.now().isoformat() == "2026-12-14T10:00:00+00:00"
    tool(env, "update_contact", customer_id="C320", phone="07700 900333")
    assert row(make_environment(), "customers", customer_id="C320")["phone"] == "07700 900320"


def test_seed_prices_follow_the_price_list():
    items = {i[0]: {"hire_pence": i[2], "week_pence": i[3]} for i in _seed.ITEMS}
    for order in _seed.ORDERS:
        days = hire_days(order[3], order[5])
        total = sum(item_price(items[i], days) * q for i, q in order[-1].items())
        assert total == order[7], order[0]
        assert order[9] == (25000 if any(i.startswith("MQ") for i in order[-1]) else 10000)


def test_item_price_bands():
    heater = {"hire_pence": 4500, "week_pence": 7500}
    assert [item_price(heater, d) for d in (1, 3, 4, 7, 8, 14, 15)] == [
        4500, 4500, 7500, 7500, 15000, 15000, 22500]  # fmt: skip


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_order", order_id="BP7018", refund_pence=0)
    env.restore(before)
    assert row(env, "orders", order_id="BP7018")["status"] == "confirmed"
    agent = CorrectPartyhireAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="p", message="Cancel order BP7018", history=())))
    other = CorrectPartyhireAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"order_id": "BP7018"}


def test_tool_list():
    names = {t.name for t in make_environment().agent_tools()}
    assert names == {
        "verify_customer", "get_customer", "get_order", "get_catalogue", "book_hire",
        "change_items", "change_dates", "set_window", "book_survey", "cancel_order",
        "dispute_breakage", "update_contact",
    }  # fmt: skip
    assert make_environment().user_tools() == []


def test_verify_customer():
    env = make_environment()
    ok = tool(env, "verify_customer", order_id="bp7002", postcode="gl513bb").result
    assert ok["name"] == "Raj Patel" and ok["verified_order"] == "BP7002"
    assert [o["order_id"] for o in ok["orders"]] == ["BP7002"]
    bad = tool(env, "verify_customer", order_id="BP7002", postcode="GL50 1AA").error
    assert "verification failed" in bad and "GL51" not in bad
    assert "verification failed" in tool(
        env, "verify_customer", order_id="BP9999", postcode="GL50 1AA").error  # fmt: skip


def test_get_customer_order_and_catalogue():
    env = make_environment()
    view = tool(env, "get_customer", customer_id="C309").result
    o = view["orders"][0]
    assert o["breakages"][0]["days_since_charged"] == 6 and o["status"] == "collected"
    one = tool(env, "get_order", order_id="BP7006").result
    assert one["days_to_delivery"] == 4 and one["hire_days"] == 1 and len(one["lines"]) == 3
    cat = tool(env, "get_catalogue").result
    assert {i["item_id"] for i in cat["items"]} >= {"MQ-S", "CH-F", "CR-G"}
    assert cat["zones"] == {"A": "£30.00", "B": "£45.00", "C": "£60.00"}


def test_book_hire_and_its_refusals():
    env = make_environment()
    args = {"customer_id": "C310", "postcode": "gl53 7qt", "delivery_date": "2027-01-09",
            "delivery_window": "AM", "collection_date": "2027-01-11", "collection_window": "PM",
            "items": {"TB-R": 6}, "hire_pence": 6600, "delivery_pence": 3000,
            "deposit_pence": 10000}  # fmt: skip
    done = tool(env, "book_hire", **args).result
    assert done["order_id"] == "BP7024" and done["postcode"] == "GL53 7QT"
    assert charges(env, "BP7024", "payment") == [9600] and charges(env, "BP7024", "deposit") == [
        10000]  # fmt: skip
    assert "outside our delivery area" in tool(env, "book_hire", **{**args, "postcode": "OX7 5QT"}
                                               ).error  # fmt: skip
    full = tool(env, "book_hire", **{**args, "delivery_date": "2027-01-08",
                                     "delivery_window": "PM"}).error  # fmt: skip
    assert "fully booked" in full
    assert "no item" in tool(env, "book_hire", **{**args, "items": {"CR-G": 2}}).error
    assert "future day" in tool(env, "book_hire", **{**args, "delivery_date": "2026-12-01"}).error


def test_change_items_and_dispatch():
    env = make_environment()
    r = tool(env, "change_items", order_id="BP7006", items={"HT-P": 0}, hire_pence=23500,
             deposit_pence=10000, fee_pence=2000).result  # fmt: skip
    assert r["lines"] == {"TB-R": 5, "CH-C": 40}
    assert charges(env, "BP7006", "adjustment") == [-9000]
    assert charges(env, "BP7006", "change_fee") == [2000]
    late = tool(env, "change_items", order_id="BP7016", items={"CH-F": 40}, hire_pence=12000,
                deposit_pence=10000, fee_pence=0).error  # fmt: skip
    assert "dispatched" in late
    empty = tool(env, "change_items", order_id="BP7021", items={"CH-F": 0}, hire_pence=0,
                 deposit_pence=10000, fee_pence=0).error  # fmt: skip
    assert "nothing on the order" in empty and lines(env, "BP7021") == {"CH-F": 20}


def test_change_dates_set_window_and_survey():
    env = make_environment()
    moved = tool(env, "change_dates", order_id="BP7014", delivery_date="2027-01-29",
                 collection_date="2027-01-31", hire_pence=47000, fee_pence=0).result  # fmt: skip
    assert moved["delivery_date"] == "2027-01-29" and charges(env, "BP7014", "change_fee") == []
    assert (
        "dispatched"
        in tool(
            env,
            "change_dates",
            order_id="BP7016",
            delivery_date="2026-12-15",
            collection_date="2026-12-16",
            hire_pence=0,
            fee_pence=0,
        ).error
    )
    full = tool(env, "set_window", order_id="BP7008", leg="delivery", window="AM").error
    assert "fully booked" in full
    ok = tool(env, "set_window", order_id="BP7020", leg="collection", window="am").result
    assert (
        ok["window"] == "AM" and row(env, "orders", order_id="BP7020")["collection_window"] == "AM"
    )
    assert "can't be changed" in tool(env, "set_window", order_id="BP7016", leg="delivery",
                                      window="PM").error  # fmt: skip
    assert tool(env, "set_window", order_id="BP7016", leg="collection", window="AM").error is None
    assert "at least 3 days" in tool(env, "book_survey", order_id="BP7023",
                                     survey_day="2026-12-16").error  # fmt: skip
    assert "weekdays" in tool(env, "book_survey", order_id="BP7001", survey_day="2026-12-19").error
    assert "two days" in tool(env, "book_survey", order_id="BP7001", survey_day="2026-12-15").error
    tool(env, "book_survey", order_id="BP7001", survey_day="2026-12-16")
    assert row(env, "orders", order_id="BP7001")["survey_on"] == "2026-12-16"


def test_cancel_dispute_and_contact():
    env = make_environment()
    tool(env, "cancel_order", order_id="BP7003", refund_pence=30650)
    assert row(env, "orders", order_id="BP7003")["status"] == "cancelled"
    assert charges(env, "BP7003", "refund") == [30650]
    assert "cancelled" in tool(env, "cancel_order", order_id="BP7003", refund_pence=0).error
    assert "dispatched" in tool(env, "cancel_order", order_id="BP7016", refund_pence=0).error
    tool(env, "dispute_breakage", order_id="BP7009", breakage_id="br-602", reason="was broken")
    assert row(env, "breakages", breakage_id="BR-602")["status"] == "disputed"
    assert "already disputed" in tool(env, "dispute_breakage", order_id="BP7009",
                                      breakage_id="BR-602", reason="again").error  # fmt: skip
    assert "no breakage" in tool(env, "dispute_breakage", order_id="BP7009", breakage_id="BR-601",
                                 reason="x").error  # fmt: skip
    assert "not a UK phone" in tool(env, "update_contact", customer_id="C321", phone="12345").error
    assert "not an email" in tool(env, "update_contact", customer_id="C321", email="luke@").error
    done = tool(env, "update_contact", customer_id="C321", email="luke.perry@example.net").result
    assert done == {"phone": "07700 900321", "email": "luke.perry@example.net"}


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s.tags[0] for s in scenarios if s.tags]
    assert sorted(tagged) == [f"flaw:F{n}" for n in range(1, 9)]


def test_reading_values_and_requests():
    assert [d.isoformat() for d in rd.dates("Friday 8 January to Monday 11 January", TODAY)] == [
        "2027-01-08", "2027-01-11"]  # fmt: skip
    assert rd.postcodes("it's gl54 2hj") == ["GL54 2HJ"] and rd.postcodes("BP7001") == []
    assert rd.phones("07700 900 333") == ["07700 900333"]
    assert rd.items("10 more folding chairs and 2 patio heaters") == [("CH-F", 10), ("HT-P", 2)]
    assert rd.items("a large marquee and six round tables") == [("MQ-L", 1), ("TB-R", 6)]
    assert rd.change_op("take the two patio heaters off") == "remove"
    assert rd.change_op("make it 20 chairs") == "set" and rd.change_op("add 4 chairs") == "add"
    assert rd.windows("collect in the morning instead of the afternoon") == {"collection": "AM"}
    assert rd.windows("I am free") == {}
    assert [r.intent for r in rd.requests(
        "Could you collect on Monday 11 January in the morning instead of the afternoon, and "
        "also update my mobile number to 07700 900333?")] == ["window", "contact"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "I'd like to hire 2 heaters from 4 January to 9 January. Delivery in the afternoon, "
        "please.")] == ["book"]  # fmt: skip
    assert [r.intent for r in rd.requests("Cancel order BP7003. What do I get back?")] == [
        "cancel"]  # fmt: skip
    assert rd.FREE_ONLY.search("only if there's no fee for changing the order")
    assert not rd.FREE_ONLY.search("I'll pay the fee if there is one")
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectPartyhireAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_the_engine_plays_the_desk_with_a_scripted_user(tmp_path):
    """The engine: a scripted user (no simulated user's judgement) plays one booking."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "partyhire-book-party")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(simulator.simulate(
        scenario, agent=CorrectPartyhireAgent, environment=make_environment,
        user=[scenario.goal, "BP7010", "GL53 7QT", "Yes, please book it."],
    ))  # fmt: skip
    checks = [c for e in result.episodes for c in e.criteria]
    assert checks and all(c.passed for c in checks), [c.check for c in checks if not c.passed]


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectPartyhireAgent, ["Cancel my order", *WHO["BP7019"],
                                                   "Do I get the hire back?", "ok"])  # fmt: skip
    assert "isn't refunded" in replies[2].text and called(replies[:4], "cancel_order") == []
    assert charges(env, "BP7019", "refund") == [10000]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectPartyhireAgent, [
        "Please move my order to Friday 18 December and Sunday 20 December", *WHO["BP7015"],
        "I'd rather not"])  # fmt: skip
    assert "£20.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "orders", order_id="BP7015")["delivery_date"] == "2026-12-17"


def test_facts_given_before_they_are_asked_and_bare_answers():
    env, replies, _ = chat(CorrectPartyhireAgent, [
        "Hi, my order is BP7010. I'd like to book some more things", "GL53 7QT",
        "4 round tables and a crockery set", "Saturday 9 January to Sunday 10 January",
        "hang on", "go ahead"])  # fmt: skip
    assert "What would you like" in replies[1].text and "Which day" in replies[2].text
    assert "Shall I book it?" in replies[3].text and called(replies[:5], "book_hire") == []
    new = row(env, "orders", customer_id="C310", delivery_date="2027-01-09")
    assert new["hire_pence"] == 4400 + 1200 and lines(env, new["order_id"]) == {
        "TB-R": 4, "CR-10": 1}  # fmt: skip


def test_value_corrected_mid_conversation():
    env, replies, _ = chat(CorrectPartyhireAgent, [
        "Please move my order to Friday 15 January and Sunday 17 January", *WHO["BP7014"],
        "Sorry, I meant Friday 29 January and Sunday 31 January", "yes"])  # fmt: skip
    assert "Friday 29 January" in replies[3].text
    assert row(env, "orders", order_id="BP7014")["delivery_date"] == "2027-01-29"


def test_one_new_day_keeps_the_length_and_a_longer_hire_is_repriced():
    env, replies, _ = chat(CorrectPartyhireAgent, [
        "Can we move the delivery to Saturday 30 January?", *WHO["BP7014"], "yes"])  # fmt: skip
    assert row(env, "orders", order_id="BP7014")["collection_date"] == "2027-02-01"
    env, replies, _ = chat(CorrectPartyhireAgent, [
        "Could you extend the hire and collect on Thursday 14 January?", *WHO["BP7001"],
        "yes"])  # fmt: skip
    o = row(env, "orders", order_id="BP7001")
    assert o["collection_date"] == "2027-01-14" and o["hire_pence"] == 4 * 1900 + 32 * 750
    assert charges(env, "BP7001", "adjustment") == [31600 - 18800]


def test_reduce_a_quantity_and_set_a_total():
    env, replies, _ = chat(CorrectPartyhireAgent, [
        "We only need 20 folding chairs now, not 30", *WHO["BP7007"], "yes"])  # fmt: skip
    assert lines(env, "BP7007")["CH-F"] == 20 and "take off 10 folding chairs" in replies[2].text
    env, _, _ = chat(CorrectPartyhireAgent, ["Please remove 10 chairs from my order",
                                             *WHO["BP7007"], "yes"])  # fmt: skip
    assert lines(env, "BP7007")["CH-F"] == 20


def test_delivery_window_for_a_new_hire_and_a_full_window_refused():
    env, replies, _ = chat(CorrectPartyhireAgent, [
        "I'd like to hire 2 patio heaters delivered on Friday 15 January in the afternoon and "
        "collected on Saturday 16 January", *WHO["BP7011"], "yes"])  # fmt: skip
    new = row(env, "orders", customer_id="C311", delivery_date="2027-01-15")
    assert new["delivery_window"] == "PM" and new["collection_window"] == "PM"
    env, replies, _ = chat(CorrectPartyhireAgent, [
        "I'd like to hire 10 folding chairs delivered on Friday 8 January in the afternoon and "
        "collected on Saturday 9 January", *WHO["BP7011"], "yes"])  # fmt: skip
    assert "fully booked" in replies[-1].text and "Nothing has been changed" in replies[-1].text
    assert env.select("orders", {"customer_id": "C311"}) == [row(env, "orders", order_id="BP7011")]


def test_new_hire_with_a_marquee_books_its_survey():
    env, replies, _ = chat(CorrectPartyhireAgent, [
        "I'd like to hire a large marquee from Saturday 23 January to Monday 25 January",
        *WHO["BP7013"], "yes"])  # fmt: skip
    new = row(env, "orders", customer_id="C313", delivery_date="2027-01-23")
    assert new["survey_on"] == "2026-12-16" and new["deposit_pence"] == 25000
    assert [c["name"] for c in replies[-1].tool_calls] == ["book_hire", "book_survey"]


def test_postcode_in_the_first_message_and_a_lookup():
    env, replies, _ = chat(CorrectPartyhireAgent, [
        "Hello, order BP7022, postcode GL54 3WW — what's on my order?"])  # fmt: skip
    assert "8 round tables" in replies[0].text and "£466.00" in replies[0].text
    assert env.select("charges", {"order_id": "BP7022"}) == []


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(
        CorrectPartyhireAgent,
        ["Cancel my order", "BP7003", "GL50 1AA", "BP7003", "GL50 1AA", "BP7003", "GL50 1AA"],
    )
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_order") == [] and "GL3 4CC" not in said(replies)


def test_nothing_before_identity():
    _, replies, _ = chat(CorrectPartyhireAgent, ["What's the deposit on order BP7022?"])
    assert called(replies, "get_customer") == [] and "£100.00" not in replies[0].text


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please add a small marquee to my order", *WHO["BP7001"], "yes"]),
    ("F2", ["I'd like to hire 30 folding chairs from Friday 8 January to Monday 11 January",
            *WHO["BP7002"], "yes"]),
    ("F3", ["Please cancel my order", *WHO["BP7003"], "yes"]),
    ("F4", ["When is my delivery?", "BP7004", "GL51 9ZZ"]),
    ("F5", ["I want to dispute the charge for broken glasses", *WHO["BP7005"], "yes"]),
    ("F6", ["Take the patio heaters off my order", *WHO["BP7006"], "yes"]),
    ("F7", ["Add 10 folding chairs and 2 patio heaters to my order", *WHO["BP7007"], "yes"]),
    ("F8", ["Can you change my delivery to the morning?", *WHO["BP7008"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedPartyhireAgent, messages)
    assert f"partyhire:{flaw}" in fired
    _, _, clean = chat(CorrectPartyhireAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"partyhire-book-village-hall": "F2"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedPartyhireAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedPartyhireAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"partyhire:{flaw}" in fired
    assert {f for f in fired} == {f"partyhire:{flaw}"}
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedPartyhireAgent, FLAWS[0][1])
    assert "survey" in replies[-1].text and called(replies, "book_survey") == []
    assert row(env, "orders", order_id="BP7001")["survey_on"] is None
    env, _, _ = chat(FlawedPartyhireAgent, FLAWS[1][1])
    assert row(env, "orders", customer_id="C302", delivery_date="2027-01-08")["hire_pence"] == 9000
    env, _, _ = chat(FlawedPartyhireAgent, FLAWS[2][1])
    assert charges(env, "BP7003", "refund") == [25650]
    _, replies, _ = chat(FlawedPartyhireAgent, FLAWS[3][1])
    assert "GL52 6PL" in replies[-1].text
    env, _, _ = chat(FlawedPartyhireAgent, FLAWS[4][1])
    assert row(env, "breakages", breakage_id="BR-601")["status"] == "disputed"
    env, _, _ = chat(FlawedPartyhireAgent, FLAWS[5][1])
    assert "HT-P" not in lines(env, "BP7006") and charges(env, "BP7006", "change_fee") == []
    env, replies, _ = chat(FlawedPartyhireAgent, FLAWS[6][1])
    assert lines(env, "BP7007") == {"CH-F": 40, "TB-T": 5}
    assert "That's everything on your order updated" in said(replies)
    env, replies, _ = chat(FlawedPartyhireAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text
    assert row(env, "orders", order_id="BP7008")["delivery_window"] == "PM"


def test_flaws_stay_quiet_where_their_trigger_is_absent():
    # a 2-day hire is priced the same either way; a removal 7+ days out has no fee to drop
    for messages in (
        ["I'd like to hire 30 folding chairs from Saturday 9 January to Monday 11 January",
         *WHO["BP7002"], "yes"],
        ["Take the trestle tables off my order", *WHO["BP7007"], "yes"],
        ["Please cancel my order", *WHO["BP7018"], "yes"],
        ["Change my collection to the morning", *WHO["BP7020"], "yes"],
    ):  # fmt: skip
        _, _, fired = chat(FlawedPartyhireAgent, messages)
        assert fired == [], messages

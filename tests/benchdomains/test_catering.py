"""Saffron & Sage Catering: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.catering import (
    CateringEnvironment,
    CorrectCateringAgent,
    FlawedCateringAgent,
    _seed,
    make_environment,
)
from benchmarks.domains.catering import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "catering" / "scenarios.yaml"
# an account and its postcode: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[4]] for c in _seed.CUSTOMERS}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "catering:0")


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
            turn = Turn(episode_id="catering:0", message=message, history=tuple(history))
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


# -- the environment and each of its tools ----------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, CateringEnvironment)
    assert env.now().isoformat() == "2026-12-08T10:00:00+00:00"
    tool(env, "update_event_contact", account_id="CT3019", order_id="EV7019",
         contact_phone="07700 900171")  # fmt: skip
    assert row(make_environment(), "orders", order_id="EV7019")["contact_phone"] == "07700 900719"


def test_tools_are_the_documented_eleven():
    names = {t.name for t in make_environment().agent_tools()}
    assert names == {"verify_customer", "get_account", "get_order", "book_event",
                     "change_headcount", "change_menu", "set_dietary", "pay_deposit",
                     "pay_balance", "cancel_order", "update_event_contact"}  # fmt: skip


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_order", account_id="CT3013", order_id="EV7013", refund_pence=0)
    env.restore(before)
    assert row(env, "orders", order_id="EV7013")["status"] == "confirmed"
    agent = CorrectCateringAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="c", message="Cancel my order, CT3013", history=())))
    other = CorrectCateringAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "CT3013"}


def test_tool_verify_customer():
    env = make_environment()
    ok = tool(env, "verify_customer", account_id="ct3006", postcode="ng72rd").result
    assert ok["name"] == "Priya Nair" and [o["order_id"] for o in ok["orders"]] == ["EV7006"]
    assert "verification failed" in tool(env, "verify_customer", account_id="CT3006",
                                         postcode="LS6 2AB").error  # fmt: skip


def test_tool_get_account_and_get_order():
    env = make_environment()
    v = tool(env, "get_account", account_id="CT3020").result
    assert v["orders"][0]["outstanding_pence"] == 99000 and v["orders"][0]["days_to_event"] == 10
    # the system shows any order to anyone: the desk must not
    assert tool(env, "get_order", order_id="EV7024").result["account_id"] == "CT3024"
    assert "no order" in tool(env, "get_order", order_id="EV9999").error


def test_tool_book_event_and_its_refusals():
    env = make_environment()
    r = tool(env, "book_event", account_id="CT3001", event_date="2027-01-23", headcount=60,
             package="buffet", price_pence=144000).result  # fmt: skip
    assert r["order_id"] == "EV7027" and r["deposit_taken"] == "£360.00"
    assert row(env, "orders", order_id="EV7027")["deposit_paid_pence"] == 36000
    assert charges(env, "CT3001", "deposit") == [36000]
    soon = tool(env, "book_event", account_id="CT3005", event_date="2026-12-19", headcount=30,
                package="buffet", price_pence=72000).error  # fmt: skip
    assert "14 days" in soon
    full = tool(env, "book_event", account_id="CT3004", event_date="2027-01-16", headcount=50,
                package="canapes", price_pence=92500).error  # fmt: skip
    assert "fully booked" in full
    few = tool(env, "book_event", account_id="CT3003", event_date="2027-01-29", headcount=12,
               package="buffet", price_pence=28800).error  # fmt: skip
    assert "20 to 200" in few
    diet = tool(env, "book_event", account_id="CT3003", event_date="2027-01-29", headcount=20,
                package="buffet", vegan=21, price_pence=48000).error  # fmt: skip
    assert "dietary" in diet
    # the system does not check the dinner minimum: the desk must
    assert tool(env, "book_event", account_id="CT3003", event_date="2027-01-29", headcount=24,
                package="dinner", price_pence=100800).error is None  # fmt: skip


def test_tool_change_headcount():
    env = make_environment()
    r = tool(env, "change_headcount", account_id="CT3006", order_id="EV7006", headcount=68,
             price_pence=163200).result  # fmt: skip
    assert r["outstanding"] == "£1,272.00"
    final = tool(env, "change_headcount", account_id="CT3016", order_id="EV7016", headcount=32,
                 price_pence=76800).error  # fmt: skip
    assert "final numbers" in final
    other = tool(env, "change_headcount", account_id="CT3006", order_id="EV7007", headcount=60,
                 price_pence=1).error  # fmt: skip
    assert "no order" in other


def test_tool_change_menu_and_set_dietary():
    env = make_environment()
    assert tool(env, "change_menu", account_id="CT3011", order_id="EV7011", package="dinner",
                price_pence=189000).result["price"] == "£1,890.00"  # fmt: skip
    assert "package must be" in tool(env, "change_menu", account_id="CT3011", order_id="EV7011",
                                     package="hog roast", price_pence=1).error  # fmt: skip
    tool(env, "set_dietary", account_id="CT3021", order_id="EV7021", vegetarian=8, vegan=3,
         gluten_free=2)  # fmt: skip
    assert row(env, "orders", order_id="EV7021")["vegan"] == 3
    assert "more than" in tool(env, "set_dietary", account_id="CT3021", order_id="EV7021",
                               vegetarian=61, vegan=0, gluten_free=0).error  # fmt: skip


def test_tool_payments():
    env = make_environment()
    assert tool(env, "pay_balance", account_id="CT3017", order_id="EV7017",
                amount_pence=100).error == "the deposit must be paid first"  # fmt: skip
    assert tool(env, "pay_deposit", account_id="CT3017", order_id="EV7017").result["status"] == (
        "confirmed"
    )
    assert "already paid" in tool(env, "pay_deposit", account_id="CT3017",
                                  order_id="EV7017").error  # fmt: skip
    assert "outstanding" in tool(env, "pay_balance", account_id="CT3018", order_id="EV7018",
                                 amount_pence=72001).error  # fmt: skip
    tool(env, "pay_balance", account_id="CT3018", order_id="EV7018", amount_pence=72000)
    assert charges(env, "CT3018", "balance") == [72000]


def test_tool_cancel_order_and_contact():
    env = make_environment()
    assert "only £300.00" in tool(env, "cancel_order", account_id="CT3014", order_id="EV7014",
                                  refund_pence=30001).error  # fmt: skip
    tool(env, "cancel_order", account_id="CT3014", order_id="EV7014", refund_pence=15000)
    assert row(env, "orders", order_id="EV7014")["status"] == "cancelled"
    assert "cancelled" in tool(env, "cancel_order", account_id="CT3014", order_id="EV7014",
                               refund_pence=0).error  # fmt: skip
    assert "not a UK phone" in tool(env, "update_event_contact", account_id="CT3019",
                                    order_id="EV7019", contact_phone="12345").error  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(s.tags[0] for s in tagged) == [f"flaw:F{i}" for i in range(1, 9)]


# -- reading the customer's words -------------------------------------------------------------
def test_reading_refs_days_and_phones():
    assert rd.accounts("it's ct 3006") == ["CT3006"] and rd.orders("order ev-7024") == ["EV7024"]
    assert rd.postcodes("my postcode is ng72rd") == ["NG7 2RD"]
    assert [d.isoformat() for d in rd.dates("Saturday 23 January", TODAY)] == ["2027-01-23"]
    assert [d.isoformat() for d in rd.dates("from 15 December to 22 December", TODAY)] == [
        "2026-12-22"]  # fmt: skip
    assert rd.phones("on 07700 900111 — sorry, it's 07700 900171") == [
        "07700 900111", "07700 900171"]  # fmt: skip


def test_reading_headcounts_menus_and_diets():
    assert rd.headcount("a buffet for 60 guests on 23 January") == 60
    assert rd.headcount("bring the numbers down to 70") == 70
    assert rd.headcount("from 50 guests to 44") == 44 and rd.headcount("add 4 guests") is None
    assert rd.guest_delta("8 more guests") == 8 and rd.guest_delta("add 4 guests") == 4
    assert rd.guest_delta("Six of our guests can't come") == -6
    assert rd.packages("from the buffet to the three-course dinner") == ["dinner"]
    assert rd.packages("the canapé reception") == ["canapes"]
    assert rd.dietary("8 vegetarian, 3 vegan and 2 gluten-free") == {
        "vegetarian": 8, "vegan": 3, "gluten_free": 2}  # fmt: skip
    assert rd.dietary("6 of them are vegetarian and 2 are vegan") == {"vegetarian": 6, "vegan": 2}


def test_reading_requests_and_answers():
    assert [r.intent for r in rd.requests(
        "Please change our order for 29 January to the canapé reception, and update the "
        "on-the-day contact number to 07700 900333.")] == ["menu", "contact"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "Book the dinner for 40 guests. 6 of them are vegetarian.")] == ["book"]  # fmt: skip
    first = rd.requests("My colleague booked it, order EV7024. What's the headcount?")
    assert [r.intent for r in first] == ["lookup"] and "EV7024" in first[0].text
    assert [r.intent for r in rd.requests("Cancel our buffet. How much do I get back?")] == [
        "cancel"]  # fmt: skip
    assert rd.NO_SUPPLEMENT.search("if there's a late supplement on top, leave it at 40")
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"
    assert rd.answer("yes please") == "yes"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectCateringAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    messages = ["Cancel our buffet order", *WHO["CT3014"], "Do I get all the deposit back?", "ok"]
    env, replies, _ = chat(CorrectCateringAgent, messages)
    assert "£150.00" in replies[2].text and called(replies[:4], "cancel_order") == []
    assert charges(env, "CT3014", "refund") == [15000]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectCateringAgent, ["Add 4 more guests to our lunch",
                                                  *WHO["CT3008"], "I'd rather not"])  # fmt: skip
    assert "£24.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "orders", order_id="EV7008")["headcount"] == 60


def test_facts_one_at_a_time_and_a_hedge():
    env, replies, _ = chat(CorrectCateringAgent, [
        "Hi, account CT3001. I want to book some catering", "LS6 2AB", "23 January", "60",
        "the buffet please", "hang on", "go ahead"])  # fmt: skip
    assert "date" in replies[1].text and "How many" in replies[2].text
    assert "Which menu" in replies[3].text and "Shall I book it?" in replies[4].text
    assert called(replies[:6], "book_event") == []
    assert row(env, "orders", account_id="CT3001")["price_pence"] == 144000


def test_value_changed_at_the_proposal():
    env, replies, _ = chat(CorrectCateringAgent, [
        "Please add 8 more guests to our event", *WHO["CT3006"], "Sorry, make it 66 guests",
        "yes"])  # fmt: skip
    assert "68 guests" in replies[2].text and "66 guests" in replies[3].text
    assert row(env, "orders", order_id="EV7006")["headcount"] == 66


def test_bare_headcount_answer():
    env, replies, _ = chat(CorrectCateringAgent, ["We need to change our guest numbers",
                                                  *WHO["CT3007"], "70", "yes"])  # fmt: skip
    assert "How many guests" in replies[2].text
    assert row(env, "orders", order_id="EV7007")["price_pence"] == 129500


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectCateringAgent, ["Cancel my order", "CT3013", "LS6 2AB", "CT3013",
                                                "LS6 2AB", "CT3013", "LS6 2AB"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_order") == []


def test_nothing_shared_before_verification():
    _, replies, _ = chat(CorrectCateringAgent, ["How much do I owe on order EV7020?"])
    assert "account number" in replies[0].text and "£" not in replies[0].text
    assert called(replies, "get_account") == [] and called(replies, "get_order") == []


def test_dinner_menu_change_below_the_minimum_is_refused():
    env, replies, _ = chat(CorrectCateringAgent, ["Change our order to the three-course dinner",
                                                  *WHO["CT3023"]])  # fmt: skip
    assert "30 guests or more" in replies[-1].text
    assert row(env, "orders", order_id="EV7023")["package"] == "canapes"


def test_dietary_counts_over_the_headcount_are_not_proposed():
    env, replies, _ = chat(CorrectCateringAgent, ["Please set 30 vegan meals on our order",
                                                  *WHO["CT3023"]])  # fmt: skip
    assert "more than the 25 guests" in replies[-1].text
    assert row(env, "orders", order_id="EV7023")["vegan"] == 0


def test_balance_with_nothing_owed_and_deposit_already_paid():
    _, replies, _ = chat(CorrectCateringAgent, ["I'd like to pay the balance", *WHO["CT3015"]])
    assert "nothing left to pay" in replies[-1].text
    _, replies, _ = chat(CorrectCateringAgent, ["I want to pay the deposit", *WHO["CT3006"]])
    assert "already paid" in replies[-1].text


def test_cancellation_bands():
    agent = CorrectCateringAgent(env=make_environment())
    order = {"deposit_paid_pence": 30000, "balance_paid_pence": 90000}
    bands = [(60, 120000), (59, 105000), (30, 105000), (29, 90000), (10, 90000), (9, 0)]
    for days, refund in bands:
        assert agent.refund_for({**order, "days_to_event": days}) == refund, days


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Set 8 vegetarian, 3 vegan and 2 gluten-free meals on our dinner", *WHO["CT3021"],
            "yes"]),
    ("F2", ["Please add 4 more guests to our lunch", *WHO["CT3008"], "yes"]),
    ("F3", ["Cancel our buffet order", *WHO["CT3014"], "yes"]),
    ("F4", ["What's the headcount on order EV7024?", *WHO["CT3023"]]),
    ("F5", ["Book the three-course dinner for 24 guests on 29 January", *WHO["CT3003"], "yes"]),
    ("F6", ["Please reduce our party to 44 guests", *WHO["CT3010"], "yes"]),
    ("F7", ["Please change our order to the canapé reception, and update the on-the-day "
            "contact number to 07700 900333", *WHO["CT3022"], "yes", "yes"]),
    ("F8", ["Book the canapé reception for 50 guests on 16 January", *WHO["CT3004"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedCateringAgent, messages)
    assert f"catering:{flaw}" in fired
    _, _, clean = chat(CorrectCateringAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"catering-add-guests-if-free": "F2"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedCateringAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == [], said(replies)


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedCateringAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"catering:{flaw}" in fired
    if scenario.id == "catering-add-guests-if-free":
        # the state is right (nothing changed); only the supplement said is wrong
        assert unmet(env, replies, scenario.criteria) == [] and "£252.00" in said(replies)
        return
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedCateringAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "set_dietary") == []
    assert row(env, "orders", order_id="EV7021")["vegetarian"] == 0
    env, _, _ = chat(FlawedCateringAgent, FLAWS[1][1])
    assert row(env, "orders", order_id="EV7008")["price_pence"] == 192000
    env, _, _ = chat(FlawedCateringAgent, FLAWS[2][1])
    assert charges(env, "CT3014", "refund") == [30000]
    _, replies, _ = chat(FlawedCateringAgent, FLAWS[3][1])
    assert "85 guests" in said(replies) and called(replies, "get_order")
    env, _, _ = chat(FlawedCateringAgent, FLAWS[4][1])
    assert row(env, "orders", account_id="CT3003")["package"] == "dinner"
    env, _, _ = chat(FlawedCateringAgent, FLAWS[5][1])
    assert row(env, "orders", order_id="EV7010")["price_pence"] == 105600
    env, replies, _ = chat(FlawedCateringAgent, FLAWS[6][1])
    assert row(env, "orders", order_id="EV7022")["contact_phone"] == "07700 900722"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedCateringAgent, FLAWS[7][1])
    assert row(env, "orders", account_id="CT3004")["event_date"] == "2027-01-17"
    assert "Sunday 17 January" in replies[-1].text

"""Bloom & Bough Florists: tools, reading, scenarios, the correct agent and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.florist import (
    CorrectFloristAgent,
    FlawedFloristAgent,
    FloristEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.florist import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "florist" / "scenarios.yaml"
SCENARIO_LIST = load_scenarios(SCENARIOS)
# a customer number and the account's postcode: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[5]] for c in _seed.CUSTOMERS}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "florist:0")


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
            turn = Turn(episode_id="florist:0", message=message, history=tuple(history))
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


# -- the environment and its tools ------------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, FloristEnvironment)
    assert env.now().isoformat() == "2026-12-09T14:00:00+00:00"
    assert len(_seed.CUSTOMERS) == 24
    tool(env, "set_card_message", customer_id="BB3018", order_id="OR6118", message="Hi")
    assert row(make_environment(), "orders", order_id="OR6118")["card_message"] == (
        "Happy housewarming!"
    )
    seeded = {
        o["order_id"]: o for o in tool(env, "get_account", customer_id="BB3023").result["orders"]
    }
    assert seeded["OR6123"]["total_pence"] == 7500 and seeded["OR6123"]["hours_to_delivery"] == 43


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_order", customer_id="BB3013", order_id="OR6113", refund_pence=0)
    env.restore(before)
    assert row(env, "orders", order_id="OR6113")["status"] == "placed"
    agent = CorrectFloristAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="f", message="Cancel my order, BB3013", history=())))
    other = CorrectFloristAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"customer_id": "BB3013"}


def _line(product="roses", size="large", qty=1, price=5000):
    return {"product_id": product, "size": size, "qty": qty, "price_pence": price}


def _order(**change):
    args = {
        "customer_id": "BB3001",
        "items": [_line()],
        "delivery_date": "2026-12-12",
        "slot": "afternoon",
        "recipient": "Jean Harris",
        "address_line": "12 Lansdown Road",
        "postcode": "BA1 5DY",
        "delivery_fee_pence": 500,
        "paid_pence": 5500,
    }
    return {**args, **change}


REFUSALS = [
    ("verify_customer", {"customer_id": "BB3001", "postcode": "BA1 5DY"}, "verification failed"),
    ("get_account", {"customer_id": "BB3999"}, "no customer"),
    ("get_order", {"order_id": "OR9999"}, "no order"),
    ("place_order", _order(items=[_line("peony")]), "out of stock"),
    ("place_order", _order(items=[_line("orchid", "luxe")]), "doesn't come in size"),
    ("place_order", _order(postcode="SP1 1TT"), "don't deliver to SP1"),
    ("place_order", _order(delivery_date="2026-12-13"), "no deliveries on Sunday"),
    ("place_order", _order(delivery_date="2026-12-25"), "no deliveries"),
    ("place_order", _order(delivery_date="2026-12-18", slot="morning"), "is full"),
    ("place_order", _order(delivery_date="2026-12-09", slot="morning"), "is over"),
    ("place_order", _order(delivery_date="2026-12-08"), "in the past"),
    ("place_order", _order(card_message="x" * 201), "at most 200"),
    (
        "change_delivery",
        {
            "customer_id": "BB3012",
            "order_id": "OR6112",
            "delivery_date": "2026-12-12",
            "slot": "morning",
            "fee_pence": 0,
        },
        "made up",
    ),
    (
        "change_delivery",
        {
            "customer_id": "BB3010",
            "order_id": "OR6110",
            "delivery_date": "2026-12-18",
            "slot": "morning",
            "fee_pence": 0,
        },
        "is full",
    ),
    (
        "change_delivery",
        {
            "customer_id": "BB3022",
            "order_id": "OR6123",
            "delivery_date": "2026-12-12",
            "slot": "morning",
            "fee_pence": 0,
        },
        "no order OR6123 on this account",
    ),
    (
        "change_address",
        {
            "customer_id": "BB3017",
            "order_id": "OR6117",
            "address_line": "1 X Road",
            "postcode": "SN1 1AA",
            "fee_difference_pence": 0,
            "fee_pence": 0,
        },
        "don't deliver",
    ),
    (
        "set_card_message",
        {"customer_id": "BB3015", "order_id": "OR6115", "message": "Hi"},
        "made up",
    ),
    (
        "swap_item",
        {
            "customer_id": "BB3016",
            "order_id": "OR6116",
            "line_id": 99,
            "product_id": "roses",
            "size": "large",
            "difference_pence": 0,
            "fee_pence": 0,
        },
        "no line",
    ),
    (
        "swap_item",
        {
            "customer_id": "BB3018",
            "order_id": "OR6118",
            "line_id": 15,
            "product_id": "ranunculus",
            "size": "standard",
            "difference_pence": 0,
            "fee_pence": 0,
        },
        "out of stock",
    ),
    (
        "cancel_order",
        {"customer_id": "BB3019", "order_id": "OR6119", "refund_pence": 0},
        "delivered",
    ),
    (
        "log_complaint",
        {
            "customer_id": "BB3013",
            "order_id": "OR6113",
            "reason": "wilted",
            "resolution": "refund",
            "refund_pence": 100,
        },
        "hasn't been delivered",
    ),
    (
        "log_complaint",
        {
            "customer_id": "BB3019",
            "order_id": "OR6119",
            "reason": "wilted",
            "resolution": "replacement",
        },
        "needs a day and a slot",
    ),
]


TOOLS = sorted({name for name, _, _ in REFUSALS})


@pytest.mark.parametrize("name", TOOLS)
def test_tool_refuses_what_cannot_happen_and_changes_nothing(name):
    env = make_environment()
    before = env.snapshot()
    for tool_name, args, error in REFUSALS:
        if tool_name == name:
            outcome = tool(env, name, **args)
            assert outcome.error and error in outcome.error, (args, outcome)
            assert env.snapshot() == before


def test_a_second_complaint_is_refused_and_the_rules_are_the_desks():
    env = make_environment()
    args = {
        "customer_id": "BB3020",
        "order_id": "OR6120",
        "reason": "wilted",
        "resolution": "refund",
        "refund_pence": 5200,
    }
    assert tool(env, "log_complaint", **args).error is None
    assert "already logged" in tool(env, "log_complaint", **args).error
    # the system takes whatever the desk quotes: a late complaint, a refund after making up,
    # a same-day order after the cut-off, another customer's order read out
    late = {**args, "customer_id": "BB3021", "order_id": "OR6121", "refund_pence": 9999}
    assert tool(env, "log_complaint", **late).error is None
    made_up = {"customer_id": "BB3015", "order_id": "OR6115", "refund_pence": 4300}
    assert tool(env, "cancel_order", **made_up).error is None
    assert tool(env, "place_order", **_order(delivery_date="2026-12-09")).error is None
    assert tool(env, "get_order", order_id="OR6123").result["customer_id"] == "BB3023"


# -- the scenarios -----------------------------------------------------------------------------
def test_scenarios_parse_and_have_the_asked_shape():
    assert len(SCENARIO_LIST) == 23 and len({s.id for s in SCENARIO_LIST}) == 23
    assert all(not s.agenda for s in SCENARIO_LIST)
    tags = [t for s in SCENARIO_LIST for t in s.tags]
    assert sorted(tags) == [f"flaw:F{i}" for i in range(1, 9)]
    assert sum(1 for s in SCENARIO_LIST if not s.tags) == 15


def test_each_goal_reads_as_the_requests_written():
    for scenario in SCENARIO_LIST:
        found = [r.intent for r in rd.requests(scenario.goal)]
        if scenario.id == "florist-move-and-new-address":
            assert found == ["move", "address"]
        else:
            assert len(found) == 1, (scenario.id, found)


# -- reading -----------------------------------------------------------------------------------
def test_reading_days_and_slots():
    assert rd.dates("from Friday 11 December to Saturday 12 December", TODAY) == [
        TODAY.replace(day=12)
    ]
    assert [d.isoformat() for d in rd.dates("Saturday 9 January", TODAY)] == ["2027-01-09"]
    assert rd.dates("tomorrow's delivery", TODAY) == [TODAY.replace(day=10)]
    assert rd.dates("instead of Friday", TODAY) == [] and rd.dates("on Monday", TODAY) == [
        TODAY.replace(day=14)
    ]
    assert rd.dates("delivered on Monday", TODAY) == []
    assert rd.slot("this afternoon") == "afternoon" and rd.slot("in the morning") == "morning"
    assert rd.slot("Saturday 12 December") is None


def test_reading_flowers_addresses_names_and_cards():
    wedding = rd.products("a large bridal bouquet and six buttonholes")
    assert [(m.product, m.size, m.qty) for m in wedding] == [
        ("bridal", "large", 1),
        ("buttonhole", None, 6),
    ]
    assert rd.products("a standard funeral wreath")[0].product == "funeral-wreath"
    assert rd.products("a Christmas wreath for the door")[0].product == "door-wreath"
    assert rd.products("a large bouquet of Classic Red Roses")[0].size == "large"
    assert rd.addresses("to St Mary's Church, 4 Church Street, Bathford BA1 7RS") == [
        ("4 Church Street", "BA1 7RS")
    ]
    assert rd.address_answer("The Old Rectory, Bathford, ba1 7rs") == ("The Old Rectory", "BA1 7RS")
    assert rd.recipient("to my mum, Jean Harris, at 12 Lansdown Road") == "Jean Harris"
    assert rd.recipient("to her at work this afternoon") is None
    assert rd.name_answer("It's for Hartley & Sons Funeral Directors") == (
        "Hartley & Sons Funeral Directors"
    )
    assert rd.card_message("The card should say 'Happy birthday Mum, love Sarah x'.") == (
        "Happy birthday Mum, love Sarah x"
    )
    assert rd.card_message("with a card saying Get well soon Gran") == "Get well soon Gran"
    assert rd.districts("delivered to Keynsham, BS31?") == ["BS31"]


def test_reading_answers_and_conditions():
    assert rd.answer("hang on a sec") == "hedge" and rd.answer("I'd rather not") == "no"
    assert rd.answer("Yes please, go ahead") == "yes" and rd.answer("Is that all of it?") is None
    assert rd.FREE_ONLY.search("Only if there's no charge for changing it")
    assert rd.REFUND_ONLY.search("cancel it, but only if I get a full refund")
    assert rd.customers("it's bb-3001") == ["BB3001"] and rd.orders("OR 6107") == ["OR6107"]
    assert [r.intent for r in rd.requests("I'd like to send some flowers")] == ["order"]


# -- every scenario, played as written, with the correct agent --------------------------------
@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectFloristAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_order_built_up_one_answer_at_a_time():
    env, replies, _ = chat(
        CorrectFloristAgent,
        [
            "I'd like to send some flowers",
            *WHO["BB3001"],
            "Classic Red Roses please",
            "large",
            "Monday 14 December",
            "hang on",
            "Lansdown Road",
            "12 Lansdown Road, Bath BA1 5DY",
            "morning",
            "They're for my mum, Jean Harris",
            "No card, thanks",
            "yes",
        ],
    )
    assert "take your time" in replies[6].text and "full address" in replies[7].text
    assert "Shall I place the order?" in replies[-2].text and "£55.00" in replies[-2].text
    placed = row(env, "orders", customer_id="BB3001", delivery_date="2026-12-14")
    assert placed["recipient"] == "Jean Harris" and placed["slot"] == "morning"


def test_identity_given_up_front_and_a_question_is_not_a_yes():
    env, replies, _ = chat(
        CorrectFloristAgent,
        [
            "Hi, my customer number is BB3013 and my postcode is BA1 4AB. Cancel my order for "
            "Wednesday 16 December.",
            "Do I get all my money back?",
            "no, leave it",
        ],
    )
    assert "£47.00" in replies[0].text and "£47.00" in replies[1].text
    assert called(replies, "cancel_order") == [] and "nothing has been changed" in replies[2].text
    assert row(env, "orders", order_id="OR6113")["status"] == "placed"


def test_a_delivery_postcode_is_not_taken_as_proof():
    _, replies, _ = chat(
        CorrectFloristAgent, ["Send Classic Red Roses to 12 Lansdown Road, Bath BA1 5DY", "BB3001"]
    )
    assert called(replies, "verify_customer") == [] and "postcode on your account" in (
        replies[1].text
    )


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(
        CorrectFloristAgent,
        ["Cancel my order", "BB3013", "BA1 1AA", "BB3013", "BA1 1AA", "BB3013", "BA1 1AA"],
    )
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_order") == []


def test_a_quote_needs_no_account_and_unserved_areas_are_said():
    _, replies, _ = chat(
        CorrectFloristAgent,
        [
            "Do you deliver to SP1, and how much is an orchid?",
            "How much would an orchid be delivered to BA11?",
        ],
    )
    assert "don't deliver to SP1" in replies[0].text and called(replies, "verify_customer") == []
    assert "£44.00" in replies[1].text


def test_value_corrected_at_the_proposal_and_a_sunday_refused():
    env, replies, _ = chat(
        CorrectFloristAgent,
        [
            "Can I move my order to Sunday 13 December?",
            *WHO["BB3008"],
            "Monday 14 December then",
            "No, make it Tuesday 15 December",
            "yes",
        ],
    )
    assert "We don't deliver on Sunday 13 December" in replies[2].text
    assert "Tuesday 15 December" in replies[4].text
    assert row(env, "orders", order_id="OR6108")["delivery_date"] == "2026-12-15"


def test_swap_by_choice_inside_48_hours_pays_the_fee_and_difference():
    env, replies, _ = chat(
        CorrectFloristAgent,
        [
            "Please swap the roses on my order for a large White Lily Arrangement",
            *WHO["BB3009"],
            "yes",
        ],
    )
    assert "£7.50" in replies[2].text and "£17.00 more" in replies[2].text
    assert charges(env, "BB3009", "swap_difference") == [1700]
    assert charges(env, "BB3009", "change_fee") == [750]


def test_cancel_an_out_of_stock_order_inside_48_hours_is_refunded_in_full():
    env, replies, _ = chat(CorrectFloristAgent, ["Cancel my order please", *WHO["BB3016"], "yes"])
    assert "out of stock" in replies[2].text and charges(env, "BB3016", "refund") == [6500]


def test_address_in_an_unserved_area_and_an_order_not_on_the_account():
    env, replies, _ = chat(
        CorrectFloristAgent,
        [
            "Please change the delivery address on my order to 4 Fisherton Street, Salisbury SP2 "
            "7QY",
            *WHO["BB3017"],
        ],
    )
    assert "don't deliver to SP2" in replies[-1].text and called(replies, "change_address") == []
    _, replies, _ = chat(CorrectFloristAgent, ["Please cancel order OR6123", *WHO["BB3022"]])
    assert "can't find" in replies[-1].text and called(replies, "get_order") == []


def test_complaint_asks_replacement_or_refund_and_a_card_too_long():
    env, replies, _ = chat(
        CorrectFloristAgent,
        [
            "The lilies you delivered on Monday have wilted",
            *WHO["BB3020"],
            "a refund please",
            "yes",
        ],
    )
    assert "replacement" in replies[2].text and charges(env, "BB3020", "refund") == [5200]
    _, replies, _ = chat(
        CorrectFloristAgent,
        ["Please change the card message on my order", *WHO["BB3018"], "x" * 210],
    )
    assert "at most 200" in replies[-1].text and called(replies, "set_card_message") == []


# -- the flawed agent: each flaw fires in its scenario and in no untagged one ------------------
UNTAGGED = [s for s in SCENARIO_LIST if not s.tags]
TAGGED = [s for s in SCENARIO_LIST if s.tags]


@pytest.mark.parametrize("scenario", UNTAGGED, ids=[s.id for s in UNTAGGED])
def test_flawed_agent_is_the_correct_one_in_untagged_scenarios(scenario):
    env, replies, fired = play_scenario(FlawedFloristAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize("scenario", TAGGED, ids=[s.id for s in TAGGED])
def test_tagged_scenario_fires_its_flaw_and_misses_its_criteria(scenario):
    env, replies, fired = play_scenario(FlawedFloristAgent, scenario)
    flaw = scenario.tags[0].removeprefix("flaw:")
    assert set(fired) == {f"florist:{flaw}"}
    assert unmet(env, replies, scenario.criteria), said(replies)
    _, _, clean = play_scenario(CorrectFloristAgent, scenario)
    assert clean == []


def test_flaw_outcomes_on_the_state_and_in_words():
    by_id = {s.tags[0].removeprefix("flaw:"): s for s in TAGGED}
    env, replies, _ = play_scenario(FlawedFloristAgent, by_id["F1"])
    assert "Done" in replies[-1].text and called(replies, "set_card_message") == []
    env, _, _ = play_scenario(FlawedFloristAgent, by_id["F2"])
    assert row(env, "orders", customer_id="BB3003")["paid_pence"] == 3587
    env, _, _ = play_scenario(FlawedFloristAgent, by_id["F3"])
    assert charges(env, "BB3017", "delivery_difference") == [800]
    _, replies, _ = play_scenario(FlawedFloristAgent, by_id["F4"])
    assert "Beechen Cliff" in said(replies) and called(replies, "get_order")
    env, _, _ = play_scenario(FlawedFloristAgent, by_id["F5"])
    assert row(env, "orders", customer_id="BB3002")["delivery_date"] == "2026-12-09"
    env, _, _ = play_scenario(FlawedFloristAgent, by_id["F6"])
    assert charges(env, "BB3021", "refund") == [5000]
    env, replies, _ = play_scenario(FlawedFloristAgent, by_id["F7"])
    assert row(env, "orders", order_id="OR6124")["postcode"] == "BA1 1DA"
    assert "everything you asked for" in said(replies)
    env, replies, _ = play_scenario(FlawedFloristAgent, by_id["F8"])
    assert "Done — order OR6110 is now due Friday 18 December" in said(replies)
    assert row(env, "orders", order_id="OR6110")["delivery_date"] == "2026-12-17"

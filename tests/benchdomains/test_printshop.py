"""Inkwell Print Shop: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.printshop import (
    CorrectPrintshopAgent,
    FlawedPrintshopAgent,
    PrintshopEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.printshop import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "printshop" / "scenarios.yaml"
# an order and the email of the account that placed it: what a customer says when asked
EMAIL = {c[0]: c[2] for c in _seed.CUSTOMERS}
WHO = {o[0]: [o[0], EMAIL[o[1]]] for o in _seed.ORDERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "printshop:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, customer, kind):
    rows = env.select("charges", {"customer_id": customer, "kind": kind})
    return [c["amount_pence"] for c in rows]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="printshop:0", message=message, history=tuple(history))
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
    assert isinstance(env, PrintshopEnvironment)
    assert env.now().isoformat() == "2026-12-07T10:00:00+00:00"
    tool(env, "update_contact", customer_id="C223", phone="07700 900821")
    assert row(make_environment(), "customers", customer_id="C223")["phone"] == "07700 900623"


def test_prices_and_working_days():
    assert _seed.price("business_cards", 500, "premium", "matt") == 4800
    assert _seed.price("business_cards", 250, "premium", "soft-touch") == 4060
    assert _seed.price("flyers", 250, "recycled", "matt") == 4400
    assert row(make_environment(), "orders", order_id="IW10411")["price_pence"] == 12000
    friday = _seed.NOW.date().replace(day=4)
    assert _seed.add_working_days(friday, 1).isoformat() == "2026-12-07"
    assert _seed.add_working_days(friday, 4).isoformat() == "2026-12-10"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_order", customer_id="C211", order_id="IW10411", refund_pence=0)
    env.restore(before)
    assert row(env, "orders", order_id="IW10411")["status"] == "proof_sent"
    agent = CorrectPrintshopAgent(env=env)
    turn = Turn(episode_id="p", message="Cancel my order IW10411", history=())
    asyncio.run(agent.respond(turn))
    other = CorrectPrintshopAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot()
    assert other.s["facts"] == {"order_id": "IW10411"} and other.s["asked"] == "email"


def test_tool_verify_customer_and_reads():
    env = make_environment()
    v = tool(env, "verify_customer", order_id="iw10401", email="Amelia.Hart@example.com").result
    assert v["customer_id"] == "C201" and {o["order_id"] for o in v["orders"]} == {
        "IW10391", "IW10401"}  # fmt: skip
    failed = tool(env, "verify_customer", order_id="IW10404", email="holly.grant@example.com")
    assert "verification failed" in failed.error
    assert tool(env, "get_account", customer_id="C216").result["trade_code"] == "TRADE-KESTREL"
    o = tool(env, "get_order", order_id="IW10404").result
    assert o["name"] == "Dev Mistry" and o["postcode"] == "BS1 4DJ" and o["total_pence"] == 6495
    assert "no order" in tool(env, "get_order", order_id="IW99999").error


def test_tool_change_order():
    env = make_environment()
    r = tool(env, "change_order", customer_id="C203", order_id="IW10403", quantity=500,
             paper="recycled", finish="matt", price_pence=6600).result  # fmt: skip
    assert r["quantity"] == 500 and r["difference"] == "£22.00"
    assert charges(env, "C203", "charge") == [2200]
    band = tool(env, "change_order", customer_id="C209", order_id="IW10409", quantity=300,
                paper="standard", finish="matt", price_pence=1).error  # fmt: skip
    assert "quantities of" in band
    late = tool(env, "change_order", customer_id="C210", order_id="IW10410", quantity=1000,
                paper="standard", finish="soft-touch", price_pence=11250).error  # fmt: skip
    assert "before the proof is approved" in late
    other = tool(env, "change_order", customer_id="C201", order_id="IW10403", quantity=500,
                 paper="recycled", finish="matt", price_pence=6600).error  # fmt: skip
    assert "no order IW10403 on this account" in other


def test_tool_approve_proof():
    env = make_environment()
    r = tool(env, "approve_proof", customer_id="C201", order_id="IW10401").result
    assert (r["status"], r["dispatch_on"], r["delivery_date"]) == (
        "approved", "2026-12-11", "2026-12-15")  # fmt: skip
    again = tool(env, "approve_proof", customer_id="C201", order_id="IW10401").error
    assert "no proof to approve" in again


def test_tool_add_rush():
    env = make_environment()
    r = tool(env, "add_rush", customer_id="C202", order_id="IW10402", fee_pence=1500).result
    assert (r["dispatch_on"], r["delivery_date"], r["fee"]) == ("2026-12-08", "2026-12-10",
                                                               "£15.00")  # fmt: skip
    assert charges(env, "C202", "charge") == [1500]
    proof = tool(env, "add_rush", customer_id="C201", order_id="IW10401", fee_pence=1200).result
    assert proof["rush"] == 1 and proof["delivery_date"] is None
    r = tool(env, "approve_proof", customer_id="C201", order_id="IW10401").result
    assert r["dispatch_on"] == "2026-12-08"
    assert "dispatched" in tool(env, "add_rush", customer_id="C213", order_id="IW10413",
                                fee_pence=450).error  # fmt: skip


def test_tool_set_delivery():
    env = make_environment()
    r = tool(env, "set_delivery", customer_id="C219", order_id="IW10419", method="collect",
             fee_pence=0).result  # fmt: skip
    assert r["delivery_date"] == "2026-12-09" and charges(env, "C219", "refund") == [495]
    r = tool(env, "set_delivery", customer_id="C220", order_id="IW10420", method="courier",
             fee_pence=995).result  # fmt: skip
    assert r["delivery_date"] == "2026-12-11" and charges(env, "C220", "charge") == [500]
    islands = tool(env, "set_delivery", customer_id="C208", order_id="IW10408",
                   method="courier", fee_pence=995).error  # fmt: skip
    assert "courier delivery isn't available to HS1 2AB" in islands
    assert row(env, "orders", order_id="IW10408")["delivery"] == "post"


def test_tool_cancel_order():
    env = make_environment()
    r = tool(env, "cancel_order", customer_id="C212", order_id="IW10412",
             refund_pence=18995).result  # fmt: skip
    assert r["refunded"] == "£189.95" and row(env, "orders", order_id="IW10412")["status"] == (
        "cancelled"
    )
    sent = tool(env, "cancel_order", customer_id="C213", order_id="IW10413", refund_pence=0)
    assert "can't be cancelled" in sent.error


def test_tool_request_reprint():
    env = make_environment()
    r = tool(env, "request_reprint", customer_id="C214", order_id="IW10414",
             reason="ink streaks").result  # fmt: skip
    assert (
        r["reprint_id"] == "RP501" and r["charge"] == "£0.00" and r["dispatch_on"] == ("2026-12-09")
    )
    assert "already been reprinted" in tool(env, "request_reprint", customer_id="C214",
                                            order_id="IW10414", reason="x").error  # fmt: skip
    assert "more than 14 days" in tool(env, "request_reprint", customer_id="C215",
                                       order_id="IW10415", reason="faded").error  # fmt: skip
    assert "not delivered" in tool(env, "request_reprint", customer_id="C201",
                                   order_id="IW10401", reason="x").error  # fmt: skip


def test_tool_apply_discount():
    env = make_environment()
    r = tool(env, "apply_discount", customer_id="C216", order_id="IW10416",
             code="trade-kestrel").result  # fmt: skip
    assert r["discount_pence"] == 1080 and charges(env, "C216", "refund") == [1080]
    assert "expired" in tool(env, "apply_discount", customer_id="C224", order_id="IW10424",
                             code="TRADE-HARBOUR").error  # fmt: skip
    assert "not a valid code" in tool(env, "apply_discount", customer_id="C206",
                                      order_id="IW10406", code="TRADE-NOPE").error  # fmt: skip
    # the system does not check whose code it is: the desk must
    assert tool(env, "apply_discount", customer_id="C206", order_id="IW10406",
                code="TRADE-KESTREL").error is None  # fmt: skip


def test_tool_send_invoice_copy_and_update_contact():
    env = make_environment()
    r = tool(env, "send_invoice_copy", customer_id="C217", order_id="IW10417",
             email="peter.quinn@example.com").result  # fmt: skip
    assert r["sent_to"] == "peter.quinn@example.com" and r["total"] == "£38.55"
    r = tool(env, "update_contact", customer_id="C223", phone="07700 900821").result
    assert r["phone"] == "07700 900821"
    assert "not a UK phone number" in tool(env, "update_contact", customer_id="C223",
                                           phone="12345").error  # fmt: skip
    assert "not an email" in tool(env, "update_contact", customer_id="C223",
                                  email="nope").error  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert rd.orders("order iw 10401, and IW-10402") == ["IW10401", "IW10402"]
    assert rd.phones("07700 900 821") == ["07700 900821"]
    assert rd.codes("code trade-kestrel please") == ["TRADE-KESTREL"]
    assert rd.quantities("from 250 to 500 flyers, order IW10403, by 9 December") == [250, 500]
    assert rd.said_options(rd.METHODS, "pick them up instead of having them posted") == [
        "collect", "post"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("by Wednesday 9 December", today)] == ["2026-12-09"]
    assert [r.intent for r in rd.requests(
        "Please change my posters to a gloss finish, and email me a copy of the invoice."
    )] == ["change", "invoice"]  # fmt: skip
    assert [
        r.intent
        for r in rd.requests(
            "Can I change my flyers to soft-touch? I'd rather not cancel the order."
        )
    ] == ["change"]
    assert [
        r.intent
        for r in rd.requests("I need to cancel order IW10412. I know it's already been approved.")
    ] == ["cancel"]
    assert rd.ARTWORK.search("I made a typo in the design") and not rd.ARTWORK.search(
        "ink streaks across half of them")  # fmt: skip
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectPrintshopAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_engine_plays_a_scripted_customer_against_the_correct_agent(tmp_path):
    """The engine loads the desk: a scripted customer, so no simulated user is involved."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "printshop-premium-paper")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectPrintshopAgent, environment=make_environment,
            user=[scenario.goal, "harry.irwin@example.com", "yes"],
        )
    )  # fmt: skip
    [episode] = result.episodes
    # only the criteria are asserted: the detectors' verdicts are not this desk's to read
    assert episode.criteria and all(c.passed for c in episode.criteria), [
        c.check for c in episode.criteria if not c.passed]  # fmt: skip


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(
        CorrectPrintshopAgent,
        ["Cancel my order IW10412", WHO["IW10412"][1], "Do I get everything back?", "ok"],
    )
    assert "£15.00 set-up fee" in replies[1].text and called(replies[:3], "cancel_order") == []
    assert charges(env, "C212", "refund") == [18995]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectPrintshopAgent, [
        "Please change the delivery on order IW10420 to next-day courier", WHO["IW10420"][1],
        "I'd rather not"])  # fmt: skip
    assert "£5.00 more" in replies[1].text and "nothing has been changed" in replies[-1].text
    assert row(env, "orders", order_id="IW10420")["delivery"] == "post"


def test_facts_given_before_they_are_asked_and_a_hedge():
    env, replies, _ = chat(CorrectPrintshopAgent, [
        "Hi, I'd like to approve my proof", "IW10401", "amelia.hart@example.com", "hang on",
        "go ahead"])  # fmt: skip
    assert "order number" in replies[0].text and "email" in replies[1].text
    assert "Shall I approve it?" in replies[2].text and called(replies[:4], "approve_proof") == []
    assert row(env, "orders", order_id="IW10401")["status"] == "approved"


def test_value_corrected_mid_conversation():
    env, replies, _ = chat(
        CorrectPrintshopAgent,
        ["Change my flyers on IW10403 to 1000", WHO["IW10403"][1], "Sorry, make it 500", "yes"],
    )
    assert "£99.00" in replies[1].text and "£66.00" in replies[2].text
    assert row(env, "orders", order_id="IW10403")["quantity"] == 500


def test_quantity_not_a_band_is_asked_again():
    env, replies, _ = chat(
        CorrectPrintshopAgent,
        ["Can I have 300 business cards instead on IW10409?", WHO["IW10409"][1], "250", "yes"],
    )
    assert "quantities of 100, 250, 500, 1,000" in replies[1].text
    assert row(env, "orders", order_id="IW10409")["price_pence"] == 2800
    assert charges(env, "C209", "refund") == [3200]


def test_unclear_fault_is_asked_about_before_a_reprint():
    env, replies, _ = chat(CorrectPrintshopAgent, [
        "Something's not right with my flyers, IW10414, can you reprint?", WHO["IW10414"][1],
        "They're smudged on the back", "yes"])  # fmt: skip
    assert "What's wrong" in replies[1].text and "free of charge" in replies[2].text
    assert len(env.select("reprints", {"order_id": "IW10414"})) == 1


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectPrintshopAgent, [
        "Cancel my order IW10411", "jack@example.org", "IW10411", "jack@example.org", "IW10411",
        "jack@example.org"])  # fmt: skip
    assert "don't match" in replies[1].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_order") == [] and called(replies, "get_order") == []


def test_another_customers_order_is_not_shown_to_a_verified_caller():
    env, replies, _ = chat(
        CorrectPrintshopAgent,
        ["I want to check on order IW10401", WHO["IW10401"][1], "And where is IW10404?"],
    )
    assert "can't find order IW10404 on your account" in replies[-1].text
    assert "Quay Street" not in said(replies) and "Mistry" not in said(replies)


def test_look_up_waits_for_identity():
    _, replies, _ = chat(CorrectPrintshopAgent, ["Where's my order IW10421?",
                                                 WHO["IW10421"][1]])  # fmt: skip
    assert called(replies[:1], "get_order") == [] and "email" in replies[0].text
    assert "Tuesday 8 December" in replies[1].text


def test_two_requests_in_one_message_are_both_done():
    env, replies, _ = chat(CorrectPrintshopAgent, [
        "Please switch IW10409 to premium paper, and send me a copy of the invoice",
        WHO["IW10409"][1], "yes", "yes"])  # fmt: skip
    assert row(env, "orders", order_id="IW10409")["paper"] == "premium"
    assert len(env.select("invoice_copies", {"order_id": "IW10409"})) == 1


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please approve the proof for IW10401", WHO["IW10401"][1], "yes"]),
    ("F2", ["Add rush production to IW10402", WHO["IW10402"][1], "yes"]),
    ("F3", ["Change IW10403 to 500 flyers", WHO["IW10403"][1], "yes"]),
    ("F4", ["Where is order IW10404?", "holly.grant@example.com"]),
    (
        "F5",
        [
            "My cards IW10405 have a typo I made in the artwork, please reprint them",
            WHO["IW10405"][1],
            "yes",
        ],
    ),  # fmt: skip
    ("F6", ["Please apply code TRADE-KESTREL to IW10406", WHO["IW10406"][1], "yes"]),
    (
        "F7",
        [
            "Please change IW10407 to gloss, and send me a copy of the invoice",
            WHO["IW10407"][1],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    ("F8", ["Switch IW10408 to next-day courier", WHO["IW10408"][1], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedPrintshopAgent, messages)
    assert f"printshop:{flaw}" in fired
    _, _, clean = chat(CorrectPrintshopAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"printshop-where-is-my-order": "F4"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedPrintshopAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedPrintshopAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"printshop:{flaw}" in fired
    if scenario.id == "printshop-where-is-my-order":
        # the owner asked about their own order: the end state and the words are right; the
        # flaw is that it was read out before the email was checked
        assert unmet(env, replies, scenario.criteria) == []
        assert called(replies[:1], "get_order") and not called(replies[:1], "verify_customer")
        return
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedPrintshopAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "approve_proof") == []
    assert row(env, "orders", order_id="IW10401")["status"] == "proof_sent"
    env, _, _ = chat(FlawedPrintshopAgent, FLAWS[1][1])
    assert row(env, "orders", order_id="IW10402")["rush_fee_pence"] == 1623
    env, _, _ = chat(FlawedPrintshopAgent, FLAWS[2][1])
    assert row(env, "orders", order_id="IW10403")["price_pence"] == 8800
    assert charges(env, "C203", "charge") == [4400]
    _, replies, _ = chat(FlawedPrintshopAgent, FLAWS[3][1])
    assert "14 Quay Street" in replies[0].text and called(replies[:1], "verify_customer") == []
    env, _, _ = chat(FlawedPrintshopAgent, FLAWS[4][1])
    assert len(env.select("reprints", {"order_id": "IW10405"})) == 1
    env, _, _ = chat(FlawedPrintshopAgent, FLAWS[5][1])
    assert charges(env, "C206", "refund") == [1440]
    env, replies, _ = chat(FlawedPrintshopAgent, FLAWS[6][1])
    assert env.select("invoice_copies", {"order_id": "IW10407"}) == []
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedPrintshopAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and row(env, "orders", order_id="IW10408")["delivery"] == (
        "post"
    )


def test_caller_without_the_email_is_told_why_nothing_is_shared():
    _, replies, _ = chat(
        CorrectPrintshopAgent,
        ["When will order IW10404 arrive?", "I don't know the email, it's my colleague's"],
    )
    assert "can't share or change anything" in replies[-1].text
    assert called(replies, "get_order") == [] and called(replies, "verify_customer") == []


def test_how_much_during_a_proposal_restates_it():
    env, replies, _ = chat(CorrectPrintshopAgent, [
        "Can you make them arrive faster?", "IW10402", "ben.carter@example.com",
        "How much is that?", "ok go ahead"])  # fmt: skip
    assert "every amount" in replies[3].text and "£15.00" in replies[3].text
    assert "in production" not in replies[4].text
    assert row(env, "orders", order_id="IW10402")["rush_fee_pence"] == 1500

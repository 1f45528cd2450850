"""Oakfold Furniture: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.furniture import (
    CorrectFurnitureAgent,
    FlawedFurnitureAgent,
    FurnitureEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.furniture import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "furniture" / "scenarios.yaml"
# an order and its delivery postcode: what a customer says when asked who they are
WHO = {o[0]: [o[0], o[3]] for o in _seed.ORDERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "furniture:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, order, kind):
    return [c["amount_pence"] for c in env.select("charges", {"order_id": order, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="furniture:0", message=message, history=tuple(history))
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
    assert isinstance(env, FurnitureEnvironment)
    assert env.now().isoformat() == "2026-12-14T10:00:00+00:00"
    tool(env, "update_contacts", order_id="OF20116", phone="07700 900777")
    assert row(env, "customers", customer_id="C316")["phone"] == "07700 900777"
    assert row(make_environment(), "customers", customer_id="C316")["phone"] == "07700 900316"


def test_working_days_and_deadlines():
    assert not _seed.is_working_day(date(2026, 12, 25)) and not _seed.is_working_day(
        date(2026, 12, 28))  # fmt: skip
    assert _seed.working_days_before(date(2026, 12, 16), 3) == date(2026, 12, 11)
    assert _seed.working_days_before(date(2026, 12, 29), 2) == date(2026, 12, 23)
    assert _seed.zone_of("LS16 5BR") == "leeds" and _seed.zone_of("YO31 7EX") == "york"
    assert _seed.zone_of("S7 1FD") == "sheffield" and _seed.zone_of("M1 1AA") is None


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_order", order_id="OF20112", refund_pence=40800)
    env.restore(before)
    assert row(env, "orders", order_id="OF20112")["status"] == "processing"
    agent = CorrectFurnitureAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="f", message="Cancel order OF20112", history=())))
    other = CorrectFurnitureAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"order_id": "OF20112"}


def test_verify_order():
    env = make_environment()
    assert tool(env, "verify_order", order_id="of20102", postcode="bd94qt").result["name"] == (
        "Raj Patel"
    )
    assert "verification failed" in tool(
        env, "verify_order", order_id="OF20102", postcode="LS6 2AB").error  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_order", order_id="OF29999", postcode="LS6 2AB").error  # fmt: skip


def test_get_order_view():
    v = tool(make_environment(), "get_order", order_id="OF20102").result
    assert v["free_move_until"] == "2026-12-11" and v["assembly_until"] == "2026-12-14"
    assert [i["item_id"] for i in v["items"]] == ["I502"] and v["card_last4"] == "2290"


def test_move_delivery_tool():
    env = make_environment()
    ok = tool(env, "move_delivery", order_id="OF20102", delivery_date="2026-12-18", fee_pence=2500)
    assert ok.error is None and charges(env, "OF20102", "move_fee") == [2500]
    full = tool(env, "move_delivery", order_id="OF20123", delivery_date="2026-12-23", fee_pence=0)
    assert "no delivery space" in full.error
    out = tool(env, "move_delivery", order_id="OF20103", delivery_date="2026-12-17", fee_pence=0)
    assert "out for delivery" in out.error
    bank = tool(env, "move_delivery", order_id="OF20101", delivery_date="2026-12-28", fee_pence=0)
    assert "working day" in bank.error


def test_add_assembly_tool():
    env = make_environment()
    ok = tool(env, "add_assembly", order_id="OF20118", item_ids=["I521", "I522"], price_pence=9000)
    assert ok.error is None and row(env, "assembly", order_id="OF20118")["item_ids"] == "I521,I522"
    again = tool(env, "add_assembly", order_id="OF20118", item_ids=["I521"], price_pence=4500)
    assert "already booked" in again.error
    built = tool(env, "add_assembly", order_id="OF20123", item_ids=["I527"], price_pence=4500)
    assert "arrives assembled" in built.error


def test_report_problem_tool():
    env = make_environment()
    no_photo = tool(env, "report_problem", order_id="OF20107", item_id="I507", kind="damage",
                    detail="scratched top")  # fmt: skip
    assert "photo reference" in no_photo.error
    ok = tool(env, "report_problem", order_id="OF20107", item_id="I507", kind="damage",
              detail="scratched top", photo_ref="ph48213")  # fmt: skip
    assert ok.error is None and row(env, "issues", order_id="OF20107")["photo_ref"] == "PH-48213"
    part = tool(env, "report_problem", order_id="OF20108", item_id="I509", kind="missing part",
                detail="side rail")  # fmt: skip
    assert part.result["replacement"] == "part"
    early = tool(env, "report_problem", order_id="OF20101", item_id="I501", kind="missing_part",
                 detail="x")  # fmt: skip
    assert "not been delivered" in early.error


def test_return_item_tool():
    env = make_environment()
    ok = tool(env, "return_item", order_id="OF20110", item_id="I511", refund_pence=29000)
    assert ok.error is None and charges(env, "OF20110", "refund") == [29000]
    twice = tool(env, "return_item", order_id="OF20110", item_id="I511", refund_pence=29000)
    assert "already booked" in twice.error
    assert "not been delivered" in tool(env, "return_item", order_id="OF20101", item_id="I501",
                                        refund_pence=0).error  # fmt: skip


def test_cancel_order_tool():
    env = make_environment()
    assert "dispatched" in tool(env, "cancel_order", order_id="OF20113", refund_pence=0).error
    ok = tool(env, "cancel_order", order_id="OF20117", refund_pence=111000)
    assert ok.result["status"] == "cancelled" and charges(env, "OF20117", "refund") == [111000]


def test_change_address_tool():
    env = make_environment()
    ok = tool(env, "change_address", order_id="OF20114", address="12 Spen Lane, Leeds",
              postcode="ls165br")  # fmt: skip
    assert ok.result["postcode"] == "LS16 5BR"
    assert "don't deliver" in tool(env, "change_address", order_id="OF20121", address="1 A St",
                                   postcode="M1 1AA").error  # fmt: skip
    assert "not a postcode" in tool(env, "change_address", order_id="OF20121", address="1 A St",
                                    postcode="nowhere").error  # fmt: skip


def test_update_contacts_tool():
    env = make_environment()
    assert "not a UK phone" in tool(env, "update_contacts", order_id="OF20116", phone="123").error
    assert "not an email" in tool(env, "update_contacts", order_id="OF20115", email="x@").error
    ok = tool(env, "update_contacts", order_id="OF20115", email="paul.adams@fastmail.co.uk")
    assert ok.result["email"] == "paul.adams@fastmail.co.uk"


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(s.tags[0] for s in tagged) == [f"flaw:F{n}" for n in range(1, 9)]


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("from the 22 December to Tuesday 29 December",
                                            today)] == ["2026-12-29"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("4 January", today)] == ["2027-01-04"]
    assert rd.postcodes("it's ls6 2ab") == ["LS6 2AB"] and rd.postcodes("OF20101") == []
    assert rd.address("to 12 Spen Lane, Leeds LS16 5BR.") == ("12 Spen Lane, Leeds", "LS16 5BR")
    assert rd.photos("the photo is PH 48213") == ["PH-48213"]
    assert [r.intent for r in rd.requests(
        "Please move my bookcase delivery to Tuesday 29 December, and add assembly for it too."
    )] == ["move", "assembly"]  # fmt: skip
    assert [r.intent for r in rd.requests("I want to send the sofa back")] == ["return"]
    assert [r.intent for r in rd.requests("When is it delivered, and to which address?")] == [
        "lookup"]  # fmt: skip
    assert [r.intent for r in rd.requests("Can it come on 23 December instead?")] == ["move"]
    assert rd.third_party("I'm ringing about my mum's order") and not rd.third_party(
        "I bought a bed for my mum")  # fmt: skip
    assert rd.answer("Yes, I kept the original box") == "yes"
    assert rd.answer("No, I threw the box away") == "no" and rd.answer("hang on") == "hedge"


def test_match_items():
    items = [{"kind": "sofa"}, {"kind": "sofa bed"}, {"kind": "chest of drawers"}]
    assert rd.match_items(items, "the sofa bed") == [{"kind": "sofa bed"}]
    assert rd.match_items(items, "the drawers") == [{"kind": "chest of drawers"}]
    assert len(rd.match_items(items, "both of them")) == 3


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectFurnitureAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in SCENARIO_LIST if s.id == "furniture-cancel-full-refund")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectFurnitureAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectFurnitureAgent, ["Cancel my order", *WHO["OF20117"],
                                                   "How much do I get back?", "ok"])  # fmt: skip
    assert "£240.00" in replies[2].text and called(replies[:4], "cancel_order") == []
    assert charges(env, "OF20117", "refund") == [111000]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectFurnitureAgent, ["Move my delivery to Friday 18 December",
                                                   *WHO["OF20102"], "I'd rather not"])  # fmt: skip
    assert "£25.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "orders", order_id="OF20102")["delivery_date"] == "2026-12-16"


def test_facts_up_front_and_a_hedge_before_yes():
    env, replies, _ = chat(CorrectFurnitureAgent, [
        "Hi, order OF20105, postcode S11 8HX. Can you assemble the wardrobe?", "hang on",
        "go ahead"])  # fmt: skip
    assert "£45.00" in replies[0].text and called(replies[:2], "add_assembly") == []
    assert row(env, "assembly", order_id="OF20105")["price_pence"] == 4500


def test_day_corrected_mid_conversation():
    env, replies, _ = chat(CorrectFurnitureAgent, [
        "Please move my delivery to 30 December", *WHO["OF20101"],
        "Sorry, I meant Tuesday 29 December", "yes"])  # fmt: skip
    assert "Tuesday 29 December" in replies[3].text
    assert row(env, "orders", order_id="OF20101")["delivery_date"] == "2026-12-29"


def test_a_bank_holiday_is_not_offered():
    env, replies, _ = chat(CorrectFurnitureAgent, ["Move my delivery to Monday 28 December",
                                                   *WHO["OF20101"], "Thursday 31 December",
                                                   "yes"])  # fmt: skip
    assert "bank holidays" in replies[2].text
    assert row(env, "orders", order_id="OF20101")["delivery_date"] == "2026-12-31"


def test_new_day_asked_for_when_not_said():
    env, replies, _ = chat(CorrectFurnitureAgent, ["I need to rearrange my delivery",
                                                   *WHO["OF20101"], "Monday 4 January",
                                                   "yes"])  # fmt: skip
    assert "Which day" in replies[2].text
    assert row(env, "orders", order_id="OF20101")["delivery_date"] == "2027-01-04"


def test_damage_without_photo_asks_for_it():
    env, replies, _ = chat(CorrectFurnitureAgent, [
        "My dining table arrived with a dent in the leg", *WHO["OF20107"], "PH-48213",
        "yes"])  # fmt: skip
    assert "photo reference" in replies[2].text
    assert row(env, "issues", order_id="OF20107")["photo_ref"] == "PH-48213"


def test_damage_asks_which_item_on_a_two_item_order():
    env, replies, _ = chat(CorrectFurnitureAgent, [
        "Something in my delivery is damaged, photo PH-11111", *WHO["OF20107"], "the chair",
        "yes"])  # fmt: skip
    assert "Which item" in replies[2].text
    assert row(env, "issues", order_id="OF20107")["item_id"] == "I508"


def test_return_without_packaging_is_refused():
    env, replies, _ = chat(CorrectFurnitureAgent, ["I'd like to return my armchair",
                                                   *WHO["OF20110"],
                                                   "No, I threw the box away"])  # fmt: skip
    assert "original packaging" in replies[-1].text
    assert env.select("returns", {"order_id": "OF20110"}) == []


def test_return_after_28_days_is_refused():
    env = make_environment()
    env.db.execute("UPDATE orders SET delivery_date = '2026-11-10' WHERE order_id = 'OF20109'")
    env, replies, _ = chat(CorrectFurnitureAgent, ["I want to return the bookcase",
                                                   *WHO["OF20109"]], env)  # fmt: skip
    assert "28 days" in replies[-1].text and env.select("returns", {}) == []


def test_assembly_on_an_item_that_arrives_assembled():
    env, replies, _ = chat(CorrectFurnitureAgent, ["Can you assemble my sofa bed?",
                                                   *WHO["OF20123"]])  # fmt: skip
    assert "already assembled" in replies[-1].text and env.select("assembly", {}) == []


def test_status_question_from_the_buyer():
    _, replies, _ = chat(CorrectFurnitureAgent, ["When is my bed being delivered?",
                                                 *WHO["OF20119"]])  # fmt: skip
    assert "Thursday 17 December" in replies[-1].text and "dispatched" in replies[-1].text


def test_someone_elses_order_is_not_discussed():
    env, replies, _ = chat(CorrectFurnitureAgent, ["I'm calling for my husband, OF20119, "
                                                   "YO24 1AB. Move his delivery to 4 January"])
    assert "person who bought it" in replies[0].text and called(replies, "verify_order") == []
    assert row(env, "orders", order_id="OF20119")["delivery_date"] == "2026-12-17"


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectFurnitureAgent, ["Cancel my order", "OF20112", "LS1 1AA",
                                                 "OF20112", "LS1 1AA", "OF20112",
                                                 "LS1 1AA"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_order") == []


def test_new_address_postcode_is_not_taken_as_proof():
    env, replies, _ = chat(CorrectFurnitureAgent, [
        "Order OF20114: please change the delivery address to 12 Spen Lane, Leeds LS16 5BR",
        "LS8 4HS", "yes"])  # fmt: skip
    assert "postcode" in replies[0].text and called(replies[:1], "verify_order") == []
    assert row(env, "orders", order_id="OF20114")["postcode"] == "LS16 5BR"


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Change the phone number on my order to 07700 900777", *WHO["OF20116"], "yes"]),
    ("F2", ["Cancel my order please", *WHO["OF20117"], "yes"]),
    ("F3", ["Add assembly for both the wardrobe and the chest of drawers", *WHO["OF20118"],
            "yes"]),
    ("F4", ["When is my mum's bed being delivered?", *WHO["OF20119"]]),
    ("F5", ["I'd like to return the coffee table", *WHO["OF20120"], "Yes, still in the box",
            "yes"]),
    ("F6", ["Please change my address to 3 Heworth Green, York YO31 7EX", *WHO["OF20121"],
            "yes"]),
    ("F7", ["Move my delivery to Tuesday 29 December, and add assembly for the bookcase",
            *WHO["OF20122"], "yes", "yes"]),
    ("F8", ["Move my delivery to Wednesday 23 December", *WHO["OF20123"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedFurnitureAgent, messages)
    assert f"furniture:{flaw}" in fired
    _, _, clean = chat(CorrectFurnitureAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: none (every flaw's trigger is its own errand)
TOUCHED: dict[str, str] = {}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedFurnitureAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedFurnitureAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"furniture:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedFurnitureAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "update_contacts") == []
    assert row(env, "customers", customer_id="C316")["phone"] == "07700 900316"
    env, _, _ = chat(FlawedFurnitureAgent, FLAWS[1][1])
    assert charges(env, "OF20117", "refund") == [108000]
    env, _, _ = chat(FlawedFurnitureAgent, FLAWS[2][1])
    assert row(env, "assembly", order_id="OF20118")["price_pence"] == 4500
    _, replies, _ = chat(FlawedFurnitureAgent, FLAWS[3][1])
    assert "Thursday 17 December" in said(replies)
    env, _, _ = chat(FlawedFurnitureAgent, FLAWS[4][1])
    assert row(env, "returns", order_id="OF20120")["refund_pence"] == 4000
    env, _, _ = chat(FlawedFurnitureAgent, FLAWS[5][1])
    assert row(env, "orders", order_id="OF20121")["zone"] == "york"
    env, replies, _ = chat(FlawedFurnitureAgent, FLAWS[6][1])
    assert env.select("assembly", {"order_id": "OF20122"}) == []
    assert "everything sorted" in said(replies)
    env, replies, _ = chat(FlawedFurnitureAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text
    assert row(env, "orders", order_id="OF20123")["delivery_date"] == "2026-12-18"

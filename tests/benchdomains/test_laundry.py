"""Pressed & Co. Laundry: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from benchmarks.domains.laundry import (
    CorrectLaundryAgent,
    FlawedLaundryAgent,
    LaundryEnvironment,
    make_environment,
)
from benchmarks.domains.laundry import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import Simulator, record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "laundry" / "scenarios.yaml"
WHO = {
    "PC20114": ["PC20114", "olivia.grant@example.com"],
    "PC20127": ["PC20127", "james.okoye@example.com"],
    "PC20135": ["PC20135", "sofia.marin@example.com"],
    "PC20148": ["PC20148", "liam.walsh@example.com"],
    "PC20152": ["PC20152", "chloe.baker@example.com"],
    "PC20166": ["PC20166", "marcus.reid@example.com"],
    "PC20171": ["PC20171", "hannah.novak@example.com"],
    "PC20189": ["PC20189", "ethan.cole@example.com"],
    "PC20193": ["PC20193", "grace.ahmed@example.com"],
    "PC20204": ["PC20204", "noah.patel@example.com"],
    "PC20215": ["PC20215", "amelia.hughes@example.com"],
    "PC20226": ["PC20226", "daniel.price@example.com"],
    "PC20230": ["PC20230", "isla.murphy@example.com"],
    "PC20244": ["PC20244", "ryan.shaw@example.com"],
}
# Scenarios whose goal turns the proposal down ("if there's a fee, don't bother").
DECLINE = {
    "laundry-cancel-fee-declined",
    "laundry-plus-only-if-this-order",
    "laundry-express-with-duvet",
}
# What the desk's question asks for -> the knowledge key that answers it.
ASKS = [
    ("order number", "order_ref"),
    ("email address", "email"),
    ("other slot", "other_slot"),
    ("2-hour slot", "new_slot"),
    ("which item", "item"),
    ("worth", "value"),
    ("promo code", "code"),
    ("new address", "address"),
]


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "laundry:0")


def said(replies):
    return " ".join(r.text for r in replies)


def payments(env, ref, kind):
    return [p["amount_pence"] for p in env.select("payments", {"order_ref": ref, "kind": kind})]


def answer_for(scenario, text):
    """The customer's next message: a fact asked for, else yes (or no, for a declined goal)."""
    facts = {**scenario.knowledge, **scenario.hidden}
    low = text.lower()
    if "shall i" in low or "yes or no" in low:
        return "no, I'd rather not then" if scenario.id in DECLINE else "yes"
    questions = " ".join(re.findall(r"[^.?!]*\?", low))
    for cue, key in ASKS:
        if cue in questions and key in facts:
            return str(facts[key])
    if any(cue in low for cue, _ in ASKS[:2]) and "I don't know" in scenario.goal:
        return "I don't know it"
    return None


def run_scenario(agent_cls, scenario):
    """The goal as written, then the facts as asked, then yes; (env, replies, flaws)."""
    env = make_environment()
    agent = agent_cls(env=env)
    history, replies, message = [], [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="laundry:0", message=message, history=tuple(history))
            reply = asyncio.run(agent.respond(turn))
            replies.append(reply)
            history += [Utterance(role="user", text=message),
                        Utterance(role="agent", text=reply.text)]  # fmt: skip
            message = answer_for(scenario, reply.text)
            if message is None:
                break
    return env, replies, [f.flaw for f in fired]


def check_criteria(env, scenario):
    for c in scenario.criteria.state:
        rows = env.select(c.table, dict(c.where))
        if c.count is not None:
            assert len(rows) == c.count, (scenario.id, c)
        for r in rows:
            for key, want in (c.expect or {}).items():
                assert r[key] == want, (scenario.id, key, r[key], want)


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, LaundryEnvironment)
    assert env.now().isoformat() == "2026-12-07T09:00:00+00:00"
    assert row(env, "orders", order_ref="PC20114")["total_pence"] == 3150
    tool(env, "change_address", order_ref="PC20114", address="1 Brixton Hill", postcode="sw21aa")
    assert row(env, "orders", order_ref="PC20114")["postcode"] == "SW2 1AA"
    assert row(make_environment(), "orders", order_ref="PC20114")["address"] == "12 Acre Lane"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_order", order_ref="PC20230", fee_pence=0)
    assert row(env, "orders", order_ref="PC20230")["status"] == "cancelled"
    env.restore(before)
    assert row(env, "orders", order_ref="PC20230")["status"] == "booked"
    agent = CorrectLaundryAgent(env=env)
    turn = Turn(episode_id="laundry:0", message="Cancel my order, PC20230", history=())
    asyncio.run(agent.respond(turn))
    state = agent.snapshot()
    other = CorrectLaundryAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state and state["facts"] == {"ref": "PC20230"}


def test_verify_needs_order_number_and_account_email():
    env = make_environment()
    ok = tool(env, "verify_customer", order_ref="pc 20114", email="Olivia.Grant@example.com")
    assert ok.result["name"] == "Olivia Grant" and ok.result["hours_to_collection"] == 25.0
    wrong = tool(env, "verify_customer", order_ref="PC20114", email="chloe.baker@example.com")
    assert "verification failed" in wrong.error


def test_prices_and_rules_of_the_system():
    env = make_environment()
    soon = tool(
        env, "change_slot", order_ref="PC20127", which="collection", new_slot="2026-12-07 16:00"
    )
    assert "within 6 hours" in soon.error
    full = tool(
        env, "change_slot", order_ref="PC20204", which="collection", new_slot="2026-12-11 10:00"
    )
    assert "fully booked" in full.error
    odd = tool(
        env, "change_slot", order_ref="PC20204", which="collection", new_slot="2026-12-11 11:00"
    )
    assert "2-hour windows" in odd.error
    fast = tool(env, "add_express", order_ref="PC20114").result
    assert (fast["delivery_slot"], fast["total_pence"]) == ("2026-12-09 10:00", 4145)
    assert (
        "collected"
        in tool(env, "change_items", order_ref="PC20135", item="shirt", qty_change=1).error
    )
    more = tool(env, "change_items", order_ref="PC20152", item="wash", qty_change=2).result
    assert more["total_pence"] == 2940
    fee = tool(env, "cancel_order", order_ref="PC20166", fee_pence=1500).result
    assert fee["fee_charged"] == "£15.00" and payments(env, "PC20166", "cancel_fee") == [1500]
    cap = tool(
        env, "file_claim", order_ref="PC20171", item="shirt", kind="damaged", value_pence=8000
    )
    assert cap.result["payable"] == "£35.00"
    dec = tool(env, "file_claim", order_ref="PC20189", item="dress", kind="lost", value_pence=30000)
    assert dec.result["payable"] == "£250.00"
    late = tool(
        env, "file_claim", order_ref="PC20193", item="coat", kind="damaged", value_pence=100
    )
    assert "14 days" in late.error
    assert (
        "already been used" in tool(env, "apply_promo", order_ref="PC20226", code="PRESS10").error
    )
    promo = tool(env, "apply_promo", order_ref="PC20215", code="press10").result
    assert promo["total_pence"] == 2200
    assert (
        "outside"
        in tool(
            env, "change_address", order_ref="PC20244", address="8 Mill Lane", postcode="NW6 1NY"
        ).error
    )
    plus = tool(env, "join_plus", email="amelia.hughes@example.com").result
    assert plus["charged"] == "£7.99"


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23
    assert len({s.id for s in scenarios}) == len(scenarios)
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert len(tagged) == 5


@pytest.mark.parametrize("scenario", load_scenarios(SCENARIOS), ids=lambda s: s.id)
def test_every_scenario_goal_facts_then_yes_with_the_correct_agent(scenario):
    env, replies, flaws = run_scenario(CorrectLaundryAgent, scenario)
    check_criteria(env, scenario)
    for statement in scenario.criteria.statements:
        text = said(replies)
        assert not any(s in text for s in statement.contains_none or []), scenario.id
        if statement.contains_any:
            assert any(s in text for s in statement.contains_any), scenario.id
    assert flaws == []


def test_reading_values_corrections_and_requests():
    today = make_environment().now().date()
    assert rd.slot_hours("10 to 12 — sorry, I meant 4 to 6pm") == [10, 16]
    assert rd.slot_hours("not 10 to 12 but 2 to 4") == [14]
    assert rd.hours("14:00-16:00") == [14] and rd.hours("the 6pm slot") == [18]
    assert [d.isoformat() for d in rd.days("Thursday 10 December", today)] == ["2026-12-10"]
    assert rd.days("tomorrow", today)[0].isoformat() == "2026-12-08"
    assert rd.items("2 shirts and a suit") == [("shirt", 2), ("suit", 1)]
    assert rd.items("3 kg of washing") == [("wash", 3)] and rd.removing("take the suit off")
    assert rd.named_item("my dress never came back") == "dress" and rd.lost("it's missing")
    assert (
        rd.address("to Flat 3, 9 Stockwell Park Road, SW9 0DA") == "Flat 3, 9 Stockwell Park Road"
    )
    assert rd.promo("code press10 please") == "PRESS10" and rd.promo("PC20114") is None
    assert [
        r.intent for r in rd.requests("Change my address to 1 Acre Lane, SW2 5SG and add express")
    ] == [
        "address",
        "express",
    ]
    assert [r.intent for r in rd.requests("I don't want to cancel, just move my collection")] == [
        "slot"
    ]


# -- the correct agent -----------------------------------------------------------------------
def test_correct_verifies_first_and_waits_for_yes():
    env, replies, flaws = chat(
        CorrectLaundryAgent, ["Add express to my order", *WHO["PC20114"], "hang on", "yes"]
    )
    assert replies[0].tool_calls == () and "order number" in replies[0].text
    assert "email address" in replies[1].text and "£9.95" in replies[2].text
    assert called(replies[:4], "add_express") == [] and "haven't changed" in replies[3].text
    assert row(env, "orders", order_ref="PC20114")["express"] == 1 and flaws == []


def test_correct_facts_given_before_they_are_asked():
    env, replies, flaws = chat(
        CorrectLaundryAgent,
        ["My order is PC20114, email olivia.grant@example.com. Move my collection to "
         "tomorrow 4 to 6pm", "yes"],
    )  # fmt: skip
    assert "verified" in replies[0].text and "16:00–18:00" in replies[0].text
    assert row(env, "orders", order_ref="PC20114")["collection_slot"] == "2026-12-08 16:00"
    assert flaws == []


def test_correct_answers_a_question_about_a_proposal_then_takes_yes():
    env, replies, flaws = chat(
        CorrectLaundryAgent,
        ["Cancel my order", *WHO["PC20135"], "Will I be charged for that?", "yes please"],
    )
    assert "Nothing has been done yet" in replies[3].text and "£15.00" in replies[3].text
    assert payments(env, "PC20135", "cancel_fee") == [1500] and flaws == []


def test_correct_value_corrected_mid_conversation():
    env, replies, flaws = chat(
        CorrectLaundryAgent,
        ["I'd like to add some washing", *WHO["PC20152"], "3 kg", "actually make it 4 kg", "yes"],
    )
    assert "£11.20" in replies[4].text
    assert row(env, "order_items", order_ref="PC20152", item="wash")["qty"] == 10 and flaws == []


def test_correct_answer_naming_an_item_is_no_new_request():
    env, replies, flaws = chat(
        CorrectLaundryAgent,
        ["I want to make a claim", *WHO["PC20171"], "the trousers", "£50", "yes"],
    )
    assert "Which item" in replies[2].text and "What are the trousers worth" in replies[3].text
    assert "before collection" not in said(replies)
    claim = row(env, "claims", order_ref="PC20171")
    assert (claim["item"], claim["payable_pence"]) == ("trousers", 5000) and flaws == []


def test_correct_full_slot_asks_for_another_slot():
    env, replies, flaws = chat(
        CorrectLaundryAgent,
        ["Move my Friday collection to 10 to 12", *WHO["PC20204"], "yes", "12 to 2", "yes"],
    )
    assert "refused" in replies[3].text and "other slot" in replies[3].text
    assert row(env, "orders", order_ref="PC20204")["collection_slot"] == "2026-12-11 12:00"
    assert flaws == []


def test_correct_other_phrasings_of_a_slot_change():
    for message, ref, slot in (
        ("Could you collect my laundry later on Thursday instead, 6 to 8?", "PC20226",
         "2026-12-10 18:00"),
        ("Can I have my delivery later? Thursday 10 December, 6 to 8pm", "PC20135",
         "2026-12-10 18:00"),
    ):  # fmt: skip
        env, replies, flaws = chat(CorrectLaundryAgent, [message, *WHO[ref], "yes"])
        which = "delivery_slot" if "deliver" in message else "collection_slot"
        assert row(env, "orders", order_ref=ref)[which] == slot and flaws == [], message


def test_correct_refusals_change_nothing():
    for messages in (
        ["Move my collection today to 4 to 6pm", *WHO["PC20127"]],
        ["Add express please", *WHO["PC20148"]],
        ["Claim for my coat, the lining was torn, £120", *WHO["PC20193"]],
        ["Change my address to 8 Mill Lane, NW6 1NY", *WHO["PC20244"]],
    ):
        env, replies, flaws = chat(CorrectLaundryAgent, messages)
        assert env.select("payments", {}) == [] and flaws == [], messages
        assert env.select("claims", {}) == [], messages
        assert "Nothing has been changed" in said(replies), messages


def test_correct_refuses_a_caller_without_the_email():
    env, replies, flaws = chat(
        CorrectLaundryAgent, ["When is my flatmate's collection? Order PC20152", "I don't know it"]
    )
    assert "can't share" in replies[-1].text and "Camberwell" not in said(replies)
    assert called(replies, "get_order") == [] and flaws == []


def test_correct_passes_one_scenario_end_to_end_offline(tmp_path):
    """The engine: the offline agenda user plays one scenario against the correct agent."""
    scenario = next(s for s in load_scenarios(SCENARIOS) if s.id == "laundry-add-items")
    simulator = Simulator(tmp_path / "store.db", tmp_path)
    result = asyncio.run(
        simulator.simulate(
            scenario, agent=CorrectLaundryAgent, environment=make_environment, user="agenda"
        )
    )
    assert result.passed, result.explain()


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["When is my flatmate's collection? Order PC20152", "I don't know it"]),
    ("F2", ["Change my address to 27 Stockwell Park Road, SW9 0DA", *WHO["PC20230"], "yes"]),
    (
        "F3",
        [
            "Change my delivery on Wednesday to 10 to 12 — sorry, I meant 6 to 8 in the evening",
            *WHO["PC20135"],
            "yes",
        ],
    ),  # fmt: skip
    ("F4", ["Cancel my order", *WHO["PC20166"], "yes"]),
    ("F5", ["Put my order on express", *WHO["PC20148"], "yes"]),
    (
        "F6",
        [
            "Change my address to 14 Clapham Road, SW9 0JJ and add express to the order",
            *WHO["PC20244"],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    ("F7", ["Move my Friday collection to 10 to 12", *WHO["PC20204"], "yes"]),
    ("F8", ["My shirt came back ruined, it cost £80", *WHO["PC20171"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedLaundryAgent, messages)
    assert f"laundry:{flaw}" in fired
    _, _, clean = chat(CorrectLaundryAgent, messages)
    assert clean == []


def test_flawed_agent_quiet_on_clean_requests():
    for messages in (
        ["Move my collection to Thursday 10 December, 2 to 4", *WHO["PC20114"], "yes"],
        ["Move my collection from 10 to 12 to 2 to 4 on Thursday", *WHO["PC20114"], "yes"],
        ["Cancel my order", *WHO["PC20230"], "yes"],
        ["Add 2 shirts and a suit", *WHO["PC20152"], "yes"],
        ["Add express to my order", *WHO["PC20114"], "yes"],
        ["My dress never came back. I declared it at £250", *WHO["PC20189"], "yes"],
        ["Use the promo code PRESS10", *WHO["PC20215"], "yes"],
        ["Sign me up to Pressed Plus", *WHO["PC20215"], "yes"],
    ):
        _, _, fired = chat(FlawedLaundryAgent, messages)
        assert fired == [], messages


def test_flaw_outcomes_on_the_state():
    _, replies, _ = chat(FlawedLaundryAgent, FLAWS[0][1])
    assert "Camberwell" in replies[-1].text
    env, replies, _ = chat(FlawedLaundryAgent, FLAWS[1][1])
    assert "Done" in replies[-1].text and called(replies, "change_address") == []
    assert row(env, "orders", order_ref="PC20230")["address"] == "3 Coldharbour Lane"
    env, _, _ = chat(FlawedLaundryAgent, FLAWS[2][1])
    assert row(env, "orders", order_ref="PC20135")["delivery_slot"] == "2026-12-09 10:00"
    env, replies, _ = chat(FlawedLaundryAgent, FLAWS[3][1])
    assert "no charge" in replies[2].text and payments(env, "PC20166", "cancel_fee") == []
    env, _, _ = chat(FlawedLaundryAgent, FLAWS[4][1])
    assert row(env, "orders", order_ref="PC20148")["express"] == 1
    env, replies, _ = chat(FlawedLaundryAgent, FLAWS[5][1])
    assert row(env, "orders", order_ref="PC20244")["express"] == 0
    assert "everything" in said(replies)
    env, replies, _ = chat(FlawedLaundryAgent, FLAWS[6][1])
    assert "Done" in replies[-1].text
    assert row(env, "orders", order_ref="PC20204")["collection_slot"] == "2026-12-11 16:00"
    env, replies, _ = chat(FlawedLaundryAgent, FLAWS[7][1])
    assert "£80.00 is payable" in replies[-1].text
    assert row(env, "claims", order_ref="PC20171")["payable_pence"] == 3500

"""The shop's scenario set: valid against the seed data, graded right on hand-made end states,
and played offline (agenda user vs rule agent): common paths pass, documented flaws fail."""

from __future__ import annotations

import pytest

from vistasim.agent import Turn, Utterance
from vistasim.domains import get_domain
from vistasim.domains.shop import RuleShopAgent, ShopEnvironment
from vistasim.events import ToolCall
from vistasim.explore import evaluate_criteria
from vistasim.user import AgendaPolicy, Say, UserView

SCENARIOS = {s.id: s for s in get_domain("shop").scenarios()}
CREATED_BY_ACTIONS = {"exchanges", "refunds", "escalations"}


def test_there_are_at_least_thirty_scenarios_all_for_the_shop():
    assert len(SCENARIOS) >= 30
    assert {s.domain for s in SCENARIOS.values()} == {"shop"}


@pytest.mark.parametrize("flaw", ["F1", "F2", "F3", "F4"])
def test_every_documented_flaw_has_scenarios(flaw):
    assert len([s for s in SCENARIOS.values() if f"flaw:{flaw}" in s.tags]) >= 2


@pytest.mark.parametrize("scenario", SCENARIOS.values(), ids=SCENARIOS)
def test_state_criteria_name_real_tables_columns_and_rows(scenario):
    env = ShopEnvironment()
    for criterion in scenario.criteria.state:
        rows = env.select(criterion.table, dict(criterion.where))  # raises on unknown names
        if criterion.count is None and criterion.table not in CREATED_BY_ACTIONS:
            assert rows, f"{criterion} matches no seed row"


@pytest.mark.parametrize("scenario", SCENARIOS.values(), ids=SCENARIOS)
def test_orders_in_knowledge_belong_to_the_scenarios_email(scenario):
    env = ShopEnvironment()
    order_id, email = scenario.knowledge.get("order_id"), scenario.knowledge.get("email")
    if order_id is None or "flaw:F3" in scenario.tags:
        return
    customer = env.select("orders", {"id": order_id})[0]["customer_id"]
    assert env.select("customers", {"id": customer})[0]["email"] == email


def call(env: ShopEnvironment, name: str, **args) -> ToolCall:
    outcome = env.run_tool("agent", name, args)
    return ToolCall(name=name, args=args, result=outcome.result, error=outcome.error)


def test_criteria_pass_on_a_good_end_state():
    env = ShopEnvironment()
    calls = [call(env, "cancel_order", order_id="W1003", reason="mistake")]
    judgment = evaluate_criteria(
        SCENARIOS["shop-cancel-pending-order"].criteria,
        tool_calls=calls,
        agent_texts=["Done — order W1003 has been cancelled."],
        env=env,
    )
    assert judgment.passed, judgment.reason


def test_criteria_fail_when_nothing_was_done():
    judgment = evaluate_criteria(
        SCENARIOS["shop-cancel-pending-order"].criteria,
        tool_calls=[],
        agent_texts=["Sorry, I can't help with that."],
        env=ShopEnvironment(),
    )
    assert not judgment.passed
    assert "status" in judgment.reason


def test_criteria_fail_when_the_wrong_order_was_cancelled():
    env = ShopEnvironment()
    calls = [call(env, "cancel_order", order_id="W1010", reason="x")]
    judgment = evaluate_criteria(
        SCENARIOS["shop-flaw-correction-cancel"].criteria,
        tool_calls=calls,
        agent_texts=["Done — order W1010 has been cancelled."],
        env=env,
    )
    assert not judgment.passed
    assert "forbidden action cancel_order" in judgment.reason


def judge_return(skus: list[str]):
    env = ShopEnvironment()
    calls = [call(env, "return_items", order_id="W1034", skus=skus, reason="damaged")]
    criteria = SCENARIOS["shop-flaw-two-items-return"].criteria
    return evaluate_criteria(criteria, tool_calls=calls, agent_texts=[], env=env)


def test_criteria_fail_when_only_one_of_two_items_was_returned():
    assert not judge_return(["P002-WHITE"]).passed


def test_criteria_pass_when_both_items_were_returned():
    assert judge_return(["P002-WHITE", "P003-BLACK"]).passed


def test_refusal_scenarios_hold_on_the_untouched_seed():
    for scenario in SCENARIOS.values():
        if any(t.startswith("policy:") for t in scenario.tags):
            texts = [
                " ".join(phrase for s in scenario.criteria.statements for phrase in s.contains_any)
            ]
            judgment = evaluate_criteria(
                scenario.criteria, tool_calls=[], agent_texts=texts, env=ShopEnvironment()
            )
            assert judgment.passed, (scenario.id, judgment.reason)


async def play_offline(scenario) -> bool:
    env, policy = ShopEnvironment(), AgendaPolicy()
    agent = RuleShopAgent(env=env)
    state = policy.initial_state(scenario, seed=0)
    transcript: list[Utterance] = []
    calls: list[ToolCall] = []
    for turn in range(scenario.limits.max_turns):
        view = UserView(
            scenario=scenario,
            transcript=tuple(transcript),
            turn=turn,
            max_turns=scenario.limits.max_turns,
            lexicon=env.lexicon(),
        )
        action, state = await policy.next_action(view, state)
        if not isinstance(action, Say):
            break
        reply = await agent.respond(Turn(episode_id="e", message=action.text))
        transcript += [
            Utterance(role="user", text=action.text),
            Utterance(role="agent", text=reply.text),
        ]
        calls += reply.tool_calls
    texts = [u.text for u in transcript if u.role == "agent"]
    return evaluate_criteria(scenario.criteria, tool_calls=calls, agent_texts=texts, env=env).passed


# Played in chat mode here; hybrid scenarios are exercised in tests/explore/test_web_modes.py.
NOT_FLAWED = [
    s
    for s in SCENARIOS.values()
    if not any(t.startswith("flaw:") for t in s.tags) and "path:hybrid" not in s.tags
]
FLAWED = [
    s
    for s in SCENARIOS.values()
    if any(t.startswith("flaw:") for t in s.tags) and "needs:llm-user" not in s.tags
]


@pytest.mark.parametrize("scenario", NOT_FLAWED, ids=[s.id for s in NOT_FLAWED])
async def test_rule_agent_passes_common_and_policy_scenarios_offline(scenario):
    assert await play_offline(scenario)


@pytest.mark.parametrize("scenario", FLAWED, ids=[s.id for s in FLAWED])
async def test_rule_agent_fails_flaw_scenarios_offline(scenario):
    assert not await play_offline(scenario)

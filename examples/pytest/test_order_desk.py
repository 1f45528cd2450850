"""Example tests with the vistasim pytest plugin, against the demo's order desk agent.

Run them with `pytest examples/pytest` (add `--vistasim-report reports/` for the HTML reports).
They need no key and no network: the users are the offline agenda user, a script, and an LLM
user played by a scripted model.
"""

import json

from vistasim.agent import Reply, Turn
from vistasim.demo import OrderBook, OrderDeskAgent
from vistasim.testing import ScriptedLLM

STATUS = {
    "id": "status-shipped",
    "persona": {"name": "Sam Okafor", "style": {"verbosity": "low"}},
    "goal": "Find out when my kettle from order W1002 will arrive.",
    "knowledge": {"order_id": "W1002", "email": "sam.okafor@example.com"},
    "criteria": {
        "actions": [{"tool": "get_order", "args": {"order_id": "W1002"}}],
        "statements": [{"contains_any": ["2026-12-03"]}],
    },
}

TWO_ITEMS = {
    "id": "return-two-items",
    "persona": {"name": "Lee Chen"},
    "goal": "Return both the mug set and the frying pan from order W1010.",
    "knowledge": {"order_id": "W1010", "email": "lee.chen@example.com"},
    "criteria": {
        "actions": [
            {"tool": "return_item", "args": {"order_id": "W1010", "sku": "MUG-4"}},
            {"tool": "return_item", "args": {"order_id": "W1010", "sku": "PAN-9"}},
        ]
    },
}


async def test_the_agenda_user_gets_the_delivery_date(vistasim):
    result = await vistasim.simulate(STATUS, agent=OrderDeskAgent, environment=OrderBook)
    assert result.passed, result.explain()
    assert all(check.passed for check in result.episodes[0].criteria)


async def test_a_scripted_customer_finds_the_two_items_flaw(vistasim):
    turns = [
        "I want to return the mug set and the frying pan from order W1010.",
        "lee.chen@example.com",
        "the mug set and the frying pan",
        "yes",
    ]
    result = await vistasim.simulate(
        TWO_ITEMS, agent=OrderDeskAgent, environment=OrderBook, user=turns
    )
    assert result.outcomes == ["failed"]
    failed = [c.check for c in result.episodes[0].criteria if not c.passed]
    assert failed == ["required action return_item(order_id=W1010, sku=PAN-9)"]
    assert any("PAN-9" in failure.description for failure in result.failures)


async def test_an_agent_written_in_the_test_is_simulated_too(vistasim):
    def refuses(turn: Turn) -> Reply:
        return Reply(text="Sorry, I cannot help with orders today.")

    result = await vistasim.simulate(
        STATUS, agent=refuses, environment=OrderBook, rollouts=2, user=["Where is W1002?"]
    )
    assert result.outcomes == ["failed", "failed"]
    assert result.metrics.success_rate == 0


def _llm_user(text=None, finish=None):
    action = "finish" if finish else "say"
    return json.dumps({"plan": "get my answer", "action": action, "text": text or "",
                       "api": None, "finish_reason": finish})  # fmt: skip


async def test_an_llm_user_with_a_scripted_model(vistasim):
    model = ScriptedLLM([
        _llm_user("Hi, when will my order W1002 arrive?"),
        _llm_user("It's sam.okafor@example.com."),
        _llm_user("Thanks, that's all.", finish="goal_met"),
    ])  # fmt: skip
    result = await vistasim.simulate(
        STATUS, agent=OrderDeskAgent, environment=OrderBook, user="llm", user_model=model
    )
    assert result.passed, result.explain()
    assert len(model.requests) == 3

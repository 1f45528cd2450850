import anyio

from vistasim.demo import OrderBook
from vistasim.events import ToolCall
from vistasim.explore import evaluate_criteria
from vistasim.scenario import Criteria


def _criteria(**kwargs):
    return Criteria.model_validate(kwargs)


def test_all_checks_pass_on_a_good_end_state():
    env = OrderBook()
    anyio.run(env.call_tool, "cancel_order", {"order_id": "W1001"})
    criteria = _criteria(
        state=[{"table": "orders", "where": {"id": "W1001"}, "expect": {"status": "cancelled"}}],
        actions=[{"tool": "cancel_order", "args": {"order_id": "w1001"}}],
        statements=[{"contains_any": ["cancelled"]}],
    )
    judgment = evaluate_criteria(
        criteria,
        tool_calls=[ToolCall(name="cancel_order", args={"order_id": "W1001"})],
        agent_texts=["Done, order W1001 has been CANCELLED."],
        env=env,
    )
    assert judgment.passed is True
    assert [c["passed"] for c in judgment.checks] == [True, True, True]


def test_each_failed_check_says_why():
    env = OrderBook()
    criteria = _criteria(
        state=[{"table": "orders", "where": {"id": "W1001"}, "expect": {"status": "cancelled"}}],
        actions=[{"tool": "cancel_order", "args": {"order_id": "W1001"}}],
        statements=[{"contains_all": ["cancelled", "refund"]}],
    )
    judgment = evaluate_criteria(criteria, tool_calls=[], agent_texts=["cancelled"], env=env)
    assert judgment.passed is False
    details = [c["detail"] for c in judgment.checks]
    assert "found status=processing" in details[0]
    assert "not taken" in details[1]
    assert "refund" in details[2]


def test_failed_tool_calls_do_not_count_as_taken():
    criteria = _criteria(actions=[{"tool": "cancel_order", "args": {}}])
    call = ToolCall(name="cancel_order", args={"order_id": "W1002"}, error="already shipped")
    judgment = evaluate_criteria(criteria, tool_calls=[call], agent_texts=[], env=None)
    assert judgment.passed is False


def test_exact_match_needs_equal_arguments():
    criteria = _criteria(actions=[{"tool": "t", "args": {"a": 1}, "match": "exact"}])
    call = ToolCall(name="t", args={"a": 1, "b": 2})
    assert evaluate_criteria(criteria, tool_calls=[call], agent_texts=[], env=None).passed is False


def test_forbidden_action_taken_fails():
    criteria = _criteria(
        forbidden_actions=[{"tool": "cancel_order", "args": {"order_id": "W1002"}}]
    )
    call = ToolCall(name="cancel_order", args={"order_id": "W1002"}, result={"ok": True})
    judgment = evaluate_criteria(criteria, tool_calls=[call], agent_texts=[], env=None)
    assert judgment.passed is False
    assert "taken" in judgment.checks[0]["detail"]


def test_count_asserts_absence():
    env = OrderBook()
    criteria = _criteria(state=[{"table": "orders", "where": {"id": "W9999"}, "count": 0}])
    assert evaluate_criteria(criteria, tool_calls=[], agent_texts=[], env=env).passed is True


def test_unknown_table_fails_with_a_reason():
    criteria = _criteria(state=[{"table": "nope", "where": {}}])
    judgment = evaluate_criteria(criteria, tool_calls=[], agent_texts=[], env=OrderBook())
    assert judgment.passed is False
    assert "no table 'nope'" in judgment.checks[0]["detail"]


def test_state_without_environment_fails():
    criteria = _criteria(state=[{"table": "orders", "where": {}}])
    judgment = evaluate_criteria(criteria, tool_calls=[], agent_texts=[], env=None)
    assert judgment.passed is False


def test_checks_limited_to_other_modes_are_left_out():
    criteria = _criteria(
        actions=[{"tool": "cancel_order", "args": {}, "modes": ["chat", "api"]}],
        statements=[{"contains_any": ["cancelled"], "modes": ["chat"]}],
    )
    chat = evaluate_criteria(criteria, tool_calls=[], agent_texts=[], env=None, mode="chat")
    hybrid = evaluate_criteria(criteria, tool_calls=[], agent_texts=[], env=None, mode="hybrid")
    assert chat.passed is False and len(chat.checks) == 2
    assert hybrid.passed is True and hybrid.checks == []

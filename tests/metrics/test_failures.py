import json

import pytest
from pydantic import ValidationError

from tests.metrics._builders import agent, api, criteria, episode, make_run, stop, tool, user
from vistasim.events import StopReason
from vistasim.metrics import PolicyRule, detect_failures, judge_failures
from vistasim.testing import ScriptedLLM


def _one(events, **kw):
    return detect_failures(make_run([episode("e1", "s1", events)]), **kw)


def test_agent_error_stop_is_a_failure_with_the_stop_as_evidence():
    run = make_run([episode("e1", "s1", [user("hi"), stop(StopReason.AGENT_ERROR, "HTTP 500")])])
    [failure] = detect_failures(run)
    assert (failure.kind, failure.description) == ("agent_error", "agent error: HTTP 500")
    assert failure.event_ids == [run.episodes[0].events[-1].id]


def test_failed_tool_call_is_a_failure_labelled_by_tool():
    [failure] = _one([tool("cancel_order", error="order W1 not found", order_id="W1")])
    assert (failure.kind, failure.label) == ("tool_error", "cancel_order")
    assert failure.description == "agent tool cancel_order failed: order W1 not found"


def test_failed_user_api_call_is_a_failure():
    [failure] = _one([api("reschedule_exam", error="slot taken")])
    assert (failure.kind, failure.label) == ("api_error", "reschedule_exam")


def test_each_failed_criteria_check_is_one_failure():
    failures = _one(
        [
            criteria(
                False,
                "required action cancel_order(order_id=W1007) not taken",
                "statement containing refund not said",
            ),
            stop(),
        ]
    )
    assert [f.description for f in failures] == [
        "criteria not met: required action cancel_order(order_id=W1007) not taken",
        "criteria not met: statement containing refund not said",
    ]
    assert failures[0].detail == "not found"


def test_a_passing_episode_has_no_failure():
    assert _one([user("hi"), tool("get_order"), agent("ok"), criteria(True), stop()]) == []


def test_errored_episodes_are_not_searched():
    run = make_run([episode("e1", "s1", [tool("t", error="boom")], status="errored")])
    assert detect_failures(run) == []


def test_policy_requires_prior_tool_flags_call_without_it():
    rule = PolicyRule(
        id="lookup-first",
        description="look up before cancel",
        tool="cancel",
        requires_prior_tool="get",
    )
    [failure] = _one([tool("cancel"), tool("get"), tool("cancel")], rules=[rule])
    assert (failure.kind, failure.label) == ("policy", "lookup-first")
    assert failure.description == "policy lookup-first violated: look up before cancel"
    assert len(failure.event_ids) == 1


def test_policy_requires_prior_tool_passes_when_followed():
    rule = PolicyRule(id="r", description="d", tool="cancel", requires_prior_tool="get")
    assert _one([tool("get"), tool("cancel")], rules=[rule]) == []


def test_policy_forbid_after_user_says():
    rule = PolicyRule(
        id="respect-no",
        description="no cancel after no",
        tool="cancel",
        forbid_after_user_says=["don't cancel"],
    )
    events = [user("Please DON'T cancel it"), tool("cancel")]
    assert [f.label for f in _one(events, rules=[rule])] == ["respect-no"]
    assert _one([tool("cancel"), user("don't cancel")], rules=[rule]) == []


def test_policy_max_calls():
    rule = PolicyRule(id="once", description="refund once", tool="refund", max_calls=1)
    [failure] = _one([tool("refund"), tool("refund"), tool("refund")], rules=[rule])
    assert len(failure.event_ids) == 2


def test_policy_rule_without_condition_is_rejected_with_the_fix():
    with pytest.raises(ValidationError, match="requires_prior_tool"):
        PolicyRule(id="r", description="d", tool="t")


def test_policy_rule_rejects_unknown_keys():
    with pytest.raises(ValidationError):
        PolicyRule(id="r", description="d", tool="t", max_calls=1, severity="high")


def _judged_run():
    return make_run([episode("e1", "s1", [user("cancel W1"), tool("cancel"), agent("done")])])


async def test_failure_judge_adds_labelled_failures_with_evidence():
    run = _judged_run()
    ids = [s.id for s in run.episodes[0].events]
    reply = {
        "failures": [
            {
                "label": "no_confirmation",
                "description": "Cancelled without asking.",
                "event_ids": [ids[1]],
            }
        ]
    }
    failures, errors, calls = await judge_failures(run, ScriptedLLM([json.dumps(reply)]))
    [failure] = failures
    assert (failure.kind, failure.label, failure.event_ids) == (
        "judge",
        "no_confirmation",
        [ids[1]],
    )
    assert (errors, calls) == ([], 1)


async def test_failure_judge_citing_unknown_events_is_repaired():
    run = _judged_run()
    good_id = run.episodes[0].events[0].id
    bad = {"failures": [{"label": "x", "description": "y", "event_ids": [999999]}]}
    good = {"failures": [{"label": "x", "description": "y", "event_ids": [good_id]}]}
    judge = ScriptedLLM([json.dumps(bad), json.dumps(good)])
    failures, errors, calls = await judge_failures(run, judge)
    assert (len(failures), errors, calls) == (1, [], 2)
    assert "not in the transcript" in judge.requests[1].messages[-1].content


async def test_failure_judge_malformed_replies_become_judge_errors():
    failures, errors, calls = await judge_failures(
        _judged_run(), ScriptedLLM(["nope", "[]", '{"failures": "none"}'])
    )
    assert failures == [] and calls == 3
    assert [(e.judge, e.item) for e in errors] == [("failure", "e1")]


async def test_failure_judge_may_find_nothing():
    failures, errors, _ = await judge_failures(_judged_run(), ScriptedLLM(['{"failures": []}']))
    assert (failures, errors) == ([], [])


def test_tool_error_the_agent_recovered_from_is_not_a_failure_by_default():
    events = [user("coupon"), tool("apply_coupon", error="coupon expired"), criteria(True), stop()]
    assert _one(events) == []
    assert [f.kind for f in _one(events, recovered_errors=True)] == ["tool_error"]


def test_tool_error_in_a_failed_episode_is_a_failure():
    events = [tool("cancel_order", error="order not found"), criteria(False, "x"), stop()]
    assert sorted(f.kind for f in _one(events)) == ["criteria", "tool_error"]


def test_tool_error_a_later_call_of_the_same_tool_got_through_is_not_a_failure():
    # A wrong date of birth refused, then the right one accepted: the environment did its job.
    events = [tool("verify_owner", error="no client matches"), tool("verify_owner"),
              tool("cancel_order", error="order not found"), criteria(False, "x"),
              stop()]  # fmt: skip
    found = _one(events, recovered_errors=True)
    assert sorted((f.kind, f.label) for f in found) == [
        ("criteria", "criteria"), ("tool_error", "cancel_order")]  # fmt: skip
    # A success before the error does not excuse it.
    again = [tool("verify_owner"), tool("verify_owner", error="locked"), criteria(False, "x"),
             stop()]  # fmt: skip
    assert ("tool_error", "verify_owner") in {(f.kind, f.label) for f in _one(again)}

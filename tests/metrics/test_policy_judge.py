"""The policy judge: reads the product's policy text, and its breaches count only with evidence."""

import dataclasses
import json

from vistasim.events import ToolCall
from vistasim.metrics import POLICY_TEXT_KEY, compute_metrics
from vistasim.testing import FunctionLLM

from ._builders import agent, criteria, episode, make_run, stop, user

POLICY = "Before cancelling, always tell the customer about the 25 EUR cancellation fee."
REALISM = json.dumps({k: {"score": 3, "reason": "fine"}
                      for k in ("human_likeness", "coherence", "goal_consistency")})  # fmt: skip


def cancelled_run(policy=POLICY):
    view = episode("e1", "desk-1", [
        user("Please cancel booking B12."),
        ToolCall(name="cancel_booking", args={"booking": "B12"}, result={"cancelled": True}),
        agent("Done, B12 is cancelled."),
        criteria(True),
        stop(),
    ])  # fmt: skip
    run = make_run([view], agent_tools=["cancel_booking"])
    metadata = {POLICY_TEXT_KEY: policy} if policy else {}
    return dataclasses.replace(run, metadata=metadata), view


def judge_citing(ids_for):
    def answer(request):
        prompt = " ".join(m.content or "" for m in request.messages)
        if "<policy>" not in prompt:
            return REALISM
        return json.dumps({"violations": [{"rule": "state the fee", "description":
                                           "cancelled without stating the fee",
                                           "event_ids": ids_for()}]})  # fmt: skip

    return FunctionLLM(answer, name="judge")


async def test_a_breach_the_judge_shows_with_the_agents_own_events_fails_the_episode():
    run, view = cancelled_run()
    agent_ids = [view.events[1].id, view.events[2].id]
    judge = judge_citing(lambda: agent_ids)
    report = await compute_metrics(run, judge=judge)
    assert report.success.episodes["e1"] == "failed"
    [cause] = [u for u in report.failures.unique if u.label == "judge: state the fee"]
    assert cause.description.startswith("policy judge: ") and cause.kind == "policy"
    assert any(POLICY in (r.messages[-1].content or "") for r in judge.requests)


async def test_a_breach_citing_only_the_users_words_is_no_finding_but_a_judge_error():
    run, view = cancelled_run()
    judge = judge_citing(lambda: [view.events[0].id])
    report = await compute_metrics(run, judge=judge)
    assert report.success.episodes["e1"] == "passed"
    [error] = [e for e in report.failures.judge_errors if e.judge == "policy"]
    assert error.item == "e1" and "agent's own" in error.error and error.calls == 3


async def test_without_a_policy_text_the_judge_is_not_asked_about_policy():
    run, view = cancelled_run(policy=None)
    judge = judge_citing(lambda: [view.events[2].id])
    report = await compute_metrics(run, judge=judge)
    assert report.success.episodes["e1"] == "passed"
    assert not any("<policy>" in (r.messages[-1].content or "") for r in judge.requests)


def _lockers_config(tmp_path, policy):
    from vistasim.config import RunConfig

    return RunConfig.model_validate({
        "run": {"rollouts": 1, "mode": "chat"},
        "user": {"policy": "agenda"},
        "agent": {"kind": "python", "target": "tests.metrics.rules_app:HastyDesk"},
        "environment": {"target": "tests.metrics.rules_app:Lockers"},
        "judges": {"policy": policy},
        "cache": {"mode": "off"},
        "base_dir": str(tmp_path),
    })  # fmt: skip


def test_the_policy_text_is_stored_with_the_run(tmp_path):
    from vistasim.explore._metadata import run_metadata

    (tmp_path / "policy.md").write_text(POLICY, encoding="utf-8")
    assert run_metadata(_lockers_config(tmp_path, "policy.md"))[POLICY_TEXT_KEY] == POLICY


def test_a_missing_or_empty_policy_file_is_one_line_naming_the_key(tmp_path):
    import pytest

    from vistasim.errors import ConfigError
    from vistasim.explore._metadata import run_metadata

    (tmp_path / "empty.md").write_text("  \n", encoding="utf-8")
    for name, says in (("nope.md", "does not exist"), ("empty.md", "is empty")):
        with pytest.raises(ConfigError) as caught:
            run_metadata(_lockers_config(tmp_path, name))
        message = str(caught.value)
        assert message.startswith("judges.policy: ") and says in message and "\n" not in message

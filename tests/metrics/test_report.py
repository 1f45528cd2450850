import json

from rich.console import Console

import vistasim.metrics
from tests.metrics._builders import (
    agent,
    criteria,
    episode,
    make_run,
    model_call,
    stop,
    tool,
    user,
)
from vistasim.events import StopReason
from vistasim.metrics import METRICS_VERSION, PolicyRule, compute_metrics, format_metrics
from vistasim.testing import FunctionLLM

STABLE_KEYS = {
    "transition_entropy",
    "tool_distr_entropy",
    "traj_dist",
    "realism",
    "cost",
    "unique_failures",
    "success_rate",
    "pass_hat_k",
}


def _run():
    ok = [
        user("cancel W1"),
        tool("get_order", order_id="W1"),
        tool("cancel_order", order_id="W1"),
        agent("Cancelled."),
        criteria(True),
        stop(),
    ]
    bad = [
        user("cancel W2"),
        tool("cancel_order", order_id="W2"),
        agent("[bold]Done[/bold]"),
        criteria(False, "required statement [red]refund[/red] not said"),
        stop(),
    ]
    crashed = [user("hi"), stop(StopReason.AGENT_ERROR, "HTTP 500")]
    return make_run(
        [
            episode("e1", "s1", ok, model_calls=[model_call("agent", 100, 10, 0.01)]),
            episode("e2", "s1", bad, rollout=1),
            episode("e3", "s2", crashed),
            episode("e4", "s2", [user("hi")], status="errored"),
        ],
        agent_tools=["get_order", "cancel_order", "refund"],
    )


async def test_report_json_has_the_stable_top_level_keys():
    report = await compute_metrics(_run())
    data = json.loads(report.model_dump_json())
    assert STABLE_KEYS <= set(data)
    assert data["metrics_version"] == METRICS_VERSION
    assert data["realism"] == {"computed": False, "reason": data["realism"]["reason"]}


async def test_report_combines_every_metric():
    rule = PolicyRule(
        id="lookup-first",
        description="look up before cancelling",
        tool="cancel_order",
        requires_prior_tool="get_order",
    )
    report = await compute_metrics(_run(), rules=[rule])
    assert (report.episodes, report.errored_episodes) == (4, 1)
    assert report.success_rate == 1 / 3
    assert report.pass_hat_k == {1: (0.5 + 0.0) / 2, 2: 0.0}
    kinds = sorted(u.kind for u in report.failures.unique)
    assert kinds == ["agent_error", "criteria", "policy"]
    # The criteria symptom of e2 is explained by the policy cause of e2: two distinct failures.
    assert report.unique_failures == 2
    assert report.failures.explained_by
    # Efficiency counts the same distinct failures: an explained symptom is not a second one.
    assert report.efficiency.unique_failures == 2
    assert report.cost.total.cost_usd == 0.01
    assert report.failures.embedder is not None


async def test_judge_is_used_for_realism_and_optionally_failures():
    def answer(request):
        prompt = request.messages[0].content
        if "Rubrics" in prompt:
            verdict = {"score": 3, "reason": "fine"}
            return json.dumps(
                dict.fromkeys(("human_likeness", "coherence", "goal_consistency"), verdict)
            )
        return json.dumps({"failures": []})

    judge = FunctionLLM(answer)
    report = await compute_metrics(_run(), judge=judge, judge_failures_too=True)
    assert report.realism.computed is True
    assert report.realism.overall.episodes == 3
    assert len(judge.requests) == 6  # 3 realism + 3 failure calls, one per non-errored episode


async def test_report_round_trips_through_json():
    report = await compute_metrics(_run())
    again = type(report).model_validate_json(report.model_dump_json())
    assert again == report


async def test_format_metrics_renders_headline_and_catalogue_without_markup_injection():
    report = await compute_metrics(_run())
    console = Console(width=160, record=True, color_system=None)
    console.print(format_metrics(report))
    text = console.export_text()
    assert "transition_entropy" in text and "not computed" in text
    assert "[red]refund[/red]" in text  # shown literally, not interpreted as rich markup


def test_public_names_are_sorted_and_exported():
    names = vistasim.metrics.__all__
    constants = [n for n in names if n.isupper()]
    rest = [n for n in names if not n.isupper()]
    assert names == sorted(constants) + sorted(rest)
    assert all(hasattr(vistasim.metrics, n) for n in names)


async def test_permuting_episodes_changes_no_metric():
    run = _run()
    reversed_run = type(run)(**{**run.__dict__, "episodes": run.episodes[::-1]})
    assert await compute_metrics(reversed_run) == await compute_metrics(run)


async def test_merge_failures_asks_the_judge_once_per_batch():
    def answer(request):
        prompt = request.messages[0].content
        if "Rubrics" in prompt:
            verdict = {"score": 2, "reason": "ok"}
            keys = ("human_likeness", "coherence", "goal_consistency")
            return json.dumps(dict.fromkeys(keys, verdict))
        assert "same underlying flaw" in prompt
        return json.dumps({"groups": [[0, 1]]})

    judge = FunctionLLM(answer)
    report = await compute_metrics(_run(), judge=judge, merge_failures=True)
    assert (report.unique_failures, report.failures.judge_calls) == (1, 1)
    assert report.failures.unique[0].episodes == ["e2", "e3"]


async def test_format_metrics_shows_realism_and_success_per_mode():
    def answer(request):
        verdict = {"score": 3, "reason": "ok"}
        return json.dumps(
            dict.fromkeys(("human_likeness", "coherence", "goal_consistency"), verdict)
        )

    run = _run()
    modes = [
        type(e)(**{**e.__dict__, "mode": "hybrid" if e.episode_id == "e2" else "chat"})
        for e in run.episodes
    ]
    report = await compute_metrics(
        type(run)(**{**run.__dict__, "episodes": tuple(modes)}), judge=FunctionLLM(answer)
    )
    console = Console(width=160, record=True, color_system=None)
    console.print(format_metrics(report))
    text = console.export_text()
    assert "realism (hybrid)" in text and "success_rate (chat)" in text
    assert "3.00 / 3.00 / 3.00" in text

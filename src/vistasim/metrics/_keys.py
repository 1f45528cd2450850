"""Metric keys: one flat name per number of a run's metrics, for gates, compare and JUnit.

`MetricsReport` is nested (cost by role, success by mode, efficiency...). CI needs to name one
number ("success_rate", "cost_usd", "pass_hat_3"), so this module is the one vocabulary of those
names: `METRIC_KEYS` says what each fixed key means, `metric_values` reads them all from a report
and `metric_key_problem` tells a typo from a key ("did you mean 'success_rate'?").

>>> metric_key_problem("pass_hat_2") is None
True
>>> metric_key_problem("sucess_rate")
"unknown metric key 'sucess_rate' (did you mean 'success_rate'?)"
"""

from __future__ import annotations

import difflib
import re

from vistasim.metrics._realism import RUBRICS, RealismReport
from vistasim.metrics._report import MetricsReport
from vistasim.scenario import Mode

__all__ = ["METRIC_KEYS", "MetricValue", "metric_key_problem", "metric_values"]

MetricValue = float | None
"""A metric's value; `None` when the run gives it none (nothing judged, no judge, no branch)."""

METRIC_KEYS: dict[str, str] = {
    "episodes": "episodes in the run, branches included",
    "errored_episodes": "episodes ended by an infrastructure error",
    "passed": "linear rollouts that passed",
    "failed": "linear rollouts that failed (agent failures)",
    "invalid": "linear rollouts the simulated user spoiled",
    "not_applicable": "linear rollouts the user policy could not play",
    "success_rate": "passed / (passed + failed) over linear rollouts",
    "unique_failures": "distinct agent failures: named causes plus unexplained symptoms",
    "failures": "agent failures found before folding into unique ones",
    "named_causes": "unique failures that name what the agent did wrong",
    "transition_entropy": "TransitionEntropy of the agent's tool calls, 0-1",
    "tool_distr_entropy": "ToolDistrEntropy of the agent's tool calls, 0-1",
    "traj_dist": "TrajDist: how different episodes of one goal were, 0-1",
    "cost_usd": "dollars spent on model calls (every role)",
    "model_calls": "model calls (every role)",
    "input_tokens": "prompt tokens of every model call",
    "output_tokens": "completion tokens of every model call",
    "agent_tokens": "the agent's tokens (metered, or a labelled proxy)",
    "err_per_100k_agent_tokens": "failed episodes per 100K agent tokens",
    "token_savings": "tokens saved by branching against replaying every prefix",
    "branches": "DIVERT branches played",
    "user_checks": "checks of the simulated user's behaviour that fired",
    **{f"realism_{r}": f"mean realism score for {r.replace('_', ' ')}, 1-3" for r in RUBRICS},
}
"""Every fixed metric key and what it measures. Two families are open-ended: `pass_hat_K`
(pass^k for k = K) and `success_rate_MODE` (success rate of one mode's rollouts)."""

_MODES: tuple[Mode, ...] = ("chat", "api", "ui", "hybrid")
_FAMILIES = (
    re.compile(r"pass_hat_[1-9]\d{0,3}"),
    re.compile(rf"success_rate_(?:{'|'.join(_MODES)})"),
)


def metric_key_problem(key: str) -> str | None:
    """Why `key` is not a metric key (with the closest one), or `None` when it is one."""
    if key in METRIC_KEYS or any(family.fullmatch(key) for family in _FAMILIES):
        return None
    known = [*METRIC_KEYS, "pass_hat_1", *(f"success_rate_{m}" for m in _MODES)]
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    if close:
        hint = f" (did you mean {close[0]!r}?)"
    else:
        hint = f"; the keys are {', '.join(METRIC_KEYS)}, pass_hat_K and success_rate_MODE"
    return f"unknown metric key {key!r}{hint}"


def metric_values(report: MetricsReport) -> dict[str, MetricValue]:
    """Every metric key of a report with its value, in `METRIC_KEYS` order, then the families."""
    outcomes, total, eff = report.success.outcomes, report.cost.total, report.efficiency
    values: dict[str, MetricValue] = {
        "episodes": report.episodes,
        "errored_episodes": report.errored_episodes,
        **{k: outcomes.get(k, 0) for k in ("passed", "failed", "invalid", "not_applicable")},
        "success_rate": report.success_rate,
        "unique_failures": report.unique_failures,
        "failures": report.failures.failures,
        "named_causes": len(report.failures.causes),
        "transition_entropy": report.transition_entropy,
        "tool_distr_entropy": report.tool_distr_entropy,
        "traj_dist": report.traj_dist,
        "cost_usd": total.cost_usd,
        "model_calls": total.calls,
        "input_tokens": total.input_tokens,
        "output_tokens": total.output_tokens,
        "agent_tokens": eff.agent_tokens if eff.agent_tokens_source != "none" else None,
        "err_per_100k_agent_tokens": eff.err_per_100k_agent_tokens,
        "token_savings": eff.token_savings,
        "branches": eff.branches,
        "user_checks": len(report.user_checks),
    }
    values.update(_realism_values(report))
    values.update({f"pass_hat_{k}": v for k, v in report.pass_hat_k.items()})
    values.update(
        {f"success_rate_{mode}": m.success_rate for mode, m in report.success.by_mode.items()}
    )
    return values


def _realism_values(report: MetricsReport) -> dict[str, MetricValue]:
    realism = report.realism
    overall = realism.overall if isinstance(realism, RealismReport) else None
    return {
        f"realism_{r}": overall.rubrics[r].mean if overall and r in overall.rubrics else None
        for r in RUBRICS
    }

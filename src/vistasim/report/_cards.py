"""The summary cards at the top of a report: the run's headline figures with what they count.

Counts include DIVERT branches (each card says how many of them are branches); success rate and
pass^k are over linear rollouts only, since branches are directed, not random samples.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from vistasim.metrics import MetricsReport

__all__ = ["Card", "summary_cards"]


@dataclass(frozen=True, kw_only=True)
class Card:
    """One headline figure."""

    label: str
    value: str
    note: str = ""
    tone: Literal["good", "bad", "warn", "plain"] = "plain"


def summary_cards(metrics: MetricsReport, outcomes: Mapping[str, int]) -> tuple[Card, ...]:
    """The headline figures of a run, branches counted where they belong."""
    success = metrics.success
    branches = sum(success.branch_outcomes.values())
    failed = outcomes.get("failed", 0)
    cards = [
        Card(
            label="episodes",
            value=str(sum(outcomes.values())),
            note=f"{sum(success.outcomes.values())} linear rollouts, {branches} branches",
        ),
        Card(
            label="passed / failed",
            value=f"{outcomes.get('passed', 0)} / {failed}",
            note=_apart(outcomes) + _branch_note(success.branch_outcomes),
            tone="bad" if failed else "good",
        ),
        Card(
            label="success rate",
            value=_fmt(metrics.success_rate),
            note="passed / judged, linear rollouts",
            tone=_tone(metrics.success_rate),
        ),
        _pass_card(metrics),
        Card(
            label="unique failures",
            value=str(metrics.unique_failures),
            note=f"{len(metrics.failures.causes)} named causes, "
            f"{metrics.failures.failures} failures found",
            tone="bad" if metrics.unique_failures else "good",
        ),
        Card(
            label="coverage",
            value=f"{metrics.transition_entropy:.2f} / {metrics.tool_distr_entropy:.2f}",
            note=f"transition / tool entropy; TrajDist {_fmt(metrics.traj_dist)}; "
            f"{metrics.coverage.tool_calls} tool calls",
        ),
        _realism_card(metrics),
        Card(
            label="cost",
            value=f"${metrics.cost.total.cost_usd:.4f}",
            note=f"{metrics.cost.total.calls} model calls, "
            f"{metrics.cost.total.input_tokens + metrics.cost.total.output_tokens} tokens",
        ),
    ]
    if metrics.efficiency.branches:
        cards.append(_efficiency_card(metrics))
    return tuple(cards)


def _pass_card(metrics: MetricsReport) -> Card:
    if not metrics.pass_hat_k:
        return Card(label="pass^k", value="—", note="no judged linear rollout")
    k = max(metrics.pass_hat_k)
    value = metrics.pass_hat_k[k]
    scenarios = metrics.success.pass_hat_k_scenarios.get(k, 0)
    return Card(label=f"pass^{k}", value=_fmt(value), note=f"over {scenarios} scenarios",
                tone=_tone(value))  # fmt: skip


def _realism_card(metrics: MetricsReport) -> Card:
    realism = metrics.realism
    if not realism.computed:
        return Card(label="realism", value="not computed", note=realism.reason)
    if realism.overall is None:
        return Card(label="realism", value="no verdict", note=f"{len(realism.errors)} judge errors")
    rubrics = sorted(realism.overall.rubrics.items())  # stored metrics come back key-sorted
    means = " / ".join(f"{stats.mean:.2f}" for _, stats in rubrics)
    names = " / ".join(name.replace("_", " ") for name, _ in rubrics)
    return Card(label="realism", value=means, note=f"{names}, 1–3")


def _efficiency_card(metrics: MetricsReport) -> Card:
    value = metrics.efficiency
    per = value.unique_failures_per_100k_agent_tokens
    errors = value.err_per_100k_agent_tokens
    statuses = ", ".join(f"{n} {status}" for status, n in sorted(value.branch_status.items()))
    return Card(
        label="unique failures / 100K agent tokens",
        value="n/a" if per is None else f"{per:.2f}",
        note=f"{value.unique_failures} distinct, {value.new_causes} new causes from branches; "
        f"errors / 100K {'n/a' if errors is None else f'{errors:.2f}'}; "
        f"{value.branches} branches ({statuses}); {value.agent_tokens_source} tokens",
    )


def _apart(outcomes: Mapping[str, int]) -> str:
    apart = [
        f"{n} {name.replace('_', ' ')}"
        for name, n in outcomes.items()
        if n and name not in ("passed", "failed")
    ]
    return ("not judged: " + ", ".join(apart)) if apart else "every episode judged"


def _branch_note(branch_outcomes: Mapping[str, int]) -> str:
    if not sum(branch_outcomes.values()):
        return ""
    return (
        f"; branches: {branch_outcomes.get('passed', 0)} passed, "
        f"{branch_outcomes.get('failed', 0)} failed"
    )


def _tone(value: float | None) -> Literal["good", "bad", "warn", "plain"]:
    if value is None:
        return "plain"
    return "good" if value >= 0.9 else "warn" if value >= 0.6 else "bad"


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"

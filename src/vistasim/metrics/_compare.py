"""Compare two stored runs: what changed in the metrics, the failures and each scenario's outcome.

A change to the agent is judged by three questions, answered from the store only:

- *Metrics*: every metric key (`metrics/_keys.py`) before and after, with the difference.
- *Failures*: each unique failure is `fixed` (only before), `new` (only after) or `still_present`.
  Two runs' failures are one flaw when they have the same unique-failure id (a hash of the
  flaw's canonical wording, stable across runs), or the same kind, label and wording with ids
  and numbers masked (a cluster whose representative changed between the runs).
- *Scenarios*: the outcomes of each scenario's linear rollouts before and after, and whether it
  was `fixed`, `regressed`, `improved`, `worsened`, `unchanged`, `changed`, `added` or `removed`.

`Comparison.regressed` is what `vistasim compare --check` exits 1 on: a new failure, or a scenario
that regressed or worsened.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from vistasim.metrics._compute import metrics_for_run
from vistasim.metrics._dedup import UniqueFailure, normalize_description
from vistasim.metrics._keys import MetricValue, metric_values
from vistasim.metrics._report import MetricsReport
from vistasim.store import RunView, Store, read_run_view

__all__ = [
    "Comparison",
    "FailureChange",
    "FailureStatus",
    "MetricDelta",
    "ScenarioChange",
    "compare_reports",
    "compare_runs",
]

FailureStatus = Literal["fixed", "new", "still_present"]
ScenarioStatus = Literal[
    "fixed", "regressed", "improved", "worsened", "unchanged", "changed", "added", "removed"
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MetricDelta(_Model):
    """One metric key before and after."""

    key: str
    before: MetricValue
    after: MetricValue
    delta: float | None
    """`after - before`; `None` when either side has no value."""


class FailureChange(_Model):
    """One unique failure and whether the later run still shows it."""

    status: FailureStatus
    kind: str
    description: str
    """The later run's wording when it still shows the failure, else the earlier run's."""
    before_id: str | None
    after_id: str | None
    before_episodes: list[str]
    after_episodes: list[str]


class ScenarioChange(_Model):
    """One scenario's linear rollouts, by outcome, before and after."""

    scenario_id: str
    status: ScenarioStatus
    before: dict[str, int]
    after: dict[str, int]


class Comparison(_Model):
    """Everything that changed between two runs."""

    before_run: str
    after_run: str
    metrics: list[MetricDelta]
    failures: list[FailureChange]
    """Fixed first, then new, then still present."""
    scenarios: list[ScenarioChange]

    def failures_by(self, status: FailureStatus) -> list[FailureChange]:
        """The failures with one status."""
        return [f for f in self.failures if f.status == status]

    @property
    def regressed(self) -> bool:
        """A new failure, or a scenario that regressed or worsened."""
        worse = any(s.status in ("regressed", "worsened") for s in self.scenarios)
        return worse or bool(self.failures_by("new"))


async def compare_runs(
    store: Store, before: str, after: str, *, before_store: Store | None = None
) -> Comparison:
    """Compare two stored runs (metrics are computed and stored when missing).

    Args:
        store: The store holding `after` (and `before`, unless `before_store` is given).
        before: The earlier run's id (a baseline).
        after: The later run's id.
        before_store: Another store holding `before` (a baseline kept by CI, say).
    """
    base = before_store or store
    before_metrics = await metrics_for_run(base, before)
    after_metrics = await metrics_for_run(store, after)
    return compare_reports(
        read_run_view(base, before), before_metrics, read_run_view(store, after), after_metrics
    )


def compare_reports(
    before: RunView, before_metrics: MetricsReport, after: RunView, after_metrics: MetricsReport
) -> Comparison:
    """Compare two runs from their views and metrics."""
    return Comparison(
        before_run=before.run_id,
        after_run=after.run_id,
        metrics=_deltas(metric_values(before_metrics), metric_values(after_metrics)),
        failures=_failure_changes(before_metrics.failures.unique, after_metrics.failures.unique),
        scenarios=_scenario_changes(before, before_metrics, after, after_metrics),
    )


def _deltas(before: dict[str, MetricValue], after: dict[str, MetricValue]) -> list[MetricDelta]:
    keys = [*before, *(k for k in after if k not in before)]
    deltas = []
    for key in keys:
        a, b = before.get(key), after.get(key)
        delta = b - a if a is not None and b is not None else None
        deltas.append(MetricDelta(key=key, before=a, after=b, delta=delta))
    return deltas


def _failure_changes(
    before: Sequence[UniqueFailure], after: Sequence[UniqueFailure]
) -> list[FailureChange]:
    unmatched = list(after)
    changes = []
    for old in before:
        new = next((u for u in unmatched if u.id == old.id), None)
        new = new or next((u for u in unmatched if _same_flaw(old, u)), None)
        if new is not None:
            unmatched.remove(new)
        changes.append(_change(old, new))
    changes.extend(_change(None, new) for new in unmatched)
    order = {"fixed": 0, "new": 1, "still_present": 2}
    return sorted(changes, key=lambda c: order[c.status])


def _same_flaw(a: UniqueFailure, b: UniqueFailure) -> bool:
    """One flaw told apart only by ids or numbers, or by which variant represents it."""
    if (a.kind, a.label) != (b.kind, b.label):
        return False
    wordings = {normalize_description(v) for v in [a.description, *a.variants]}
    return bool(wordings & {normalize_description(v) for v in [b.description, *b.variants]})


def _change(old: UniqueFailure | None, new: UniqueFailure | None) -> FailureChange:
    shown = new or old
    assert shown is not None
    status: FailureStatus = "new" if old is None else "fixed" if new is None else "still_present"
    return FailureChange(
        status=status,
        kind=shown.kind,
        description=shown.description,
        before_id=old.id if old else None,
        after_id=new.id if new else None,
        before_episodes=old.episodes if old else [],
        after_episodes=new.episodes if new else [],
    )


def _scenario_changes(
    before: RunView, before_metrics: MetricsReport, after: RunView, after_metrics: MetricsReport
) -> list[ScenarioChange]:
    old, new = _tallies(before, before_metrics), _tallies(after, after_metrics)
    ids = [*old, *(s for s in new if s not in old)]
    return [
        ScenarioChange(
            scenario_id=s,
            status=_scenario_status(old.get(s), new.get(s)),
            before=dict(old.get(s, {})),
            after=dict(new.get(s, {})),
        )
        for s in ids
    ]


def _tallies(run: RunView, metrics: MetricsReport) -> dict[str, Counter[str]]:
    tallies: dict[str, Counter[str]] = {s: Counter() for s in run.scenarios}
    for episode in run.episodes:
        if episode.branch_of is None:
            outcome = metrics.success.episodes.get(episode.episode_id, "unjudged")
            tallies.setdefault(episode.scenario_id, Counter())[outcome] += 1
    return tallies


def _scenario_status(old: Counter[str] | None, new: Counter[str] | None) -> ScenarioStatus:
    if old is None or new is None:
        return "added" if old is None else "removed"
    if old["failed"] and not new["failed"] and new["passed"]:
        return "fixed"
    if old["passed"] and not old["failed"] and new["failed"]:
        return "regressed"
    rate_old, rate_new = _pass_rate(old), _pass_rate(new)
    if rate_old is not None and rate_new is not None:
        if rate_old == rate_new:
            return "unchanged"
        return "improved" if rate_new > rate_old else "worsened"
    return "unchanged" if +old == +new else "changed"


def _pass_rate(tally: Counter[str]) -> float | None:
    judged = tally["passed"] + tally["failed"]
    return tally["passed"] / judged if judged else None

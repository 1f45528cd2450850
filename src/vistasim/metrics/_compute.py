"""Compute a stored run's metrics once and keep them with the run, keyed by metrics version."""

from __future__ import annotations

from vistasim.llm import collect_calls
from vistasim.llm._types import ChatModel
from vistasim.metrics._report import METRICS_VERSION, MetricsReport, compute_metrics
from vistasim.store._read import read_run_view
from vistasim.store._store import Store

__all__ = ["metrics_for_run"]


async def metrics_for_run(
    store: Store, run_id: str, *, judge: ChatModel | None = None, recompute: bool = False
) -> MetricsReport:
    """The run's metrics: stored ones when present, else computed now and stored.

    A judge always recomputes (its scores are what was asked for); its calls are stored with the
    run under the `judge` role. Metrics are kept only for a finished run, and only until the run
    changes again (a resume): a run still writing gets fresh metrics each time.
    """
    stored = store.get_metrics(run_id, str(METRICS_VERSION))
    if stored is not None and not recompute and judge is None:
        return MetricsReport.model_validate(stored)
    fingerprint = store.run_fingerprint(run_id)
    view = read_run_view(store, run_id, snapshots=False)  # no metric reads snapshots
    with collect_calls() as calls:
        report = await compute_metrics(view, judge=judge)
    store.record_calls(run_id, None, calls)
    if view.status == "done" and store.run_fingerprint(run_id) == fingerprint:
        payload = report.model_dump(mode="json")
        store.put_metrics(run_id, str(METRICS_VERSION), payload, fingerprint=fingerprint)
    return report

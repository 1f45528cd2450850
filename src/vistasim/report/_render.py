"""Render a stored run as one self-contained HTML file (no scripts, every text escaped)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from vistasim.errors import MissingExtraError
from vistasim.metrics import MetricsReport, metrics_for_run
from vistasim.report._data import ReportData, build_report_data
from vistasim.store import Store, read_run_view

__all__ = ["render_report", "write_report"]


OUTCOME_MEANINGS = {
    "passed": "criteria met and no agent failure found",
    "failed": "an agent failure: it errored, missed the criteria, or did something wrong",
    "errored": "infrastructure failed (model provider, browser): nothing is known",
    "invalid": "the simulated user failed or decided the result: not counted for the agent",
    "not_applicable": "the user policy cannot play the scenario; never played",
    "unjudged": "still running or interrupted",
}
"""What each outcome means, as the report explains it."""


def render_report(data: ReportData) -> str:
    """The report as HTML. Text from agents and pages is escaped (autoescape on)."""
    try:
        import jinja2
    except ImportError:
        raise MissingExtraError("jinja2", "web") from None
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("vistasim.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template("report.html.j2").render(
        data=data, fmt=_fmt, outcome_meanings=OUTCOME_MEANINGS
    )


async def write_report(
    store: Store, run_id: str, out: str | Path, *, now: datetime | None = None
) -> Path:
    """Write a run's report (computing and storing its metrics if needed); return the path."""
    metrics: MetricsReport = await metrics_for_run(store, run_id)
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    data = build_report_data(read_run_view(store, run_id), metrics, generated_at=stamp)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_report(data), encoding="utf-8")
    return out


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"

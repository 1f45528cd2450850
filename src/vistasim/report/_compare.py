"""Show a comparison of two runs: tables for the terminal, one self-contained HTML page.

Descriptions quote agents and tools verbatim, so the terminal gets `Text` (never markup) and the
page is rendered with autoescape and the same content security policy as the run report.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from vistasim.metrics import Comparison, FailureStatus, MetricDelta

__all__ = ["format_comparison", "render_comparison"]

_FAILURE_TITLES: dict[FailureStatus, str] = {
    "fixed": "Failures fixed (only in the earlier run)",
    "new": "New failures (only in the later run)",
    "still_present": "Failures still present",
}


def format_comparison(comparison: Comparison, *, all_metrics: bool = False) -> Group:
    """The comparison as terminal tables: metric deltas, failures by status, scenario changes.

    Unchanged metrics are left out unless `all_metrics`.
    """
    title = f"Run {comparison.before_run} -> {comparison.after_run}"
    metrics = Table(title=title, title_justify="left")
    for column in ("metric", "before", "after", "change"):
        metrics.add_column(column, justify="left" if column == "metric" else "right")
    for row in _shown(comparison.metrics, all_metrics):
        metrics.add_row(row.key, _value(row.before), _value(row.after), _delta(row))
    parts: list[Table] = [metrics]
    for status, heading in _FAILURE_TITLES.items():
        changes = comparison.failures_by(status)
        table = Table(title=f"{heading}: {len(changes)}", title_justify="left")
        for column in ("id", "kind", "description", "episodes before / after"):
            table.add_column(column)
        for change in changes:
            ids = " -> ".join(dict.fromkeys(i for i in (change.before_id, change.after_id) if i))
            counts = f"{len(change.before_episodes)} / {len(change.after_episodes)}"
            table.add_row(ids, change.kind, Text(change.description), counts)
        parts.append(table)
    scenarios = Table(title="Scenarios (linear rollouts by outcome)", title_justify="left")
    for column in ("scenario", "change", "before", "after"):
        scenarios.add_column(column)
    for scenario in comparison.scenarios:
        before, after = _tally(scenario.before), _tally(scenario.after)
        scenarios.add_row(Text(scenario.scenario_id), scenario.status, before, after)
    parts.append(scenarios)
    return Group(*parts)


def render_comparison(comparison: Comparison, *, generated_at: str) -> str:
    """The comparison as one HTML page (no scripts, no external resource, every text escaped)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("vistasim.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template("compare.html.j2").render(
        c=comparison,
        generated_at=generated_at,
        titles=_FAILURE_TITLES,
        value=_value,
        delta=_delta,
        tally=_tally,
    )


def _shown(rows: list[MetricDelta], all_metrics: bool) -> list[MetricDelta]:
    return [r for r in rows if all_metrics or r.before != r.after]


def _value(value: float | None) -> str:
    if value is None:
        return "n/a"
    return str(int(value)) if float(value).is_integer() else f"{value:.3f}"


def _delta(row: MetricDelta) -> str:
    if row.delta is None:
        return "" if row.before == row.after else "n/a"
    if row.delta == 0:
        return "="
    return f"{row.delta:+.0f}" if float(row.delta).is_integer() else f"{row.delta:+.3f}"


def _tally(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items()) if n) or "-"

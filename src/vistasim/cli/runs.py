"""`vistasim runs`: the runs in a store, newest first, with their agent, outcomes and pass rate.

Outcomes and pass rate come from each run's stored metrics (every `run`, `explore` and `demo`
stores them with its report); a run without them says how to compute them, since computing
them here for every run of a store could take minutes.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click

from vistasim.cli._common import printable, store_option
from vistasim.explore import default_store_path


@click.command("runs")
@store_option
@click.option("-q", "--quiet", is_flag=True,
              help="Print only the run ids, newest first (for scripts).")  # fmt: skip
def command(store_path: Path | None, quiet: bool) -> None:
    """List runs, newest first."""
    from vistasim.metrics import METRICS_VERSION
    from vistasim.report import agent_label
    from vistasim.store import open_store

    path = default_store_path(None, store_path)
    if not path.exists():
        if not quiet:
            click.echo(f"no store at {path} yet: run `vistasim demo` or `vistasim run CONFIG`")
        return
    with open_store(path) as store:
        rows = store.list_runs()
        if quiet:
            click.echo("".join(f"{row.run_id}\n" for row in rows), nl=False)
            return
        figures = {row.run_id: store.get_metrics(row.run_id, str(METRICS_VERSION)) for row in rows}
    # One line of figures and one of labels per run, printed whole: ids are never cut to fit.
    lines = []
    missing = 0
    for row in rows:
        created = datetime.fromtimestamp(row.created_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
        status = f"{row.status}: {row.failure[:80]}" if row.failure else row.status
        outcomes, rate = _figures(figures[row.run_id])
        missing += figures[row.run_id] is None
        lines.append(f"{row.run_id}  {status}, {row.done}/{row.episodes} episodes  "
                     f"{outcomes}  pass rate {rate}")  # fmt: skip
        labels = [row.name or "(no name)", f"agent {agent_label(row.config) or '-'}", created]
        lines.append("    " + " · ".join(labels))
    click.echo(printable("\n".join(lines)))
    if missing:
        click.echo(f"{missing} run(s) without stored metrics: `vistasim metrics RUN` computes them")


def _figures(metrics: dict[str, object] | None) -> tuple[str, str]:
    """Outcomes (branches included) and the linear pass rate from a run's stored metrics."""
    if metrics is None:
        return "-", "-"
    success = metrics.get("success")
    assert isinstance(success, dict)
    counts: dict[str, int] = {}
    for part in ("outcomes", "branch_outcomes"):
        for outcome, n in (success.get(part) or {}).items():
            counts[outcome] = counts.get(outcome, 0) + int(n)
    shown = [f"{counts.get(k, 0)} {k}" for k in ("passed", "failed")]
    shown += [f"{n} {k.replace('_', ' ')}" for k, n in counts.items()
              if n and k not in ("passed", "failed")]  # fmt: skip
    rate = success.get("success_rate")
    return ", ".join(shown), "n/a" if not isinstance(rate, float | int) else f"{rate:.3f}"

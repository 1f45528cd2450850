"""`vistasim report RUN`: write a run's self-contained HTML report."""

from __future__ import annotations

from pathlib import Path

import anyio
import click

from vistasim.cli._common import store_option
from vistasim.explore import default_store_path


@click.command("report")
@click.argument("run_id")
@store_option
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="HTML file (default: reports/RUN_ID.html next to the store).")  # fmt: skip
def command(run_id: str, store_path: Path | None, output: Path | None) -> None:
    """Write the HTML report of a run (metrics are computed and stored if needed)."""
    from vistasim.report import write_report
    from vistasim.store import open_store

    path = default_store_path(None, store_path)
    with open_store(path) as store:
        out = anyio.run(lambda: write_report(store, run_id, output or report_path(path, run_id)))
    click.echo(f"report: {out}")


def report_path(store_path: Path, run_id: str) -> Path:
    """Where a run's report goes by default."""
    return store_path.parent / "reports" / f"{run_id}.html"

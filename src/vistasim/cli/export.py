"""`vistasim export RUN --format jsonl|parquet`: every event of a run, one row each."""

from __future__ import annotations

from pathlib import Path

import click

from vistasim.cli._common import store_option
from vistasim.explore._setup import default_store_path


@click.command("export")
@click.argument("run_id")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "parquet"]), default="jsonl",
              show_default=True)  # fmt: skip
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output file (default: RUN_ID.jsonl / RUN_ID.parquet).")  # fmt: skip
@store_option
def command(run_id: str, fmt: str, output: Path | None, store_path: Path | None) -> None:
    """Export a run's events."""
    from vistasim.store import export_run, open_store

    output = output or Path(f"{run_id}.{fmt}")
    with open_store(default_store_path(None, store_path)) as store:
        rows = export_run(store, run_id, output, fmt=fmt)  # type: ignore[arg-type]
    click.echo(f"wrote {rows} events to {output}")

"""`vistasim export RUN [--format jsonl|parquet] [-o FILE]`: every event of a run, one row each.

Rows go to standard output unless `-o` names a file, so an export pipes into `jq` or a loader;
the count goes to standard error. Parquet is binary: it is refused on a terminal.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO

import click

from vistasim.cli._common import store_option
from vistasim.explore._setup import default_store_path


@click.command("export")
@click.argument("run_id")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "parquet"]), default="jsonl",
              show_default=True)  # fmt: skip
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output file (default: standard output).")  # fmt: skip
@store_option
def command(run_id: str, fmt: str, output: Path | None, store_path: Path | None) -> None:
    """Export a run's events."""
    from vistasim.store import export_run, open_store

    if output is None and fmt == "parquet" and sys.stdout.isatty():
        raise click.UsageError("parquet is binary: give -o FILE, or pipe the output to a file")
    with open_store(default_store_path(None, store_path)) as store:
        target: Path | BinaryIO = output if output is not None else sys.stdout.buffer
        rows = export_run(store, run_id, target, fmt=fmt)  # type: ignore[arg-type]
    click.echo(f"wrote {rows} events to {output or 'standard output'}", err=True)

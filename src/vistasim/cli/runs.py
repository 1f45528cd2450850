"""`vistasim runs`: list the runs in a store."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click
from rich.table import Table

from vistasim.cli._common import console, store_option
from vistasim.explore._setup import default_store_path


@click.command("runs")
@store_option
@click.option("-q", "--quiet", is_flag=True,
              help="Print only the run ids, newest first (for scripts).")  # fmt: skip
def command(store_path: Path | None, quiet: bool) -> None:
    """List runs, newest first."""
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
    table = Table("run", "name", "created (UTC)", "status", "episodes", box=None)
    for row in rows:
        created = datetime.fromtimestamp(row.created_at, UTC).strftime("%Y-%m-%d %H:%M:%S")
        status = f"{row.status}: {row.failure[:80]}" if row.failure else row.status
        table.add_row(row.run_id, row.name or "", created, status, f"{row.done}/{row.episodes}")
    console().print(table)

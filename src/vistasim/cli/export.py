"""`vistasim export RUN [--format jsonl|parquet] [-o FILE]`: every event of a run, one row each.

Rows go to standard output unless `-o` names a file, so an export pipes into `jq` or a loader;
the count goes to standard error. Parquet is binary: it is refused on a terminal.
`--episode ID --as-test` writes one episode as a replayable test instead.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import BinaryIO

import click

from vistasim.cli._common import store_option
from vistasim.errors import ConfigError
from vistasim.explore import default_store_path


@click.command("export")
@click.argument("run_id")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "parquet"]), default="jsonl",
              show_default=True)  # fmt: skip
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Output file (default: standard output); a directory with --as-test "
                   "(default: replay-SCENARIO-ROLLOUT).")  # fmt: skip
@click.option("--episode", metavar="ID", help="The episode --as-test exports (or scenario:0).")
@click.option("--as-test", "as_test", is_flag=True,
              help="Write the episode as a test: scenario, turns, config, pytest.")  # fmt: skip
@store_option
def command(
    run_id: str,
    fmt: str,
    output: Path | None,
    episode: str | None,
    as_test: bool,
    store_path: Path | None,
) -> None:
    """Export a run's events."""
    from vistasim.store import export_run, open_store

    if as_test or episode:
        _export_test(run_id, episode, as_test, output, store_path)
        return
    if output is None and fmt == "parquet" and sys.stdout.isatty():
        raise click.UsageError("parquet is binary: give -o FILE, or pipe the output to a file")
    with open_store(default_store_path(None, store_path)) as store:
        target: Path | BinaryIO = output if output is not None else sys.stdout.buffer
        rows = export_run(store, run_id, target, fmt=fmt)  # type: ignore[arg-type]
    click.echo(f"wrote {rows} events to {output or 'standard output'}", err=True)


def _export_test(
    run_id: str, episode: str | None, as_test: bool, output: Path | None, store_path: Path | None
) -> None:
    from vistasim.report import export_episode_test
    from vistasim.store import open_store

    if not as_test:
        raise ConfigError("--episode exports one episode as a test: add --as-test", key="--episode")
    if not episode:
        raise ConfigError("--as-test needs the episode: add --episode ID", key="--as-test")
    out = output or Path("replay-" + re.sub(r"[^\w.-]+", "-", episode))
    with open_store(default_store_path(None, store_path)) as store:
        files = export_episode_test(store, run_id, episode, out)
    for path in files:
        click.echo(f"wrote {path}")
    click.echo(f"replay: vistasim run {files[2]} --check   (or: pytest {files[3]})")

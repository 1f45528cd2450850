"""`vistasim compare RUN_A RUN_B`: what changed from one run to the next."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import anyio
import click

from vistasim.cli._common import console, store_option
from vistasim.explore import default_store_path


@click.command("compare")
@click.argument("run_a")
@click.argument("run_b")
@store_option
@click.option("--base-store", type=click.Path(dir_okay=False, path_type=Path),
              help="Store holding RUN_A, when it is not --store's (a CI baseline).")  # fmt: skip
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the comparison as one HTML page.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
@click.option("--all", "all_metrics", is_flag=True, help="List unchanged metrics too.")
@click.option("--check", is_flag=True,
              help="Exit 1 when RUN_B regressed: a new failure or a worse scenario.")  # fmt: skip
def command(
    run_a: str,
    run_b: str,
    store_path: Path | None,
    base_store: Path | None,
    html_path: Path | None,
    as_json: bool,
    all_metrics: bool,
    check: bool,
) -> None:
    """Compare RUN_B with RUN_A: metric deltas, failures fixed, new and still present."""
    from vistasim.metrics import compare_runs
    from vistasim.report import format_comparison, render_comparison
    from vistasim.store import open_store

    with open_store(default_store_path(None, store_path)) as store:
        if base_store is None:
            comparison = anyio.run(lambda: compare_runs(store, run_a, run_b))
        else:
            with open_store(base_store) as base:
                comparison = anyio.run(
                    lambda: compare_runs(store, run_a, run_b, before_store=base)
                )
    if as_json:
        click.echo(json.dumps(comparison.model_dump(mode="json"), indent=2))
    else:
        console().print(format_comparison(comparison, all_metrics=all_metrics))
    if html_path is not None:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        html_path.parent.mkdir(parents=True, exist_ok=True)
        html_path.write_text(render_comparison(comparison, generated_at=stamp), encoding="utf-8")
        click.echo(f"comparison: {html_path}", err=as_json)
    if check and comparison.regressed:
        click.echo(f"{comparison.after_run} regressed against {comparison.before_run}", err=True)
        sys.exit(1)

"""The end of a run on the terminal: write its report, say what failed, and where to look next.

`finish` is shared by `run`, `explore` and `demo`. It returns the exit code without `--check`:
1 when no episode could be judged (every one errored, invalid or not applicable: the run says
nothing about the agent), 0 otherwise, whatever the agent's failures.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import click

from vistasim.cli._common import console
from vistasim.explore import RunResult

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["finish", "print_result"]

_SHOWN = 10
"""Failing scenarios named one by one; more are counted."""


def finish(result: RunResult, *, rerun: str | None = None) -> int:
    """Write the run's report, print the summary, and return the exit code.

    Args:
        result: The finished run.
        rerun: The command that reruns the run's config (`vistasim run vistasim.toml`), to
            suggest rerunning a failing scenario alone; `None` for runs without one (the demo).
    """
    path = write_run_report(Path(result.store_path), result.run_id)
    print_result(result, report=path, rerun=rerun)
    if result.judged:
        return 0
    apart = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in result.outcomes.items() if n)
    click.echo(
        f"no episode could be judged ({apart or 'none played'}): the run says nothing about "
        "the agent; exit code 1",
        err=True,
    )
    return 1


def write_run_report(store_path: Path, run_id: str) -> Path:
    """Write a run's HTML report next to its store (computing and storing its metrics)."""
    from vistasim.cli.report import report_path
    from vistasim.report import write_report
    from vistasim.store import open_store

    with open_store(store_path) as store:
        return anyio.run(lambda: write_report(store, run_id, report_path(store_path, run_id)))


def print_result(
    result: RunResult, *, report: Path | None = None, rerun: str | None = None
) -> None:
    """Print a run's outcome, its failing scenarios and the commands to look at it."""
    out = console()
    plural = "" if result.episodes == 1 else "s"
    out.print(f"run {result.run_id}: {result.episodes} episode{plural} in {result.wall_s:.1f}s")
    rate = "n/a" if result.success_rate is None else f"{result.success_rate:.3f}"
    counted = " (branches included)" if result.branches else ""
    out.print(
        f"  passed {result.passed}, failed {result.failed}{counted}; "
        f"success rate {rate} (linear rollouts)"
    )
    apart = ", ".join(
        f"{result.outcomes[k]} {k.replace('_', ' ')}"
        for k in ("errored", "invalid", "not_applicable", "unjudged")
        if result.outcomes.get(k)
    )
    if apart:
        out.print(f"  not judged: {apart}")
    failing = result.failing_scenarios
    if failing:
        named = ", ".join(failing[:_SHOWN])
        more = f", and {len(failing) - _SHOWN} more" if len(failing) > _SHOWN else ""
        out.print(f"  failing scenarios ({len(failing)}): {named}{more}")
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(result.stop_reasons.items()))
    out.print(f"  stop reasons: {reasons}")
    if result.branches:
        made = ", ".join(f"{v} {k}" for k, v in result.branches.items())
        out.print(f"  branches: {sum(result.branches.values())} ({made})")
    for warning in result.warnings:  # said before the run too; a long run scrolls it away
        out.print(f"  warning: {warning}")
    if report is not None:
        out.print(f"  report:      {report}")
    _print_next(out, result, rerun)


def _print_next(printer: Console, result: RunResult, rerun: str | None) -> None:
    store = f" --store {result.store_path}"
    printer.print(f"  stored in {result.store_path}")
    what = "why each failed:" if result.failed else "episodes:   "
    printer.print(f"  {what} vistasim show {result.run_id}{store}")
    if result.branches:
        printer.print(f"  a tree:      vistasim show {result.run_id} --tree SCENARIO{store}")
    if rerun and result.failing_scenarios:
        printer.print(f"  rerun one:   {rerun} --scenario {result.failing_scenarios[0]}")
    printer.print(f"  export:      vistasim export {result.run_id} --format jsonl{store}")

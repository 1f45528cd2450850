"""The few lines printed after a run: counts, where the results are, what to run next."""

from __future__ import annotations

from vistasim.cli._common import console
from vistasim.explore import RunResult


def print_result(result: RunResult) -> None:
    """Print a run's outcome and the commands to look at it."""
    out = console()
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(result.stop_reasons.items()))
    plural = "" if result.episodes == 1 else "s"
    out.print(f"run {result.run_id}: {result.episodes} episode{plural} in {result.wall_s:.1f}s")
    apart = ", ".join(
        f"{result.outcomes[k]} {k.replace('_', ' ')}"
        for k in ("errored", "invalid", "not_applicable", "unjudged")
        if result.outcomes.get(k)
    )
    out.print(
        f"  passed {result.passed}, failed {result.failed}"
        + (f"; not judged: {apart}" if apart else "")
    )
    out.print(f"  stop reasons: {reasons}")
    if result.branches:
        made = ", ".join(f"{v} {k}" for k, v in result.branches.items())
        out.print(f"  branches: {sum(result.branches.values())} ({made})")
    for warning in result.warnings:  # said before the run too; a long run scrolls it away
        out.print(f"  warning: {warning}")
    out.print(f"  stored in {result.store_path}")
    store = f" --store {result.store_path}"
    out.print(f"  transcripts: vistasim show {result.run_id}{store}")
    if result.branches:
        out.print(f"  a tree:      vistasim show {result.run_id} --tree SCENARIO{store}")
    out.print(f"  export:      vistasim export {result.run_id} --format jsonl{store}")

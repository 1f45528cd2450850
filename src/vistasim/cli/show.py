"""`vistasim show RUN [--episode ID | --tree SCENARIO]`: episodes and why each failed, or one.

The listing reads the episodes' rows and the run's stored metrics (computed and stored once when
missing), never every event, so it answers in about a second on a run of 10,000 episodes. Ids
are printed whole, never cut to fit the terminal: what `show` prints, `--episode` accepts.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import anyio
import click

from vistasim.cli._common import console, printable, store_option
from vistasim.errors import StoreError
from vistasim.events import describe_event
from vistasim.explore import default_store_path
from vistasim.metrics import MetricsReport
from vistasim.store import EpisodePlan, Store


@click.command("show")
@click.argument("run_id")
@click.option("--episode", "episode_id", help="Episode id (or a unique suffix like scenario:0).")
@click.option("--tree", "tree_of", metavar="SCENARIO", help="The scenario's rollouts and branches.")
@store_option
def command(
    run_id: str, episode_id: str | None, tree_of: str | None, store_path: Path | None
) -> None:
    """Show a run's episodes, or one episode's transcript."""
    from vistasim.metrics import metrics_for_run
    from vistasim.store import open_store

    with open_store(default_store_path(None, store_path)) as store:
        run = store.read_run(run_id)  # a clear error for an unknown run
        metrics = anyio.run(lambda: metrics_for_run(store, run_id))
        if tree_of is not None:
            _print_tree(store, run_id, tree_of, metrics)
        elif episode_id is None:
            _print_episodes(store.list_episodes(run_id), run_id, run.status, metrics)
        else:
            _print_transcript(store, _find(store, run_id, episode_id), metrics)


def _find(store: Store, run_id: str, episode_id: str) -> EpisodePlan:
    episodes = store.list_episodes(run_id)
    matches = [e for e in episodes if e.episode_id == episode_id]
    matches = matches or [e for e in episodes if e.episode_id.endswith(episode_id)]
    if len(matches) != 1:
        known = ", ".join(e.episode_id.removeprefix(f"{run_id}:") for e in episodes[:8])
        raise StoreError(f"no single episode matches {episode_id!r} in run {run_id}; e.g. {known}")
    return matches[0]


def _print_episodes(
    episodes: list[EpisodePlan], run_id: str, status: str, metrics: MetricsReport
) -> None:
    from vistasim.report import failures_by_episode, why

    outcomes = metrics.success.episodes
    found = failures_by_episode(metrics)
    rate = "n/a" if metrics.success_rate is None else f"{metrics.success_rate:.3f}"
    counts = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in _tally(outcomes).items())
    lines = [
        f"run {run_id} ({status}), {len(episodes)} episodes: {counts}; success rate {rate}",
        "failed first, then the rest not passed, then passed; each in run order",
    ]
    width = max((len(e.episode_id) for e in episodes), default=0) - len(run_id) - 1
    order = {"failed": 0, "passed": 2}
    for plan in sorted(episodes, key=lambda e: order.get(outcomes.get(e.episode_id, ""), 1)):
        short = plan.episode_id.removeprefix(f"{run_id}:")
        outcome = outcomes.get(plan.episode_id, "unjudged")
        stop = plan.stop_reason or "-"
        parent = (plan.branch_of or "").removeprefix(f"{run_id}:")
        branch = f"  branch of {parent}" if parent else ""
        lines.append(f"{short:<{width}}  {outcome:<14} {plan.turns:>3} turns  {stop}{branch}")
        reason = why(metrics, plan.episode_id, found.get(plan.episode_id, []))
        if reason:
            lines.append(f"    why: {reason}")
    lines.append(f"one transcript: vistasim show {run_id} --episode <episode>")
    click.echo(printable("\n".join(lines)))


def _print_transcript(store: Store, plan: EpisodePlan, metrics: MetricsReport) -> None:
    from vistasim.report import failures_by_episode

    outcome = metrics.success.episodes.get(plan.episode_id, "unjudged")
    lines = [f"episode {plan.episode_id} ({plan.status}): {outcome}"]
    reason = metrics.success.reasons.get(plan.episode_id)
    if reason:
        lines.append(f"why: {reason}")
    for failure in failures_by_episode(metrics).get(plan.episode_id, []):
        events = ", ".join(str(i) for i in failure.evidence.get(plan.episode_id, []))
        lines.append(f"failure {failure.id} ({failure.kind}): {failure.description}"
                     + (f" [events {events}]" if events else ""))  # fmt: skip
    forked = False
    for stored in store.read_path(plan.leaf_event_id) if plan.leaf_event_id else []:
        if plan.branch_of and not forked and stored.episode_id == plan.episode_id:
            forked = True
            lines.append(f"---- the branch starts here (before: {plan.branch_of}) ----")
        for line in describe_event(stored.event, limit=160):
            lines.append(f"[{stored.turn:>2}] {_PREFIX[line.who]}{line.text}")
            if line.effect:
                lines.append(f"       effect: {line.effect}")
    click.echo(printable("\n".join(lines)))


def _print_tree(store: Store, run_id: str, scenario_id: str, metrics: MetricsReport) -> None:
    from vistasim.cli._tree import scenario_tree
    from vistasim.store import read_run_view

    view = read_run_view(store, run_id, snapshots=False)
    console().print(scenario_tree(view, scenario_id, dict(metrics.success.episodes)))


def _tally(outcomes: Mapping[str, str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for outcome in outcomes.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (kv[0] != "passed", kv[0] != "failed")))


_PREFIX = {
    "user": "user:  ",
    "agent": "agent: ",
    "tool": "  tool ",
    "api": "user api ",
    "web": "user web ",
    "verdict": "judgment ",
    "note": "note: ",
    "stop": "stop: ",
}

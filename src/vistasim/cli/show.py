"""`vistasim show RUN [--episode ID]`: episodes of a run, or one readable transcript."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from vistasim.cli._common import console, store_option
from vistasim.errors import StoreError
from vistasim.events import Judgment, describe_event
from vistasim.explore._setup import default_store_path
from vistasim.store import EpisodeView, RunView


@click.command("show")
@click.argument("run_id")
@click.option("--episode", "episode_id", help="Episode id (or a unique suffix like scenario:0).")
@click.option("--tree", "tree_of", metavar="SCENARIO", help="The scenario's rollouts and branches.")
@store_option
def command(
    run_id: str, episode_id: str | None, tree_of: str | None, store_path: Path | None
) -> None:
    """Show a run's episodes, or one episode's transcript."""
    from vistasim.store import open_store, read_run_view

    with open_store(default_store_path(None, store_path)) as store:
        view = read_run_view(store, run_id)
    if tree_of is not None:
        from vistasim.cli._tree import scenario_tree
        from vistasim.metrics import success

        console().print(scenario_tree(view, tree_of, dict(success(view).episodes)))
    elif episode_id is None:
        _print_episodes(view)
    else:
        _print_transcript(_find(view, episode_id))


def _find(view: RunView, episode_id: str) -> EpisodeView:
    matches = [e for e in view.episodes if e.episode_id == episode_id]
    matches = matches or [e for e in view.episodes if e.episode_id.endswith(episode_id)]
    if len(matches) != 1:
        known = ", ".join(e.episode_id.removeprefix(f"{view.run_id}:") for e in view.episodes[:8])
        raise StoreError(
            f"no single episode matches {episode_id!r} in run {view.run_id}; e.g. {known}"
        )
    return matches[0]


def _print_episodes(view: RunView) -> None:
    from vistasim.metrics import success

    report = success(view)
    table = Table("episode", "status", "turns", "stop", "criteria", "outcome", box=None)
    for ep in view.episodes:
        verdict = next(
            (
                e.event
                for e in ep.events
                if isinstance(e.event, Judgment) and e.event.judge == "criteria"
            ),
            None,
        )
        passed = "-" if verdict is None else ("pass" if verdict.passed else "FAIL")
        turns = max((e.turn for e in ep.events), default=0)
        outcome = report.episodes.get(ep.episode_id, "unjudged")
        why = report.reasons.get(ep.episode_id)
        table.add_row(ep.episode_id.removeprefix(f"{view.run_id}:"), ep.status, str(turns),
                      str(ep.stop_reason or "-"), passed,
                      Text(f"{outcome} ({why})" if why else outcome))  # fmt: skip
    out = console()
    out.print(f"run {view.run_id} ({view.status}), {len(view.episodes)} episodes")
    out.print(table)
    out.print(f"one transcript: vistasim show {view.run_id} --episode <episode>")


def _print_transcript(ep: EpisodeView) -> None:
    out = console()
    out.print(f"episode {ep.episode_id} ({ep.status})")
    for stored in ep.events:
        for line in describe_event(stored.event, limit=160):
            out.print(f"[{stored.turn:>2}] {_PREFIX[line.who]}{_printable(line.text)}")


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


_CONTROL = {code: f"\\x{code:02x}" for code in (*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F)}


def _printable(text: str) -> str:
    # Agent text is untrusted: terminal escape sequences are shown, never interpreted.
    return text.translate(_CONTROL)

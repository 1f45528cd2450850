"""`vistasim show RUN [--episode ID]`: episodes of a run, or one readable transcript."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from vistasim.cli._common import console, store_option
from vistasim.errors import StoreError
from vistasim.events import (
    AgentReply,
    ApiCall,
    Event,
    Judgment,
    Note,
    Snapshot,
    Stop,
    ToolCall,
    UserMessage,
    WebAction,
)
from vistasim.explore._setup import default_store_path
from vistasim.store import EpisodeView, RunView


@click.command("show")
@click.argument("run_id")
@click.option("--episode", "episode_id", help="Episode id (or a unique suffix like scenario:0).")
@store_option
def command(run_id: str, episode_id: str | None, store_path: Path | None) -> None:
    """Show a run's episodes, or one episode's transcript."""
    from vistasim.store import open_store, read_run_view

    with open_store(default_store_path(None, store_path)) as store:
        view = read_run_view(store, run_id)
    if episode_id is None:
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
        line = _line(stored.event)
        if line:
            out.print(f"[{stored.turn:>2}] {_printable(line)}")


def _line(event: Event) -> str | None:  # noqa: C901 - one branch per event kind
    if isinstance(event, UserMessage):
        return f"user:  {event.text}"
    if isinstance(event, AgentReply):
        return f"agent: {event.text}"
    if isinstance(event, ToolCall):
        outcome = f"error: {event.error}" if event.error else _short(event.result)
        return f"  tool {event.name}({_short(event.args)}) -> {outcome}"
    if isinstance(event, ApiCall):
        outcome = f"error: {event.error}" if event.error else _short(event.result)
        return f"user api {event.name}({_short(event.args)}) -> {outcome}"
    if isinstance(event, WebAction):
        return f"user web {event.action} {event.target or ''} {event.value or ''}".rstrip()
    if isinstance(event, Judgment):
        checks = "; ".join(
            f"{'ok' if c.get('passed') else 'FAILED'}: {c.get('check')}" for c in event.checks
        )
        return f"judgment ({event.judge}): {'pass' if event.passed else 'FAIL'} - {checks}"
    if isinstance(event, Note):
        return f"note: {event.text}"
    if isinstance(event, Stop):
        return f"stop: {event.reason.value}" + (f" ({event.detail})" if event.detail else "")
    if isinstance(event, Snapshot):
        return None
    return None


def _short(value: object, limit: int = 160) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


_CONTROL = {code: f"\\x{code:02x}" for code in (*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F)}


def _printable(text: str) -> str:
    # Agent text is untrusted: terminal escape sequences are shown, never interpreted.
    return text.translate(_CONTROL)

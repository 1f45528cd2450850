"""Progress of a run while it plays: episodes done, failing so far, tokens and dollars spent.

On a terminal a live bar (rich) on stderr; otherwise (CI logs, pipes) at most one line per tenth
of the run, so a log of 10,000 episodes gets eleven lines, not ten thousand. The figures come
from the store (`read_tally`), read at most once a second from a connection of our own.
"""

from __future__ import annotations

import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from vistasim.cli._common import console
from vistasim.errors import StoreError
from vistasim.store import EpisodePlan, Store, open_store, read_tally

__all__ = ["progress_bar"]

ProgressCallback = Callable[[int, int, EpisodePlan, str], None]


@contextmanager
def progress_bar(label: str, store_path: Path) -> Iterator[ProgressCallback]:
    """A progress callback for `vistasim.run`: a live bar on a terminal, periodic lines if not."""
    tally = _Tally(store_path)
    try:
        if sys.stderr.isatty():
            with _live(label, tally) as update:
                yield update
        else:
            yield _lines(label, tally)
    finally:
        tally.close()


@contextmanager
def _live(label: str, tally: _Tally) -> Iterator[ProgressCallback]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[tally]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console(stderr=True), transient=True) as progress:
        task = progress.add_task(label, total=None, tally="")

        def update(done: int, total: int, plan: EpisodePlan, reason: str) -> None:
            figures = tally.text(_run_of(plan), fresh=done >= total)
            progress.update(task, completed=done, total=total, tally=figures)

        yield update


def _lines(label: str, tally: _Tally) -> ProgressCallback:
    shown = {-1}

    def update(done: int, total: int, plan: EpisodePlan, reason: str) -> None:
        step = done * 10 // max(total, 1)
        if step not in shown:
            shown.add(step)
            figures = tally.text(_run_of(plan), fresh=True)
            click.echo(f"{label}: {done}/{total} episodes · {figures}", err=True)

    return update


def _run_of(plan: EpisodePlan) -> str:
    return plan.episode_id.split(":", 1)[0]  # episode ids are RUN:SCENARIO:ROLLOUT


class _Tally:
    """The store's figures of a run in a few words, re-read at most once per `every_s`."""

    def __init__(self, store_path: Path, *, every_s: float = 1.0) -> None:
        self._path = store_path
        self._every_s = every_s
        self._store: Store | None = None
        self._at = -every_s
        self._text = ""

    def text(self, run_id: str, *, fresh: bool = False) -> str:
        now = time.monotonic()
        if not fresh and now - self._at < self._every_s:
            return self._text
        self._at = now
        try:
            if self._store is None:
                self._store = open_store(self._path)
            figures = read_tally(self._store, run_id)
        except (sqlite3.Error, StoreError):
            return self._text  # a busy store only delays the figures; the run goes on
        self._text = (
            f"{figures.failing} failing · {_tokens(figures.tokens)} tokens · "
            f"${figures.cost_usd:.4f}"
        )
        return self._text

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


def _tokens(n: int) -> str:
    """Tokens in a few characters.

    >>> _tokens(950), _tokens(12_345), _tokens(3_200_000)
    ('950', '12.3k', '3.20M')
    """
    if n < 1000:
        return str(n)
    return f"{n / 1000:.1f}k" if n < 1_000_000 else f"{n / 1_000_000:.2f}M"

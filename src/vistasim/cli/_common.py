"""Options and helpers shared by the commands: the store option, progress, error printing."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console

from vistasim.store import EpisodePlan

F = TypeVar("F", bound=Callable[..., Any])


def store_option(fn: F) -> F:
    """Add `--store PATH` (default: the config's, else `$VISTASIM_HOME/vistasim.db`)."""
    return click.option(
        "--store",
        "store_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Store file (default: $VISTASIM_HOME/vistasim.db).",
    )(fn)


def console(*, stderr: bool = False) -> Console:
    """A console that does not interpret markup in the text we print (agent text is untrusted)."""
    return Console(stderr=stderr, markup=False, highlight=False, soft_wrap=True)


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int, EpisodePlan, str], None]]:
    """A progress bar on stderr when it is a terminal; one line per 10% otherwise."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    if not sys.stderr.isatty():
        yield _plain_progress(label)
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console(stderr=True), transient=True) as progress:
        task = progress.add_task(label, total=None)

        def update(done: int, total: int, plan: EpisodePlan, reason: str) -> None:
            progress.update(task, completed=done, total=total)

        yield update


def _plain_progress(label: str) -> Callable[[int, int, EpisodePlan, str], None]:
    shown = {-1}

    def update(done: int, total: int, plan: EpisodePlan, reason: str) -> None:
        step = done * 10 // max(total, 1)
        if step not in shown:
            shown.add(step)
            click.echo(f"{label}: {done}/{total} episodes", err=True)

    return update

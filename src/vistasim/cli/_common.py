"""Options and helpers shared by the commands: the store option, progress, error printing."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.console import Console

from vistasim.store import EpisodePlan

if TYPE_CHECKING:
    from vistasim.llm import ChatModel, ChatRequest, ChatResponse

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


class CallProgress:
    """A chat model that says on stderr how many of a long job's model calls are done.

    Judging a run or generating scenarios makes one call per episode or batch, each of which
    may take a minute on a slow model: without this, the command sits silent.
    """

    def __init__(self, model: ChatModel, *, label: str, total: int) -> None:
        self.model = model
        self.name = model.name
        self._label = label
        self._total = max(total, 1)
        self._done = 0
        self._shown = -1

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """Answer through the wrapped model, then report progress (failed calls count too)."""
        try:
            return await self.model.complete(request)
        finally:
            self._done += 1
            self._show()

    async def aclose(self) -> None:
        """Close the wrapped model."""
        aclose = getattr(self.model, "aclose", None)
        if aclose is not None:
            await aclose()

    def _show(self) -> None:
        # Every call for a short job; every tenth of the way for a long one.
        step = self._done if self._total <= 20 else self._done * 10 // self._total
        if step == self._shown:
            return
        self._shown = step
        extra = " (repairs included)" if self._done > self._total else ""
        click.echo(f"{self._label}: {self._done}/{self._total} model calls{extra}", err=True)

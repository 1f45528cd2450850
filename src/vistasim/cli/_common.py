"""Options and helpers shared by the commands: the store option, consoles, model-call progress.

`rich` is imported when a console is made, not with this module: `vistasim run` off a terminal
prints nothing through it before its first model call (start-up is a benchmarked figure).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from rich.console import Console

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


def scenario_options(fn: F) -> F:
    """Add `--scenario ID` and `--tag TAG` (both repeatable) and `--seed N`: rerun one alone."""
    seed = click.option("--seed", type=int, help="Run seed; each episode's derives from it.")
    tag = click.option("--tag", "tags", multiple=True, metavar="TAG",
                       help="Only scenarios with this tag (repeatable: any of them).")  # fmt: skip
    scenario = click.option(
        "--scenario", "select", multiple=True, metavar="ID",
        help="Only this scenario; globs: 'shop-flaw-*' (repeatable).",
    )  # fmt: skip
    return scenario(tag(seed(fn)))


def executor_option(fn: F) -> F:
    """Add `--executor local|ray`: where the episodes play (`run.executor`)."""
    return click.option(
        "--executor",
        type=click.Choice(["local", "ray"]),
        help="Play episodes in this process (local, default) or on Ray workers (ray; "
        "RAY_ADDRESS or run.ray_address names a cluster).",
    )(fn)


def console(*, stderr: bool = False) -> Console:
    """A console that does not interpret markup in the text we print (agent text is untrusted)."""
    from rich.console import Console

    return Console(stderr=stderr, markup=False, highlight=False, soft_wrap=True)


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


_CONTROL = {code: f"\\x{code:02x}" for code in (*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F)}


def printable(text: str) -> str:
    """`text` with control characters shown as escapes, never sent to the terminal."""
    # Agent text is untrusted: terminal escape sequences are shown, never interpreted.
    return text.translate(_CONTROL)

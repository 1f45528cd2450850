"""Ground truth for measuring vistasim's verdicts: which documented flaw fired in which turn.

Agents whose flaws are known (the built-in rule agents, the held-out agents of the benchmarks)
call `note_flaw` at the moment a flaw changes what they do. The notes go to a process-wide
recorder that only a benchmark or a test reads; nothing vistasim stores, and so no detector,
ever sees them. That is the point: `benchmarks/validity.py` compares the detectors' verdicts with
this channel to measure precision and recall.

>>> from vistasim.agent import Turn
>>> with record_flaws() as fired:
...     note_flaw(Turn(episode_id="e:0", message="hi"), "demo:F1")
>>> [(f.episode_id, f.message_index, f.flaw) for f in fired]
[('e:0', 0, 'demo:F1')]
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vistasim.agent import Turn

__all__ = ["FlawFired", "answering", "note_flaw", "note_flaw_now", "record_flaws"]


@dataclass(frozen=True, kw_only=True)
class FlawFired:
    """One documented flaw changing an agent's behaviour."""

    episode_id: str
    """The episode (`Turn.episode_id`) in which it fired."""
    message_index: int
    """How many user messages the agent had received before the one it was answering."""
    flaw: str
    """The flaw's documented id, prefixed by its agent, e.g. `shop:F2`."""


_lock = threading.Lock()
_recorders: list[list[FlawFired]] = []
_answering: ContextVar[Turn | None] = ContextVar("vistasim_answering", default=None)


def note_flaw(turn: Turn, flaw: str) -> None:
    """Record that `flaw` fired while answering `turn` (a no-op when nobody records)."""
    with _lock:
        if not _recorders:
            return
        user_messages = sum(1 for u in turn.history if u.role == "user")
        fired = FlawFired(episode_id=turn.episode_id, message_index=user_messages, flaw=flaw)
        for recorder in _recorders:
            recorder.append(fired)


@contextmanager
def answering(turn: Turn) -> Iterator[None]:
    """Mark the block as the agent answering `turn`, for `note_flaw_now` deep inside it."""
    token = _answering.set(turn)
    try:
        yield
    finally:
        _answering.reset(token)


def note_flaw_now(flaw: str) -> None:
    """Record that `flaw` fired while answering the turn of the enclosing `answering` block."""
    turn = _answering.get()
    if turn is not None:
        note_flaw(turn, flaw)


@contextmanager
def record_flaws() -> Iterator[list[FlawFired]]:
    """Collect every `note_flaw` made inside the block (from any task or thread)."""
    fired: list[FlawFired] = []
    with _lock:
        _recorders.append(fired)
    try:
        yield fired
    finally:
        with _lock:
            _recorders.remove(fired)

"""Usage records of model calls, collected per episode without threading a logger everywhere.

The episode loop opens `collect_calls()`; every `RoleModel` call made inside it (in that task)
appends a `ModelCall`. The runner stores them with the turn they belong to.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from vistasim.llm._usage import TokenUsage

_CALLS: ContextVar[list[ModelCall] | None] = ContextVar("vistasim_model_calls", default=None)


@dataclass(frozen=True, kw_only=True)
class ModelCall:
    """One model call as metered: who called, what it cost."""

    role: str
    """`user`, `agent`, `judge`, `chooser`, `generator`, `embedder`."""
    model: str
    usage: TokenUsage
    latency_s: float
    cost_usd: float
    cache_hit: bool = False
    """Served from the record/replay cache: no tokens were spent."""
    attempts: int = 1
    """Number of tries, including the successful one."""
    error: str | None = None
    """Set when the call failed after all retries."""


@contextmanager
def collect_calls() -> Iterator[list[ModelCall]]:
    """Collect the `ModelCall`s made in this context (and tasks started from it)."""
    calls: list[ModelCall] = []
    token = _CALLS.set(calls)
    try:
        yield calls
    finally:
        _CALLS.reset(token)


def record_call(call: ModelCall) -> None:
    """Append a call to the innermost open `collect_calls()`, if any."""
    calls = _CALLS.get()
    if calls is not None:
        calls.append(call)

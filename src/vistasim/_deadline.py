"""`fail_after` as a plain class: the same timeout, a few microseconds cheaper each use.

`anyio.fail_after` is a generator context manager wrapping another (`fail_at`), and looks the
async backend up three times; a user turn enters such bounds around the role's model call, the
HTTP exchange inside it, and the Python agent's call. This class does the same in ~7 µs instead
of ~10 (benchmarks/README.md, engine.py, "fifth pass"); the timer the cancel scope schedules is
most of what is left.

`fail_after(delay, unless_bounded=True)` enters no scope at all when the task is already inside a
`fail_after` of its own that ends no later: the HTTP exchange of a role's model call, whose bound
is the role's (the same number of seconds, entered first), so a turn schedules two timers instead
of three (benchmarks/README.md, "eleventh pass"). The enclosing bound then ends the block, as it
already did whenever it expired first; only when both used to expire in one late pass of the
event loop did the inner one's error win, and now the outer one's always does.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar, Token
from types import TracebackType

import anyio
from anyio._core._eventloop import get_async_backend

__all__ = ["fail_after"]

_Bound = tuple["asyncio.Task[object] | None", anyio.CancelScope]

_innermost: ContextVar[_Bound | None] = ContextVar("vistasim_innermost_deadline", default=None)
"""The task inside the innermost `fail_after` of this context, and that bound's scope (whose
deadline is read when asked: a caller may move it).

A task started inside the block inherits this context without being bounded by the block (a task
group made outside it), hence the task: only the task that entered the bound relies on it.
"""


def _current_task() -> asyncio.Task[object] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # not on asyncio: never treated as bounded
        return None


class fail_after:  # noqa: N801 - a drop-in for `anyio.fail_after`, named as it is
    """Cancel the block after `delay` seconds and raise `TimeoutError`, as `anyio.fail_after`.

    No `shield` or `reason` arguments: no caller of ours passes them. With `unless_bounded`, a
    block this task already runs inside a `fail_after` ending no later than `delay` from now is
    left to that bound (no scope, no timer); a shielded scope in between would escape it, and no
    caller of ours shields a model call.

    >>> async def main():
    ...     with fail_after(0.01):
    ...         await anyio.sleep(1)
    >>> anyio.run(main)
    Traceback (most recent call last):
    TimeoutError
    """

    __slots__ = ("_delay", "_scope", "_token", "_unless_bounded")

    def __init__(self, delay: float, *, unless_bounded: bool = False) -> None:
        self._delay = delay
        self._unless_bounded = unless_bounded
        self._scope: anyio.CancelScope | None = None
        self._token: Token[_Bound | None] | None = None

    def __enter__(self) -> anyio.CancelScope | None:
        # `anyio.current_time()` and `anyio.CancelScope()` would each look the backend up.
        backend = get_async_backend()
        deadline = backend.current_time() + self._delay
        task = _current_task()
        if self._unless_bounded and task is not None:
            bound = _innermost.get()
            if bound is not None and bound[0] is task and bound[1].deadline <= deadline:
                return None
        scope = self._scope = backend.create_cancel_scope(deadline=deadline)
        entered = scope.__enter__()
        self._token = _innermost.set((task, scope))
        return entered

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        scope = self._scope
        if scope is None:  # left to the enclosing bound
            return None
        assert self._token is not None
        _innermost.reset(self._token)
        swallowed = bool(scope.__exit__(exc_type, exc, tb))
        # As `anyio.fail_at`: a cancellation this scope caught at or after its deadline is the
        # timeout; one caught earlier (`scope.cancel()`) just ends the block.
        if scope.cancelled_caught and anyio.current_time() >= scope.deadline:
            raise TimeoutError
        return swallowed or None

"""Keep an agent's blocking code from hanging the run or the process.

A sync agent runs in a thread so its timeout can fire on the event loop. The thread is a daemon
thread of its own: a call abandoned at its timeout (a deadlocked client, `sleep(inf)`) keeps
running, but it cannot keep the process alive once the run is over, as a pool worker would.

An async agent runs on the event loop itself; if it blocks (sync I/O, `time.sleep`), no timeout
can fire until it returns. `timed_steps` measures every synchronous step of its coroutine, so
the adapter can tell that this agent, and not another one, blocked the loop.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import anyio.from_thread
import anyio.lowlevel

__all__ = ["StepTimes", "run_in_daemon_thread", "timed_steps"]

T = TypeVar("T")


async def run_in_daemon_thread(fn: Callable[[], T], *, name: str = "vistasim-agent") -> T:
    """Run blocking `fn` in a new daemon thread and return its result (or raise its error).

    Cancelling the caller abandons the thread: it runs on, but never delays the process's exit.
    """
    token = anyio.lowlevel.current_token()
    done = anyio.Event()
    results: list[T] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append(fn())
        except BaseException as exc:  # handed to the caller, which re-raises it
            errors.append(exc)
        try:
            anyio.from_thread.run_sync(done.set, token=token)
        except RuntimeError:
            pass  # the event loop is gone: nobody waits for this abandoned call any more

    threading.Thread(target=work, name=name, daemon=True).start()
    await done.wait()
    if errors:
        raise errors[0]
    return results[0]


@dataclass
class StepTimes:
    """How long the synchronous steps of a coroutine held the event loop."""

    longest_s: float = 0.0
    """The longest step: time between resuming the coroutine and its next suspension."""


def timed_steps(awaitable: Awaitable[T], times: StepTimes) -> Awaitable[T]:
    """Await `awaitable`, recording in `times` its longest stretch without yielding the loop."""
    return _Timed(awaitable, times)


class _Timed(Awaitable[T]):
    def __init__(self, awaitable: Awaitable[T], times: StepTimes) -> None:
        self._awaitable = awaitable
        self._times = times

    def __await__(self) -> Generator[Any, Any, T]:
        # `yield from` with a stopwatch around each send/throw into the inner coroutine.
        steps = self._awaitable.__await__()
        sent: Any = None
        thrown: BaseException | None = None
        while True:
            started = time.monotonic()
            try:
                yielded = steps.send(sent) if thrown is None else steps.throw(thrown)
            except StopIteration as stop:
                result: T = stop.value
                return result
            finally:
                self._times.longest_s = max(self._times.longest_s, time.monotonic() - started)
            try:
                sent, thrown = (yield yielded), None
            except BaseException as exc:  # cancellation and errors go on into the coroutine
                sent, thrown = None, exc

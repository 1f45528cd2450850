"""Fewer garbage collections while a run plays: the collector was ~8 % of a chat run's CPU.

A run allocates a few hundred objects a turn (events, model messages, HTTP requests, futures),
some of them in reference cycles that only the cyclic collector frees (asyncio tasks and their
futures, exceptions and their tracebacks). With Python's default threshold (a collection every
700 net allocations) a 3,000-turn run collected ~480 times, and each of the ~4 full collections
walked every object of the process, the imported modules and pydantic's schemas included
(~25 ms each). `fewer_collections` raises the first threshold for the length of the run, so
young objects are collected about as often as a few turns' worth of them accumulate, and moves
what exists when the run starts to the collector's permanent generation (`gc.freeze`), so a full
collection walks only what the run made. Both are undone when the run ends; what was frozen is
collected as usual from then on. Memory is bounded the same way: garbage in cycles waits at most
`_THRESHOLD` allocations instead of 700.

The command line does not collect at all while it loads a run (`vistasim._collect`); entering
a run, after the freeze, turns collection back on.

A process that froze objects itself keeps them frozen: its freeze is its own, so it is left alone.
Nested or concurrent runs in one process change the collector once, for the outermost run.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from vistasim._collect import resume_collection

__all__ = ["fewer_collections"]

_THRESHOLD = 10_000
"""Net allocations between two young collections during a run (Python's default: 700)."""

_lock = threading.Lock()
_depth = 0
_restore: tuple[tuple[int, int, int], bool] | None = None
"""The thresholds before the outermost run, and whether it froze the heap."""


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect less often, and never walk the objects made before, while the block runs."""
    global _depth, _restore
    with _lock:
        _depth += 1
        if _depth == 1:
            before = gc.get_threshold()
            freeze = gc.get_freeze_count() == 0
            _restore = (before, freeze)
            if freeze:
                gc.freeze()
            if before[0]:  # 0: the process turned collection off; left off
                gc.set_threshold(max(before[0], _THRESHOLD), before[1], before[2])
    resume_collection()  # paused while the command line loaded the run (vistasim._collect)
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _restore is not None:
                (before, froze), _restore = _restore, None
                gc.set_threshold(*before)
                if froze:
                    gc.unfreeze()

"""No garbage collection while a command that runs episodes loads; the run turns it back on.

Start-up is a benchmarked figure (`vistasim run` to its first model call). Loading a run imports
~500 modules and builds pydantic's schemas and the config: objects that nearly all live as long
as the process, so the cyclic collector's ~130 passes over them (a full one included) free next
to nothing and cost ~10 % of the start-up's CPU. `vistasim run`, `explore` and `demo` pause the
collector from the command line's start until their run begins: the run's `fewer_collections`
freezes what exists then (so no later collection walks it) and turns collection back on. A
command that stops before its run (a bad config, `--help`) turns it back on as it returns.

A process that turned collection off itself keeps it off: only a pause taken here is undone.
"""

from __future__ import annotations

import gc

__all__ = ["pause_collection", "resume_collection"]

_paused = False


def pause_collection() -> None:
    """Turn the cyclic collector off until `resume_collection` (if it is on)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_collection() -> None:
    """Turn the collector back on if `pause_collection` turned it off; otherwise nothing."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()

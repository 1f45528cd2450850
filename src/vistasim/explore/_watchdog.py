"""Notice an event loop that stopped turning, and say where it is stuck.

Every timeout of a run (the agent's, the episode's, a model call's) is a timer on the event loop,
so code that blocks the loop (a sync call inside an async agent) silently defeats them all. A
watchdog thread sees the loop's heartbeat stop and logs, while it happens, how long the loop has
been blocked and the line it is blocked in; each stall is also kept in `stalls`.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
import traceback

import anyio

from vistasim.errors import user_line

__all__ = ["LoopWatchdog"]

logger = logging.getLogger(__name__)


class LoopWatchdog:
    """Watch the heartbeat of the event loop from a daemon thread (start `run()` as a task)."""

    def __init__(self, threshold_s: float, *, interval_s: float | None = None) -> None:
        self.threshold_s = threshold_s
        """A heartbeat older than this is a blocked loop."""
        self.stalls: list[float] = []
        """How long each stall lasted, in seconds, in order."""
        # A twentieth of the threshold, between 50 ms and 1 s: a stall is seen within 5 % of
        # its threshold, and a run with the usual 60 s agent timeout wakes twice a second, not
        # forty times (the beats and checks cost ~1 % of a core at 50 ms).
        self._interval_s = interval_s or min(1.0, max(0.05, threshold_s / 20))
        self._beat = time.monotonic()
        self._loop_thread = threading.get_ident()
        self._stopped = threading.Event()
        self._reported = False

    async def run(self) -> None:
        """Beat on the loop and watch from a daemon thread, until cancelled."""
        self._loop_thread = threading.get_ident()
        thread = threading.Thread(target=self._watch, name="vistasim-watchdog", daemon=True)
        thread.start()
        try:
            while True:
                self.beat()
                await anyio.sleep(self._interval_s)
        finally:
            self._stopped.set()

    def beat(self) -> None:
        """Record that the loop is turning; close the stall it just came out of, if any."""
        now = time.monotonic()
        if self._reported:
            self.stalls.append(now - self._beat)
            logger.warning("the event loop turns again after %.1f s", now - self._beat)
            self._reported = False
        self._beat = now

    def _watch(self) -> None:
        while not self._stopped.wait(self._interval_s):
            lag = time.monotonic() - self._beat
            if lag > self.threshold_s and not self._reported:
                self._reported = True
                logger.warning(
                    "the event loop has been blocked for %.1f s (longer than the agent timeout, "
                    "%g s) at %s: code on the loop is blocking (a sync call in an async agent?), "
                    "and no timeout can fire until it returns",
                    lag,
                    self.threshold_s,
                    self._where_blocked(),
                )

    def _where_blocked(self) -> str:
        frame = sys._current_frames().get(self._loop_thread)
        line = user_line(traceback.extract_stack(frame)) if frame is not None else ""
        return line or "an unknown line"

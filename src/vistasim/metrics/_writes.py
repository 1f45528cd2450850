"""Which calls and actions changed the state: the environment's evidence first, names last.

Every call the episode's environment ran carries the records it changed (`ToolCall.changes`,
taken from state digests before and after). That is the evidence: a call wrote if it changed
something. A failed call changes nothing, so whether it *tried* to write is told by its tool:
a tool that changed the state anywhere in the run is a write tool, one that only ever succeeded
without a change is a read. Only a tool never seen (or a call made outside the environment, such
as an HTTP agent's own backend) falls back to its name (`get_`, `find_`, `list_`... read). A
product's `write_tools` list overrides all of it.

>>> from vistasim.events import StateChange, ToolCall
>>> writes = WriteTools.from_events(
...     [ToolCall(name="find_customer", changes=[StateChange(table="verifications")])]
... )
>>> writes.tool("find_customer"), writes.tool("get_order"), writes.tool("cancel_order")
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from vistasim.events import ApiCall, Event, ToolCall, WebAction

__all__ = ["WriteTools", "is_write_name"]

_READ_VERBS = frozenset(
    "get find list search lookup look check track view show read fetch query describe count"
    " verify validate quote estimate availability status".split()
)


@lru_cache(maxsize=4096)  # asked for every call of every episode; a run has few tool names
def is_write_name(name: str) -> bool:
    """Whether a tool's name sounds like a change (the fallback when nothing was observed)."""
    words = name.lower().split("_")
    return not (words[0] in _READ_VERBS or "status" in words or "availability" in words)


@dataclass(frozen=True, kw_only=True)
class WriteTools:
    """What changes the state, as observed in a run (or as a product lists it)."""

    listed: frozenset[str] | None = None
    """The product's own list of write tools (`write_tools`): when given, it decides."""
    changed: frozenset[str] = frozenset()
    """Tools seen changing the state in some call of the run."""
    unchanged: frozenset[str] = frozenset()
    """Tools seen succeeding without a change, and never changing anything."""

    @classmethod
    def from_events(
        cls, events: Iterable[Event], *, listed: Sequence[str] | None = None
    ) -> WriteTools:
        """Learn the write tools from the calls in `events` (a run's, or one episode's)."""
        changed: set[str] = set()
        quiet: set[str] = set()
        for event in events:
            if isinstance(event, ToolCall | ApiCall) and event.changes is not None:
                if event.changes:
                    changed.add(event.name)
                elif event.error is None:
                    quiet.add(event.name)
        return cls(
            listed=None if listed is None else frozenset(listed),
            changed=frozenset(changed),
            unchanged=frozenset(quiet - changed),
        )

    def tool(self, name: str) -> bool:
        """Whether the tool changes state: listed, observed, else by its name."""
        if self.listed is not None:
            return name in self.listed
        if name in self.changed:
            return True
        if name in self.unchanged:
            return False
        return is_write_name(name)

    def attempted(self, event: ToolCall | ApiCall) -> bool:
        """Whether a call set out to change the state (it may have failed)."""
        if self.listed is None and event.error is None and event.changes is not None:
            return bool(event.changes)
        return self.tool(event.name)

    def changed_state(self, event: Event) -> bool:
        """Whether a call or web action changed the state (known only with evidence or a list).

        A web action on a page whose state the environment does not hold is never counted: what
        it did is not known, and a guess must not decide a verdict.
        """
        if isinstance(event, WebAction):
            return event.error is None and bool(event.changes)
        if not isinstance(event, ToolCall | ApiCall) or event.error is not None:
            return False
        # A product's list names agent tools; a user-side API is judged by its evidence alone.
        if event.changes is not None and (self.listed is None or isinstance(event, ApiCall)):
            return bool(event.changes)
        return self.tool(event.name)

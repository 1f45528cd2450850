"""What a turn re-read after its write, and which of it a reply states as a summary.

`contradicts-call` checks the values a reply reports for a write against the write. After the
write an agent may read the record again and sum it up ("your claim is open; cover runs from
2 May 2026 to 1 May 2027"): those values are the record as it now is, not values said for the
write, unless the clause names a field of the write ("your refund is 45.00").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from vistasim.events import ToolCall
from vistasim.store import StoredEvent
from vistasim.values import json_values, text_ids, text_values

__all__ = ["read_after", "summarised"]


def read_after(
    calls: Sequence[StoredEvent], writes: list[StoredEvent]
) -> set[tuple[str, str]]:
    """What the turn's reads after its last write returned: the record as the write left it."""
    last = max((w.id for w in writes), default=-1)
    read: set[tuple[str, str]] = set()
    for stored in calls:
        if stored.id > last and isinstance(stored.event, ToolCall) and stored not in writes:
            read |= json_values(stored.event.result)
    return read


_CLAUSE = re.compile(r"[.;:!?]\s+|,\s+")
_GENERIC_FIELD_WORDS = frozenset({"date", "time", "number", "status", "type", "next", "step"})


def summarised(
    text: str, writes: list[StoredEvent], reread: AbstractSet[tuple[str, str]]
) -> set[tuple[str, str]]:
    """Values read back after the write that the text states in clauses naming no write field."""
    if not reread:
        return set()
    words: set[str] = set()
    for stored in writes:
        assert isinstance(stored.event, ToolCall)
        fields = dict(stored.event.args)
        if isinstance(stored.event.result, dict):
            fields |= stored.event.result
        # Not the fields naming the record ("policy_number": "HH-1"): the summary names it too.
        keys = [k for k, v in fields.items() if not (isinstance(v, str) and text_ids(v) == {v})]
        words |= {w for k in keys for w in str(k).lower().split("_") if len(w) >= 4}
    words -= _GENERIC_FIELD_WORDS
    found: set[tuple[str, str]] = set()
    for clause in _CLAUSE.split(text):
        lowered = clause.casefold()
        if not any(re.search(rf"\b{re.escape(w)}", lowered) for w in words):
            found |= text_values(clause) & reread
    return found

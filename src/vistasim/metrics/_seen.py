"""What an episode has shown before a call: who the user proved and said they are.

The disclosure detector (`metrics/_disclosure.py`) asks this at every tool call of an episode;
it is kept here and rebuilt only when what it is derived from grows (docs/architecture.md,
"Metrics").
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import JsonValue

from vistasim.events import ToolCall
from vistasim.metrics._identity import (
    Identity,
    account_keys,
    identity_fields,
    is_identity_tool,
    records,
    said_identity,
)
from vistasim.values import iter_strings

__all__ = ["Seen"]

_CallFacts = tuple[frozenset[str], bool, tuple[tuple[frozenset[tuple[str, str]], str | None], ...]]
_facts: dict[int, tuple[ToolCall, _CallFacts]] = {}


def _call_facts(call: ToolCall) -> _CallFacts:
    """A call's argument values, whether it checks identity, and its records' identities.

    Every later call of an episode asks for these again (who the user has turned out to be),
    so they are kept per call object (its id, checked against the object itself).
    """
    kept = _facts.get(id(call))
    if kept is not None and kept[0] is call:
        return kept[1]
    values = frozenset(v.casefold() for v in iter_strings(call.args) if len(v) >= 3)
    found_records = []
    for record in records(call.result):
        fields = identity_fields(record, bare_name=True)
        if fields:
            record_id = record.get("id")
            own = str(record_id).casefold() if isinstance(record_id, str | int) else None
            found_records.append((frozenset(fields), own))
    facts = (values, is_identity_tool(call.name), tuple(found_records))
    if len(_facts) > 8192:
        _facts.clear()
    _facts[id(call)] = (call, facts)
    return facts


class Seen:
    """The episode before a call: its calls and the user's messages, only ever added to.

    Every call of an episode asks who the user has proved and said they are; what that is
    derived from changes only when an identity check or a record with identity fields is added
    (or the user speaks), so it is kept until then instead of rebuilt from every earlier call.
    """

    def __init__(self, calls: Sequence[ToolCall] = (), said: Sequence[str] = ()) -> None:
        self.earlier: list[ToolCall] = []
        self.said: list[str] = []
        self._checks: list[tuple[dict[str, JsonValue], JsonValue]] = []
        self._finds: list[_CallFacts] = []  # facts of the error-free calls that found records
        self._stated: Identity = set()
        self._proved: dict[str, set[str]] | None = None
        self._established: Identity | None = None
        self._heard: str | None = None
        for call in calls:
            self.add_call(call)
        for text in said:
            self.add_said(text)

    def add_call(self, call: ToolCall) -> None:
        self.earlier.append(call)
        if call.error is not None:
            return
        facts = _call_facts(call)
        if facts[1]:
            self._checks.append((call.args, call.result))
            self._proved = None
        if facts[2]:
            self._finds.append(facts)
            self._established = None

    def add_said(self, text: str) -> None:
        self.said.append(text)
        self._stated |= said_identity(text)
        self._established = self._heard = None

    def heard(self) -> str:
        """What the user said, as one lower-case text."""
        if self._heard is None:
            self._heard = " ".join(self.said).lower()
        return self._heard

    def proved(self) -> dict[str, set[str]]:
        """The accounts the user proved theirs: id field -> ids (`account_keys`)."""
        if self._proved is None:
            self._proved = account_keys(self._checks)
        return self._proved

    def established(self) -> Identity:
        """What the user said about themselves, with the records calls found with it."""
        if self._established is None:
            self._established = self._establish()
        return self._established

    def _establish(self) -> Identity:
        found: Identity = set(self._stated)
        if not self._finds:
            return found
        heard = " ".join(self.said).casefold()
        for values, identity_tool, found_records in self._finds:
            given = {v for v in values if v in heard}
            if not given:
                continue
            for fields, record_id in found_records:
                if any(v in given for _, v in fields) or identity_tool:
                    found |= fields
                    if record_id is not None:
                        found.add(("person", record_id))
                    break
        return found

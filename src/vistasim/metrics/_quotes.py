"""Figures the agent reads out of a record, checked against the record its own call returned.

- `misquoted-result`: the reply names a record (an id a call returned, "CS201-A") and gives a
  figure for one of its fields in the field's own words ("has 12 seats left" for `seats_left`)
  that differs from what the latest call returned for that record (`seats_left: 0`): it read out
  another field, or a stale or made-up value.

Only fields named by two words or more are read (`seats_left`, `refills_left`,
`remaining_balance`): one word ("credits", "price") is said of too many things. The figure must
sit next to the field's words ("12 seats left", "seats left: 12"), in a sentence that names the
record, and no record named earlier in that sentence may hold that figure for that field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from vistasim.events import AgentReply, ToolCall
from vistasim.metrics._failures import Failure, detector_failures
from vistasim.store import EpisodeView, StoredEvent
from vistasim.values import text_ids

__all__ = ["QUOTE_DETECTORS", "detect_quotes"]

QUOTE_DETECTORS: dict[str, str] = {
    "misquoted-result": "told the user a figure its own lookup contradicts",
}
"""Detector ids and their descriptions, worded the same every time."""

_SENTENCES = re.compile(
    r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bProf\.)(?<!\bSt\.)(?<=[.!?;])\s+|\n+"
)  # "Dr. Jansen" ends no sentence
_NUMBER = r"(\d+(?:[.,]\d+)?)"
_Record = dict[str, float]


def detect_quotes(view: EpisodeView) -> list[Failure]:
    """Run the quote detectors over one episode."""
    return detector_failures(view, "claims", _DETECTORS, QUOTE_DETECTORS, view.events)


def _misquoted(events: tuple[StoredEvent, ...]) -> list[int]:
    evidence: list[int] = []
    records: dict[str, tuple[_Record, int]] = {}  # id -> numeric fields, call event id
    for stored in events:
        event = stored.event
        if isinstance(event, ToolCall) and event.error is None:
            for record_id, fields in _records(event.result):
                records[record_id.casefold()] = (fields, stored.id)
        elif isinstance(event, AgentReply) and records:
            for call_id in _contradicted(event.text, records):
                evidence += [call_id, stored.id]
    return evidence


def _contradicted(text: str, records: Mapping[str, tuple[_Record, int]]) -> Iterator[int]:
    for sentence in _SENTENCES.split(text):
        named = [
            (m.start(), m.group(0).casefold())
            for m in re.finditer(r"[A-Za-z0-9][\w-]*\d[\w-]*", sentence)
            if m.group(0).casefold() in records
        ]
        for position, field, said in _quoted_figures(sentence, records, named):
            before = [rid for start, rid in named if start < position] or [named[0][1]]
            owner = before[-1]
            fields, call_id = records[owner]
            if field not in fields or fields[field] == said:
                continue
            if any(records[rid][0].get(field) == said for rid in before):
                continue  # the figure is another named record's, said a little further on
            yield call_id


def _quoted_figures(
    sentence: str, records: Mapping[str, tuple[_Record, int]], named: list[tuple[int, str]]
) -> Iterator[tuple[int, str, float]]:
    if not named:
        return
    fields = {f for rid in {r for _, r in named} for f in records[rid][0]}
    for field in fields:
        words = field.split("_")
        phrase = r"[\s_-]+".join(re.escape(w) for w in words)
        patterns = (
            rf"{_NUMBER}\s+{phrase}\b",
            rf"\b{phrase}\s*(?::|is|are|of|=)?\s*{_NUMBER}(?![\w.:])",
        )
        for pattern in patterns:
            for match in re.finditer(pattern, sentence, re.IGNORECASE):
                yield match.start(), field, float(match.group(1).replace(",", "."))


def _records(value: object) -> Iterator[tuple[str, _Record]]:
    """Every dict in a result that carries an id and numeric fields of two words or more."""
    if isinstance(value, list):
        for item in value:
            yield from _records(item)
        return
    if not isinstance(value, dict):
        return
    ids = [v for v in value.values() if isinstance(v, str) and text_ids(v) == {v}]
    fields = {
        str(k).lower(): float(v)
        for k, v in value.items()
        if isinstance(v, int | float) and not isinstance(v, bool) and "_" in str(k)
    }
    if ids and fields:
        for record_id in ids:
            yield record_id, fields
    for nested in value.values():
        if isinstance(nested, dict | list):
            yield from _records(nested)


_DETECTORS = {"misquoted-result": _misquoted}

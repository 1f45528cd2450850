"""Find the things a user names in a message (orders, items, courses) and the corrections they make.

The behavioural detectors need to know which values a user asked for and which ones they took
back ("W1010 — sorry, I mean W1011", "not BIO101-A, BIO101-B"). Values are found by the domain's
entity kinds (`EntityKind`): a regular expression for ids and codes, or records the agent itself
read in tool results (an order's items, named by their product names). Everything here is plain
text processing over one message; no model is involved.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator, model_validator

__all__ = [
    "Correction",
    "EntityKind",
    "Mention",
    "Record",
    "corrections",
    "find_mentions",
    "listed_groups",
    "mentions_value",
    "records_in",
]

_CORRECTION_CUE = re.compile(
    r"sorry,?\s+(?:no,?\s+)?i\s+meant?\b|\bno,?\s+wait\b|\bwait,?\s+no\b|\bi\s+meant?\b"
    r"|\bactually\b|\bmake\s+that\b|\bscratch\s+that\b|\bcorrection\b|\boops\b",
    re.IGNORECASE,
)
"""Words that take back the value just said and give another one."""
_NOT_BEFORE = re.compile(
    r"\bnot\s+(?:(?:the|my|order|course|section|item|id|number|code)\s+){0,2}$", re.IGNORECASE
)
"""`not` right before a value: that value is the wrong one."""
_ADDITION = re.compile(r"\b(?:also|too|as\s+well|another|plus)\b", re.IGNORECASE)
"""After a cue, these mean the user adds a value rather than replacing one."""
_LIST_GAP = re.compile(
    r"^\s*(?:,\s*(?:and\s+)?|and\s+|&\s*|plus\s+|as\s+well\s+as\s+)(?:(?:the|my|a|an)\s+)?$",
    re.IGNORECASE,
)
"""What may stand between two values of one list: `X and the Y`, `X, Y`, `X & Y`."""
_LABEL_OF_NEXT = re.compile(r"\s*(?:is|are|was|:|=)\s*\S", re.IGNORECASE)
"""After a token that names a field, not a value: "my last4 is 6659", "ref: 55"."""
_CUE_REACH = 60
"""Characters a cue may be away from the value it corrects or the one it gives."""
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
"""The value given instead is said in the cue's own sentence ("Oops. It's the 14th" too): in
"4pm — sorry, I mean 4:20pm. My number is W2002 and 3 February 1999" the birth date is no
replacement for the day before the cue."""


class EntityKind(BaseModel):
    r"""A kind of value users name, found by a pattern or among records the agent read.

    Example: `{name: course, pattern: '\b[A-Z]{2,5}\d{3}(?:-[A-Z])?\b'}`, or
    `{name: item, record_id: sku, record_name: product_name}` for the items of an order, named by
    the last words of their product name ("the coffee maker").
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_]{0,31}$")
    pattern: str | None = None
    """Regular expression matching one value in a user message."""
    record_id: str | None = None
    """Key of the id in records (JSON objects) of the agent's tool results."""
    record_name: str | None = None
    """Key of the record's name, which users say instead of the id."""

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"pattern {pattern!r} is not a regular expression: {exc}") from exc
        return pattern

    @model_validator(mode="after")
    def _one_source(self) -> EntityKind:
        by_record = (self.record_id is not None, self.record_name is not None)
        if (self.pattern is not None) == any(by_record) or any(by_record) != all(by_record):
            raise ValueError(
                f"entity kind {self.name!r}: set either pattern, or both record_id and record_name"
            )
        return self


@dataclass(frozen=True, kw_only=True)
class Record:
    """A thing the agent read in a tool result: its id and the name users call it by."""

    kind: str
    id: str
    name: str


@dataclass(frozen=True, kw_only=True)
class Mention:
    """One value named in a message."""

    kind: str
    value: str
    """What tool arguments carry for it: the matched text, or the record's id."""
    start: int
    end: int


@dataclass(frozen=True, kw_only=True)
class Correction:
    """The user took `old` back and gave `new` instead."""

    kind: str
    old: str
    new: str


def records_in(result: JsonValue, kinds: Sequence[EntityKind]) -> Iterator[Record]:
    """Yield every record of a record-based kind found anywhere in a tool result."""
    stack = [result]
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
            for kind in kinds:
                if kind.record_id is None or kind.record_name is None:
                    continue
                rid, name = value.get(kind.record_id), value.get(kind.record_name)
                if isinstance(rid, str) and isinstance(name, str) and name.strip():
                    yield Record(kind=kind.name, id=rid, name=name)


def find_mentions(
    text: str, kinds: Sequence[EntityKind], records: Sequence[Record] = ()
) -> list[Mention]:
    """Return the values a message names, in order; a value inside a longer one is dropped."""
    found = [
        Mention(kind=kind.name, value=m.group(0), start=m.start(), end=m.end())
        for kind in kinds
        if kind.pattern is not None
        for m in re.finditer(kind.pattern, text)
    ]
    found.extend(_named_records(text, records))
    found.sort(key=lambda m: (m.start, -(m.end - m.start)))
    kept: list[Mention] = []
    for mention in found:
        if kept and mention.start < kept[-1].end:
            continue  # overlaps a longer value found first ("BIO101" inside "BIO101-B")
        kept.append(mention)
    return kept


def _named_records(text: str, records: Sequence[Record]) -> Iterator[Mention]:
    """Name a record by the longest tail of its name found in the text.

    Users say the noun, not the brand: "coffee maker" for "Brewmaster Coffee Maker".
    """
    for record in {(r.kind, r.id): r for r in records}.values():
        words = re.findall(r"[A-Za-z]+", record.name)
        for size in range(len(words), 0, -1):
            tail = [w.lower() for w in words[-size:]]
            tail[-1] = tail[-1].removesuffix("s")
            if len(tail[-1]) < 3:
                break
            phrase = r"\s+".join(re.escape(w) for w in tail)
            match = re.search(rf"\b{phrase}(?:e?s)?\b", text, re.IGNORECASE)
            if match:
                yield Mention(
                    kind=record.kind, value=record.id, start=match.start(), end=match.end()
                )
                break


def corrections(text: str, mentions: Sequence[Mention]) -> list[Correction]:
    """Return the values a message takes back, each with the value given instead."""
    if len({m.value for m in mentions}) < 2:
        return []  # a value taken back and the one given instead: two values, or no correction
    found: list[Correction] = []
    for cue in _CORRECTION_CUE.finditer(text):
        before = [m for m in mentions if m.end <= cue.start() and cue.start() - m.end <= _CUE_REACH]
        if not before:
            continue
        old = before[-1]
        after = [
            m
            for m in mentions
            if m.start >= cue.end() and m.start - cue.end() <= _CUE_REACH and m.kind == old.kind
            and not _SENTENCE_END.search(text[cue.end() : m.start].lstrip(" .,;:!-\u2013\u2014"))
        ]  # fmt: skip
        after = [m for m in after if m.value != old.value]
        if after and not _ADDITION.search(text[cue.end() : after[0].start]):
            found.append(Correction(kind=old.kind, old=old.value, new=after[0].value))
    for old in mentions:
        if not _NOT_BEFORE.search(text[: old.start]):
            continue
        others = [m for m in mentions if m.kind == old.kind and m.value != old.value]
        if others:
            new = min(others, key=lambda m: abs(m.start - old.start))
            found.append(Correction(kind=old.kind, old=old.value, new=new.value))
    return list(dict.fromkeys(found))


def listed_groups(text: str, mentions: Sequence[Mention]) -> list[list[Mention]]:
    """Return runs of two or more values of one kind named as a list ("X and the Y", "X, Y")."""
    groups: list[list[Mention]] = []
    run: list[Mention] = []
    for mention in mentions:
        if _LABEL_OF_NEXT.match(text, mention.end):  # no copy of the rest per value
            # "my booking number is CLH-20417 and my last4 is 6659": `last4` names the field
            # the next value fills; it is no second item of a list.
            if len({m.value for m in run}) >= 2:
                groups.append(run)
            run = []
            continue
        joined = (
            run
            and run[-1].kind == mention.kind
            and _LIST_GAP.match(text[run[-1].end : mention.start])
        )
        if joined:
            run.append(mention)
            continue
        if len({m.value for m in run}) >= 2:
            groups.append(run)
        run = [mention]
    if len({m.value for m in run}) >= 2:
        groups.append(run)
    return groups


def mentions_value(args: JsonValue, value: str) -> bool:
    """Whether tool arguments carry `value`, whole or as part of an id (ECON102 in ECON102-A)."""
    token = re.compile(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])", re.IGNORECASE)
    stack = [args]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if token.search(item):
                return True
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return False

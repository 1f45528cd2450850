"""Which of the user's facts a value in an agent's message restates: its owner.

A value belongs to the slot named right next to it ("your date of birth, 3 November 1969"), in
its sentence and within a few words; with no slot named, to the task (the request's own values).
The generic words of slot names ("number", "date", "new") name nothing on their own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from vistasim.user._stated import Stated

__all__ = ["BIRTH", "GENERIC", "TASK", "is_birth_slot", "named_anywhere", "owner_of", "vocabulary"]

TASK = ""
"""The owner of a value no slot is named next to: the request itself."""
BIRTH = "__birth__"
"""The owner of a date said with birth words when no held slot is a date of birth."""
_BIRTH_WORDS = ("date of birth", "birth date", "birthdate", "birthday", "born", "dob", "birth")
GENERIC = frozenset(
    "id number no code ref date time day days when what which the of my your a an new preferred"
    " how long many hours value name type".split()
)
_WORDS_BEFORE, _WORDS_AFTER = 6, 3
"""How near a slot's name must be to a value to own it (words before it, words after it)."""


def is_birth_slot(slot: str) -> bool:
    """Whether a slot holds a date of birth (compared only when the agent names it)."""
    words = set(slot.lower().split("_"))
    return bool(words & {"dob", "birth", "birthday", "birthdate", "born"})


def vocabulary(slots: Sequence[str], lexicon: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """The words naming each slot next to its value: distinctive name words, lexicon phrases."""
    vocab: dict[str, list[str]] = {BIRTH: list(_BIRTH_WORDS)}
    for slot in slots:
        if is_birth_slot(slot):
            vocab[slot] = list(_BIRTH_WORDS)
            continue
        words = [w for w in slot.lower().split("_") if w and w not in GENERIC]
        phrases = [p for p in lexicon.get(slot, []) if not set(p.lower().split()) <= GENERIC]
        vocab[slot] = list(dict.fromkeys([*words, *(p.lower() for p in phrases)]))
    return vocab


def owner_of(
    text: str, value: Stated, vocab: Mapping[str, Sequence[str]], candidates: set[str]
) -> str:
    """The slot named nearest to a value (within a few words, in its sentence), else the task."""
    best: tuple[int, str] | None = None
    # Sorted, the generic birth words last: a held date-of-birth slot wins a tie with them.
    for slot in sorted(candidates, key=lambda s: (s == BIRTH, s)):
        for phrase in vocab.get(slot, ()):
            for match in re.finditer(rf"(?<!\w){re.escape(phrase)}(?!\w)", text, re.I):
                distance = _distance(text, match.start(), match.end(), value)
                if distance is not None and (best is None or distance < best[0]):
                    best = (distance, slot)
    if best is None:
        return TASK
    return best[1]


def _distance(text: str, start: int, end: int, value: Stated) -> int | None:
    if end <= value.start:
        between, limit = text[end : value.start], _WORDS_BEFORE
    elif start >= value.end:
        between, limit = text[value.end : start], _WORDS_AFTER
    else:
        return 0  # the name is part of the value's words ("birthday, 2 Nov")
    if re.search(r"[.!?;]\s|\n", between):
        return None  # another sentence
    count = len(between.split())
    return count if count <= limit else None


def named_anywhere(text: str, holders: set[str], vocab: Mapping[str, Sequence[str]]) -> str | None:
    named = [
        s for s in sorted(holders)
        if any(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text, re.I) for p in vocab.get(s, ()))
    ]  # fmt: skip
    return named[0] if len(holders) == 1 and named else None

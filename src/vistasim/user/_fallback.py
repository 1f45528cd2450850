"""A goal's fallback ("...; if that's not possible, ..."), and what of the request it keeps.

Once the agent says the request cannot be done, the fallback is what the user asks for. It
replaces what it speaks of, not the whole request: "if my room type is full that night, I'm
happy to move to a better room for the whole stay" changes the room, and the nights asked for
still hold; "if Friday is full, any other day that week" frees the day.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date

from vistasim.scenario import Scalar
from vistasim.user._facts import TASK, Fact, build_facts
from vistasim.user._stated import stated_values

__all__ = ["kept_from_request", "split_fallback"]

_FALLBACK = re.compile(
    r"(?:[,;.]\s*|\s+)(?:but\s+|and\s+|so\s+)?"
    r"(?:if\s+(?:no\b|none\b|(?:[^,;:.]|:(?=\d)){0,40}?"
    r"(?:n't|\b(?:not|cannot|unavailable|full|booked|taken|gone|allow\w*|longer than|more than"
    r"|limit|too (?:long|late|early|much|many)|exceeds?))\b)"
    r"(?:[^,;:.]|:(?=\d))*[,:;]|if\s+not\b[,:;]?|if\s+unavailable\b[,:;]?|otherwise\b[,:;]?"
    r"|failing\s+that\b[,:;]?|or\s+else\b[,:;]?)\s*(?:—\s*)?",
    re.IGNORECASE,
)
"""Where a goal says what it allows instead ("...; if that's not possible, ...")."""


def split_fallback(goal: str) -> tuple[str, str | None]:
    """Split a goal into its request and its fallback ("if that's not possible, ...").

    >>> split_fallback("Book 19 March at 10:00; if that's not possible, any time on 20 March.")
    ('Book 19 March at 10:00.', 'any time on 20 March')
    >>> split_fallback("Get 90 tablets. If you can't do 90, get the most you're allowed to.")[1]
    "get the most you're allowed to"
    >>> split_fallback("Cancel W1003 if it has not shipped.")
    ('Cancel W1003 if it has not shipped.', None)
    >>> split_fallback("Book Monday 25 January — I'm off that week, so if it can't be then, leave "
    ...                "it for now.")
    ("Book Monday 25 January — I'm off that week.", 'leave it for now')
    """
    found = _FALLBACK.search(goal)
    if found is None:
        return goal, None
    rest = re.split(r"(?<=[.!?])\s+", goal[found.end() :].strip(), maxsplit=1)
    fallback = re.sub(r"^(?:then|just|please)\s+", "", rest[0].strip().rstrip("."), flags=re.I)
    if not fallback:
        return goal, None
    main = goal[: found.start()].rstrip(" ,;") + "."
    return (f"{main} {rest[1]}" if len(rest) > 1 else main), fallback


_OPEN = r"|whenever|soon|sooner|earlier|later|earliest|latest|possible|available|any"
"""Words of a fallback that takes what is free ("otherwise as soon as possible")."""
_FAMILIES = {
    "date": (
        frozenset({"date", "weekday"}),
        re.compile(r"\b(?:day|days|date|dates|week|weekend|night|nights|month|tomorrow|today"
                   + _OPEN + r")\b", re.IGNORECASE),
    ),
    "time": (
        frozenset({"time"}),
        re.compile(r"\b(?:time|times|slot|slots|morning|afternoon|evening|hour|hours|am|pm"
                   r"|o'?clock" + _OPEN + r")\b", re.IGNORECASE),
    ),
}  # fmt: skip
"""Kinds of value a fallback may leave as the request had them, and the words that free them."""


def kept_from_request(
    facts: list[Fact],
    held: Mapping[str, Scalar],
    request: str,
    fallback: str,
    today: date | None,
    lexicon: Mapping[str, Sequence[str]],
) -> list[Fact]:
    """The fallback's facts, with the request's days and times where the fallback is silent.

    A family (days, times) is kept only when the fallback states no value of it and no word
    of it: "move to a better room for the whole stay" keeps "Sunday 21 June"; "any time on
    20 March" frees both.
    """
    said = {v.kind for v in stated_values(fallback, today)}
    asked = next((f for f in build_facts(held, request, today, lexicon) if f.slot == TASK), None)
    if asked is None:
        return facts
    kinds: set[str] = set()
    for family, freeing in _FAMILIES.values():
        if not (said & family) and not freeing.search(fallback):
            kinds |= family & set(asked.values)
    if not kinds:
        return facts
    values = {k: asked.values[k] for k in kinds}
    words = {k: asked.said[k] for k in kinds if k in asked.said}
    task = next((f for f in facts if f.slot == TASK), None)
    if task is None:
        return [Fact(slot=TASK, values=values, said=words), *facts]
    merged = replace(task, values={**values, **task.values}, said={**words, **task.said})
    return [merged if f is task else f for f in facts]

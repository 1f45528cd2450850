"""Which end of a stay or rental a goal's date is, checked against the days proposed.

"Leaving on Sunday 21 June" asks for the last day; "Sunday 21 June to Tuesday 23 June"
restates 21 June, yet as the first day. "Picking up on 22 December and returning on 29
December": "pick-up on Monday 21 December ... return on Tuesday 29 December" restates 29
December, yet moves the pick-up. The owner check (`_facts.py`) accepts a message that
restates any one of a goal's dates, so the ends of a stay are read here.
"""

from __future__ import annotations

import itertools
import re
from datetime import date

from vistasim.user._stated import Stated, stated_values

__all__ = ["misplaced_day"]

_ROLE_BEFORE = {
    "end": re.compile(
        r"\b(?:leav(?:e|ing)|check(?:ing)?[- ]?out|depart(?:ing|ure)?|until|till"
        r"|return(?:ing|s)?(?: (?:it|the \w+))?|drop(?:ping)?[- ]?off|ending)"
        r"\s+(?:on\s+|date\s+)?(?:the\s+)?$",
        re.IGNORECASE,
    ),
    "start": re.compile(
        r"\b(?:arriv(?:e|ing|al)|check(?:ing)?[- ]?in|start(?:ing|s)?|collect(?:ing|ion)?"
        r"|pick(?:ing)?[- ]?up(?: it)?)\s+(?:on\s+|from\s+|date\s+)?(?:the\s+)?$",
        re.IGNORECASE,
    ),
}
"""Words just before a date that make it the first or the last day."""
_JOIN = re.compile(r"\s*(?:to|until|till|through|-|–|—)\s*", re.IGNORECASE)
_AS_IT_IS = re.compile(
    r"\b(?:currently|at the moment|right now|was|were|originally|existing|current|old)\b",
    re.IGNORECASE,
)
"""A sentence about the booking as it is, not the change proposed."""


def misplaced_day(message: str, goal: str, today: date | None) -> tuple[str, str] | None:
    """A first or last day proposed otherwise than the goal asks (or at the other end).

    Returns (the goal's words for the day, the message's words for the wrong one).

    >>> today = date(2026, 6, 1)
    >>> goal = "Stay one extra night, leaving on Sunday 21 June instead of Saturday."
    >>> misplaced_day("Shall I move you to Sunday 21 June to Tuesday 23 June?", goal, today)
    ('leaving on Sunday 21 June', 'Sunday 21 June to Tuesday 23 June')
    >>> misplaced_day("Thursday 18 June to Sunday 21 June: shall I?", goal, today) is None
    True
    >>> hire = "Move my hire, picking up on 22 December and returning on 29 December."
    >>> misplaced_day("Pick-up on 21 December, return on 29 December. OK?", hire, today)
    ('picking up on 22 December', 'Pick-up on 21 December')
    >>> misplaced_day("It's currently pick-up on 21 December. Move it?", hire, today) is None
    True
    """
    wanted = _roles(goal, today)
    if not wanted:
        return None
    dates = [v for v in stated_values(message, today) if v.kind == "date"]
    for first, last in itertools.pairwise(dates):
        if not _JOIN.fullmatch(message[first.end : last.start]) or first.values & last.values:
            continue
        for role, (said, values) in wanted.items():
            wrong, other = (first, last) if role == "end" else (last, first)
            if wrong.values & values and not other.values & values:
                return said, f"{first.surface} to {last.surface}".strip(" .,;:!?")
    for value in dates:
        for role, before in _ROLE_BEFORE.items():
            found = before.search(message[: value.start])
            if found is None or role not in wanted or value.values & wanted[role][1]:
                continue
            if not _AS_IT_IS.search(_sentence(message, value.start)):
                return wanted[role][0], _words(message, found.start(), value)
    return None


def _roles(goal: str, today: date | None) -> dict[str, tuple[str, frozenset[str]]]:
    roles: dict[str, tuple[str, frozenset[str]]] = {}
    for value in stated_values(goal, today):
        if value.kind != "date":
            continue
        for role, before in _ROLE_BEFORE.items():
            found = before.search(goal[: value.start])
            if found is not None and role not in roles:
                roles[role] = (_words(goal, found.start(), value), value.values)
    return roles


def _words(text: str, start: int, value: Stated) -> str:
    return text[start : value.end].strip(" .,;:!?")


def _sentence(text: str, at: int) -> str:
    start = max(text.rfind(". ", 0, at), text.rfind("? ", 0, at), text.rfind("! ", 0, at))
    end = min((i for i in (text.find(". ", at), text.find("? ", at)) if i >= 0), default=-1)
    return text[start + 1 : end if end >= 0 else len(text)]

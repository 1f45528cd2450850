"""Which end of a stay or rental a goal's date is, checked against a proposed range.

"Leaving on Sunday 21 June" asks for the last day; "Sunday 21 June to Tuesday 23 June"
restates 21 June, yet as the first day. The owner check (`_facts.py`) accepts any restatement
of a goal's date, so a range that puts it at the other end is read here.
"""

from __future__ import annotations

import itertools
import re
from datetime import date

from vistasim.user._stated import Stated, stated_values

__all__ = ["misplaced_end"]

_ROLE_BEFORE = {
    "end": re.compile(
        r"\b(?:leav(?:e|ing)|check(?:ing)?[- ]?out|depart(?:ing)?|out|until|till|through"
        r"|return(?:ing)? (?:it|the \w+))\s+(?:on\s+)?(?:the\s+)?$",
        re.IGNORECASE,
    ),
    "start": re.compile(
        r"\b(?:arriv(?:e|ing)|check(?:ing)?[- ]?in|start(?:ing)?|collect(?:ing)?|pick(?:ing)? "
        r"(?:it )?up)\s+(?:on\s+)?(?:the\s+)?$",
        re.IGNORECASE,
    ),
}
"""Words just before a goal's date that make it the first or the last day."""
_JOIN = re.compile(r"\s*(?:to|until|till|through|-|–|—)\s*", re.IGNORECASE)


def misplaced_end(message: str, goal: str, today: date | None) -> tuple[str, str] | None:
    """A proposed range with the goal's last day as its first (or its first day as its last).

    Returns (the goal's words for the day, the range as proposed).

    >>> today = date(2026, 6, 1)
    >>> goal = "Stay one extra night, leaving on Sunday 21 June instead of Saturday."
    >>> misplaced_end("Shall I move you to Sunday 21 June to Tuesday 23 June?", goal, today)
    ('leaving on Sunday 21 June', 'Sunday 21 June to Tuesday 23 June')
    >>> misplaced_end("Thursday 18 June to Sunday 21 June: shall I?", goal, today) is None
    True
    """
    roles = _roles(goal, today)
    if not roles:
        return None
    dates = [v for v in stated_values(message, today) if v.kind == "date"]
    for first, last in itertools.pairwise(dates):
        if not _JOIN.fullmatch(message[first.end : last.start]) or first.values & last.values:
            continue
        for role, (said, values) in roles.items():
            wrong = first if role == "end" else last
            other = last if role == "end" else first
            if wrong.values & values and not other.values & values:
                return said, f"{first.surface} to {last.surface}".strip(" .,;:!?")
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


def _words(goal: str, start: int, value: Stated) -> str:
    return goal[start : value.end].strip(" .,;:!?")

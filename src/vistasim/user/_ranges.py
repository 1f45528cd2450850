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

__all__ = ["kept_range", "misplaced_day"]

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

    Returns (the message's words for the wrong day, the goal's words for it), in the order
    `taken_back` gives a value taken back and the one meant.

    >>> today = date(2026, 6, 1)
    >>> goal = "Stay one extra night, leaving on Sunday 21 June instead of Saturday."
    >>> misplaced_day("Shall I move you to Sunday 21 June to Tuesday 23 June?", goal, today)
    ('Sunday 21 June to Tuesday 23 June', 'leaving on Sunday 21 June')
    >>> misplaced_day("Thursday 18 June to Sunday 21 June: shall I?", goal, today) is None
    True
    >>> hire = "Move my hire, picking up on 22 December and returning on 29 December."
    >>> misplaced_day("Pick-up on 21 December, return on 29 December. OK?", hire, today)
    ('Pick-up on 21 December', 'picking up on 22 December')
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
                return f"{first.surface} to {last.surface}".strip(" .,;:!?"), said
    for value in dates:
        for role, before in _ROLE_BEFORE.items():
            found = before.search(message[: value.start])
            if found is None or role not in wanted or value.values & wanted[role][1]:
                continue
            if not _AS_IT_IS.search(_sentence(message, value.start)):
                return _words(message, found.start(), value), wanted[role][0]
    return None


_BOTH_ENDS = re.compile(
    r"\b(?:which|what|new|your)\s+(?:new\s+)?dates\b|\barrival and departure\b"
    r"|\bcheck[- ]?in and check[- ]?out\b|\bpick[- ]?up and (?:return|drop[- ]?off)\b",
    re.IGNORECASE,
)
"""A question for both ends of a stay or rental."""


def kept_range(question: str, agent_said: list[str], goal: str, today: date | None) -> str | None:
    """Both ends, when a question asks for both and the goal moves only one.

    "Which dates would you like?" for "leaving on Sunday 21 June instead of Saturday": the
    first day is the booking's, as the agent first stated it ("Thursday 18 June to Saturday
    20 June"). Only the new last day would be read as the first one.

    >>> goal = "Stay one extra night, leaving on Sunday 21 June instead of Saturday."
    >>> found = ["Found HL31007: Thursday 18 June to Saturday 20 June 2026."]
    >>> kept_range("Which dates would you like?", found, goal, date(2026, 6, 1))
    'Thursday 18 June to Sunday 21 June'
    >>> kept_range("What time?", found, goal, date(2026, 6, 1)) is None
    True
    """
    wanted = _roles(goal, today)
    if len(wanted) != 1 or not _BOTH_ENDS.search(question):
        return None
    role, (said, _) = next(iter(wanted.items()))
    new = next(v for v in stated_values(said, today) if v.kind == "date").surface
    for text in agent_said:
        dates = [v for v in stated_values(text, today) if v.kind == "date"]
        for first, last in itertools.pairwise(dates):
            if _JOIN.fullmatch(text[first.end : last.start]) and not first.values & last.values:
                ends = (first.surface, new) if role == "end" else (new, last.surface)
                return " to ".join(e.strip(" .,;:!?") for e in ends)
    return None


_NOT_UNTIL = re.compile(
    r"\b(?:can(?:'|no)?t|cannot|won't|couldn't|not|isn't|aren't|don't|doesn't)\b[^.;:!?—–]*"
    r"\b(?:until|till)\s+(?:on\s+)?(?:the\s+)?$",
    re.IGNORECASE,
)
"""The earliest a user can come ("we can't get there until Friday"), no last day of a stay."""


def _roles(goal: str, today: date | None) -> dict[str, tuple[str, frozenset[str]]]:
    roles: dict[str, tuple[str, frozenset[str]]] = {}
    for value in stated_values(goal, today):
        if value.kind != "date" or _NOT_UNTIL.search(goal[: value.start]):
            continue
        for role, before in _ROLE_BEFORE.items():
            found = before.search(goal[: value.start])
            if found is not None and role not in roles:
                roles[role] = (_words(goal, found.start(), value), value.values)
    asked = _asked_range(goal, today)
    if asked is not None:
        first, last = asked
        said = goal[first.start : last.end].strip(" .,;:!?")
        roles.setdefault("start", (said, first.values))
        roles.setdefault("end", (said, last.values))
    return roles


_OLD_BEFORE = re.compile(
    r"\b(?:instead\s+of|rather\s+than|from|not|booked\s+(?:for|on)|is|was|are|were)"
    r"\s+(?:the\s+|my\s+|our\s+)?$",
    re.IGNORECASE,
)
"""Words before a range that make it the booking as it is, not the one asked for."""


def _asked_range(goal: str, today: date | None) -> tuple[Stated, Stated] | None:
    """The last range of days the goal asks for ("move our stay to 23 April to 25 April")."""
    dates = [v for v in stated_values(goal, today) if v.kind == "date"]
    asked = None
    for first, last in itertools.pairwise(dates):
        joined = _JOIN.fullmatch(goal[first.end : last.start])
        if not joined or first.values & last.values or _OLD_BEFORE.search(goal[: first.start]):
            continue
        if not _AS_IT_IS.search(_sentence(goal, first.start)):
            asked = (first, last)
    return asked


def _words(text: str, start: int, value: Stated) -> str:
    return text[start : value.end].strip(" .,;:!?")


def _sentence(text: str, at: int) -> str:
    start = max(text.rfind(". ", 0, at), text.rfind("? ", 0, at), text.rfind("! ", 0, at))
    end = min((i for i in (text.find(". ", at), text.find("? ", at)) if i >= 0), default=-1)
    return text[start + 1 : end if end >= 0 else len(text)]

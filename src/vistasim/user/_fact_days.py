"""Days in the user's facts: deadlines, windows, and the weekday of a date.

A goal's "by Wednesday 9 December" is the latest day it allows; a proposal's "by Thursday 10
December" is the latest day of its window; "Saturday" alone is a day of the week, no one date.
The facts (`_facts.py`) ask these questions of the days ("MM-DD") they hold.
"""

from __future__ import annotations

import re
from datetime import date

from vistasim.dates import pinned_day

__all__ = [
    "DEADLINE_BEFORE",
    "WINDOW_END_BEFORE",
    "in_time",
    "on_weekday_of",
    "past_beside_future",
    "weekdays_of",
]

DEADLINE_BEFORE = re.compile(
    r"\b(?:by|before|no\s+later\s+than|in\s+time\s+for|(?:for|at)\s+(?:a|an|the|my|our)"
    r"\s+[a-z]+(?:\s+[a-z]+)?(?:\s+on)?)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
"""Words that make a goal's date the latest day it allows ("by Wednesday 9 December")."""


WINDOW_END_BEFORE = re.compile(r"\b(?:by|no\s+later\s+than)\s+(?:the\s+)?$", re.IGNORECASE)
"""Words that make a proposal's date the latest day of its window: the goal's day, if earlier,
is within it."""


def past_beside_future(
    surface: str, days: frozenset[str], own_said: str | None, own_days: frozenset[str],
    today: date | None,
) -> bool:
    """Whether a day said (`surface`, `days`) is gone by while the fact's own day is to come.

    Nothing is booked for a day gone by: "a quote from your survey SV3024 on Thursday 7
    January", said on 12 January for an installation on Monday 1 March, tells the record's
    history. Only days whose year is said or pinned by their weekday count (`pinned_day`).
    """
    if today is None or own_said is None or len(days) != 1 or not own_days:
        return False
    then = pinned_day(surface, next(iter(days)), today)
    own = [pinned_day(own_said, day, today) for day in own_days]
    return then is not None and then < today and all(d is not None and d >= today for d in own)


def in_time(days: frozenset[str], by: frozenset[str], today: date | None) -> bool:
    """Whether every day ("MM-DD") is on or before the latest deadline day."""
    if not by or not days:
        return False
    latest = max(_day_index(d, today) for d in by)
    return all(_day_index(d, today) <= latest for d in days)


def _day_index(day: str, today: date | None) -> int:
    """A day's place in time: "MM-DD" in the year that puts it nearest to today."""
    month, dom = (int(x) for x in day.split("-"))
    if today is None:
        return month * 40 + dom
    years = (today.year - 1, today.year, today.year + 1)
    candidates = []
    for year in years:
        try:
            candidates.append(date(year, month, dom))
        except ValueError:  # 29 February outside a leap year
            continue
    return min(candidates, key=lambda d: abs((d - today).days)).toordinal()


def on_weekday_of(
    days: frozenset[str], weekdays: frozenset[str], said: str, today: date | None
) -> bool:
    """Whether the days fall on a weekday a fact `said` with no date ("Saturday").

    >>> on_weekday_of(frozenset({"03-20"}), frozenset({"saturday"}), "Saturday", date(2027, 2, 23))
    True
    >>> on_weekday_of(frozenset({"03-20"}), frozenset({"saturday"}), "next Saturday",
    ...               date(2027, 2, 23))
    False
    """
    if today is None or not weekdays or not _WEEKDAY_ONLY.fullmatch(said):
        return False
    return bool(weekdays_of(days, today) & weekdays)


_WEEKDAY_ONLY = re.compile(r"\s*(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)days?\s*", re.I)
"""A day of the week and nothing more ("Saturday", "Tuesdays"): no one date of it."""


def weekdays_of(days: frozenset[str], today: date) -> set[str]:
    """The weekday of each day in its year nearest `today`.

    On 9 December, "1 January" is next year's (a Friday in 2027), "3 December" this year's.
    """
    found = set()
    for day in days:
        month, dom = (int(p) for p in day.split("-"))
        dated = []
        for year in (today.year - 1, today.year, today.year + 1):
            try:
                dated.append(date(year, month, dom))
            except ValueError:
                continue  # 29 February in a year without one
        if dated:
            nearest = min(dated, key=lambda d: abs((d - today).days))
            found.add(nearest.strftime("%A").lower())
    return found

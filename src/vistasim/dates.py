"""Dates in a text (an agent's reply, a goal), relative ones resolved against the episode's clock.

The simulated user reads proposals with it and the detectors read replies with it, so both take
"next Thursday" for the same days.

"Next Thursday", "tomorrow", "this Friday" or "in two days" mean a calendar date only on a given
day. The clock is the environment's (`now()`), or one the scenario or the caller gives; without
one, relative dates are not read at all: guessing with the real clock would make an episode
depend on the day it is replayed. Explicit dates ("19 March", "2026-03-19", "March 19th") need
no clock. A date is kept as `MM-DD`, the form `vistasim.values` uses.

A relative phrase may mean more than one day ("next Thursday" said on a Monday: this week's or
next week's?); every reading is kept, and a proposal agrees with it if it matches any.

>>> from datetime import date
>>> thursday = date(2026, 3, 12)
>>> [(m.surface, sorted(m.days)) for m in find_dates("Next Thursday at 10:00?", thursday)]
[('Next Thursday', ['03-19'])]
>>> [(m.surface, sorted(m.days)) for m in find_dates("Friday, 20 March 2026 works", None)]
[('Friday, 20 March 2026', ['03-20'])]
>>> find_dates("See you tomorrow", None)
[]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from vistasim.scenario import Scalar
from vistasim.values import NUMERIC_DATE, numeric_days

__all__ = [
    "CLOCK_KEYS",
    "DateMention",
    "day_text",
    "environment_now",
    "find_dates",
    "pinned_day",
    "today_of",
]

CLOCK_KEYS: tuple[str, ...] = ("today", "today_date", "date_today", "now")
"""Keys of a scenario's `knowledge` or `hidden` that give the clock ("today: 2026-03-12"): the
user knows what day it is, and says it only if asked. They are never checked as proposals."""

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
         ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
         ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
         ("dec", "december")]
    )
    for name in names
}  # fmt: skip
_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December")  # fmt: skip
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "ten": 10, "fourteen": 14}  # fmt: skip
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAY = "|".join(_WEEKDAYS) + "|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
_LEAD = rf"(?:(?:{_WEEKDAY})\.?,?\s+(?:the\s+)?)?"
_YEAR = r"(?:,?\s+(\d{4}))?"
_EXPLICIT = re.compile(
    rf"\b(\d{{4}})-(\d{{2}})-(\d{{2}})"
    rf"|\b{_LEAD}(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})\.?{_YEAR}\b"
    rf"|\b{_LEAD}({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b{_YEAR}",
    re.IGNORECASE,
)
_RELATIVE = re.compile(
    rf"\b(?:(the\s+day\s+after\s+tomorrow)|(today|tonight)|(tomorrow)"
    rf"|in\s+(\d+|{'|'.join(_NUMBERS)})\s+(days?|weeks?)"
    rf"|(?:(this|next|coming|this\s+coming|last|on)\s+)?({'|'.join(_WEEKDAYS)})(?:'s)?)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, kw_only=True)
class DateMention:
    """A date a text states: where, how it was said, and the days (`MM-DD`) it may mean."""

    start: int
    end: int
    surface: str
    days: frozenset[str]
    relative: bool = False


def find_dates(text: str, today: date | None) -> list[DateMention]:
    """Return the dates a text states, in order; relative ones only when `today` is known."""
    found: list[DateMention] = []
    for match in _EXPLICIT.finditer(text):
        day = _explicit(match)
        if day is not None:
            found.append(_mention(match, frozenset({day})))
    for match in NUMERIC_DATE.finditer(text):
        days = numeric_days(match)
        if days:  # "11/02/1969": either reading, as the user cannot tell which is meant
            found.append(_mention(match, frozenset(days)))
    taken = [(m.start, m.end) for m in found]
    if today is not None:
        for match in _RELATIVE.finditer(text):
            if any(s <= match.start() < e or s < match.end() <= e for s, e in taken):
                continue  # "Thursday 19 March": the explicit date says it
            days = _relative(match, today)
            if days:
                found.append(_mention(match, frozenset(days), relative=True))
    return sorted(found, key=lambda m: m.start)


def pinned_day(surface: str, month_day: str, today: date) -> date | None:
    """The calendar day a date names, when its year is said or its weekday pins one.

    "Friday 8 January", said on 12 January 2027, is 2027's: of the years around today only
    2027's 8 January is a Friday. Without a year or a weekday that fits exactly one, which year
    is meant is a guess (None).

    >>> pinned_day("Friday 8 January", "01-08", date(2027, 1, 12))
    datetime.date(2027, 1, 8)
    >>> pinned_day("8 January", "01-08", date(2027, 1, 12)) is None
    True
    >>> pinned_day("Tuesday 29 December 2026", "12-29", date(2027, 1, 12))
    datetime.date(2026, 12, 29)
    """
    month, day = (int(x) for x in month_day.split("-"))
    year = re.search(r"\b(20\d\d)\b", surface)
    if year is not None:
        return _calendar_day(int(year.group(1)), month, day)
    weekday = _WEEKDAY_NAMED.search(surface)
    if weekday is None:
        return None
    named = [w[:3] for w in _WEEKDAYS].index(weekday.group(1)[:3].lower())
    fits = [
        when
        for near in (today.year - 1, today.year, today.year + 1)
        if (when := _calendar_day(near, month, day)) is not None and when.weekday() == named
    ]
    return fits[0] if len(fits) == 1 else None


_WEEKDAY_NAMED = re.compile(rf"\b({_WEEKDAY})\b", re.IGNORECASE)


def _calendar_day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None  # 29 February of a common year


def day_text(day: str, year: int | None = None) -> str:
    """Say a `MM-DD` day as people do ("Thursday 19 March" when the year is known).

    >>> day_text("03-19", 2026), day_text("11-02")
    ('Thursday 19 March', '2 November')
    """
    month, dom = (int(p) for p in day.split("-"))
    words = f"{dom} {_MONTH_NAMES[month - 1]}"
    if year is None:
        return words
    try:
        weekday = date(year, month, dom).strftime("%A")
    except ValueError:
        return words
    return f"{weekday} {words}"


def today_of(
    now: datetime | None,
    clock: Callable[[], datetime] | None,
    facts: Mapping[str, Scalar],
) -> date | None:
    """The episode's day: the environment's clock, else the policy's, else the scenario's."""
    if now is not None:
        return now.date()
    if clock is not None:
        return clock().date()
    for key in CLOCK_KEYS:
        value = facts.get(key)
        if isinstance(value, str):
            parsed = _parse_instant(value)
            if parsed is not None:
                return parsed.date()
    return None


def environment_now(env: object) -> datetime | None:
    """The environment's clock, if it offers `now()` (optional in the `Environment` protocol).

    A `now()` that fails or returns something else gives `None`: relative dates are then not
    compared, rather than read against the real clock.
    """
    now = getattr(env, "now", None)
    if not callable(now):
        return None
    try:
        value = now()
    except Exception:  # the environment is user code; a broken clock only turns the clock off
        return None
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)  # noqa: DTZ001 - a calendar day
    return _parse_instant(value) if isinstance(value, str) else None


def _parse_instant(value: str) -> datetime | None:
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError:
        return None


def _mention(match: re.Match[str], days: frozenset[str], *, relative: bool = False) -> DateMention:
    return DateMention(
        start=match.start(), end=match.end(), surface=match.group(0), days=days, relative=relative
    )


def _explicit(match: re.Match[str]) -> str | None:
    g = match.groups()
    if g[0] is not None:
        month, dom = int(g[1]), int(g[2])
    elif g[3] is not None:
        month, dom = _MONTHS[g[4].lower()], int(g[3])
    else:
        month, dom = _MONTHS[g[6].lower()], int(g[7])
    if not (1 <= month <= 12 and 1 <= dom <= 31):
        return None
    return f"{month:02d}-{dom:02d}"


def _relative(match: re.Match[str], today: date) -> set[str]:
    after_tomorrow, now_word, tomorrow, count, unit, lead, weekday = match.groups()
    if after_tomorrow:
        return {_md(today + timedelta(days=2))}
    if now_word:
        return {_md(today)}
    if tomorrow:
        return {_md(today + timedelta(days=1))}
    if count:
        n = int(count) if count.isdigit() else _NUMBERS[count.lower()]
        step = 7 if unit.lower().startswith("week") else 1
        return {_md(today + timedelta(days=n * step))}
    return {_md(d) for d in _weekday_days(today, _WEEKDAYS.index(weekday.lower()), lead)}


def _weekday_days(today: date, weekday: int, lead: str | None) -> list[date]:
    """The days a weekday may mean: "this" the coming one, "next" that or next week's one."""
    ahead = (weekday - today.weekday()) % 7
    coming = today + timedelta(days=ahead)  # today itself when it is that weekday
    following = today + timedelta(days=ahead or 7)  # strictly after today
    word = (lead or "").lower().split()[-1] if lead else ""
    if word == "last":
        return [today - timedelta(days=(today.weekday() - weekday) % 7 or 7)]
    if word in ("this", "coming"):
        return [coming]
    if word == "next":
        next_week = today + timedelta(days=7 - today.weekday() + weekday)
        return sorted({following, next_week})
    # A bare "on Thursday" is the coming one, or the one after ("the Friday after"), or a past
    # one in a report ("on Monday"): any of them agrees, so a bare weekday is never objected to
    # for its week.
    past = today - timedelta(days=(today.weekday() - weekday) % 7)
    return sorted({coming, following, following + timedelta(days=7), past})


def _md(day: date) -> str:
    return f"{day.month:02d}-{day.day:02d}"

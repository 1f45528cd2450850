"""Reading dates the way customers say them, against the desk's fixed clock."""

from __future__ import annotations

import re
from datetime import date, timedelta

from benchmarks.domains.energy._seed import TODAY

MONTHS = {
    name: index
    for index, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
         ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
         ("september", "sept", "sep"), ("october", "oct"), ("november", "nov"),
         ("december", "dec")],
        start=1,
    )
    for name in names
}
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "eighteen": 18, "twenty-four": 24,
    "twenty four": 24, "a couple of": 2, "a few": 3,
}
MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_MONTH_RE = MONTH_RE


def nice_date(value: date) -> str:
    return f"{WEEKDAYS[value.weekday()].title()} {value.day} {value.strftime('%B %Y')}"


def _absolute_dates(text: str, default_year: int | None) -> list[date]:
    out: list[date] = []
    low = text.lower()
    for m in re.finditer(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", low):
        out.append(_safe(int(m.group(1)), int(m.group(2)), int(m.group(3))))
    for m in re.finditer(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b", low):
        year = int(m.group(3))
        year = year + (1900 if year > 30 else 2000) if year < 100 else year
        out.append(_safe(year, int(m.group(2)), int(m.group(1))))
    day_month = rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+({_MONTH_RE})\b\.?(?:,?\s*(\d{{4}}))?"
    for m in re.finditer(day_month, low):
        year = int(m.group(3)) if m.group(3) else default_year
        if year:
            out.append(_safe(year, MONTHS[m.group(2)], int(m.group(1))))
    month_day = rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(\d{{4}}))?"
    for m in re.finditer(month_day, low):
        year = int(m.group(3)) if m.group(3) else default_year
        if year:
            out.append(_safe(year, MONTHS[m.group(1)], int(m.group(2))))
    return [d for d in out if d != date.min]


def _safe(year: int, month: int, day: int) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        return date.min


def without_birthdates(text: str) -> str:
    """The text without dates whose year is before 2010 (a date of birth, not an event)."""
    years = r"(?:19\d\d|200\d)"
    numeric = rf"\b\d{{1,2}}[/.]\d{{1,2}}[/.]{years}\b|\b{years}-\d{{1,2}}-\d{{1,2}}\b"
    out = re.sub(numeric, " ", text)
    out = re.sub(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH_RE})\b,?\s*{years}\b", " ",
                 out, flags=re.I)
    return re.sub(rf"\b(?:{_MONTH_RE})\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s*{years}\b", " ", out,
                  flags=re.I)


def parse_date(text: str, *, past: bool = False) -> date | None:
    """A date the customer names: absolute, relative ("tomorrow", "this Friday") or "the 3rd"."""
    low = text.lower()
    if re.search(r"\btoday\b|\bthis morning\b|\bjust now\b|\bearlier today\b", low):
        return TODAY
    if re.search(r"\byesterday\b|\blast night\b", low):
        return TODAY - timedelta(days=1)
    if re.search(r"\btomorrow\b", low):
        return TODAY + timedelta(days=1)
    if m := re.search(r"\bin (\w+) (day|week)s?\b", low):
        count = _count(m.group(1))
        if count:
            return TODAY + timedelta(days=count * (7 if m.group(2) == "week" else 1))
    found = _absolute_dates(text, default_year=TODAY.year)
    if found:
        value = found[0]
        if not past and value < TODAY - timedelta(days=60):
            value = _safe(value.year + 1, value.month, value.day)
        return value
    if m := re.search(r"\b(?:(this|next|last|on|coming)\s+)?(" + "|".join(WEEKDAYS) + r")\b", low):
        return _weekday(m.group(1) or "", WEEKDAYS.index(m.group(2)), past)
    if m := re.search(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", low):
        return _day_of_month(int(m.group(1)), past)
    return None


def _weekday(word: str, target: int, past: bool) -> date:
    if word == "last" or (past and word != "next"):
        back = (TODAY.weekday() - target) % 7 or 7
        return TODAY - timedelta(days=back)
    ahead = (target - TODAY.weekday()) % 7 or 7
    return TODAY + timedelta(days=ahead)


def _day_of_month(day: int, past: bool) -> date | None:
    value = _safe(TODAY.year, TODAY.month, day)
    if value == date.min:
        return None
    if past and value > TODAY:
        value = _safe(TODAY.year, TODAY.month - 1, day)
    elif not past and value < TODAY:
        value = _safe(TODAY.year + TODAY.month // 12, TODAY.month % 12 + 1, day)
    return None if value == date.min else value


def _count(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.get(word)



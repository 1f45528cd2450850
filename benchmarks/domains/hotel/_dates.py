"""Dates as guests write them, read against the desk's clock.

"12 June", "June 12th", "the 14th", "12-14 June", "Friday 12 June", "this Friday", "from Friday
to Sunday", "tomorrow", "2026-06-12", "12/06"; and changes to a stay: "one more night", "a day
later", "arrive on the 17th instead of the 18th", "leave a day early".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, timedelta

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
    "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12,
    "dec": 12,
}  # fmt: skip
WEEKDAYS = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6, "tues": 1, "weds": 2, "thurs": 3,
}  # fmt: skip
NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2, "a couple of": 2,
}  # fmt: skip

_MON = r"(?P<mon>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<year>\d{4}))?"
_WD = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+(?:the\s+)?)?"
_SEP = r"\s*(?:-|–|—|to|until|till|til|through|thru|and)\s*(?:the\s+)?"
_NUM = r"(?P<n>\d+|" + "|".join(sorted(NUMBERS, key=len, reverse=True)) + r")"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("range_dm", re.compile(rf"\b{_WD}(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?{_SEP}{_WD}"
                            rf"(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+{_MON}{_YEAR}")),
    ("range_md", re.compile(rf"\b{_MON}\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?{_SEP}"
                            rf"(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b{_YEAR}")),
    ("iso", re.compile(r"\b(?P<year>\d{4})-(?P<mon>\d{1,2})-(?P<day>\d{1,2})\b")),
    ("dm", re.compile(rf"\b{_WD}{_DAY}(?:\s+of)?\s+{_MON}{_YEAR}\b")),
    ("md", re.compile(rf"\b{_WD}{_MON}\s+(?:the\s+)?{_DAY}\b{_YEAR}")),
    ("num", re.compile(r"\b(?P<day>\d{1,2})/(?P<mon>\d{1,2})(?:/(?P<year>\d{2,4}))?\b"
                       r"|\b(?P<day2>\d{1,2})\.(?P<mon2>\d{1,2})\.(?P<year2>\d{4})\b")),
    ("wd_ord", re.compile(r"\b(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)day,?\s+"
                          r"(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?\b")),
    ("rel", re.compile(r"\b(?P<rel>day after tomorrow|tomorrow|today|tonight)\b")),
    ("weekday", re.compile(r"\b(?P<mod>this coming|this|next|coming|on)?\s*(?P<wd>monday|tuesday|"
                           r"wednesday|thursday|friday|saturday|sunday|tues|weds|thurs)"
                           r"(?P<after>\s+after next|\s+week)?\b")),
    ("ordinal", re.compile(r"\b(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)\b(?!\s*floor)")),
]  # fmt: skip


@dataclass(frozen=True)
class Found:
    """A date found in a text, with where it was."""

    day: date
    start: int
    end: int
    part: int = 0
    """0: a single date; 1 and 2: the first and second date of a range ("12-14 June")."""
    weekday: int | None = None
    """For a bare weekday ("on Friday", not "this Friday"): its number, Monday being 0."""


def _year_for(month: int, day: int, today: date, year: str | None) -> date | None:
    try:
        if year:
            y = int(year)
            return date(y + 2000 if y < 100 else y, month, day)
        found = date(today.year, month, day)
        return found if found >= today - timedelta(days=1) else date(today.year + 1, month, day)
    except ValueError:
        return None


def _weekday(m: re.Match[str], base: date, today: date) -> date:
    target = WEEKDAYS[m["wd"]]
    ahead = (target - base.weekday()) % 7
    if ahead == 0 and (base != today or (m["mod"] or "") in ("next", "coming", "")):
        ahead = 7
    found = base + timedelta(days=ahead)
    return found + timedelta(days=7) if m["after"] else found


def _ordinal(day: int, today: date, month_hint: date | None) -> date | None:
    anchor = month_hint or today
    for months_ahead in range(3):
        year, month = anchor.year, anchor.month + months_ahead
        year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if found >= today:
            return found
    return None


def find_dates(text: str, today: date, month_hint: date | None = None) -> list[Found]:
    """Every date in `text`, in the order written (ranges give two)."""
    low = text.lower()
    taken: list[tuple[int, int]] = []
    found: list[Found] = []

    def free(m: re.Match[str]) -> bool:
        return all(m.end() <= a or m.start() >= b for a, b in taken)

    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(low):
            if not free(m) or not m.group(0).strip():
                continue
            days = _match_dates(kind, m, today, month_hint, found)
            if days:
                taken.append((m.start(), m.end()))
                parts = [1, 2] if len(days) == 2 else [0]
                bare = kind == "weekday" and (m["mod"] or "on") == "on" and not m["after"]
                weekday = WEEKDAYS[m["wd"]] if bare else None
                found += [
                    Found(d, m.start(), m.end(), p, weekday)
                    for d, p in zip(days, parts, strict=True)
                ]
    found.sort(key=lambda f: (f.start, f.part))
    return [f for i, f in enumerate(found) if i == 0 or f.day != found[i - 1].day]


def _match_dates(
    kind: str, m: re.Match[str], today: date, month_hint: date | None, before: list[Found]
) -> list[date]:
    g = m.groupdict()
    if kind in ("range_dm", "range_md"):
        month = MONTHS[g["mon"]]
        first = _year_for(month, int(g["d1"]), today, g["year"])
        second = _year_for(month, int(g["d2"]), today, g["year"])
        return [first, second] if first and second else []
    if kind in ("iso", "dm", "md"):
        month = int(g["mon"]) if kind == "iso" else MONTHS[g["mon"]]
        one = _year_for(month, int(g["day"]), today, g["year"])
        return [one] if one else []
    if kind == "num":
        day, mon, year = (
            (g["day"], g["mon"], g["year"]) if g["day"] else (g["day2"], g["mon2"], g["year2"])
        )
        if int(mon) > 12:
            return []
        one = _year_for(int(mon), int(day), today, year)
        return [one] if one else []
    if kind == "rel":
        shift = {"today": 0, "tonight": 0, "tomorrow": 1, "day after tomorrow": 2}[g["rel"]]
        return [today + timedelta(days=shift)]
    if kind == "weekday":
        earlier = [f.day for f in before if f.start < m.start()]
        base = max(earlier) if earlier else today
        return [_weekday(m, base, today)]
    one = _ordinal(int(g["day"]), today, month_hint)
    return [one] if one else []


def number(word: str) -> int:
    """A small number written in digits or words."""
    return int(word) if word.isdigit() else NUMBERS.get(word, 1)


_NIGHTS = re.compile(rf"\b(?:for\s+)?{_NUM}\s+(?P<more>more\s+|extra\s+|additional\s+)?nights?\b")
_EXTRA = re.compile(r"\b(?:extra|another|additional|one more) night|\bextend\b|\bstay longer\b")
_SHIFT = re.compile(
    rf"\b{_NUM}\s+(?P<unit>days?|nights?|weeks?)\s+(?P<dir>earlier|later|sooner|"
    r"early|before|after|forward|back)\b"
)
_SHIFT_BY = re.compile(
    rf"\b(?P<dir>forward|back|later|earlier|postpone\w*|delay\w*)(?:\s+it)?"
    rf"\s+(?:by\s+)?{_NUM}\s+(?P<unit>days?|nights?|weeks?)\b"
)
_ARRIVE = re.compile(r"\b(arriv\w*|check(?:ing)?[\s-]*in|come|coming|get there|start\w*|from)\b")
_LEAVE = re.compile(
    r"\b(leav\w*|depart\w*|check(?:ing)?[\s-]*out|go home|until|till|til|"
    r"through|end\w*)\b"
)


_OLD = re.compile(
    r"\b(?:instead of|rather than|not|currently|originally|at the moment|booked|moving from|"
    r"move (?:it )?from|change (?:it )?from|was|were)\s*(?:on\s+|for\s+)?(?:the\s+)?$"
)
_KEEP_OUT = re.compile(
    r"\b(?:keep|same|still|as before)\b[^.,;]{0,25}\b(?:check[\s-]*out|leav\w*|depart\w*)"
    r"|\b(?:check[\s-]*out|leav\w*|depart\w*)[^.,;]{0,25}\b(?:the same|unchanged|"
    r"as (?:planned|before|it is|booked))"
)
_KEEP_IN = re.compile(r"\b(?:keep|same|still)\b[^.,;]{0,25}\b(?:check[\s-]*in|arriv\w*)\b")


def _role(low: str, found: Found) -> str | None:
    if found.part:
        return "check_in" if found.part == 1 else "check_out"
    window = low[max(0, found.start - 30) : found.start]
    if _OLD.search(window):
        return "old"
    leave = [m.end() for m in _LEAVE.finditer(window)]
    arrive = [m.end() for m in _ARRIVE.finditer(window)]
    if leave and (not arrive or max(leave) > max(arrive)):
        return "check_out"
    return "check_in" if arrive else None


def stay_change(text: str, today: date, current: tuple[date, date] | None) -> dict[str, date]:
    """New stay dates asked for in `text`: `check_in`, `check_out` (either may be missing).

    Relative requests ("one more night", "a day later", "leave a day early") are read against
    the `current` stay; a date given as the old one ("instead of the 18th") is left out.
    """
    low = text.lower()
    hint = current[0] if current else None
    found = [f for f in find_dates(text, today, hint) if f.day.year >= today.year]
    roles = [(f, _role(low, f)) for f in found]
    new = [(f, r) for f, r in roles if r != "old"]
    if current and len(new) > 2:  # "from 16-18 June to 12-15 June": the old stay is named too
        kept = [(f, r) for f, r in new if f.day not in current]
        new = kept if len(kept) >= 2 else new
    new = _anchored(new, today, current)
    out: dict[str, date] = {}
    if len(new) >= 2:
        (a, ra), (b, rb) = new[0], new[1]
        if ra == "check_out" and rb == "check_in":
            a, b = b, a
        out["check_in"], out["check_out"] = sorted((a.day, b.day))
    elif new:
        f, role = new[0]
        out[role if role in ("check_in", "check_out") else "check_in"] = f.day
    if current:
        if "check_out" not in out and _KEEP_OUT.search(low):
            out["check_out"] = current[1]
        if "check_in" not in out and _KEEP_IN.search(low):
            out["check_in"] = current[0]
    nights = _NIGHTS.search(low)
    if nights and "check_in" in out and "check_out" not in out and not nights["more"]:
        out["check_out"] = out["check_in"] + timedelta(days=number(nights["n"]))
    if current and not new:
        out.update(_relative(low, current))
    return out


def _anchored(
    found: list[tuple[Found, str | None]], today: date, current: tuple[date, date] | None
) -> list[tuple[Found, str | None]]:
    """Bare weekdays read against the stay: "arrive on Wednesday instead" is the Wednesday
    nearest the booked arrival; "to Sunday" after another date is the Sunday after it."""
    out: list[tuple[Found, str | None]] = []
    previous: date | None = None
    for f, role in found:
        day = f.day
        if f.weekday is not None and previous is not None:
            day = previous + timedelta(days=(f.weekday - previous.weekday() - 1) % 7 + 1)
        elif f.weekday is not None and current is not None:
            anchor = current[1] if role == "check_out" else current[0]
            offset = (f.weekday - anchor.weekday()) % 7
            day = anchor + timedelta(days=offset if offset <= 3 else offset - 7)
            day = day if day >= today else day + timedelta(days=7)
        out.append((replace(f, day=day), role))
        previous = day
    return out


def _relative(low: str, current: tuple[date, date]) -> dict[str, date]:
    ci, co = current
    nights = _NIGHTS.search(low)
    shift = _SHIFT.search(low) or _SHIFT_BY.search(low)
    if shift:
        step = number(shift["n"]) * (7 if shift["unit"].startswith("week") else 1)
        sign = -1 if shift["dir"] in ("earlier", "sooner", "early", "before", "forward") else 1
        delta = timedelta(days=sign * step)
        before = low[max(0, shift.start() - 40) : shift.start()]
        if re.search(r"\b(leav\w*|depart\w*|check(?:ing)?[\s-]*out|go home)\b", before):
            return {"check_in": ci, "check_out": co + delta}
        if re.search(r"\b(arriv\w*|check(?:ing)?[\s-]*in|come|get there)\b", before):
            return {"check_in": ci + delta, "check_out": co}
        return {"check_in": ci + delta, "check_out": co + delta}
    if nights and (nights["more"] or _EXTRA.search(low)):
        return {"check_in": ci, "check_out": co + timedelta(days=number(nights["n"]))}
    if _EXTRA.search(low):
        return {"check_in": ci, "check_out": co + timedelta(days=1)}
    if nights and re.search(r"\b(shorten|only|just|cut)\b", low):
        return {"check_in": ci, "check_out": ci + timedelta(days=number(nights["n"]))}
    return {}

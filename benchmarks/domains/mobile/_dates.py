"""Dates in customer English: "from the 2nd to the 9th of June", "next Friday for 5 days"."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}
WEEKDAYS = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6, "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3,
    "fri": 4, "sat": 5, "sun": 6,
}
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}
_SUFFIX = {1: "st", 2: "nd", 3: "rd"}

_M = r"(?P<m>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_W = r"(?P<w>" + "|".join(sorted(WEEKDAYS, key=len, reverse=True)) + r")"
_D = r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?"
_Y = r"(?:,?\s+(?P<y>(?:19|20)\d\d))?"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b(?P<y>(?:19|20)\d\d)-(?P<m>\d\d?)-(?P<d>\d\d?)\b")),
    ("num", re.compile(r"\b(?P<d>[0-3]?\d)/(?P<m>[01]?\d)(?:/(?P<y>(?:19|20)?\d\d))?\b")),
    ("num", re.compile(r"\b(?P<d>[0-3]?\d)\.(?P<m>[01]?\d)\.(?P<y>(?:19|20)\d\d)\b")),
    ("dm", re.compile(r"\b" + _D + r"\s+(?:of\s+)?" + _M + r"(?![a-z])" + _Y)),
    ("md", re.compile(r"\b" + _M + r"\s+(?:the\s+)?" + _D + r"\b" + _Y)),
    ("rel", re.compile(r"\b(?P<r>day after tomorrow|tomorrow|today|tonight)\b")),
    ("wd", re.compile(
        r"\b(?P<q>this coming|this|next|coming|on)?\s*" + _W
        + r"(?P<wk>\s+week|\s+after next)?\b")),
    ("day", re.compile(
        r"\bthe\s+" + _D + r"\b(?!\s*(?:gb|gig|g\b|pounds?|quid|p\b|%|minutes?|days?|nights?"
        r"|weeks?|months?|plan|one|line))")),
    ("day", re.compile(r"\b(?P<d>[0-3]?\d)(?:st|nd|rd|th)\b")),
]
_END_CUE = re.compile(
    r"(?:\b(?:until|till|til|to|through|thru|and|back(?: on)?|return(?:ing)?(?: on)?|"
    r"coming back(?: on)?|home(?: on)?|fly(?:ing)? back(?: on)?|ends?(?: on)?)|[-–])"
    r"(?:\s+the)?\s*$"
)
_START_CUE = re.compile(
    r"\b(?:from|starting|start(?:s|ing)?(?: on)?|leav(?:e|ing)(?: on)?|fly(?:ing)?(?: out)?(?: on)?"
    r"|depart(?:ing)?(?: on)?|between|off on|go(?:ing)?(?: on)?)(?:\s+the)?\s*$"
)
_SEP = r"\s*(?:-|–|to|until|till|and)\s*(?:the\s+)?"
_D1 = r"(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?"
_RANGES = [
    re.compile(r"\b" + _D1 + _SEP + _D + r"\s+(?:of\s+)?" + _M + r"(?![a-z])" + _Y),
    re.compile(r"\b" + _M + r"\s+(?:the\s+)?" + _D1 + _SEP + _D + r"\b" + _Y),
]
_DURATION = re.compile(
    r"\bfor\s+(?:(?P<n>\d+|a|an|one)\s+)?(?P<u>days?|nights?|weeks?|fortnight)\b"
    r"|\b(?P<n2>\d+)[\s-](?P<u2>days?|nights?|weeks?)\b"
)


@dataclass(frozen=True)
class Mention:
    """A date found in a message, where it was and how it was said."""

    pos: int
    end: int
    day: date | None
    kind: str
    """full, day (day of month only: month to be inferred), relative."""
    dom: int = 0


def ordinal(n: int) -> str:
    """1 -> 1st, 22 -> 22nd."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else _SUFFIX.get(n % 10, 'th')}"


def spoken(day: date) -> str:
    """Tuesday 2 June 2026."""
    return f"{day.strftime('%A')} {day.day} {day.strftime('%B %Y')}"


def ordinal_words_to_digits(text: str) -> str:
    """'the twenty-second' -> 'the 22nd'; 'first' -> '1st'."""

    def compound(match: re.Match[str]) -> str:
        tens = 20 if match.group(1) == "twenty" else 30
        return ordinal(tens + _ORDINALS[match.group(2)])

    text = re.sub(
        r"\b(twenty|thirty)[\s-](first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)\b",
        compound, text,
    )
    pattern = r"\b(" + "|".join(sorted(_ORDINALS, key=len, reverse=True)) + r")\b"
    return re.sub(pattern, lambda m: ordinal(_ORDINALS[m.group(1)]), text)


def _safe(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _year_for(m: int, d: int, today: date) -> int:
    # No year: this year, unless that is more than two months ago (then next year).
    candidate = _safe(today.year, m, d)
    if candidate and candidate < today - timedelta(days=62):
        return today.year + 1
    return today.year


def _weekday(match: re.Match[str], today: date) -> date:
    target = WEEKDAYS[match.group("w")]
    ahead = (target - today.weekday()) % 7 or 7
    qualifier = (match.group("q") or "").strip()
    week = (match.group("wk") or "").strip()
    if week in {"week", "after next"} or (qualifier == "next" and week):
        ahead += 7
    return today + timedelta(days=ahead)


def _full(kind: str, match: re.Match[str], today: date) -> date | None:
    d = int(match.group("d"))
    raw_m = match.group("m")
    m = int(raw_m) if raw_m.isdigit() else MONTHS[raw_m]
    y_raw = match.group("y")
    if y_raw:
        y = int(y_raw) if len(y_raw) == 4 else 2000 + int(y_raw)
    else:
        y = _year_for(m, d, today)
    return _safe(y, m, d)


def _relative(word: str, today: date) -> date:
    return today + timedelta(days={"today": 0, "tonight": 0, "tomorrow": 1}.get(word, 2))


def find_dates(text: str, today: date) -> list[Mention]:
    """Every date said in `text`, in order; day-of-month mentions get the month said nearby."""
    low = ordinal_words_to_digits(text.lower())
    taken: list[tuple[int, int]] = []
    found: list[Mention] = []
    for pattern in _RANGES:
        for match in pattern.finditer(low):
            last = _full("range", match, today)
            first = last and _safe(last.year, last.month, int(match.group("d1")))
            if first is None or last is None:
                continue
            if first > last:  # "from the 28th to the 3rd of June": the 28th of May
                prev = last.replace(day=1) - timedelta(days=1)
                first = _safe(prev.year, prev.month, first.day)
                if first is None:
                    continue
            found.append(Mention(match.start(), match.start("d1") + 1, first, "full"))
            found.append(Mention(match.start("d"), match.end(), last, "full"))
            taken.append(match.span())
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(low):
            span = match.span()
            if any(span[0] < e and s < span[1] for s, e in taken):
                continue
            if kind == "wd" and match.group("w") in {"sun", "sat", "wed", "mar", "may"} and not (
                match.group("q")
            ):
                continue  # "sat" and friends as words, not days, unless "on sat"
            if kind in {"iso", "num", "dm", "md"}:
                day = _full(kind, match, today)
                if day is None:
                    continue
                found.append(Mention(span[0], span[1], day, "full"))
            elif kind == "rel":
                found.append(Mention(span[0], span[1], _relative(match.group("r"), today),
                                     "relative"))
            elif kind == "wd":
                found.append(Mention(span[0], span[1], _weekday(match, today), "weekday"))
            else:
                dom = int(match.group("d"))
                if not 1 <= dom <= 31:
                    continue
                found.append(Mention(span[0], span[1], None, "day", dom))
            taken.append(span)
    found.sort(key=lambda m: m.pos)
    # "Friday 22 May", "Friday the 22nd": the weekday only names the date that follows.
    found = [
        m for i, m in enumerate(found)
        if not (
            m.kind == "weekday"
            and i + 1 < len(found)
            and re.fullmatch(r"[\s,]*(?:the\s*)?", low[m.end:found[i + 1].pos])
        )
    ]
    return _fill_months(found, today)


def _fill_months(found: list[Mention], today: date) -> list[Mention]:
    filled: list[Mention] = []
    for index, mention in enumerate(found):
        if mention.kind != "day":
            filled.append(mention)
            continue
        anchor = next((m.day for m in found[index + 1:] if m.kind == "full"), None)
        anchor = anchor or next(
            (m.day for m in reversed(found[:index]) if m.kind == "full"), None
        )
        if anchor is not None:
            day = _safe(anchor.year, anchor.month, mention.dom)
            if day and anchor < day and index + 1 < len(found) and found[index + 1].day == anchor:
                # "from the 28th to the 3rd of June": the 28th is in the month before.
                prev = anchor.replace(day=1) - timedelta(days=1)
                day = _safe(prev.year, prev.month, mention.dom)
        else:
            day = _safe(today.year, today.month, mention.dom)
            if day and day < today:
                nxt = (today.replace(day=28) + timedelta(days=5)).replace(day=1)
                day = _safe(nxt.year, nxt.month, mention.dom)
        filled.append(Mention(mention.pos, mention.end, day, "day", mention.dom))
    return [m for m in filled if m.day is not None]


def duration_days(text: str) -> int | None:
    """'for a week' -> 7, 'for 5 days' -> 5, 'for 7 nights' -> 8, 'a fortnight' -> 14."""
    low = text.lower()
    words = {"a": 1, "an": 1, "one": 1}
    low = re.sub(r"\b(a couple of|couple of)\b", "2", low)
    for word, value in _NUMBER_WORDS.items():
        low = re.sub(rf"\b{word}\b", str(value), low)
    match = _DURATION.search(low)
    if match is None:
        if re.search(r"\ba (?:week|fortnight)\b", low):
            return 14 if "fortnight" in low else 7
        return None
    n_raw = match.group("n") or match.group("n2") or "1"
    n = words.get(n_raw, None) or int(n_raw)
    unit = match.group("u") or match.group("u2")
    if unit.startswith("fortnight"):
        return 14 * n
    if unit.startswith("week"):
        return 7 * n
    if unit.startswith("night"):
        return n + 1
    return n


_NUMBER_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "twenty": 20, "thirty": 30,
}


def date_range(text: str, today: date) -> tuple[date | None, date | None]:
    """(start, end) said in a message; either may be missing."""
    mentions = find_dates(text, today)
    low = ordinal_words_to_digits(text.lower())
    starts: list[Mention] = []
    ends: list[Mention] = []
    loose: list[Mention] = []
    for mention in mentions:
        before = low[max(0, mention.pos - 28):mention.pos].rstrip()
        if _END_CUE.search(before) and (starts or loose or not _START_CUE.search(before)):
            ends.append(mention)
        elif _START_CUE.search(before):
            starts.append(mention)
        else:
            loose.append(mention)
    first = starts[0] if starts else (loose.pop(0) if loose else None)
    last = ends[0] if ends else (loose[0] if loose else None)
    if first is None and last is not None and len(ends) > 1:
        first, last = last, ends[1]
    start = first.day if first else None
    end = last.day if last else None
    if start is not None and end is not None and end < start and last and last.kind == "weekday":
        end = end + timedelta(days=7 * ((start - end).days // 7 + 1))  # "the 22nd until Sunday"
    days = duration_days(text)
    if start is not None and end is None and days:
        end = start + timedelta(days=days - 1)
    if start is not None and end is not None and end < start:
        start, end = end, start
    return start, end

"""Reading customers' English: references, licence digits, dates, classes, extras, yes / no."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "both": 2, "three": 3, "four": 4, "a couple of": 2,
           "another": 1, "second": 1, "extra": 1, "1": 1, "2": 2, "3": 3, "4": 4}
CLASSES = {"economy": r"economy|small car|smallest", "compact": r"compact",
           "estate": r"estate", "suv": r"suv|4x4|sports utility",
           "premium": r"premium|luxury|executive"}

REF_RE = re.compile(r"\bCLH[\s-]?(\d{5})\b|\b(204\d\d)\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_MON = "|".join(m[:3] + r"[a-z]*" for m in MONTHS)
_WD = "|".join(WEEKDAYS)
DATE_RES = [
    ("iso", re.compile(r"\b(20\d\d|19\d\d)-(\d{1,2})-(\d{1,2})\b")),
    ("dmy", re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b")),
    ("day_month", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?: of)? ({_MON})\.?(?:,? (\d{{4}}))?",
                             re.I)),
    ("month_day", re.compile(rf"\b({_MON}) (\d{{1,2}})(?:st|nd|rd|th)?(?:,? (\d{{4}}))?\b", re.I)),
    ("ordinal", re.compile(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", re.I)),
    ("tomorrow", re.compile(r"\btomorrow\b", re.I)),
    ("weekday", re.compile(rf"\b(?:(next|this|on|coming) )?({_WD})\b", re.I)),
]


@dataclass(frozen=True)
class DateHit:
    start: int
    end: int
    day: date
    has_year: bool


def _year_for(day: int, month: int, today: date) -> date:
    found = date(today.year, month, day)
    return found if found >= today - timedelta(days=60) else date(today.year + 1, month, day)


def _month(word: str) -> int:
    return next(i for i, m in enumerate(MONTHS, 1) if word.lower().startswith(m[:3]))


def _one(kind: str, m: re.Match[str], today: date) -> tuple[date, bool] | None:
    try:
        if kind == "iso":
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3))), True
        if kind == "dmy":
            if m.group(3):
                year = int(m.group(3))
                return date(year + 2000 if year < 100 else year, int(m.group(2)),
                            int(m.group(1))), True
            return _year_for(int(m.group(1)), int(m.group(2)), today), False
        if kind in {"day_month", "month_day"}:
            day, month = (m.group(1), m.group(2)) if kind == "day_month" else \
                (m.group(2), m.group(1))
            if m.group(3):
                return date(int(m.group(3)), _month(month), int(day)), True
            return _year_for(int(day), _month(month), today), False
        if kind == "ordinal":
            number = int(m.group(1))
            month, year = today.month, today.year
            if number < today.day:
                month, year = (1, year + 1) if month == 12 else (month + 1, year)
            return date(year, month, number), False
        if kind == "tomorrow":
            return today + timedelta(days=1), False
    except ValueError:
        return None
    ahead = (WEEKDAYS.index(m.group(2).lower()) - today.weekday()) % 7 or 7
    return today + timedelta(days=ahead), False


def find_dates(text: str, today: date) -> list[DateHit]:
    """Dates named in `text`, in order; "Tuesday 22 December" counts once."""
    hits: list[DateHit] = []
    for kind, pattern in DATE_RES:
        for m in pattern.finditer(text):
            if any(h.start < m.end() and m.start() < h.end for h in hits):
                continue
            found = _one(kind, m, today)
            if found is None:
                continue
            if kind == "weekday" and re.match(r"[\s,]*(?:the )?\d", text[m.end():m.end() + 8]):
                continue
            hits.append(DateHit(m.start(), m.end(), found[0], found[1]))
    return sorted(hits, key=lambda h: h.start)


def booking_refs(text: str) -> list[str]:
    return [f"CLH-{m.group(1) or m.group(2)}" for m in REF_RE.finditer(text)]


def licence_digits(text: str, today: date) -> str | None:
    """Four digits that are not part of a reference, a date, a year or a phone number."""
    blank = REF_RE.sub(" ", text)
    for hit in find_dates(blank, today):
        blank = blank[:hit.start] + " " * (hit.end - hit.start) + blank[hit.end:]
    blank = re.sub(r"\b\d{5,}\b|\b\d{3,5}\s\d{3,6}\b|£\s?\d+(?:\.\d\d)?", " ", blank)
    found = re.findall(r"(?<![\d.£])\b(\d{4})\b(?![.:]\d)", blank)
    return found[-1] if found else None


def emails(text: str) -> list[str]:
    return [m.rstrip(".").lower() for m in EMAIL_RE.findall(text)]


def car_class(text: str) -> str | None:
    """The class the customer wants (the one after "to", "an", "a" when two are named)."""
    named = []
    for name, pattern in CLASSES.items():
        for m in re.finditer(rf"\b(?:{pattern})\b", text, re.I):
            named.append((m.start(), name))
    if not named:
        return None
    lead_in = re.compile(r"\b(to|an?|for|into|with)\s+(?:the\s+)?(?:\w+\s)?$", re.I)
    targets = [n for s, n in named if lead_in.search(text[max(0, s - 16):s])]
    return targets[-1] if targets else sorted(named)[-1][1]


def extra_asked(text: str) -> str | None:
    if re.search(r"\b(gps|sat[- ]?nav|satellite navigation|navigation)\b", text, re.I):
        return "gps"
    if re.search(r"\b(child|baby|booster|car)[- ]seats?\b|\bseats?\b", text, re.I):
        return "child_seat"
    return None


def quantity(text: str) -> int | None:
    words = "|".join(sorted(NUMBERS, key=len, reverse=True))
    m = re.search(rf"\b({words})\s+(?:more\s+|extra\s+|additional\s+)?(?:child |baby |booster )?"
                  r"(?:seats?|sat ?navs?|gps)", text, re.I)
    return NUMBERS[m.group(1).lower()] if m else None


def wants_most(text: str) -> bool:
    return bool(re.search(r"\b(as many as|the most|max(imum)?|whatever you can|"
                          r"one (?:more )?is fine|just one|one will do|then one)\b", text, re.I))


def person_name(text: str, exclude: str = "") -> str | None:
    """A full name given for a driver: two capitalised words that are not the customer's."""
    skip = set(exclude.lower().split()) | {w.capitalize() for w in MONTHS + WEEKDAYS} | {
        "Cityline", "Car", "Hire", "Leeds", "York", "Manchester", "City", "Station", "Piccadilly",
        "Hi", "Hello", "Thanks", "Please", "I", "My", "Could", "Can", "The", "GPS"}
    for m in re.finditer(r"\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\s+([A-Z][a-z']+(?:-[A-Z][a-z]+)?)\b",
                         text):
        first, last = m.group(1), m.group(2)
        if first in skip or last in skip or first.lower() in skip and last.lower() in skip:
            continue
        return f"{first} {last}"
    return None


def birth_date(text: str, today: date) -> date | None:
    hits = [h for h in find_dates(text, today) if h.has_year and h.day.year < today.year - 10]
    return hits[-1].day if hits else None


HEDGE_RE = re.compile(r"\b(not yet|hold on|hang on|wait|let me think|not sure|need to check|"
                      r"give me a (?:sec|second|minute|moment))\b", re.I)
NO_RE = re.compile(r"^\W*(no|nope|nah)\b|\b(don'?t|do not)\b(?! worry)|\b(leave it|never ?mind|"
                   r"forget it|changed my mind|rather not|no thanks|no thank you)\b", re.I)
YES_RE = re.compile(r"\b(yes|yeah|yep|yup|please do|go ahead|go for it|do it|do that|"
                    r"that'?s (?:fine|great|perfect|right|correct|good|ok|okay)|sounds (?:good|"
                    r"great|fine|right)|ok|okay|sure|confirm(?:ed)?|correct|perfect|great|fine|"
                    r"that works|happy with that|absolutely|please)\b", re.I)


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' or None for a reply to a yes/no question."""
    if HEDGE_RE.search(text):
        return "hedge"
    if NO_RE.search(text):
        return "no"
    if YES_RE.search(text):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(re.search(r"\b(thanks|thank you|cheers|bye|goodbye|that'?s all|that'?s "
                          r"everything|nothing else|that'?s it)\b", text, re.I))


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" or word.isupper() and word[0] in "AEFHILMNORSX" \
        else "a"


def without_identity(text: str) -> str:
    """A customer's words with the booking reference and licence digits taken out."""
    text = REF_RE.sub(" ", text)
    text = re.sub(r"[,.]?\s*(?:(?:my |the )?(?:driving )?licence(?: number)?(?: ends(?: in| with)?|"
                  r"digits| last four(?: digits)?)?:?\s*)?\b\d{4}\b", " ", text, flags=re.I)
    return re.sub(r"\s+", " ", text).strip(" ,.")


def say_date(day: date | str) -> str:
    if isinstance(day, str):
        day = date.fromisoformat(day[:10])
    return f"{day.strftime('%A')} {day.day} {day.strftime('%B')} {day.year}"


def say_stamp(stamp: str) -> str:
    """'2026-12-18 10:00' as 'Friday 18 December 2026 at 10:00'."""
    return f"{say_date(stamp)} at {stamp[11:16]}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:.2f}"


def pence(money: str) -> int:
    return round(float(money.replace("£", "").replace(",", "")) * 100)

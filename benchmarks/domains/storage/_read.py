"""Reading customers' English: dates, times, account and unit numbers, postcodes, sizes, PINs,
names, yes / no."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
HOURS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}

ACCOUNT_RE = re.compile(r"\bKS[\s-]?(\d{4})\b", re.I)
BARE_ACCOUNT_RE = re.compile(r"(?<![\d£.:/-])(\d{4})(?![\d:/])")
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_MON = "|".join(m[:3] + r"[a-z]*" for m in MONTHS)
_WD = "|".join(WEEKDAYS)
DATE_RES = [
    ("iso", re.compile(r"\b(20\d\d|19\d\d)-(\d{1,2})-(\d{1,2})\b")),
    ("dmy", re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b")),
    ("day_month", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?: of)? ({_MON})\b\.?(?:,? "
                             rf"(\d{{4}}))?", re.I)),
    ("month_day", re.compile(rf"\b({_MON}) (\d{{1,2}})(?:st|nd|rd|th)?\b(?:,? (\d{{4}}))?",
                             re.I)),
    ("ordinal", re.compile(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", re.I)),
    ("today", re.compile(r"\b(today|this (?:morning|afternoon)|tonight)\b", re.I)),
    ("tomorrow", re.compile(r"\btomorrow\b", re.I)),
    ("weekday", re.compile(rf"\b(?:(next|this|on|coming) )?({_WD})\b", re.I)),
]


@dataclass(frozen=True)
class DateHit:
    start: int
    end: int
    day: date
    has_year: bool


def _month(word: str) -> int:
    return next(i for i, m in enumerate(MONTHS, 1) if word.lower().startswith(m[:3]))


def _year_for(day: int, month: int, today: date) -> date:
    found = date(today.year, month, day)
    return found if found >= today - timedelta(days=60) else date(today.year + 1, month, day)


def _one(kind: str, m: re.Match[str], today: date) -> tuple[date, bool] | None:
    try:
        if kind == "iso":
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3))), True
        if kind == "dmy":
            if m.group(3):
                year = int(m.group(3))
                year = year + (1900 if year > 30 else 2000) if year < 100 else year
                return date(year, int(m.group(2)), int(m.group(1))), True
            return _year_for(int(m.group(1)), int(m.group(2)), today), False
        if kind in {"day_month", "month_day"}:
            day, month = (m.group(1), m.group(2)) if kind == "day_month" else \
                (m.group(2), m.group(1))
            if m.group(3):
                return date(int(m.group(3)), _month(month), int(day)), True
            return _year_for(int(day), _month(month), today), False
        if kind == "ordinal":
            number, month, year = int(m.group(1)), today.month, today.year
            if number < today.day:
                month, year = (1, year + 1) if month == 12 else (month + 1, year)
            return date(year, month, number), False
        if kind == "today":
            return today, False
        if kind == "tomorrow":
            return today + timedelta(days=1), False
    except ValueError:
        return None
    ahead = (WEEKDAYS.index(m.group(2).lower()) - today.weekday()) % 7
    if ahead == 0 and (m.group(1) or "").lower() != "this":
        ahead = 7
    return today + timedelta(days=ahead), False


def find_dates(text: str, today: date) -> list[DateHit]:
    """Dates named in `text`, in order; "Thursday 10 December" counts once."""
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


_NEGATED = re.compile(r"\b(?:not|never|isn'?t|rather than|instead of)\s+(?:the |on |at )?"
                      r"(?:[a-z]+day,? )?$", re.I)


def visit_dates(text: str, today: date) -> list[date]:
    """Dates in `text` that can be appointment days (not dates of birth, not "not Friday")."""
    return [h.day for h in find_dates(text, today) if h.day.year >= today.year - 1
            and not _NEGATED.search(text[max(0, h.start - 26):h.start])]


def _hour(word: str) -> int:
    return HOURS[word.lower()] if word.lower() in HOURS else int(word)


def _day_hour(hour: int, suffix: str) -> int:
    suffix = suffix.lower().replace(".", "")
    if suffix == "pm" and hour < 12:
        return hour + 12
    if suffix == "am" and hour == 12:
        return 0
    return hour + 12 if not suffix and 1 <= hour <= 6 else hour


_H = r"(\d{1,2}|" + "|".join(HOURS) + r")"
TIME_RES = [
    ("half", re.compile(rf"\bhalf past {_H}\b\s*(am|pm|in the (?:morning|afternoon))?", re.I)),
    ("quarter", re.compile(rf"\bquarter (past|to) {_H}\b\s*(am|pm)?", re.I)),
    ("hm", re.compile(r"(?<![£\d.])\b(\d{1,2})[:.](\d{2})\s*(a\.?m\.?|p\.?m\.?)?(?![\d/])", re.I)),
    ("h", re.compile(rf"\b{_H}\s*(a\.?m\.?|p\.?m\.?|o'?\s?clock)", re.I)),
    ("noon", re.compile(r"\b(noon|midday)\b", re.I)),
]


def times(text: str) -> list[tuple[int, str]]:
    """Clock times named in `text` as (position, 'HH:MM'), in order."""
    found: list[tuple[int, int, str]] = []
    for kind, pattern in TIME_RES:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e, _ in found):
                continue
            if kind == "half":
                suffix = "pm" if "afternoon" in (m.group(2) or "").lower() else (m.group(2) or "")
                hhmm = f"{_day_hour(_hour(m.group(1)), suffix):02d}:30"
            elif kind == "quarter":
                hour = _day_hour(_hour(m.group(2)), m.group(3) or "")
                hhmm = f"{hour:02d}:15" if m.group(1).lower() == "past" else f"{hour - 1:02d}:45"
            elif kind == "hm":
                if int(m.group(1)) > 23 or int(m.group(2)) > 59:
                    continue
                hhmm = f"{_day_hour(int(m.group(1)), m.group(3) or ''):02d}:{m.group(2)}"
            elif kind == "h":
                suffix = "" if "clock" in m.group(2).lower() else m.group(2)
                hhmm = f"{_day_hour(_hour(m.group(1)), suffix):02d}:00"
            else:
                hhmm = "12:00"
            found.append((m.start(), m.end(), hhmm))
    # "half past two, not 09:00": a time the patient says no to is not the one they want
    return [(s, t) for s, _, t in sorted(found) if not _NEGATED.search(text[max(0, s - 8):s])]


def part_of_day(text: str) -> str | None:
    if re.search(r"\b(morning|before (?:lunch|noon|midday)|\bam\b)", text, re.I):
        return "morning"
    if re.search(r"\b(afternoon|after (?:lunch|work)|later in the day)\b", text, re.I):
        return "afternoon"
    return None


def postcode(text: str) -> str | None:
    m = POSTCODE_RE.search(text)
    return f"{m.group(1).upper()} {m.group(2).upper()}" if m else None


def accounts(text: str) -> list[str]:
    return [f"KS-{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.rstrip(".").lower() for m in EMAIL_RE.findall(text)]


HEDGE_RE = re.compile(r"\b(not yet|hold on|hang on|wait|let me think|not sure|need to check|"
                      r"give me a (?:sec|second|minute|moment))\b", re.I)
NO_RE = re.compile(r"^\W*(no|nope|nah)\b(?! (?:problem|worries|bother))|\b(don'?t|do not)\b"
                   r"(?! (?:worry|mind))|\b(leave it|never ?mind|forget it|changed my mind|"
                   r"rather not|no thanks|no thank you)\b", re.I)
YES_RE = re.compile(r"\b(yes|yeah|yep|yup|please do|go ahead|go for it|do it|do that|book it|"
                    r"that'?s (?:fine|great|perfect|right|correct|good|ok|okay)|sounds (?:good|"
                    r"great|fine|right)|ok|okay|sure|confirm(?:ed)?|correct|perfect|great|fine|"
                    r"that works|happy with that|absolutely|please|alright|all right|go on|"
                    r"proceed|agreed|lovely|brilliant|no problem|exactly|spot on|that'?s what I "
                    r"(?:want(?:ed)?|asked for|need)|(?:looks|sounds) right)\b", re.I)
# "Yes please — I don't mind the fee": a reply that opens with a yes is a yes.
LEADING_YES = re.compile(r"^\W*(yes|yeah|yep|yup|sure|ok|okay|alright|all right|please do|"
                         r"go ahead|absolutely|perfect|great|lovely)\b", re.I)


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' or None for a reply to a yes/no question."""
    if HEDGE_RE.search(text):
        return "hedge"
    if LEADING_YES.search(text) and not re.search(r"\b(?:but|instead)\b", text, re.I):
        return "yes"
    if NO_RE.search(text):
        return "no"
    if YES_RE.search(text):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(re.search(r"\b(thanks|thank you|cheers|bye|goodbye|that'?s all|that'?s "
                          r"everything|nothing else|that'?s it)\b", text, re.I))


def say_date(day: date | str) -> str:
    if isinstance(day, str):
        day = date.fromisoformat(day[:10])
    return f"{day.strftime('%A')} {day.day} {day.strftime('%B')} {day.year}"


def say_stamp(stamp: str) -> str:
    """'2026-12-15 10:00' as 'Tuesday 15 December 2026 at 10:00'."""
    return f"{say_date(stamp)} at {stamp[11:16]}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def pence(money: str) -> int:
    return round(float(money.replace("£", "").replace(",", "")) * 100)


UNIT_RE = re.compile(r"\bunit\s*(?:number\s*|no\.?\s*)?([A-EL])\s*-?\s*(\d{1,2})\b|"
                     r"\b([A-EL])-?(\d{2})\b(?!\s*(?:sq|square|ft|feet))", re.I)


def units(text: str) -> list[tuple[int, str]]:
    """Unit numbers named in `text` as (position, 'B05'), in order ("unit b5", "B05")."""
    found = []
    for m in UNIT_RE.finditer(text):
        if m.group(1):
            found.append((m.start(), f"{m.group(1).upper()}{int(m.group(2)):02d}"))
        elif m.group(3).isupper():
            found.append((m.start(), f"{m.group(3).upper()}{int(m.group(4)):02d}"))
    return found


SIZE_WORDS = [(r"\bgarage[- ]?size|\bgarage\b|\bbiggest\b|\blargest\b", 150),
              (r"\bextra[- ]large\b|\bx-?l\b", 100),
              (r"\blocker\b", 15),
              (r"\blarge\b", 75),
              (r"\bmedium\b", 50),
              (r"\bsmall\b", 25)]
SQFT_RE = re.compile(r"\b(15|25|50|75|100|150)\s*(?:-\s*)?(?:sq\.?\s*(?:ft|feet|foot)\b|"
                     r"square[- ](?:foot|feet)|sqft\b|ft\b|feet\b|foot\b)", re.I)


def sizes(text: str) -> list[int]:
    """Unit sizes named in `text`, in square feet, in order."""
    found = [(m.start(), int(m.group(1))) for m in SQFT_RE.finditer(text)]
    spans = [(m.start(), m.end()) for m in SQFT_RE.finditer(text)]
    low = text.lower()
    for pattern, sqft in SIZE_WORDS:
        for m in re.finditer(pattern, low):
            if sqft == 75 and re.search(r"extra[- ]$", low[max(0, m.start() - 6):m.start()]):
                continue
            if any(s <= m.start() < e for s, e in spans):
                continue
            found.append((m.start(), sqft))
    return [s for _, s in sorted(found)]


PIN_RE = re.compile(r"(?<![\d£.:/-])(\d{3})[ -]?(\d{3})(?![\d:/])|(?<![\d£.:/-])(\d{6})(?![\d:/])")


def pins(text: str) -> list[str]:
    """Six-digit codes in `text`, in order ("905316", "905 316")."""
    out = []
    for m in PIN_RE.finditer(text):
        out.append(m.group(3) or m.group(1) + m.group(2))
    return out


def van_slot(text: str) -> str | None:
    """The van slot ('09:00'...) a customer names: a time, or morning / afternoon."""
    found = times(text)
    if found:
        return found[-1][1]
    return part_of_day(text)


_NAME = r"([A-Z][a-z'’-]+(?: [A-Z][a-z'’-]+){1,2})"
_NOT_NAMES = {"Keepsafe", "Unit", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
              "Saturday", "Sunday", "December", "January", "November", "Hi", "Hello", "Yes",
              "Please", "Could", "Can", "Thanks", "Sorry", "My", "The", "Add", "I", "Dear",
              "Manchester", "Store", "Mr", "Mrs", "Ms"}
NAME_RES = [
    re.compile(rf"\b(?:add|authori[sz]e|name is|called|named|is|for|add my (?:\w+),?|my "
               rf"(?:husband|wife|partner|son|daughter|brother|sister|mum|dad|mother|father|"
               rf"friend|colleague),?) {_NAME}"),
    re.compile(rf"^\W*{_NAME}\W*$"),
    re.compile(rf"(?<![\w'])(?!(?:{'|'.join(sorted(_NOT_NAMES))})\b){_NAME}"),
]


def person_name(text: str) -> str | None:
    """The full name given for an authorised user, the most explicit last."""
    for pattern in NAME_RES:
        found = [m.group(1) for m in pattern.finditer(text)
                 if m.group(1).split()[0] not in _NOT_NAMES]
        if found:
            return re.sub(r"['’]s$", "", found[-1])
    return None

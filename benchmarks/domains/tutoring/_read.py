"""Reading customers' English: account numbers, days, times, birthdays, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

ACCOUNT_RE = re.compile(r"\bBT\s*-?\s*(\d{4})\b", re.I)
LESSON_RE = re.compile(r"\bL\s*-?\s*(7\d{3})\b", re.I)
INVOICE_RE = re.compile(r"\bINV\s*-?\s*(\d{4})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
TIME_RE = re.compile(r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|th|of|jan|feb|"
                     r"mar|apr|may|jun|jul|aug|sep|oct|nov|dec|hours?|minutes?|mins?|years?))",
                     re.I)  # fmt: skip
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
YEAR = r"(?:,?\s+(\d{4}))?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b" + YEAR + r"|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b" + YEAR + r"|"
    r"\b(\d{4})-(\d\d)-(\d\d)\b|\b(\d{1,2})/(\d{1,2})/(\d{4})\b",
    re.I,
)
BARE_DAY_RE = re.compile(
    r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:'s)?\b|"
    r"\b(today|tonight|this evening|tomorrow)(?:'s)?\b",
    re.I,
)
# a student writing about their own lessons on a parent's account
STUDENT_SPEAKING = re.compile(
    r"\bmy (?:mum|mom|mother|dad|father|parents?|guardian|step-?(?:mum|dad))(?:'s)?\b|"
    r"\bi'?m (?:the|a) student\b|\bi am (?:the|a) student\b",
    re.I,
)
SUBJECT_WORDS = (("maths", r"\bmaths?\b|\bmathematics\b"), ("english", r"\benglish\b"),
                 ("physics", r"\bphysics\b"), ("chemistry", r"\bchemistry\b"),
                 ("biology", r"\bbiology\b"), ("french", r"\bfrench\b"),
                 ("history", r"\bhistory\b"))  # fmt: skip
LEVEL_WORDS = (("A-level", r"\ba[- ]?levels?\b"), ("GCSE", r"\bgcses?\b"),
               ("KS3", r"\bks3\b|\bkey stage 3\b"))  # fmt: skip


def accounts(text: str) -> list[str]:
    return [f"BT{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def lessons(text: str) -> list[str]:
    return [f"L{m.group(1)}" for m in LESSON_RE.finditer(text)]


def invoices(text: str) -> list[str]:
    return [f"INV-{m.group(1)}" for m in INVOICE_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def subjects(text: str) -> list[str]:
    return [name for name, pattern in SUBJECT_WORDS if re.search(pattern, text, re.I)]


def level(text: str) -> str | None:
    return next((name for name, pattern in LEVEL_WORDS if re.search(pattern, text, re.I)), None)


def _date(m: re.Match[str], today: date) -> tuple[date | None, bool]:
    """The day a match names, and whether a year was said."""
    g = m.groups()
    try:
        if g[0]:
            day, month, year = int(g[0]), MONTHS[g[1].lower()[:3]], g[2]
        elif g[3]:
            day, month, year = int(g[4]), MONTHS[g[3].lower()[:3]], g[5]
        elif g[6]:
            return date(int(g[6]), int(g[7]), int(g[8])), True
        else:
            return date(int(g[11]), int(g[10]), int(g[9])), True
        if year:
            return date(int(year), month, day), True
        # a yearless day in the past months is next year's ("9 January" said in December)
        return date(today.year + 1 if month < today.month - 3 else today.year, month, day), False
    except (ValueError, KeyError):
        return None, False


def dates(text: str, today: date) -> list[date]:
    """Days said, in order: full dates, then bare weekdays ("on Thursday") as the next one."""
    found: list[tuple[int, date]] = []
    spans = []
    for m in DATE_RE.finditer(text):
        day, _ = _date(m, today)
        spans.append(m.span())
        if day is not None:
            found.append((m.start(), day))
    for m in BARE_DAY_RE.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        word = (m.group(1) or m.group(2)).lower()
        if word in {"today", "tonight", "this evening"}:
            found.append((m.start(), today))
        elif word == "tomorrow":
            found.append((m.start(), today + timedelta(days=1)))
        else:
            ahead = (WEEKDAYS.index(word) - today.weekday()) % 7 or 7
            found.append((m.start(), today + timedelta(days=ahead)))
    return [d for _, d in sorted(found, key=lambda f: f[0])]


def birthday(text: str, today: date) -> date | None:
    """A date of birth: a day with a year, in the past."""
    for m in DATE_RE.finditer(text):
        day, with_year = _date(m, today)
        if day is not None and with_year and day < today:
            return day
    return None


def clock_time(text: str) -> str | None:
    """The last time of day said ("5pm", "17:00", "4.30pm"), as HH:MM; lessons are after 8."""
    found = None
    for m in TIME_RE.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not (m.group(2) or half) or hour > 23:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        found = f"{hour:02d}:{minute:02d}"
    if found is None and re.search(r"\bnoon\b|\bmidday\b", text, re.I):
        found = "12:00"
    return found


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|book it|happy|perfect|"
        r"great|lovely|that works|alright|all right|send it)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- requests --------------------------------------------------------------------------------
TITLE = r"\b(?:mr|mrs|ms|miss|dr|mme|madame)\.?\s+[a-z]"
INTENTS: list[tuple[str, str]] = [
    ("tutor", r"\b(?:change|switch|swap|different|new|another)\b.{0,30}\btutor\b|\btutor\b.{0,30}"
     r"\b(?:change|switch|swap)\b|\b(?:switch|change|swap)\b.{0,40}\bto " + TITLE),
    ("message", r"\btutor'?s (?:mobile|phone|number)|\b(?:mobile|phone|number|message|let)\b"
     r".{0,60}\b(?:tutor|" + TITLE + r")|\b(?:" + TITLE + r")\w*'?s? (?:mobile|phone|number)\b"),
    ("contact", r"\b(?:change|update|new)\b.{0,40}\b(?:e-?mail|phone number|mobile number|"
     r"contact details|mobile)\b|\b(?:my|our) (?:e-?mail|phone|mobile)\b.{0,30}\b(?:change|"
     r"update|new|is now)"),
    ("dispute", r"\bdisput|\bquery\b.{0,20}\binvoice|\binvoice\b.{0,80}\b(?:wrong|mistake|"
     r"error|shouldn'?t|didn'?t|never|cancelled)|\b(?:overcharged|charged twice|charged for)\b"),
    ("refund", r"\brefund\b.{0,60}\b(?:package|hours)|\b(?:package|hours)\b.{0,60}\b(?:refund|"
     r"money back)|\b(?:unused|remaining|left-?over) hours\b"),
    ("lookup", r"\bhow many hours|\bhours (?:left|remaining)\b|\bwhen(?:'s| is| are)\b|"
     r"\bwhat time\b|\bwhich tutor\b|\bwho (?:is|'s) \w+'?s? tutor"),
    ("course", r"\bintensive|\beaster\b.{0,20}\b(?:course|revision)|\brevision course|"
     r"\bcourse\b"),
    ("package", r"\b(?:buy|purchase|get|another|new|ten-hour|10-hour)\b.{0,40}\b(?:package|"
     r"bundle)|\bblock of (?:10|ten)\b|\b(?:10|ten)[- ]hours?\b.{0,20}\b(?:package|block)"),
    ("trial", r"\btrial\b|\btaster\b|\bfree (?:first |introductory |30[- ]minute )?(?:lesson|"
     r"session)"),
    ("cancel", r"\bcancel|\bcall off\b"),
    ("move", r"\b(?:mov(?:e|ed|ing)|reschedul\w*|rearrang\w*|push|bring forward|put back|"
     r"change the (?:time|day|date))\b"),
    ("book", r"\bbook\b|\blessons?\b|\bsession\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?:then\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|buy|add|send|set|let|what|how|when|switch|refund|dispute)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the clause it was said in."""

    intent: str
    text: str


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits)."""
    out: list[Request] = []
    for clause in SPLIT.split(message):
        for intent, pattern in INTENTS:
            if re.search(pattern, clause, re.I):
                out.append(Request(intent, clause))
                break
    kinds = {r.intent for r in out}
    if kinds & {"move", "cancel", "trial", "tutor", "message", "refund", "dispute", "course",
                 "lookup"}:
        # "my lesson" names the lesson being changed, not a new booking
        out = [r for r in out if r.intent != "book"]
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso[:10])
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def say_start(start: str) -> str:
    return f"{say_day(start)} at {start[11:16]}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

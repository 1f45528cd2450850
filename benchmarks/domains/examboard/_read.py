"""Reading customers' English: candidate numbers, dates of birth, levels, days, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

CANDIDATE_RE = re.compile(r"\bNA\s*-?\s*(\d{5})\b", re.I)
ENTRY_RE = re.compile(r"\bEN\s*-?\s*(\d{4})\b", re.I)
LEVEL_RE = re.compile(r"\b(B2|C1|C2)\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
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
    r"\b(\d{4})-(\d\d)-(\d\d)\b|"
    r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b",
    re.I,
)
# a condition inside the goal: only withdraw when every penny comes back
FULL_ONLY = re.compile(
    r"\bonly if (?:i|we) (?:get|can get) (?:all|everything|the full|a full|my full|the whole)|"
    r"\bonly (?:with|for) a full refund|\bif (?:i|we) can'?t get (?:all|everything|a full|the "
    r"full).{0,40}\b(?:leave|don'?t|keep|stay)",
    re.I,
)
# someone speaking for the candidate ("my son", "on behalf of")
THIRD_PARTY = re.compile(
    r"\bmy (?:son|daughter|child|boy|girl|kid|ward|stepson|stepdaughter)\b|\bon behalf of\b|"
    r"\bfor my (?:son|daughter|child)\b",
    re.I,
)


def candidates(text: str) -> list[str]:
    return [f"NA{m.group(1)}" for m in CANDIDATE_RE.finditer(text)]


def entries(text: str) -> list[str]:
    return [f"EN{m.group(1)}" for m in ENTRY_RE.finditer(text)]


def levels(text: str) -> list[str]:
    return [m.group(1).upper() for m in LEVEL_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def _date(m: re.Match[str], today: date) -> tuple[date | None, bool]:
    """The day a match names, and whether its year was said."""
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
        # a yearless day in a month already gone this year is next year's
        return date(today.year + (month < today.month), month, day), False
    except (ValueError, KeyError):
        return None, False


def dates(text: str, today: date) -> list[date]:
    """Days said, in order (yearless ones read as the next such day)."""
    found = [_date(m, today)[0] for m in DATE_RE.finditer(text)]
    return [d for d in found if d is not None]


def birth_dates(text: str, today: date) -> list[date]:
    """Days said with a year, at least ten years ago: how a date of birth is given."""
    out = []
    for m in DATE_RE.finditer(text):
        d, with_year = _date(m, today)
        if d is not None and with_year and today.year - d.year >= 10:
            out.append(d)
    return out


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|go ahead)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|happy|perfect|great|"
        r"lovely|that works|alright|all right)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


def arrangement(text: str) -> str | None:
    """extra_time, reader or None."""
    if re.search(r"\bextra time\b|\b25 ?%|\b25 per ?cent|\bmore time\b", text, re.I):
        return "extra_time"
    if re.search(r"\breader\b|\bread (?:the )?(?:paper|questions|it) (?:out|aloud|to)", text,
                 re.I):  # fmt: skip
        return "reader"
    return None


# -- requests --------------------------------------------------------------------------------
INTENTS: list[tuple[str, str]] = [
    ("withdraw", r"\bwithdraw|\bpull (?:me |her |him )?out\b|\bcancel (?:my|the|her|his) "
     r"(?:entry|exam|place)"),
    ("remark", r"\bre-?mark|\breview of (?:my|the|her|his) (?:result|paper|grade)|\bappeal\b"),
    ("certificate", r"(?<!medical )\bcertificate\b"),
    ("access", r"\bextra time\b|\breader\b|\baccess arrangement|\b25 ?%|\bmore time\b"),
    ("contact", r"\bemail address\b|\b(?:my|new|the) email\b|\bphone\b|\bmobile\b|"
     r"\btelephone\b|\bcontact details\b"),
    ("transfer", r"\btransfer|\bmove (?:me|my|her|his|it|the)\b|\bswitch\b|\bchange (?:my|the|"
     r"her|his) (?:exam |session|date)|\b(?:different|later|earlier) (?:session|date|sitting)"),
    ("enter", r"\benter\b|\bnew entry\b|\bregister (?:me|her|him)\b|\bsign (?:me|her|him) up\b|"
     r"\bbook (?:me|her|him|a place)\b|\bput (?:me|her|him) (?:in|down) for\b|"
     r"\b(?:want|like|need|hoping|wants|needs) to (?:sit|take) (?:the|an?)\b"),
    ("results", r"\bresults?\b|\bgrade\b|\bhow did (?:i|he|she|my \w+) do\b|\bdid (?:i|he|she|"
     r"my \w+) pass\b|\bwhat did (?:i|he|she|my \w+) get\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|i'?ll need|change|update|"
    r"move|withdraw|enter|book|order|send|set|let|what|how|she needs|he needs|my )\b)",
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
    if "results" in kinds and len(kinds - {"results"}) > 0:
        # "a re-mark of my result" names the result being acted on, not a question about it
        out = [r for r in out if r.intent != "results"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')} {d.year}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

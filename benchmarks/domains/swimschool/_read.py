"""Reading parents' English: account numbers, postcodes, names, days, answers, requests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

ACCOUNT_RE = re.compile(r"\bRS\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
STAGE_RE = re.compile(r"\bstage\s*(\d)\b", re.I)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY_RE = re.compile(
    r"\b(mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\b", re.I
)
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b",
    re.I,
)
# a day said and then taken back ("the 10th — sorry, I mean the 17th") is not the one meant
TAKEN_BACK = re.compile(r"^\W*(?:sorry|no|oops|i mean|actually|correction)\b", re.I)
NEXT_TERM = re.compile(r"\bnext term\b|\bspring 2\b|\bfrom (?:march|the 15th)\b|\bnew term\b",
                       re.I)  # fmt: skip
THIS_TERM = re.compile(r"\bthis term\b|\bspring 1\b|\bthis week\b|\bfrom now\b|\bnow\b|"
                       r"\bstraight away\b|\bcurrent\b", re.I)  # fmt: skip
CALLER_RE = re.compile(
    r"\b(?i:i'?m|i am|my name is|this is|name'?s|(?:the )?name is)\s+"
    r"([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)+)"
)


def accounts(text: str) -> list[str]:
    return [f"RS{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1)} {m.group(2)}".upper() for m in POSTCODE_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def stages(text: str) -> list[int]:
    return [int(m.group(1)) for m in STAGE_RE.finditer(text)]


def caller_name(text: str) -> str | None:
    """A full name the caller gives for themselves ("I'm Anna Clarke")."""
    m = CALLER_RE.search(text)
    return m.group(1) if m else None


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day in months long past is next year's ("4 January" said in November)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date) -> list[date]:
    """Days said, in order; a day taken back by the words right after it is dropped."""
    found = list(DATE_RE.finditer(text))
    kept = [m for m in found if not TAKEN_BACK.search(text[m.end() : m.end() + 20])]
    return [d for d in (_date(m, today) for m in kept or found) if d is not None]


def last_first(days: list[int], options: list[dict]) -> list[dict]:
    """The options on the days said, the day said last first (a change of mind wins)."""
    out = []
    for d in reversed(days):
        out += [o for o in options if o["weekday"] == d and o not in out]
    return out


def weekdays(text: str) -> list[int]:
    """Weekdays named (0 Monday), said alone ("the Saturday class") or in a date."""
    out = []
    for m in WEEKDAY_RE.finditer(text):
        key = m.group(1).lower()[:3]
        out.append([w[:3] for w in WEEKDAYS].index(key))
    return out


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
        r"great|lovely|that works|alright|all right)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- requests --------------------------------------------------------------------------------
INTENTS: list[tuple[str, str]] = [
    ("medical", r"\bmedical\b|\basthma|\bepilep|\ballerg|\binhaler|\bdiabet|\beczema"),
    ("contact", r"\b(?:change|update|new)\b.{0,40}\b(?:phone|mobile|e-?mail|contact details)|"
     r"\b(?:phone|mobile|e-?mail)\b.{0,30}\b(?:changed|has changed|is now)\b"),
    ("lookup", r"\bwhat time\b|\bwhen is\b|\bhow many\b|\bwhat day\b|\bhow much (?:is|was|did)"
     r"\b|\bremind me\b"),
    ("makeup", r"\bmake[- ]?ups?\b|\bcatch[- ]?up lesson|\bmissed\b"),
    ("moveup", r"\bmove (?:\w+ )?up\b|\bup (?:a stage|to stage)|\bnext stage\b|\bready for "
     r"stage\b"),
    ("assess", r"\bassess"),
    ("withdraw", r"\bwithdraw|\btake (?:\w+ )?out of\b|\bstop (?:\w+ )?(?:her |his )?lessons\b|"
     r"\bcancel\b|\bleave (?:the )?(?:class|lessons)\b"),
    ("move", r"\bmove\b|\bswitch\b|\bchange (?:\w+ )?(?:class|day)\b|\bdifferent class\b|"
     r"\btransfer\b"),
    ("book", r"\bbook\b|\benrol|\bsign (?:\w+ )?up\b|\bjoin\b|\ba place\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|withdraw|what|how|when)\b)",
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
    if kinds - {"book", "lookup"}:
        # "book a make-up" or "book an assessment" is that, not a term booking
        out = [r for r in out if r.intent != "book"]
    if kinds - {"lookup"}:
        out = [r for r in out if r.intent != "lookup"] or out
    if "assess" in kinds:
        # "an assessment — she's nearly ready for Stage 4" asks for the assessment
        out = [r for r in out if r.intent != "moveup"]
    elif "moveup" in kinds:
        out = [r for r in out if r.intent not in {"move", "assess"}]
    merged: list[Request] = []
    for r in out:
        if merged and merged[-1].intent == r.intent:
            merged[-1] = Request(r.intent, f"{merged[-1].text} {r.text}")
        else:
            merged.append(r)
    return merged


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

"""Reading customers' English: references, postcodes, days, times, emails, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

CUSTOMER_RE = re.compile(r"\bKP\s*-?\s*(\d{4})\b", re.I)
VISIT_RE = re.compile(r"\bKV\s*-?\s*(\d{4})\b", re.I)
QUOTE_RE = re.compile(r"\bQ\s*-?\s*(\d{4})\b", re.I)
INVOICE_RE = re.compile(r"\bINV\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
TIME_RE = re.compile(r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|th|of|jan|feb|"
                     r"mar|apr|may|jun|jul|aug|sep|oct|nov|dec|hours?|days?|years?))",
                     re.I)  # fmt: skip
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b",
    re.I,
)
# a day said as the old one ("from the 5th", "not Tuesday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)


def customers(text: str) -> list[str]:
    return [f"KP{m.group(1)}" for m in CUSTOMER_RE.finditer(text)]


def visits(text: str) -> list[str]:
    return [f"KV{m.group(1)}" for m in VISIT_RE.finditer(text)]


def quotes(text: str) -> list[str]:
    return [f"Q-{m.group(1)}" for m in QUOTE_RE.finditer(text)]


def invoices(text: str) -> list[str]:
    return [f"INV-{m.group(1)}" for m in INVOICE_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    """UK postcodes said, written 'OX2 6NN' whatever spacing or case was used."""
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in POSTCODE_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day in the past months is next year's ("7 January" said in December)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; unless all_said, those said as the old one are dropped."""
    found = list(DATE_RE.finditer(text))
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
        found = kept or found
    return [d for d in (_date(m, today) for m in found) if d is not None]


def clock_time(text: str) -> str | None:
    """The last time of day said ("9am", "10:30", "2.30pm"), as HH:MM; bare numbers are not."""
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
INTENTS: list[tuple[str, str]] = [
    ("invoice", r"\binvoice\b|\breceipt\b"),
    ("plan", r"\b(?:tuning |annual |yearly )?plan\b|\btwice a year\b|\bsubscription\b"),
    ("repair", r"\bquote\b|\bQ-?\d{4}\b|\brepairs?\b"),
    ("cancel", r"\bcancel"),
    ("lookup", r"\bhow much\b|\bwhen(?:'s| is| does| will| are)\b|\bwhat time\b|\bwhat (?:will|"
     r"would|do|does) (?:it|i|that)\b.{0,20}\b(?:cost|pay|owe)|\bpitch raise\b.*\?|\bcheck\b"),
    ("move", r"\b(?:move|reschedule|rearrange|postpone|bring (?:it )?forward|put (?:it )?back)"
     r"\b|\bchange (?:the|my) (?:day|date|time|visit|appointment|booking)\b|\b(?:a )?"
     r"different (?:day|date|time)\b"),
    ("book", r"\bbook\b|\btun(?:e|ed|ing|er)\b|\bvisit\b|\bappointment\b|\bcome (?:out|round)"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|move|cancel|"
    r"book|send|email|set|let|what|how|accept|sign|put)\b)",
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
    if kinds & {"move", "cancel", "repair", "plan", "lookup", "invoice"}:
        # "my tuning visit" names the visit being changed, not a new booking
        out = [r for r in out if r.intent != "book"]
    if "lookup" in kinds and len(kinds - {"lookup", "book"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

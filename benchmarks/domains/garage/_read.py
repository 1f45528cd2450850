"""Reading customers' English: references, registrations, days, services, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

CUSTOMER_RE = re.compile(r"\bKM\s*-?\s*(\d{4})\b", re.I)
BOOKING_RE = re.compile(r"\bKB\s*-?\s*(\d{4})\b", re.I)
INVOICE_RE = re.compile(r"\bINV\s*-?\s*(\d{4})\b", re.I)
PART_RE = re.compile(r"\bP\s*-\s*(\d{4})\b", re.I)
# current UK plates: two letters, two digits, three letters ("LK19 XPD", "lk19xpd")
REG_RE = re.compile(r"\b([A-Z]{2}\d{2})\s?([A-Z]{3})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
MONTH_WORD = (
    r"(january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
)
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH_WORD + r"\b|"
    r"\b" + WEEKDAY + MONTH_WORD + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b|"
    r"\b(today|tomorrow)\b|"
    r"\b(?:(next|this|on)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"(?!,?\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b)",
    re.I,
)
# a value said as the old or wrong one ("from the 15th", "not Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bold|\bwas|\bis on|\bwrong|"
    r"\bbooked (?:in )?(?:on|for))\s*(?:the\s+|my\s+|it'?s\s+|on\s+)?$",
    re.I,
)
NEW_MARK = re.compile(r"(?:\bto|\bnew(?: one| number| email)?(?: is)?|\bnow)\s*:?\s*$", re.I)


def customers(text: str) -> list[str]:
    return [f"KM{m.group(1)}" for m in CUSTOMER_RE.finditer(text)]


def registrations(text: str) -> list[str]:
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in REG_RE.finditer(text)]


def bookings(text: str) -> list[str]:
    return [f"KB{m.group(1)}" for m in BOOKING_RE.finditer(text)]


def invoices(text: str) -> list[str]:
    return [f"INV-{m.group(1)}" for m in INVOICE_RE.finditer(text)]


def parts(text: str) -> list[str]:
    return [f"P-{m.group(1)}" for m in PART_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        elif g[4]:
            return date(int(g[4]), int(g[5]), int(g[6]))
        elif g[7]:
            return today + timedelta(days=0 if g[7].lower() == "today" else 1)
        else:
            ahead = (WEEKDAYS.index(g[9].lower()) - today.weekday()) % 7 or 7
            if (g[8] or "").lower() == "next" and ahead < 4:
                ahead += 7
            return today + timedelta(days=ahead)
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


def service(text: str) -> str | None:
    """The last kind of work named: interim, full, major or mot."""
    found = [
        (m.start(), kind)
        for kind, pattern in (
            ("interim", r"\binterim\b|\bbasic service\b|\boil service\b"),
            ("full", r"\bfull service\b|\bfull\b"),
            ("major", r"\bmajor\b"),
            ("mot", r"\bm\.?o\.?t\b"),
        )
        for m in re.finditer(pattern, text, re.I)
    ]
    return max(found)[1] if found else None


def number(text: str) -> int | None:
    """A mileage or other whole number ("48,900", "48900 miles")."""
    m = re.search(r"\b(\d{1,3}(?:,\d{3})+|\d{4,6})\b", text)
    return int(m.group(1).replace(",", "")) if m else None


def amounts(text: str) -> list[int]:
    return [
        round(float(m.group(1).replace(",", "")) * 100)
        for m in re.finditer(r"£\s*(\d[\d,]*(?:\.\d\d)?)", text)
    ]


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(
        r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|think about|one moment)\b",
        low,
    ):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now|no thanks)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead)|not worth|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|"
        r"correct|sounds good|fine|agreed|absolutely|of course|please|proceed|book it|"
        r"happy|perfect|great|lovely|that works|alright|all right)\b",
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
    ("dispute", r"\bdispute\b|\bquery (?:a|the|one)|\bovercharg|\bshouldn'?t (?:have been|be) "
     r"(?:charged|on)|\bwrong(?:ly)? charg|\bchallenge"),
    ("pay", r"\bpay\b.{0,20}\b(?:invoice|bill|balance|INV)|\bsettle\b|\bmake a payment"),
    ("warranty", r"\bwarrant|\bguarantee|\bfailed again|\bfaulty part|\bclaim\b"),
    ("work", r"\bapprove|\bdecline|\bgo ahead with|\bextra work|\bquote|\bwork (?:you|the "
     r"mechanic) found|\bdon'?t (?:do|want) the\b|\bskip the\b|\bdefer"),
    ("contact", r"\b(?:phone|mobile|contact) number|\be-?mail\b.*\b(?:change|update|new)|"
     r"\b(?:change|update|new)\b.*\be-?mail|\bcontact details"),
    ("cancel", r"\bcancel"),
    ("extra", r"\b(?:add|put|include|arrange)\b.*\b(?:courtesy car|loan car|collection|collect)"),
    ("move", r"\b(?:move|reschedule|rebook|change the (?:date|day)|push|bring forward)\b"),
    ("lookup", r"\bwhen is\b|\bwhat(?:'s| is) booked\b|\b(?:what|which) (?:day|date)\b|"
     r"\bbooked in\b|\bany bookings?\b|\bis (?:it|the car|his car|her car) booked\b|"
     r"\bcheck (?:the|a|my) booking"),
    ("book", r"\bbook\b|\bbooking for\b|\bneed (?:an?|the) (?:service|mot)\b|\bservice\b|"
     r"\bm\.?o\.?t\b"),
    ("extra", r"\bcourtesy car|\bloan car|\bcollect|\bpick(?:ed)? up\b|\bdeliver"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|"
    r"cancel|book|pay|dispute|claim|approve|decline|add|get|settle|put)\b)",
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
    # "book a full service with a courtesy car": the extras belong to the new booking
    if "book" in kinds:
        out = [r for r in out if r.intent != "extra"]
    if "move" in kinds or "cancel" in kinds:
        out = [r for r in out if r.intent != "book"]
    if "lookup" in kinds and len(kinds) > 1:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

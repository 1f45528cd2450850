"""Reading customers' English: references, registrations, days, slots, packages, answers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

CUSTOMER_RE = re.compile(r"\bSC\s*-?\s*(\d{4})\b", re.I)
BOOKING_RE = re.compile(r"\bSV\s*-?\s*(\d{4})\b", re.I)
REG_RE = re.compile(r"\b([A-Z]{2}\d{2})\s?([A-Z]{3})\b", re.I)
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
# a day said as the old one ("from the 16th", "not Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bon|\bfor|\bmy|"
    r"\bbooked (?:in )?(?:on|for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
NEW_MARK = re.compile(r"\b(?:to|until|till|mean|meant|make it|instead)\s*(?:the\s+|on\s+)?$", re.I)
SLOT_RE = re.compile(r"\b(morning|afternoon|a\.m\.|p\.m\.)", re.I)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
PACKAGES = (("detail", r"\bshowroom\b|\bdetail(?:ing)?\b"), ("full", r"\bfull(?:\s+valet)?\b"),
            ("exterior", r"\bexterior\b|\bwash\b|\boutside only\b"))  # fmt: skip
ADDON_WORDS = (("pet_hair", r"\bpet[- ]?hair\b|\b(?:dog|cat)(?:'s)? hair\b"),
               ("headlights", r"\bheadlights?\b"), ("ceramic", r"\bceramic\b"))  # fmt: skip


def customers(text: str) -> list[str]:
    return [f"SC{m.group(1)}" for m in CUSTOMER_RE.finditer(text)]


def bookings(text: str) -> list[str]:
    return [f"SV{m.group(1)}" for m in BOOKING_RE.finditer(text)]


def registrations(text: str) -> list[str]:
    return [f"{m.group(1)} {m.group(2)}".upper() for m in REG_RE.finditer(text)]


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day in the past months is next year's ("4 January" said in December)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; unless all_said, those said as the old one are dropped."""
    found = list(DATE_RE.finditer(text))
    if not all_said:
        kept = [m for m in found
                if NEW_MARK.search(text[max(0, m.start() - 24) : m.start()])
                or not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]  # fmt: skip
        found = kept or found
    return [d for d in (_date(m, today) for m in found) if d is not None]


def slots(text: str) -> list[str]:
    """Slots said, in order: 'morning' or 'afternoon'."""
    return ["morning" if s.lower().startswith(("m", "a.")) else "afternoon"
            for s in SLOT_RE.findall(text)]  # fmt: skip


def package(text: str) -> str | None:
    return next((p for p, pattern in PACKAGES if re.search(pattern, text, re.I)), None)


def addons(text: str) -> list[str]:
    return [k for k, pattern in ADDON_WORDS if re.search(pattern, text, re.I)]


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
    ("reclean", r"\bmissed\b|\bre-?clean|\bcome back\b|\b(?:wasn'?t|weren'?t|not) (?:done|"
     r"cleaned)\b|\bdidn'?t (?:do|clean|get)\b"),
    ("plan_quote", r"\bhow much\b.{0,60}\bplan\b|\bplan\b.{0,60}\bhow much\b"),
    ("plan", r"\b(?:monthly|maintenance) plan\b|\bevery month\b|\bon (?:a|your|the) plan\b"),
    ("cancel", r"\bcancel"),
    ("lookup", r"\bwhen is\b|\bwhat (?:day|time)\b|\bwhen (?:does|will) the valeter\b|"
     r"\bwhat(?:'s| is) (?:booked|it costing)|\bhow much "
     r"(?:is|am|will|have)\b|\bcheck (?:my|the) booking|\bwhen(?:'s| is) (?:my|the|it)\b"),
    ("move", r"\b(?:move|reschedule|rearrange|push|bring forward|put back|different day)\b|"
     r"\bchange (?:the|my) (?:day|date|booking|visit|slot)\b|\bbring\b.{0,30}\bforward\b|"
     r"\binstead of\b"),
    ("book", r"\bbook\b|\bi'?d like (?:a|an)\b.{0,40}\b(?:valet|wash|detail)\b"),
    ("addon", r"\bpet[- ]?hair\b|\b(?:dog|cat)(?:'s)? hair\b|\bheadlights?\b|\bceramic\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|move|cancel|"
    r"book|add|set|let|what|how)\b)",
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
    if "book" in kinds:
        # add-ons said with a new booking are part of it
        out = [r for r in out if r.intent != "addon"]
    if kinds & {"move", "cancel", "addon", "reclean", "plan"}:
        out = [r for r in out if r.intent != "book"]
    if "lookup" in kinds and len({r.intent for r in out} - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

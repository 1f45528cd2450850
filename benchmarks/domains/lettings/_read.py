"""Reading tenants' English: references, postcodes, days, phones, emails, answers, intents."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date

REF_RE = re.compile(r"\bHRL\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
MONTH = (
    r"(january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
)
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b|"
    r"\b(?:the\s+)?end of\s+" + MONTH + r"\b",
    re.I,
)
# a day of the month said on its own: "the 1st", "on the 28th", "day 15"
DAY_RE = re.compile(
    r"\b(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?" + MONTH + r")|\bday\s+(\d{1,2})\b", re.I
)
WORD_DAYS = {"first": 1, "last": 31}


def refs(text: str) -> list[str]:
    return [f"HRL-{m.group(1)}" for m in REF_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [
        f"{m.group(1).upper()} {m.group(2).upper()}"
        for m in POSTCODE_RE.finditer(text)
        if not re.fullmatch(r"HRL?\d*", m.group(1), re.I)
    ]


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
        else:
            month = MONTHS[g[7].lower()[:3]]
            year = today.year + 1 if month < today.month else today.year
            return date(year, month, calendar.monthrange(year, month)[1])
        # a yearless day in an earlier month is next year's ("31 January" said in December)
        year = today.year + 1 if month < today.month else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date) -> list[date]:
    """Days said, in order ("the end of January" is 31 January)."""
    return [d for d in (_date(m, today) for m in DATE_RE.finditer(text)) if d is not None]


def month_days(text: str) -> list[int]:
    """Days of the month said on their own ("the 1st", "the 28th"), in order."""
    out = [int(m.group(1) or m.group(2)) for m in DAY_RE.finditer(text)]
    for word, day in WORD_DAYS.items():
        if re.search(rf"\bthe {word}(?: day)? of (?:the|each|every) month\b", text, re.I):
            out.append(day)
    if not out and re.fullmatch(r"\s*(?:the\s+)?(\d{1,2})\s*\.?\s*", text):
        out.append(int(re.sub(r"\D", "", text)))
    return out


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|send|log|go ahead)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|happy|perfect|"
        r"great|lovely|that works|alright|all right|send it|log it)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- repairs ---------------------------------------------------------------------------------
# (category, priority, pattern), checked in this order: the first that fits
REPAIRS: list[tuple[str, str, str]] = [
    (
        "lock",
        "emergency",
        r"\b(?:front|back|main|outside|external|flat) door\b.{0,40}\b(?:lock|"
        r"secure|shut|close)|\b(?:can'?t|won'?t|doesn'?t|does not|cannot) (?:lock|secure)\b|"
        r"\block\b.{0,30}\b(?:broken|jammed|snapped|won'?t|isn'?t working)",
    ),
    (
        "heating",
        "emergency",
        r"\bno heating\b|\bheating\b.{0,30}\b(?:not|isn'?t|won'?t|stopped|"
        r"broken|off|packed up|died|failed)|\bboiler\b.{0,40}\b(?:broken|not working|stopped|"
        r"won'?t|isn'?t|packed up|died|failed|error|fault)|\bradiators? (?:are|is) (?:all )?cold",
    ),
    (
        "water",
        "emergency",
        r"\bno (?:running |cold )?water\b|\bwater\b.{0,20}\b(?:is |has been |"
        r"'s )?(?:off|cut off)\b|\btaps? (?:are|is) dry\b",
    ),
    (
        "hot water",
        "urgent",
        r"\bno hot water\b|\bhot water\b.{0,30}\b(?:not|isn'?t|won'?t|"
        r"stopped|broken|cold)",
    ),
    ("tap", "routine", r"\btap\b.{0,30}\b(?:drip|leak)|\bdrip(?:s|ping|py)?\b.{0,30}\btap\b"),
    (
        "leak",
        "emergency",
        r"\bleak|\bwater\b.{0,20}\b(?:coming|pouring|dripping|running) "
        r"(?:through|in|down|from)|\bflood|\bburst",
    ),
    ("toilet", "urgent", r"\btoilet\b|\bloo\b"),
    (
        "electrics",
        "urgent",
        r"\bsockets?\b|\blights?\b.{0,20}\b(?:not|won'?t|isn'?t)|\bfuse|"
        r"\btripp",
    ),
    ("cooker", "urgent", r"\b(?:oven|cooker|hob)\b"),
    ("damp", "urgent", r"\bdamp\b|\bmould\b|\bmold\b"),
    ("window", "urgent", r"\bwindow\b"),
    ("extractor fan", "urgent", r"\bextractor\b|\bfan\b"),
    ("shower", "urgent", r"\bshower\b"),
    ("door", "routine", r"\bdoor\b|\bhandle\b|\bhinge"),
    ("kitchen", "routine", r"\bcupboard|\bworktop|\bdrawer"),
    ("tiles", "routine", r"\btiles?\b|\bgrout|\bsealant"),
    ("outside", "routine", r"\bgutter|\bfence|\bgate\b|\bshed\b"),
]


def repair_kind(text: str) -> tuple[str, str] | None:
    """(category, priority) of the problem described, or None."""
    for category, priority, pattern in REPAIRS:
        if re.search(pattern, text, re.I):
            return category, priority
    return None


# -- requests --------------------------------------------------------------------------------
INTENTS: list[tuple[str, str]] = [
    ("deposit", r"\bdeposit\b"),
    (
        "notice",
        r"\bnotice\b|\bend (?:my|the|our) tenancy\b|\bmov(?:e|ing) out\b|\bleav(?:e|ing) "
        r"(?:the|my|our) (?:flat|house|property|home|tenancy)\b",
    ),
    (
        "occupier",
        r"\boccupier\b|\bmov(?:e|ing) in with (?:me|us)\b|\blive with (?:me|us)\b|"
        r"\badd (?:my|a|an) \w+ (?:\w+ )?to (?:the|my|our) tenancy\b",
    ),
    (
        "pet",
        r"\bpets?\b|\bcat\b|\bdog\b|\bkitten|\bpupp(?:y|ies)\b|\brabbit|\bhamster|"
        r"\bguinea pig|\bbudgie",
    ),
    (
        "rentday",
        r"\b(?:change|move|switch|alter)\b.{0,50}\b(?:rent|payment)\b.{0,30}\b(?:day|"
        r"date|collected|taken)|\b(?:rent|payment)\b.{0,40}\b(?:collected|taken|paid|come out)\b"
        r".{0,30}\b(?:on|day|date)\b.{0,20}\d|\brent (?:day|date)\b",
    ),
    (
        "contact",
        r"\b(?:phone|mobile|number|email|e-mail)\b.{0,40}\b(?:change|update|new|is now)|"
        r"\b(?:change|update|new)\b.{0,40}\b(?:phone|mobile|number|email|e-mail)\b",
    ),
    (
        "lookup",
        r"\bhow much is my rent\b|\bwhen(?:'s| is| will) (?:my )?(?:next )?rent\b|"
        r"\bnext rent\b|\bwhen (?:is|are|will) (?:someone|the (?:engineer|plumber|contractor))",
    ),
    (
        "repair",
        r"\brepair|\bbroken\b|\bnot working\b|\bfix\b|" + "|".join(p for _, _, p in REPAIRS),
    ),
]
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|"
    r"my new|the new|add|log|report|send|set|let|what|how|when)\b)",
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
        else:
            if out:  # a clause with no request of its own says more about the one before
                out[-1] = Request(out[-1].intent, f"{out[-1].text} {clause}")
    kinds = {r.intent for r in out}
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso[:10])
    text = f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')} {d.year}"
    return text + (f", {iso[11:16]}" if len(iso) > 10 else "")


def ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

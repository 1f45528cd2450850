"""Reading customers' English: references, postcodes, days, slots, flues, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

CUSTOMER_RE = re.compile(r"\bSA\s*-?\s*(\d{4})\b", re.I)
BOOKING_RE = re.compile(r"\bBK\s*-?\s*(\d{4})\b", re.I)
CERT_RE = re.compile(r"\bCERT\s*-?\s*(\d{4})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"(?:,?\s+(20\d\d))?\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(20\d\d))?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b|"
    r"\b(tomorrow|today)\b|"
    # a weekday alone counts only after "on", "this", "next", "to", "for" or "by"
    r"\b(?:on|this|next|to|for|by)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"\b(?!\s+(?:the\s+)?\d)",
    re.I,
)
# a day said as the old one ("from the 16th", "not Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a slot: the word, or a time of day ("9am", "2.30pm", "14:00": before 12:00 is the morning)
SLOT_RE = re.compile(
    r"(?:\b(morning|afternoon)|\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm|a\.m\.|p\.m\.)|\b(\d{1,2}):"
    r"(\d\d))(?!\w)('s|’s)?",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:[\w-]+ )?(?:fee|charge|"
    r"extra|cost))|\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:[\w-]+ )?(?:fee|charge)|any "
    r"(?:[\w-]+ )?(?:fee|charge)|extra).{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as "
    r"(?:it'?s|there'?s) (?:free|no)|\bif there is,? don'?t",
    re.I,
)
AMOUNT = r"(?:£\s?(\d+(?:\.\d\d)?)|\b(\d+(?:\.\d\d)?)\s?(?:pounds|quid)\b)"
AMOUNT_RE = re.compile(AMOUNT, re.I)
# a spending cap said with a request: "as long as it's under £100", "no more than 90 pounds"
BUDGET_RE = re.compile(
    r"\b(?:under|no more than|not more than|up to|at most|less than|max(?:imum)?(?: of)?|"
    r"budget (?:is|of))\s+" + AMOUNT,
    re.I,
)
FLUE_WORDS = (
    ("open_fire", r"\bopen fire(?:place)?s?\b|\bfireplace\b|\bopen chimney\b"),
    ("wood_burner", r"\bwood ?burners?\b|\blog ?burners?\b|\bstoves?\b|\bmulti-?fuel\b"),
    ("range_cooker", r"\brange(?: cooker)?s?\b|\baga\b|\brayburn\b"),
)
ALL_FLUES = re.compile(r"\b(?:both|all (?:my|the|of (?:my|the|them))|each of)\b", re.I)
ADDON_WORDS = (
    ("cctv", r"\bcctv\b|\bcamera\b|\bflue survey\b|\bsurvey\b"),
    ("bird_guard", r"\bbird ?guard|\bbirds?\b|\bjackdaws?\b|\bnest"),
    ("cowl", r"\bcowl"),
)


def customers(text: str) -> list[str]:
    return [f"SA{m.group(1)}" for m in CUSTOMER_RE.finditer(text)]


def bookings(text: str) -> list[str]:
    return [f"BK{m.group(1)}" for m in BOOKING_RE.finditer(text)]


def certificates(text: str) -> list[str]:
    return [f"CERT-{m.group(1)}" for m in CERT_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    """UK postcodes said, written 'YO31 7QT'; a customer or booking number is not one."""
    refs = {m.span() for r in (CUSTOMER_RE, BOOKING_RE, CERT_RE) for m in r.finditer(text)}
    out = []
    for m in POSTCODE_RE.finditer(text):
        if not any(a <= m.start() < b for a, b in refs):
            out.append(f"{m.group(1).upper()} {m.group(2).upper()}")
    return out


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month, year = int(g[0]), MONTHS[g[1].lower()[:3]], g[2]
        elif g[3]:
            day, month, year = int(g[4]), MONTHS[g[3].lower()[:3]], g[5]
        elif g[6]:
            return date(int(g[6]), int(g[7]), int(g[8]))
        elif g[9]:
            return today + timedelta(days=1 if g[9].lower() == "tomorrow" else 0)
        else:
            ahead = (WEEKDAYS.index(g[10].lower()) - today.weekday() - 1) % 7 + 1
            return today + timedelta(days=ahead)
        if year:
            return date(int(year), month, day)
        # a yearless day more than six months back is next year's
        found = date(today.year, month, day)
        return found if found >= today - timedelta(days=183) else date(today.year + 1, month, day)
    except (ValueError, KeyError):
        return None


def dated(text: str, today: date, *, all_said: bool = False) -> list[tuple[int, int, date]]:
    """Days said with their spans; unless all_said, those said as the old one are dropped."""
    found = list(DATE_RE.finditer(text))
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
        found = kept or found
    out = []
    for m in found:
        d = _date(m, today)
        if d is not None:
            out.append((m.start(), m.end(), d))
    return out


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; unless all_said, those said as the old one are dropped."""
    return [d for _, _, d in dated(text, today, all_said=all_said)]


def slots(text: str, today: date, old_day: date | None = None) -> list[str]:
    """Morning or afternoon, in order said; a slot said as the old visit's is left out.

    The old one: "tomorrow morning's sweep", "from the afternoon", or a slot said right after
    the day of the visit being changed.
    """
    spans = [(b, d) for _, b, d in dated(text, today, all_said=True)]
    out = []
    for m in SLOT_RE.finditer(text):
        before = text[max(0, m.start() - 16) : m.start()]
        if m.group(7) or re.search(r"(?:\bfrom|\bnot|instead of)\s*(?:the\s+)?$", before, re.I):
            continue
        if old_day and any(d == old_day and 0 <= m.start() - b <= 4 for b, d in spans):
            continue
        if m.group(1):
            out.append(m.group(1).lower())
            continue
        hour = int(m.group(2) or m.group(5))
        if (m.group(4) or "").lower().startswith("p") and hour < 12:
            hour += 12
        out.append("morning" if hour < 12 else "afternoon")
    return out


def amounts(text: str) -> list[int]:
    """Amounts of money said, in pence."""
    return [round(float(m.group(1) or m.group(2)) * 100) for m in AMOUNT_RE.finditer(text)]


def budget(text: str) -> int | None:
    """The most the customer said they would pay, in pence, or None."""
    found = [round(float(m.group(1) or m.group(2)) * 100) for m in BUDGET_RE.finditer(text)]
    return min(found) if found else None


def flue_kinds(text: str) -> list[str]:
    return [kind for kind, pattern in FLUE_WORDS if re.search(pattern, text, re.I)]


def addon_kinds(text: str) -> list[str]:
    return [kind for kind, pattern in ADDON_WORDS if re.search(pattern, text, re.I)]


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead|send)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|book it|happy|perfect|"
        r"great|lovely|that works|alright|all right|send it|sign me up|move it|cancel it|"
        r"that'?s right|go for it|do that)\b",
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
    ("certificate", r"\bcertificates?\b|\bcert\b|\bCERT-?\d"),
    ("reminder", r"\breminders?\b|\bremind\b"),
    ("history", r"\blast swept\b|\bwhen (?:was|did)\b.{0,40}\bswept\b|\blast sweep\b(?! "
     r"certificate)|\bwhen (?:was|did) (?:i|we) last\b"),
    ("cancel", r"\bcancel"),
    ("move", r"\bmov(?:e|ing)\b|\breschedul|\brearrang|\bpush\b|\bput (?:it |\w+ )?back\b|"
     r"\bbring (?:it |\w+ )?forward\b|\bchange (?:the |my )?(?:day|date|time|visit|"
     r"appointment)\b|\bdifferent day\b"),
    ("book", r"\bbook\b|\barrange a sweep\b|\b(?:need|want|like|get|have)s?\b.{0,30}\bswept\b|"
     r"\b(?:need|want|like)s? (?:a |another )?sweep\b"),
    ("addon", r"\bcctv\b|\bsurvey\b|\bbird ?guard|\bcowl|\bcamera\b"),
    ("lookup", r"\bwhen(?:'s| is| are)\b|\bhow much\b|\bwhat (?:day|time|date)\b|\bwhat do i "
     r"owe\b|\bcheck (?:my|the) (?:booking|visit|sweep)\b|\btell me\b|\bdetails\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|move|cancel|"
    r"book|add|send|email|sign|put|set|let|what|how|when)\b)",
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
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        # "when is it?" said with a change is part of the change
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str, *, year: bool = False) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}" + (
        f" {d.year}" if year else ""
    )


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

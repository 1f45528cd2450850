"""Reading customers' English: order numbers, emails, phones, codes, specs, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

ORDER_RE = re.compile(r"\bIW\s*-?\s*(\d{5})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
CODE_RE = re.compile(r"\bTRADE\s*-\s*([A-Z0-9]+)\b", re.I)
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
# a number that is a quantity: not a day of a month, a time, a price or part of a phone number
NUMBER_RE = re.compile(r"(?<![£\d.:])\b(\d{2,4})\b(?![.:]\d)(?!\s*(?:st|nd|rd|th|am|pm)\b)"
                       r"(?!\s+(?:of\s+)?" + MONTH + r"\b)", re.I)  # fmt: skip
PAPERS = (("premium", r"\bpremium\b|\bthicker\b|\bheavier\b"), ("recycled", r"\brecycled\b"),
          ("standard", r"\bstandard (?:paper|stock)\b|\bnormal paper\b"))  # fmt: skip
FINISHES = (("soft-touch", r"\bsoft[- ]?touch\b"), ("gloss", r"\bgloss(?:y)?\b"),
            ("matt", r"\bmatte?\b"))  # fmt: skip
METHODS = (("courier", r"\bcourier\b|\bnext[- ]day\b"),
           ("collect", r"\bcollect(?:ion|ing)?\b|\bpick (?:\w+ )?up\b|\bfrom the shop\b"),
           ("post", r"\bpost(?:ed|age|al)?\b|\broyal mail\b"))  # fmt: skip
# the customer's own artwork: what the proof showed and they approved
ARTWORK = re.compile(
    r"\btypo|\bspel(?:t|led|ling)\b|\bmisspel|\bmy (?:own )?(?:mistake|error|fault)|"
    r"\bI (?:typed|uploaded|sent|made|got)\b|\bin (?:the|my) (?:artwork|design|file)\b|"
    r"\bwrong (?:email|phone|number|name|address|date|logo|text|photo|picture|image|wording)|"
    r"\blow[- ]res|\bpixel",
    re.I,
)
PRINT_FAULT = re.compile(
    r"\bsmudg|\bstreak|\bfaded|\bcolou?rs?\b.{0,25}\b(?:off|wrong|dull|washed|faded|patchy)|"
    r"\bcrooked|\bmis-?(?:cut|aligned|trimmed)|\bcut (?:wrong|off|badly|crooked)|"
    r"\bwrong (?:paper|finish|size)|\bdamaged|\btorn|\bcreased|\bmissing pages?|"
    r"\bpages? (?:are )?(?:missing|out of order|loose)|\bink\b|\bblotch|\bscuff|\bmisprint|"
    r"\bprint(?:ing)? (?:fault|error|problem)",
    re.I,
)
# an identity question the caller can't answer
UNKNOWN = re.compile(
    r"\b(?:don'?t|do not) (?:know|have)\b|\bnot sure\b|\bno idea\b|"
    r"\bhaven'?t got\b|\bcan'?t remember\b|\bnot (?:mine|my account)\b",
    re.I,
)
# a condition inside the goal: only go ahead if it is ready or arrives by a day
BY_DAY_ONLY = re.compile(r"\bonly (?:\w+ ){0,3}if\b|\bas long as\b|\bprovided\b", re.I)


def orders(text: str) -> list[str]:
    return [f"IW{m.group(1)}" for m in ORDER_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def codes(text: str) -> list[str]:
    return [f"TRADE-{m.group(1).upper()}" for m in CODE_RE.finditer(text)]


def quantities(text: str) -> list[int]:
    """Numbers said that could be a quantity, in order (order numbers and phones are not)."""
    clean = PHONE_RE.sub(" ", ORDER_RE.sub(" ", EMAIL_RE.sub(" ", text)))
    return [int(m.group(1)) for m in NUMBER_RE.finditer(clean.replace(",", ""))]


def said_options(options: tuple[tuple[str, str], ...], text: str) -> list[str]:
    """The options named, in the order said."""
    found = [(m.start(), name) for name, pattern in options
             for m in re.finditer(pattern, text, re.I)]  # fmt: skip
    return [name for _, name in sorted(found)]


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


def dates(text: str, today: date) -> list[date]:
    """Days said, in order."""
    return [d for d in (_date(m, today) for m in DATE_RE.finditer(text)) if d is not None]


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|send|go ahead)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|happy|perfect|"
        r"great|lovely|that works|alright|all right|send it|approve it)\b",
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
    ("contact", r"\b(?:update|change|new)\b.{0,30}\b(?:phone|mobile|contact number|"
     r"email address)\b"),
    ("cancel", r"\bcancel"),
    ("reprint", r"\breprint|\bre-print|" + PRINT_FAULT.pattern + "|" + ARTWORK.pattern),
    ("discount", r"\bdiscount|\btrade code|\bpromo code|\bvoucher|\bTRADE\s*-"),
    ("rush", r"\brush\b|\bexpress production|\bfaster\b|\bsooner\b|\bspeed (?:it |them )?up|"
     r"\bquicker\b"),
    ("delivery", r"\bcourier\b|\bnext[- ]day\b|\bpick (?:\w+ )?up\b|\bcollect (?:it|them)\b|"
     r"\bdelivery (?:method|option)|\bchange the delivery|\binstead of having them posted"),
    ("change", r"\bpaper\b|\bfinish\b|\bgloss|\bmatte?\b|\bsoft[- ]?touch|\bpremium\b|"
     r"\brecycled\b|\bquantity\b|\bfrom \d+ to \d+|\b(?:change|switch|make)\b.{0,40}\b\d{2,4} "
     r"(?:cards|flyers|posters|booklets)|\b(?:change|switch|make|increase|reduce|up|down)\b"
     r".{0,40}\bto \d{2,4}\b(?![:.]\d| ?(?:am|pm)\b)|\b\d{2,4} (?:\w+ )?(?:cards|flyers|posters|"
     r"booklets) instead"),
    ("approve", r"\bapprove (?:it|the proof|my|them|this)|\bplease approve|\bsign (?:it )?off|"
     r"\bgo(?:es)? (?:ahead )?to print|\bgood to print|\bhappy with the proof|"
     r"\bproof\b.{0,40}\b(?:fine|good|right|ok|correct|perfect)"),
    ("lookup", r"\bwhere(?:'s| is)\b|\bwhen will\b|\bwhen (?:is|are|do|does)\b|\bstatus\b|"
     r"\barriv|\bhow much\b|\btrack|\bcheck (?:on )?(?:my |an |the )?order"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|switch|"
    r"cancel|add|send|email|apply|approve|put|let|what|how|when|where)\b)",
    re.I,
)
# "I'd rather not cancel", "don't want to change": a request said as not wanted
NEGATED = re.compile(r"\b(?:not|never|n't|no need to)\b(?:\s+\w+){0,2}\s*$", re.I)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the clause it was said in."""

    intent: str
    text: str


def clause_intent(clause: str) -> str | None:
    """The first intent a clause fits, unless it is said as not wanted."""
    for intent, pattern in INTENTS:
        m = re.search(pattern, clause, re.I)
        if m:
            return None if NEGATED.search(clause[: m.start()]) else intent
    return None


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits)."""
    out: list[Request] = []
    for clause in SPLIT.split(message):
        intent = clause_intent(clause)
        if intent:
            out.append(Request(intent, clause))
    kinds = {r.intent for r in out}
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        # "so they arrive sooner" asks for the change, not a look-up
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

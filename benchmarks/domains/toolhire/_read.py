"""Reading customers' English: references, items, days, names, answers, and requests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

ACCOUNT_RE = re.compile(r"\bHW\s*-?\s*(\d{4})\b", re.I)
HIRE_RE = re.compile(r"\bHR\s*-?\s*(\d{4})\b", re.I)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b|"
    r"\b(today|tomorrow)\b",
    re.I,
)
# the catalogue's items as customers name them; the longer names first
ITEM_WORDS: list[tuple[str, str]] = [
    ("TWR", r"\bscaffold(?:ing)? tower|\btower\b"),
    ("HRN", r"\bharness"),
    ("SND", r"\bfloor sander|\bsander\b"),
    ("CUT", r"\bdisc cutter|\bcut[- ]off saw"),
    ("TIL", r"\btile cutter"),
    ("HDG", r"\bhedge (?:trimmer|cutter)"),
    ("MIX", r"\b(?:cement |concrete )?mixer"),
    ("BRK", r"\bbreaker|\bjack ?hammer|\bkango"),
    ("DHM", r"\bdehumidifier"),
    ("WPS", r"\bwallpaper (?:stripper|steamer)|\bsteam stripper"),
    ("CRP", r"\bcarpet (?:cleaner|washer)"),
    ("LAD", r"\bladder"),
    ("PWR", r"\bpressure washer|\bjet ?wash"),
    ("GEN", r"\bgenerator"),
    ("ROT", r"\brotavator|\brotovator|\btiller\b"),
]
WAIVER_WORDS = re.compile(r"\bwaiver|\bdamage (?:cover|protection|insurance)", re.I)
DELIVERY_WORDS = re.compile(r"\bdeliver|\bdrop (?:it |them )?off\b", re.I)
NO_DELIVERY = re.compile(
    r"\b(?:no|without|don'?t (?:need|want)(?: the| a| any)?) deliver|\bpick (?:it|them) up\b|"
    r"\bcollect (?:it|them) (?:from the depot|ourselves|myself)",
    re.I,
)


def accounts(text: str) -> list[str]:
    return [f"HW{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def hires(text: str) -> list[str]:
    return [f"HR{m.group(1)}" for m in HIRE_RE.finditer(text)]


def items(text: str) -> list[str]:
    """The catalogue items named, in the order of the catalogue, each once."""
    found = []
    rest = text
    for code, pattern in ITEM_WORDS:
        if re.search(pattern, rest, re.I):
            found.append(code)
            rest = re.sub(pattern, " ", rest, flags=re.I)  # "tile cutter" is no disc cutter
    return found


def wants_delivery(text: str) -> bool:
    return bool(DELIVERY_WORDS.search(text)) and not NO_DELIVERY.search(text)


def wants_waiver(text: str) -> bool:
    return bool(WAIVER_WORDS.search(text)) and not re.search(
        r"\b(?:no|without|don'?t (?:need|want))(?: the| a| any)? (?:damage )?waiver", text, re.I
    )


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
            return today + timedelta(days=1 if g[7].lower() == "tomorrow" else 0)
        # a yearless day in the past months is next year's ("4 January" said in December)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date) -> list[date]:
    """Days said, in the order said."""
    return [d for d in (_date(m, today) for m in DATE_RE.finditer(text)) if d is not None]


def span(text: str, today: date) -> tuple[date, date] | None:
    """A hire's first and last day: two days said, or one with "a week", "the weekend", "a day"."""
    days = [d for d in dates(text, today) if d >= today]
    if len(days) >= 2 and days[1] >= days[0]:
        return days[0], days[1]
    if len(days) == 1:
        first = days[0]
        if re.search(r"\b(?:a|one|for the) week\b", text, re.I):
            return first, first + timedelta(days=6)
        if re.search(r"\bweekend\b", text, re.I) and first.weekday() == 5:
            return first, first + timedelta(days=1)
        if re.search(r"\b(?:a|one|the|for the) day\b|\bjust (?:that|the) day\b", text, re.I):
            return first, first
    return None


FILLER = re.compile(
    r"\b(?:it'?s|it is|my|surname|last|name|names|is|the|and|yes|ok|okay|sure|hi|hello|oh|"
    r"account|number|that'?s|thanks|thank you|please|mr|mrs|ms|miss|dr)\b",
    re.I,
)
STOP_WORDS = (
    {"i", "hw", "hr", "hi", "hello", "please", "the", "my", "thanks", "sorry", "yes", "ok"}
    | set(WEEKDAYS)
    | set(MONTH.strip("()").split("|"))
)
SAID_NAME = re.compile(
    r"\b(?:my name is|my name'?s|this is|i'?m|i am|surname(?: is|'s|:)?)\s+([A-Z][a-z'-]+)"
    r"(?:\s+([A-Z][a-z'-]+))?"
)


def surname_said(text: str) -> str | None:
    """A surname given in a sentence: "this is Chloe Dunn", "my surname is Dunn"."""
    for m in SAID_NAME.finditer(text):
        name = m.group(2) or m.group(1)
        if name.lower() not in STOP_WORDS:
            return name
    return None


def surname_answer(text: str) -> str | None:
    """The answer to "what's your surname?": the last capitalised word, or the last word."""
    said = surname_said(text)
    if said:
        return said
    bare = ACCOUNT_RE.sub(" ", HIRE_RE.sub(" ", text))
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", FILLER.sub(" ", bare))
    words = [w for w in words if w.lower() not in STOP_WORDS]
    capitals = [w for w in words if w[0].isupper()]
    found = (capitals or words)[-1:] if len(words) <= 3 or capitals else []
    return found[0] if found else None


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
    ("cancel", r"\bcancel"),
    ("early", r"\bearly\b|\bfinished with\b|\bdone with\b|\bbring(?:ing)? (?:it|them) back "
     r"(?:today|early|now)\b|\breturn(?:ing)? (?:it|them) (?:today|early)\b|\bdon'?t need "
     r"(?:it|them|the \w+(?: \w+)?) any ?more\b"),
    ("extend", r"\bextend|\bkeep (?:it|them|the|my)\b|\blonger\b|\banother (?:couple of |few )?"
     r"days?\b|\b(?:one|two|three|\d) more days?\b|\bstill using\b|\boverdue\b|\bbring "
     r"(?:it|them) back late\b"),
    ("quote", r"\bhow much would\b|\bis there (?:a|an|any)\b|\bare there any\b|\bavailable\b|"
     r"\bjust asking\b|\bonly asking\b|\bwhat would it cost\b|\bhow much (?:would|will|is|"
     r"does|to)\b.{0,30}\bhire\b"),
    ("lookup", r"\bwhen (?:is|does|do|'s)\b|\bwhen'?s\b|\bdue back\b|\bhow much\b|\bwhat do i "
     r"owe\b|\bwhat will i owe\b|\bwhere (?:is|it'?s)\b|\bdetails of\b|\bwhat'?s on my "
     r"account\b|\bwhat (?:have|do) i have (?:on hire|booked)\b|\bmy (?:hires|bookings)\b"),
    ("book", r"\bbook\b|\bhire (?:a|an|the|two)\b|\bneed (?:a|an)\b|\brent\b|\breserve\b|"
     r"\bi'?d like (?:a|an)\b|\bcan i (?:get|have|borrow)\b|\bi want (?:a|an|to hire)\b"),
    ("waiver", WAIVER_WORDS.pattern),
    ("delivery", DELIVERY_WORDS.pattern),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|\s+[—–-]+\s+(?=(?:and |also |can you|could you|please)"
    r")|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?=(?:can you|could you|please|i'?d (?:also )?"
    r"like|i want|i need|arrange|extend|cancel|book|add|put|deliver|keep|what|how|when)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the words it was said in."""

    intent: str
    text: str


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said; a clause with none joins its neighbour."""
    found: list[list[str]] = []
    loose: list[str] = []
    for clause in SPLIT.split(message):
        intent = next((i for i, pattern in INTENTS if re.search(pattern, clause, re.I)), None)
        if intent is None:
            (found[-1].append(clause) if found else loose.append(clause))
            continue
        found.append([intent, *loose, clause])
        loose = []
    merged: dict[str, list[str]] = {}
    for intent, *words in found:
        merged.setdefault(intent, []).extend(words)  # one request of a kind, said in parts
    out = [Request(intent, " ".join(words)) for intent, words in merged.items()]
    kinds = {r.intent for r in out}
    if "book" in kinds:
        # "with the waiver", "delivered please", "how much would it be": details of the booking
        text = " ".join(r.text for r in out if r.intent in {"book", "waiver", "delivery", "quote"})
        out = [Request("book", text) if r.intent == "book" else r for r in out
               if r.intent not in {"waiver", "delivery", "quote"}]  # fmt: skip
    if "quote" in kinds and "lookup" in kinds:
        out = [r for r in out if r.intent != "lookup"]
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        # "what will I owe?" after a change asked for: the proposal answers it
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def plus_days(iso: str, days: int) -> str:
    return (date.fromisoformat(iso) + timedelta(days=days)).isoformat()

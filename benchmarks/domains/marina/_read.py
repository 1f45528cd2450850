"""Reading customers' English: holder numbers, days, amounts, phones, emails, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

ACCOUNT_RE = re.compile(r"\bSM\s*-?\s*(\d{4})\b", re.I)
BOOKING_RE = re.compile(r"\bVB\s*-?\s*(\d{4})\b", re.I)
LIFT_RE = re.compile(r"\bLO\s*-?\s*(\d{4})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
MONEY_RE = re.compile(r"£\s?(\d+(?:\.\d\d)?)|\b(\d+(?:\.\d\d)?)\s?(?:pounds|quid)\b", re.I)
POLICY_RE = re.compile(r"\b([A-Z]{2,4}-?\d{4,8})\b")
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
YEAR = r"(?:,?\s+(20\d\d))?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + YEAR + r"\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?" + YEAR + r"\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b",
    re.I,
)
# a day said as the old one ("from the 13th", "not Thursday") is not the one wanted
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
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a": 1}  # fmt: skip
WEEKS_RE = re.compile(r"\b(\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+weeks?\b", re.I)
SIZE_RE = re.compile(r"\b(8|10|12|15)\s?-?\s?(?:m|metres?|meters?)\b", re.I)
KNOWN_INSURERS = ("Navigators & General", "Pantaenius", "GJW Direct", "Craftinsure",
                  "Haven Knox-Johnston", "Y-Cover", "Topsail")  # fmt: skip
PERSON_RE = re.compile(r"\b(?:for|called|named|name is|is|add|to)\s+([A-Z][a-z'-]+(?:\s+[A-Z]"
                       r"[a-z'-]+)+)")  # fmt: skip


def accounts(text: str) -> list[str]:
    return [f"SM{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def bookings(text: str) -> list[str]:
    return [f"VB{m.group(1)}" for m in BOOKING_RE.finditer(text)]


def lifts(text: str) -> list[str]:
    return [f"LO{m.group(1)}" for m in LIFT_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def amounts(text: str) -> list[int]:
    """Sums of money said ("£20", "30 pounds"), in pence."""
    return [round(float(m.group(1) or m.group(2)) * 100) for m in MONEY_RE.finditer(text)]


def weeks(text: str) -> int | None:
    m = WEEKS_RE.search(text)
    if m is None:
        return None
    word = m.group(1).lower()
    return int(word) if word.isdigit() else NUMBER_WORDS[word]


def berth_size(text: str) -> int | None:
    found = SIZE_RE.findall(text)
    return int(found[-1]) if found else None


def policy_numbers(text: str) -> list[str]:
    return [m.group(1).upper() for m in POLICY_RE.finditer(text)
            if not ACCOUNT_RE.match(m.group(1))]  # fmt: skip


def insurer(text: str) -> str | None:
    """A known marine insurer, or a capitalised name after "with" / "insurer is"."""
    for known in KNOWN_INSURERS:
        words = ["(?:&|and)" if w == "&" else re.escape(w) for w in known.split()]
        if re.search(r"\s+".join(words), text, re.I):
            return known
    m = re.search(r"\b(?:with|insurer is|insured by|insurers? are)\s+([A-Z][\w&'-]*(?:\s+(?:&\s+)?"
                  r"[A-Z][\w'-]*)*)", text)  # fmt: skip
    return m.group(1) if m else None


def person(text: str, exclude: set[str]) -> str | None:
    """A full name said ("a pass for Sam Jones"), not the boat's or the holder's."""
    for m in PERSON_RE.finditer(text):
        words = [w for w in m.group(1).split() if w.lower() not in exclude]
        if len(words) >= 2 and words[0].lower() not in STOP_WORDS:
            return " ".join(words[:3])
    return None


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month, year = int(g[0]), MONTHS[g[1].lower()[:3]], g[2]
        elif g[3]:
            day, month, year = int(g[4]), MONTHS[g[3].lower()[:3]], g[5]
        else:
            return date(int(g[6]), int(g[7]), int(g[8]))
        if year:
            return date(int(year), month, day)
        # a yearless day in the past months is next year's ("4 January" said in May)
        return date(today.year + 1 if month < today.month - 3 else today.year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; unless all_said, those said as the old one are dropped."""
    found = list(DATE_RE.finditer(text))
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
        found = kept or found
    return [d for d in (_date(m, today) for m in found) if d is not None]


STOP_WORDS = (
    {
        "i",
        "sm",
        "vb",
        "lo",
        "hi",
        "hello",
        "please",
        "the",
        "my",
        "our",
        "can",
        "could",
        "add",
        "book",
        "cancel",
        "move",
        "change",
        "update",
        "send",
        "email",
        "dear",
        "thanks",
        "sorry",
        "visitor",
        "berth",
        "pontoon",
        "marina",
        "saltmarsh",
        "crew",
        "guest",
        "pass",
        "gate",
        "what",
        "when",
        "how",
        "new",
        "i'm",
        "i'd",
        "we",
        "we're",
        "it",
        "she",
        "he",
    }
    | set(WEEKDAYS)
    | {m for m in MONTH.strip("()").split("|")}
    | {w.lower() for name in KNOWN_INSURERS for w in name.split()}
)


def name_candidates(text: str) -> list[str]:
    """Capitalised words not opening a sentence: how a boat's name is said in passing."""
    out = []
    for m in re.finditer(r"(?<![.!?:—-]\s)(?<!^)\b([A-Z][a-z]+)(?:'s)?\b", text.strip()):
        if m.group(1).lower() not in STOP_WORDS:
            out.append(m.group(1))
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
        r"great|lovely|that works|alright|all right|send it|aye)\b",
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
    ("gate", r"\bgate\b|\baccess code\b|\bpontoon code\b"),
    ("insurance", r"\binsurance\b|\bcertificate\b|\binsurer\b"),
    ("crew", r"\b(?:crew|guest)\s+pass|\bpass(?:es)? for\b|\b(?:crew|guest) (?:card|permit)"),
    ("contact", r"\b(?:phone|mobile|e-?mail)\b.*\b(?:chang|updat|new\b)|\b(?:chang|updat|new\b)"
     r"\w*\b.*\b(?:phone|mobile|number|e-?mail)\b"),
    ("power", r"\belectric|\bpower\b|\bmeter\b|\btop[- ]?up\b|\bpedestal\b"),
    ("notice", r"\bnotice\b|\bend (?:my|the) (?:berth |annual )?contract|\bterminate|\bcancel "
     r"(?:my|the) (?:annual |berth )*(?:contract|berth|mooring)\b|\bleave the marina|\bgive up "
     r"(?:my|the) berth"),
    ("berth", r"\b(?:bigger|larger|smaller|longer|shorter|cheaper)\b.{0,20}\bberth\b|\b(?:8|10|"
     r"12|15)\s?-?\s?(?:m|metres?|meters?)\b.{0,10}\bberth\b|\bberth size\b|\b(?:upsize|"
     r"downsize)\b|\bmove (?:up|down) to\b"),
    ("lookup", r"\bfuel\b|\bwhat time\b|\bopening\b|\bwhen does\b|\bhow much (?:do|will) i "
     r"pay\b|\bmonthly payment\b|\brun (?:to|until)\b|\bwhat do i pay\b"),
    ("cancel", r"\bcancel"),
    ("liftmove", r"\b(?:move|change|reschedule|put back|push|switch)\b.{0,40}\blift|\blift\b"
     r".{0,40}\b(?:moved?|change|reschedule|instead|later|earlier|go back|put back|"
     r"bring forward|another day)\b"),
    ("lift", r"\blift(?:ed)?[- ]?out\b|\bhaul(?:ed)?[- ]?out\b|\bstorage ashore\b|\blift\b|"
     r"\bout of the water\b|\bashore\b"),
    ("visit", r"\bvisitor\b|\bvisiting\b|\bbook\b|\bnights?\b|\bcome in\b|\bstay\b|\bmoor"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|send|text|email|set|let|what|how|top|put|give)\b)",
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
    before = ""
    for clause in SPLIT.split(message):
        intent = next((i for i, pattern in INTENTS if re.search(pattern, clause, re.I)), None)
        if intent is not None:
            out.append(Request(intent, f"{before} {clause}".strip()))
            before = ""
        elif out:
            # a sentence with no request of its own carries the facts of the one before it
            out[-1] = Request(out[-1].intent, f"{out[-1].text} {clause}")
        else:
            before = f"{before} {clause}".strip()
    kinds = {r.intent for r in out}
    if kinds - {"visit", "lookup"}:
        # "my berth" or "my stay" names what is being changed, not a new visitor booking
        out = [r for r in out if r.intent != "visit"]
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def say_full(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def plus_days(iso: str, days: int) -> str:
    return (date.fromisoformat(iso) + timedelta(days=days)).isoformat()

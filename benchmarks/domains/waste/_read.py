"""Reading residents' English: account numbers, postcodes, days, items, bins, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from benchmarks.domains.waste import _seed

ACCOUNT_RE = re.compile(r"\b(60\d{2})\s?-?(\d{4})\b")
POSTCODE_RE = re.compile(r"\b(MV\d{1,2})\s?(\d[A-Z]{2})\b", re.I)
BOOKING_RE = re.compile(r"\bBLK\s*-?\s*(\d{5})\b", re.I)
CTR_RE = re.compile(r"\bCTR\s*[-/]?\s*(\d{6})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
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
# a day said as the old one ("from the 17th", "not Thursday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is |they'?re )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there|they)(?:'s| is| are|'re)? (?:costs?|charged?|a (?:fee|charge)|any "
    r"(?:fee|charge)|extra).{0,30}\b(?:leave|don'?t|forget|keep|not)|\bas long as "
    r"(?:it'?s|there'?s|they'?re) (?:free|no)",
    re.I,
)
# the caller says the account is someone else's
THIRD_PARTY = re.compile(
    r"\b(?:my|our) (?:mum|mother|dad|father|nan|gran|grandma|grandad|neighbour|aunt|uncle|"
    r"son|daughter|sister|brother|landlord|tenant)'?s\b|\bon (?:her|his|their) behalf\b|"
    r"\bon behalf of\b",
    re.I,
)
BIN_WORDS = (
    ("food", r"\bfood\b|\bcaddy\b"),
    ("green", r"\bgreen\b|\bgarden[- ]waste bin\b"),
    ("blue", r"\bblue\b|\brecycling\b"),
    ("grey", r"\bgr[ae]y\b|\bblack\b|\bgeneral[- ]waste\b|\brubbish bin\b|\bwheelie\b"),
)
NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                "six": 6, "seven": 7, "eight": 8}  # fmt: skip


def accounts(text: str) -> list[str]:
    return [m.group(1) + m.group(2) for m in ACCOUNT_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in POSTCODE_RE.finditer(text)]


def bookings(text: str) -> list[str]:
    return [f"BLK-{m.group(1)}" for m in BOOKING_RE.finditer(text)]


def ctr_refs(text: str) -> list[str]:
    return [f"CTR-{m.group(1)}" for m in CTR_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def bins(text: str) -> list[str]:
    """The kinds of bin named, in the order of the patterns (food, green, blue, grey)."""
    return [b for b, pattern in BIN_WORDS if re.search(pattern, text, re.I)]


def items(text: str) -> list[str]:
    """Bulky items named, one entry per item ("two chairs" is two), longest names first."""
    low = text.lower()
    out: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    for name in sorted(_seed.ITEMS, key=len, reverse=True):
        for m in re.finditer(rf"\b(?:(\d|a|an|one|two|three|four|five|six|seven|eight)\s+)?"
                             rf"(?:old\s+|big\s+|small\s+|broken\s+)?{name}s?\b", low):  # fmt: skip
            start = m.start() if not m.group(1) else m.start(1)
            if any(a <= m.end() - 1 and start <= b for a, b in taken):
                continue
            taken.append((start, m.end() - 1))
            word = m.group(1) or "a"
            count = int(word) if word.isdigit() else NUMBER_WORDS[word]
            out += [(start, name)] * count
    return [name for _, name in sorted(out, key=lambda x: x[0])]


def refused(text: str) -> list[str]:
    return [w for w in _seed.REFUSED if re.search(rf"\b{w}", text, re.I)]


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
    ("missed", r"\bmissed\b|\bnot (?:been )?(?:collected|emptied)|\bwas(?:n'?t| not) "
     r"(?:collected|emptied)|\bdidn'?t (?:get )?(?:collect|empt)|\bnever (?:got )?(?:collected|"
     r"emptied)"),
    ("garden", r"\bgarden\b|\bgreen bin\b"),
    ("contact", r"\b(?:phone|mobile|telephone) number\b|\bemail address\b|\bmy (?:number|email)"
     r"\b|\bcontact details\b"),
    ("cancel", r"\bcancel"),
    ("move", r"\b(?:move|reschedule|rearrange|change the (?:date|day)|push|bring forward|put "
     r"back|different day|later date)\b"),
    ("bin", r"\b(?:new|replacement|replace|extra|another|second|additional|spare) (?:[\w-]+ ){0,2}"
     r"(?:bin|box|caddy)|\b(?:bin|caddy|box)\b.{0,40}\b(?:stolen|broken|cracked|lost|split|"
     r"missing)|\b(?:stolen|broken|cracked|lost)\b.{0,30}\b(?:bin|caddy)\b|\bcaddy\b"),
    ("lookup", r"\bwhen(?:'s| is| are)\b|\bwhat(?:'s| is) (?:on|booked)\b|\bwhat did (?:she|he|"
     r"they|i) book\b|\bwhich day\b"),
    ("book", r"\bbulky\b|\bcollect(?:ion|ed)?\b|\btake away\b|\bpick(?:ed)? up\b|\bget rid of\b|"
     r"\bbook\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|send|order|report|sign|set|let|what|how|when)\b)",
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
    if kinds & {"move", "cancel", "missed"}:
        # "my collection" names the booking being changed, not a new one
        out = [r for r in out if r.intent != "book"]
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

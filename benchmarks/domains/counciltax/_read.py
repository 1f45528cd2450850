"""Reading residents' English: account numbers, postcodes, days, names, answers, requests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

ACCOUNT_RE = re.compile(r"\b(6\d{3})\s?(\d{4})\b")
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
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
# a day of the month said alone: "the 15th", "on the 22nd of each month"
DAY_OF_MONTH_RE = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?" + MONTH + r"\b)", re.I)
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
COUNT = r"(\d{1,2}|" + "|".join(NUMBERS) + r")"
MONTHS_RE = re.compile(COUNT + r"\s+(?:months?|monthly (?:payments|instalments))\b", re.I)
PLAN_RE = re.compile(COUNT + r"\s+(?:monthly\s+)?(?:instalments|payments)\b|\bover\s+" + COUNT
                     + r"\s+months?\b", re.I)  # fmt: skip
NAME_SAID = re.compile(
    r"\b(?i:my name is|i'?m|i am|this is|name'?s)\s+([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)+)"
)
NAME_WORDS = re.compile(r"\b[A-Z][a-z'-]+\b")
NOT_NAMES = {"Hi", "Hello", "It", "Its", "It's", "My", "Name", "Is", "Yes", "Sure", "I",
             "I'm", "Thanks", "Of", "Course", "Ok", "Okay", "The", "Mr", "Mrs", "Ms", "Miss",
             "Dr"}  # fmt: skip


def accounts(text: str) -> list[str]:
    return [m.group(1) + m.group(2) for m in ACCOUNT_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in POSTCODE_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def _date(m: re.Match[str], today: date, when: str) -> date | None:
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
        # a yearless day: the last one on or before today for what has happened, else the next
        this_year = date(today.year, month, day)
        if when == "past":
            return this_year if this_year <= today else date(today.year - 1, month, day)
        return this_year if this_year >= today else date(today.year + 1, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date, when: str = "future") -> list[date]:
    """Days said, in order; `when` ('past' or 'future') places a day said without a year."""
    return [d for d in (_date(m, today, when) for m in DATE_RE.finditer(text)) if d is not None]


# a day said as the old one ("instead of the 1st", "not the 8th") is not the one wanted
OLD_MARK = re.compile(r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bnow)\s*"
                      r"(?:the\s+|on\s+the\s+)?$", re.I)  # fmt: skip


def month_days(text: str, *, all_said: bool = False) -> list[int]:
    """Days of the month said alone ("the 15th"), in order; unless all_said, not old ones."""
    found = list(DAY_OF_MONTH_RE.finditer(text))
    if not all_said:
        found = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
    return [int(m.group(1)) for m in found]


def _count(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def months(text: str) -> int | None:
    """How many months were asked for ("over 4 months", "a year" is 12)."""
    m = MONTHS_RE.search(text)
    if m:
        return _count(m.group(1))
    if re.search(r"\b(?:a|one|over the) (?:full )?year\b|\b12 months\b", text, re.I):
        return 12
    bare = re.fullmatch(r"\s*(?:over\s+)?" + COUNT + r"\s*\.?\s*", text, re.I)
    return _count(bare.group(1)) if bare else None


def plan(text: str) -> int | None:
    """10 or 12 instalments, when said."""
    for m in PLAN_RE.finditer(text):
        n = _count(m.group(1) or m.group(2))
        if n in (10, 12):
            return n
    bare = re.fullmatch(r"\s*(10|12|ten|twelve)\s*\.?\s*", text, re.I)
    return _count(bare.group(1)) if bare else None


def next_year(text: str) -> bool:
    return bool(re.search(r"\bnext (?:year|april|financial year)\b|\bfrom april\b|"
                          r"\b2027(?:/|-|\s+to\s+)(?:20)?28\b", text, re.I))  # fmt: skip


def names(text: str) -> list[str]:
    """Full names said ("I'm Sam Achebe"), or the capitalised words of a short answer."""
    said = [m.group(1) for m in NAME_SAID.finditer(text)]
    if said:
        return said
    words = [w for w in NAME_WORDS.findall(text) if w not in NOT_NAMES]
    if 2 <= len(words) <= 3 and len(text.split()) <= 8:
        return [" ".join(words)]
    return []


def same_person(a: str, b: str) -> bool:
    """A name said and a name on the account: first and last names match, case aside."""
    x, y = a.lower().split(), b.lower().split()
    return bool(x and y) and x[0] == y[0] and x[-1] == y[-1]


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|go ahead)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|happy|perfect|"
        r"great|lovely|that works|alright|all right|set it up|apply it|record it)\b",
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
    ("movein", r"\b(?:moving|move|moved|moves)\s+in(?:to)?\b|\bnew (?:resident|tenant|home)\b"
     r".{0,40}\b(?:from|on)\b|\bjust moved to\b"),
    ("moveout", r"\b(?:i'?m|i am|we'?re|we are|i'?ll be|we'?ll be|i will be)\s+(?:moving|"
     r"leaving)\b|\bmov(?:e|ing) out\b.{0,20}\b(?:on|date)\b|\bmy last day\b"),
    ("refund", r"\brefund|\bcredit\b|\bmoney back\b|\boverpa"),
    ("occupancy", r"\bsecond home\b|\bholiday home\b|\b(?:is|been|stood|left|sitting) empty\b|"
     r"\bempty (?:property|flat|house|home)\b|\bunoccupied\b|\bno ?one (?:is )?living\b"),
    ("discount", r"\bsingle person\b|\bdiscount\b|\bonly adult\b|\bliv(?:e|ing) (?:on my own|"
     r"alone)\b|\bjust me\b"),
    ("notice", r"\bfinal notice\b|\breminder\b"),
    ("arrears", r"\barrears\b|\bbehind (?:on|with)\b|\bpayment arrangement\b|\bpay (?:it|them|"
     r"this|that)? ?off\b|\bcatch up\b"),
    ("contact", r"\bemail\b|\bphone\b|\bmobile\b|\bcontact (?:details|number)\b"),
    ("payplan", r"\binstalments?\b|\bdirect debit\b|\bdd\b|\bpayment date\b|\b(?:10|12|ten|"
     r"twelve) (?:monthly )?payments\b|\bcomes? out on\b|\btaken on\b"),
    ("lookup", r"\bhow much\b|\bwhat(?:'s| is) (?:left|owed|owing|the balance|due)\b|"
     r"\bbalance\b|\bnext (?:payment|instalment)\b|\bowed\b|\bowing\b|\bleft to pay\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|switch|"
    r"put|set|add|send|let|what|how|when|my (?:new )?(?:email|phone|mobile))\b)",
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
        out = [r for r in out if r.intent != "lookup"]
    merged: list[Request] = []
    for r in out:  # one request per kind: a second clause of the same kind adds to the first
        same = next((i for i, m in enumerate(merged) if m.intent == r.intent), None)
        if same is None:
            merged.append(r)
        else:
            merged[same] = Request(r.intent, merged[same].text + " " + r.text)
    return merged


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B %Y')}"


def ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th") if n not in (11, 12, 13) else "th"
    return f"{n}{suffix}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def plus_days(iso: str, days: int) -> str:
    return (date.fromisoformat(iso) + timedelta(days=days)).isoformat()

"""Reading members' English: numbers, days, times, birth dates, names, addresses, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

MEMBERSHIP_RE = re.compile(r"\bHM\s*-?\s*(\d{5})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
POSTCODE = r"[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}"
ADDRESS_RE = re.compile(
    r"((?:Flat\s+\d+\w?,\s*)?(?<![\w])\d+[A-Za-z]?\s+[A-Z][^,.;!?]*?(?:,\s*[^,.;!?]+?)*?,?\s+"
    + POSTCODE
    + r")\b"
)
TIME_RE = re.compile(
    r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|th|of|jan|feb|mar|apr|may|jun|jul|"
    r"aug|sep|oct|nov|dec|tickets?|guests?))",
    re.I,
)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
YEAR = r"(?:,?\s+(\d{4}))?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b" + YEAR + r"|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b" + YEAR + r"|"
    r"\b(\d{4})-(\d\d)-(\d\d)\b|"
    r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b",
    re.I,
)
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "a": 1, "an": 1, "no": 0, "none": 0}  # fmt: skip
NUM = r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"


def memberships(text: str) -> list[str]:
    return [f"HM{m.group(1)}" for m in MEMBERSHIP_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def _date(m: re.Match[str], today: date) -> tuple[date, bool] | None:
    g = m.groups()
    try:
        if g[0]:
            day, month, year = int(g[0]), MONTHS[g[1].lower()[:3]], g[2]
        elif g[3]:
            day, month, year = int(g[4]), MONTHS[g[3].lower()[:3]], g[5]
        elif g[6]:
            return date(int(g[6]), int(g[7]), int(g[8])), True
        else:
            return date(int(g[11]), int(g[10]), int(g[9])), True
        if year:
            return date(int(year), month, day), True
        # a yearless day in the past months is next year's ("6 January" said in December)
        return date(today.year + 1 if month < today.month - 3 else today.year, month, day), False
    except (ValueError, KeyError):
        return None


def days(text: str, today: date) -> list[date]:
    """Days said that could be a visit (not a birth date), in order."""
    found = [_date(m, today) for m in DATE_RE.finditer(text)]
    return [d for d, _ in (f for f in found if f) if d.year >= today.year]


def birth_dates(text: str, today: date) -> list[date]:
    """Birth dates said: days with their year, at least five years ago."""
    found = [_date(m, today) for m in DATE_RE.finditer(text)]
    return [d for d, has_year in (f for f in found if f) if has_year and d.year <= today.year - 5]


def clock_time(text: str) -> str | None:
    """The last time of day said ("2pm", "14:30", "11.30"), as HH:MM."""
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


# -- the party: tickets and guests -------------------------------------------------------------
def party(text: str) -> tuple[int | None, int | None]:
    """(tickets in all, guests among them) as said; None for what was not said."""
    low = text.lower()
    tickets = guests = None
    m = re.search(NUM + r"\s+(?:more\s+)?(?:timed\s+)?tickets?\b", low)
    if m:
        tickets = number(m.group(1))
    m = re.search(r"\b" + NUM + r"\s+(?:of them\s+)?(?:are\s+)?(?:guests?|friends?)\b", low)
    if m:
        guests = number(m.group(1))
    elif re.search(r"\b(?:a|one)\s+(?:guest|friend)\b|\b(?:isn'?t|is not|not) a member\b", low):
        guests = 1
    elif re.search(r"\bno guests?\b|\bjust (?:the )?members\b|\bno one else\b|\bnone\b", low):
        guests = 0
    two = re.search(r"\bthe two of us\b|\bboth of us\b|\bus two\b|\bmy (?:husband|wife|partner) "
                    r"and (?:i|me)\b|\bme and my (?:husband|wife|partner)\b", low)  # fmt: skip
    if tickets is None and guests is not None and (two or re.search(r"\bme\b|\bmyself\b", low)):
        tickets = (2 if two else 1) + guests
    elif tickets is None and re.search(r"\bjust me\b|\bonly me\b|\bon my own\b|\bjust myself\b",
                                       low):  # fmt: skip
        tickets, guests = 1, 0
    elif tickets is None and two:
        tickets = 2
    return tickets, guests


def bare_count(text: str) -> int | None:
    """A count said alone ("3", "two", "none", "no guests")."""
    m = re.search(r"\b" + NUM + r"\b|\b(none|no)\b", text.lower())
    if not m:
        return None
    return number(m.group(1) or m.group(2))


# -- people and places -----------------------------------------------------------------------
NAME_LEAD = re.compile(
    r"^(?:hi|hello|sure|yes|ok(?:ay)?|oh)?[,!. ]*(?:it'?s|my name is|name'?s|i'?m|i am|this is|"
    r"his name is|her name is|their name is|he'?s|she'?s|full name is)?\s*",
    re.I,
)
NOT_NAMES = {"individual", "joint", "family", "membership", "member", "gift", "aid", "halden",
             "museum", "saturday", "sunday", "monday", "tuesday", "wednesday", "thursday",
             "friday", "january", "february", "december", "uk"}  # fmt: skip
FULL_NAME = r"([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)+)"


def full_name(text: str, *, asked: bool = False) -> str | None:
    """A person's full name: said after "my name is"/"I'm", or, when asked, the answer."""
    m = re.search(r"\b(?i:my name is|name'?s|i'?m|i am)\s+" + FULL_NAME, text)
    if m and not set(m.group(1).lower().split()) & NOT_NAMES:
        return m.group(1)
    if not asked:
        return None
    for m in re.finditer(FULL_NAME, text):
        if not set(m.group(1).lower().split()) & NOT_NAMES:
            return m.group(1)
    rest = NAME_LEAD.sub("", text.strip()).strip(" .!")
    words = rest.split()
    if 2 <= len(words) <= 4 and all(re.fullmatch(r"[A-Za-z'-]+", w) for w in words):
        return " ".join(w.capitalize() for w in words)
    return None


def new_name(text: str) -> str | None:
    """The new name for the card ("change my name to Sophie Grant")."""
    m = re.search(r"\b(?:name|it)\b[^.]{0,40}?\bto\s+" + FULL_NAME, text) or (
        re.search(r"\bnew (?:name|surname) is\s+" + FULL_NAME, text)
    )
    return m.group(1) if m else None


def address(text: str, *, asked: bool = False) -> str | None:
    """A postal address with a postcode."""
    m = ADDRESS_RE.search(text)
    if m:
        return m.group(1).strip()
    if asked and re.search(POSTCODE, text):
        rest = re.sub(r"^(?:it'?s|my address is|the address is|address is|i live at|"
                      r"we live at|now at)\s*", "", text.strip(), flags=re.I)  # fmt: skip
        return rest.strip(" .")
    return None


def kind(text: str) -> str | None:
    m = re.search(r"\b(individual|joint|family)\b", text, re.I)
    if m:
        return m.group(1).lower()
    if re.search(r"\bme and my (?:husband|wife|partner)\b|\bfor (?:the )?two of us\b", text, re.I):
        return "joint"
    return None


def children(text: str) -> int | None:
    m = re.search(r"\b" + NUM + r"\s+(?:children|kids|child)\b", text.lower())
    return number(m.group(1)) if m else None


TAX_NO = re.compile(
    r"\b(?:don'?t|do not|doesn'?t|never|no longer) pay (?:any )?(?:uk )?(?:income )?tax|"
    r"\bnot a (?:uk )?tax ?payer|\bnon-?tax ?payer|\bno uk tax\b",
    re.I,
)
TAX_YES = re.compile(r"\b(?:uk )?tax ?payer\b|\bi pay (?:uk )?(?:income )?tax\b", re.I)


def taxpayer(text: str) -> bool | None:
    if TAX_NO.search(text):
        return False
    if TAX_YES.search(text):
        return True
    return None


NEVER_ARRIVED = re.compile(
    r"\bnever (?:arrived|came|got it|received)|\b(?:hasn'?t|has not|didn'?t|did not) "
    r"(?:arrived?|come|get it|receive)|\bnot (?:yet )?(?:arrived|received)|\bstill waiting\b",
    re.I,
)


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
        r"great|lovely|that works|alright|all right|send it|i do)\b",
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
    ("lookup", r"\bwhen (?:does|do|will)\b.*\b(?:expire|run out|end|renew)|\bwhat(?:'s| is) "
     r"(?:my|the) (?:expiry|renewal date)|\bcheck (?:my|the) membership\b|\bhow long (?:is|"
     r"does) my membership"),
    ("details", r"\b(?:change|update|correct)\b.{0,40}\b(?:address|name)\b|\b(?:address|name)"
     r"\b.{0,30}\b(?:change|update)|\bmoved (?:house|home|to)\b|\bgot married\b|"
     r"\bnew (?:address|surname)\b"),
    ("card", r"\bcard\b"),
    ("giftaid", r"\bgift ?aid\b"),
    ("cancel", r"\bcancel"),
    ("renew", r"\brenew|\brejoin|\b(?:ran|run) out\b|\bhas expired\b|\blapsed\b"),
    ("join", r"\bjoin\b|\bsign (?:me|us) up\b|\bbecome (?:a )?members?\b|\bnew membership\b|"
     r"\b(?:an?|the) (?:individual|joint|family) membership\b"),
    ("tickets", r"\btickets?\b|\bbook\b|\bexhibition\b|\bslots?\b|\bvisit\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|i'?ve|i have|change|update|"
    r"renew|cancel|book|add|send|replace|what|when|how)\b)",
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
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def say_date(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def minus_days(iso: str, n: int) -> str:
    return (date.fromisoformat(iso) - timedelta(days=n)).isoformat()

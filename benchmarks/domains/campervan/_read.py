"""Reading customers' English: numbers, postcodes, days, van sizes, depots, names, answers, asks."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from benchmarks.domains.campervan import _seed

CUSTOMER_RE = re.compile(r"\bDW\s*-?\s*(\d{4})\b", re.I)
BOOKING_RE = re.compile(r"\bVB\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
ORD = r"(?:st|nd|rd|th)?"
YEAR = r"(?:,?\s+((?:19|20)\d\d)\b)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})" + ORD + r"\s+(?:of\s+)?" + MONTH + r"\b" + YEAR + "|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})" + ORD + r"\b" + YEAR + "|"
    r"\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b",
    re.I,
)
# "5 to 9 July", "Tuesday 16 to Friday 19 March": the first day takes the second's month
RANGE_RE = re.compile(
    r"\b(\d{1,2})" + ORD + r"\s*(?:to|-|–|until|till)\s*(" + WEEKDAY + r")(\d{1,2})" + ORD
    + r"\s+(?:of\s+)?" + MONTH + r"\b",
    re.I,
)  # fmt: skip
# a day taken back at once ("23 February — no, sorry, 24 February")
TAKEN_BACK = re.compile(
    r"^\s*[—–-]*\s*(?:no[,!.]?\s*)?(?:sorry|i mean|i meant|make that|scratch that|"
    r"correction|my mistake)\b",
    re.I,
)
# a day said as the one to move away from
OLD_MARK = re.compile(r"(?:instead of|rather than|\bnot|\bcurrently|\bwas)\s*(?:the\s+|on\s+)?$",
                      re.I)  # fmt: skip
SIZE_RE = re.compile(r"\b(two|four|six|2|4|6)[\s-]*berths?\b", re.I)
SIZE_WORDS = {"two": 2, "four": 4, "six": 6, "2": 2, "4": 4, "6": 6}
DEPOT_RE = re.compile(r"\b(bristol|kendal|inverness)\b", re.I)
NOT_THIS = re.compile(r"(?:instead of|rather than|\bnot)\s*(?:the\s+)?$", re.I)
DROPOFF_RE = re.compile(
    r"(?:\bdrop(?:ping)?(?:[- ]?off)?(?: it| the van)?(?: off)?|\bleav(?:e|ing)(?: it| the van)?|"
    r"\breturn(?:ing)?(?: it| the van)?|\bbring(?:ing)?(?: it| the van)? back|\bone[- ]way|"
    r"\bend(?:ing)?(?: up)?)(?:\s+depot)?\s+(?:in|at|to|into)\s+(?:the\s+)?"
    r"(bristol|kendal|inverness)\b",
    re.I,
)
# a condition in the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|cost|extra))|"
    r"\bas long as (?:it'?s|there'?s|it is|there is) (?:free|no)|"
    r"\bif (?:there'?s|there is|it costs?) (?:a |any )?(?:fee|charge|extra)\b.{0,30}"
    r"\b(?:leave|don'?t|forget|keep)",
    re.I,
)
STOP_WORDS = {
    "i", "hi", "hello", "please", "can", "could", "would", "the", "my", "our", "we", "he",
    "she", "his", "her", "their", "and", "sorry", "thanks", "yes", "no", "dear", "ok", "okay",
    "bristol", "kendal", "inverness", "easter", "christmas", "new", "year", "lakes", "full",
    "born", "licence", "license", "test", "driver", "van", "it's", "its", "that",
    *WEEKDAYS, *MONTH.strip("()").split("|"),
}  # fmt: skip
NAME_RE = re.compile(r"\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\s+([A-Z][a-z]*(?:['-][A-Z][a-z]+)?)\b")


def customer_ids(text: str) -> list[str]:
    return [f"DW{m.group(1)}" for m in CUSTOMER_RE.finditer(text)]


def booking_refs(text: str) -> list[str]:
    return [f"VB{m.group(1)}" for m in BOOKING_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    """UK postcodes, written 'OUT IN' upper-case whatever spacing was said."""
    return [f"{m.group(1)} {m.group(2)}".upper() for m in POSTCODE_RE.finditer(text)]


def _expand_ranges(text: str) -> str:
    return RANGE_RE.sub(
        lambda m: f"{m.group(1)} {m.group(4)} to {m.group(2)}{m.group(3)} {m.group(4)}", text
    )


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
        # a yearless day already gone this year is next year's ("12 January" said in December)
        found = date(today.year, month, day)
        return found if found >= today else date(today.year + 1, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; those taken back, and unless all_said those said as old, dropped."""
    text = _expand_ranges(text)
    found = [m for m in DATE_RE.finditer(text) if not TAKEN_BACK.match(text[m.end() :])]
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 20) : m.start()])]
        found = kept or found
    return [d for d in (_date(m, today) for m in found) if d is not None]


def dated(text: str, today: date, cue: str) -> date | None:
    """The first day said within a few words after `cue` (a regex): "born 3 April 2001"."""
    text = _expand_ranges(text)
    for m in DATE_RE.finditer(text):
        if re.search(cue + r"\W+(?:\w+\W+){0,3}$", text[max(0, m.start() - 40) : m.start()], re.I):
            return _date(m, today)
    return None


def van_size(text: str) -> int | None:
    found = SIZE_RE.findall(text)
    return SIZE_WORDS[found[-1].lower()] if found else None


def depots(text: str) -> list[str]:
    """Depots named, in order, once each; one said as the one not wanted is left out."""
    out: list[str] = []
    for m in DEPOT_RE.finditer(text):
        name = m.group(1).lower()
        if NOT_THIS.search(text[max(0, m.start() - 16) : m.start()]) or name in out:
            continue
        out.append(name)
    return out


def dropoff_depot(text: str) -> str | None:
    """The depot the van is to be brought back to, when said as such."""
    found = DROPOFF_RE.findall(text)
    return found[-1].lower() if found else None


def person_name(text: str) -> str | None:
    """A first name and surname said in passing ("my son, Ryan Doyle, born ...")."""
    for m in NAME_RE.finditer(text):
        if m.group(1).lower() not in STOP_WORDS and m.group(2).lower() not in STOP_WORDS:
            return f"{m.group(1)} {m.group(2)}"
    return None


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not decided yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|just a (?:sec|second|minute)|wait|not sure|let me "
                 r"(?:check|think|ask)|give me a (?:sec|second|minute))\b", low):  # fmt: skip
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now|not for now)", low) or (
        re.search(
            r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead|add|change)|"
            r"forget it|never mind|not worth it)\b",
            low,
        )  # fmt: skip
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|yup|sure|go ahead|ok|okay|confirm(?:ed)?|do it|that'?s (?:fine|"
        r"right|great)|correct|sounds good|fine|agreed|absolutely|of course|please do|please|"
        r"proceed|book it|add it|cancel it|move it|change it|happy|perfect|great|lovely|"
        r"that works|alright|all right)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(
            r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else|that'?s it)\b", text, re.I
        )  # fmt: skip
    )


# -- requests --------------------------------------------------------------------------------
INTENTS: list[tuple[str, str]] = [
    ("driver", r"\b(?:additional|second|extra|another|named|a|as)\s+driver\b|\badd\b.{0,40}"
     r"\bdriver\b|\bdrivers?\b.{0,20}\b(?:add|put|name)|\bto drive\b"),
    ("extra", r"\bawning|\bbike[- ]?(?:rack|carrier)|\bcycle rack|\boutdoor kit|"
     r"\btable and chairs|\bcamping (?:table|chairs)"),
    ("dropoff", r"\b(?:change|move|switch|swap)\b.{0,25}\bdrop[- ]?off\b|\bdrop[- ]?off\b.{0,60}"
     r"\binstead\b|\b(?:drop|leave|return|bring)\b.{0,80}\binstead of (?:bristol|kendal|"
     r"inverness)\b"),
    ("cancel", r"\bcancel"),
    ("lookup", r"\bhow much\b|\bwhat time\b|\bwhen can\b|\bsecurity deposit\b|\bwhich depot\b|"
     r"\bhow soon\b|\bleft to pay\b|\bowe\b|\bwhat(?:'s| is) (?:the )?balance\b"),
    ("move", r"\b(?:move|push|bring forward|put back|reschedule|postpone|change (?:the |our |my )?"
     r"dates?|start (?:a day |two days |a few days )?(?:later|earlier)|different dates)\b"),
    ("book", r"\bbook\b|\bhire\b|\b(?:two|four|six|2|4|6)[\s-]*berth\b|\bcampervan\b|\bvan\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|put|what|how|when|which)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the words it was asked in."""

    intent: str
    text: str


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first intent that fits).

    A message holding one request keeps all its words (details often follow in a sentence of
    their own); a message holding several gives each its own clause.
    """
    out: list[Request] = []
    for clause in SPLIT.split(message):
        for intent, pattern in INTENTS:
            if re.search(pattern, clause, re.I):
                out.append(Request(intent, clause))
                break
    kinds = {r.intent for r in out}
    if kinds - {"book"}:
        # "our van hire" names the booking being changed, not a new one
        out = [r for r in out if r.intent != "book"]
    if "lookup" in kinds and len(kinds - {"lookup", "book"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    if len({r.intent for r in out}) == 1:
        out = [Request(out[0].intent, message)]
    return out


# -- saying things -----------------------------------------------------------------------------
def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')} {d.year}"


def say_date(iso: str) -> str:
    """A date without its weekday: a birthday, a licence date."""
    d = date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def say_depot(depot: str) -> str:
    return depot.capitalize()


def say_size(size: int) -> str:
    return f"{size}-berth"


def say_extra(kind: str) -> str:
    return {"awning": "an awning", "bike_rack": "a bike rack (takes 4 bikes)",
            "outdoor_kit": "the outdoor kit (table and four chairs)"}[kind]  # fmt: skip


def age_on(born: str, day: date) -> int:
    b = date.fromisoformat(born)
    return day.year - b.year - ((day.month, day.day) < (b.month, b.day))


def depots_listed() -> str:
    return ", ".join(d.capitalize() for d in _seed.DEPOTS[:-1]) + " or Inverness"

"""Reading customers' English: references, days, times, parties, airports, names, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

ACCOUNT_RE = re.compile(r"\bSR\s*-?\s*(\d{4})\b", re.I)
VISIT_RE = re.compile(r"\bLV\s*-?\s*(\d{4})\b", re.I)
TIME_RE = re.compile(r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|th|of|jan|feb|"
                     r"mar|apr|may|jun|jul|aug|sep|oct|nov|dec|adult|child|kid|guest|people))",
                     re.I)  # fmt: skip
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
# a day or time said as the old one ("from 13:00", "instead of 1pm") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis at|\bis on|\bbooked (?:in )?"
    r"(?:at|on|for)|\bmy)\s*(?:the\s+|on\s+|at\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,40}\b(?:leave|don'?t|forget|keep|stick)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
AIRPORTS = {"LHR": r"(?i:heathrow|\blhr\b)", "LGW": r"(?i:gatwick|\blgw\b)",
            "MAN": r"(?i:manchester)|\bMAN\b", "EDI": r"(?i:edinburgh|\bedi\b)"}  # fmt: skip
AIRPORT_NAMES = {"LHR": "Heathrow", "LGW": "Gatwick", "MAN": "Manchester", "EDI": "Edinburgh"}
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "no": 0}  # fmt: skip
NUM = r"(\d{1,2}|an?|one|two|three|four|five|six|seven|eight|no)"
COMPANIONS = (r"\b(?:my|our) (?:wife|husband|partner|friend|colleague|brother|sister|mum|"
              r"mother|dad|father|boss|fianc[ée]e?)\b")  # fmt: skip
EXTRA_WORDS = (("fast_track", r"\bfast[- ]?track"), ("spa", r"\bspa\b|\btreatment|\bmassage"))


def accounts(text: str) -> list[str]:
    return [f"SR{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def visits(text: str) -> list[str]:
    return [f"LV{m.group(1)}" for m in VISIT_RE.finditer(text)]


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


def _is_old(text: str, start: int) -> bool:
    return bool(OLD_MARK.search(text[max(0, start - 24) : start]))


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; unless all_said, those said as the old one are dropped."""
    found = list(DATE_RE.finditer(text))
    if not all_said:
        found = [m for m in found if not _is_old(text, m.start())] or found
    return [d for d in (_date(m, today) for m in found) if d is not None]


def times(text: str, *, all_said: bool = False) -> list[tuple[int, str]]:
    """Times of day said ("3pm", "15:00", "7.30am", "noon"), as (position, HH:MM)."""
    out = []
    for m in TIME_RE.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not (m.group(2) or half) or hour > 23 or minute > 59:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        if half == "am" and hour == 12:
            hour = 0
        if all_said or not _is_old(text, m.start()):
            out.append((m.start(), f"{hour:02d}:{minute:02d}"))
    for m in re.finditer(r"\bnoon\b|\bmidday\b", text, re.I):
        if all_said or not _is_old(text, m.start()):
            out.append((m.start(), "12:00"))
    return sorted(out)


def clock_time(text: str) -> str | None:
    """The last time of day said that is not the old one, as HH:MM."""
    found = times(text)
    return found[-1][1] if found else None


def party(text: str) -> tuple[int, int] | None:
    """(adults, children) said: "2 adults and a child", "me and two guests", "just me"."""
    low = text.lower()

    def count(pattern: str) -> int | None:
        m = re.search(r"\b" + NUM + r"\s+(?:more\s+)?" + pattern, low)
        if m is None:
            return None
        word = m.group(1)
        return int(word) if word.isdigit() else NUMBERS[word]

    adults = count(r"(?:adults?|grown[- ]?ups?|people|passengers)\b")
    children = count(r"(?:child(?:ren)?|kids?)\b")
    guests = count(r"(?:adult\s+)?(?:guests?|friends?)\b")
    if adults is None and guests is not None:
        adults = 1 + guests
    if adults is None:
        m = re.search(r"\b(?:the\s+)?" + NUM + r" of us\b", low)
        if m:
            adults = int(m.group(1)) if m.group(1).isdigit() else NUMBERS[m.group(1)]
            adults -= children or 0
    if adults is None and re.search(r"\bjust me\b|\bonly me\b|\bon my own\b|\bjust myself\b|"
                                    r"\bmyself only\b|\bjust one\b", low):  # fmt: skip
        adults = 1
    if adults is None and (children is not None or re.search(COMPANIONS, low)):
        adults = 1 + len(re.findall(COMPANIONS, low))
    if adults is None:
        return None
    return adults, children or 0


def airport(text: str) -> str | None:
    for code, pattern in AIRPORTS.items():
        if re.search(pattern, text):
            return code
    return None


def terminal(text: str) -> str | None:
    m = re.search(r"\b(?:terminal|t)\s*([1-5])\b", text, re.I)
    if m:
        return f"T{m.group(1)}"
    m = re.search(r"\b(north|south)\b", text, re.I)
    return m.group(1).capitalize() if m else None


def wants_signature(text: str) -> bool:
    return bool(re.search(r"\bsignature\b|\bpremium\b", text, re.I))


# fmt: off
NAME_STOPS = {
    "i", "hi", "hello", "please", "the", "my", "our", "can", "could", "would", "sorry", "thanks",
    "thank", "yes", "no", "ok", "okay", "change", "put", "make", "it", "its", "skyrest",
    "signature", "lounge", "terminal", "north", "south", "heathrow", "gatwick", "manchester",
    "edinburgh", "main", "mr", "mrs", "ms", "miss", "dr", "he", "she", "they", "his", "her",
    "their", "that", "this", "so", "and", "but", "also", "just", "hang", "let", "is", "name",
}
# fmt: on
NAME_STOPS |= set(WEEKDAYS) | set(MONTH.strip("()").split("|"))


def full_names(text: str) -> list[str]:
    """Full names said ("Michael Reed"): two or three capitalised words in a row."""
    out = []
    for m in re.finditer(r"[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)+", text):
        words = [w for w in m.group(0).split() if w.lower().strip("'s") not in NAME_STOPS
                 and w.lower() not in NAME_STOPS]  # fmt: skip
        if len(words) >= 2:
            out.append(" ".join(w.removesuffix("'s") for w in words[-3:]))
    return out


def extra_kinds(text: str) -> list[str]:
    """The extras asked for, in the order said."""
    found = []
    for kind, pattern in EXTRA_WORDS:
        m = re.search(pattern, text, re.I)
        if m:
            found.append((m.start(), kind))
    return [k for _, k in sorted(found)]


def spa_time(text: str) -> str | None:
    """The last time said after the treatment was named ("a massage at 2.30pm")."""
    m = re.search(EXTRA_WORDS[1][1], text, re.I)
    if m is None:
        return None
    after = [t for pos, t in times(text) if pos > m.start()]
    return after[-1] if after else None


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
    ("upgrade", r"\bupgrad"),
    ("extra", r"\bfast[- ]?track|\bspa\b|\btreatment|\bmassage"),
    ("name", r"\b(?:change|update|amend|correct|put|transfer|switch|move)\b.{0,30}\bname\b|"
     r"\bname\s+(?:on|to)\b|\bin (?:his|her|their|my \w+'s) name\b|\binstead of me\b|"
     r"\b(?:travell?ing|going|flying) instead\b"),
    ("amend", r"\b(?:move|change|amend|reschedule|push|bring forward|put back|switch)\b.{0,40}"
     r"\b(?:time|visit|booking|arrival|slot|to \d)|\barrive (?:at|later|earlier)\b|"
     r"\b(?:later|earlier) (?:time|slot|arrival)\b"),
    ("lookup", r"\bwhat time\b|\bhow much\b|\bwhen (?:do|does|is|must|should)\b|\bhow long\b|"
     r"\bcheck (?:my|the|on)\b|\bdetails\b|\bwhat(?:'s| is) booked\b"),
    ("book", r"\bbook\b|\breserve\b|\blounge (?:for|access|visit)\b|\bvisit\b|\bget into\b"),
]  # fmt: skip
PAST_BOOKING = re.compile(r"\bbooked\b(?!.*\bbook\b)", re.I)
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|upgrade|amend|put|what|how)\b)",
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
            if intent == "book" and PAST_BOOKING.search(clause):
                continue  # "my colleague booked the lounge for us" is not a new booking
            if re.search(pattern, clause, re.I):
                out.append(Request(intent, clause))
                break
    if len(out) == 1:
        # one request: the whole message is its context (a reference said in another sentence)
        out = [Request(out[0].intent, message)]
    kinds = {r.intent for r in out}
    if kinds - {"book", "lookup"}:
        # "my visit" names the visit being changed, not a new booking
        out = [r for r in out if r.intent != "book"]
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

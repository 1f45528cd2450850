"""Reading guests' English: references, days, times, phones, emails, counts, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

REF_RE = re.compile(r"\bHF\s*-?\s*(\d{4})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
TIME_RE = re.compile(r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|th|of|jan|feb|"
                     r"mar|apr|may|jun|jul|aug|sep|oct|nov|dec|night|day|bag|bike|bottle))",
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
# a day said as the old one ("from the 16th", "instead of Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|for)|"
    r"\bbooking (?:on|for)|\bstay (?:on|for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "a couple of": 2, "both": 2, "three": 3,
           "four": 4, "five": 5, "six": 6}  # fmt: skip
COUNT = r"\b(\d+|a couple of|an|a|one|two|three|four|five|six|both)"


def refs(text: str) -> list[str]:
    return [f"HF{m.group(1)}" for m in REF_RE.finditer(text)]


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
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day more than three months back is next year's
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


def clock_time(text: str) -> str | None:
    """The first time of day said ("4pm", "16:00", "noon"), as HH:MM; "by 11" is not read."""
    for m in TIME_RE.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not (m.group(2) or half) or hour > 23:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        return f"{hour:02d}:{minute:02d}"
    if re.search(r"\bnoon\b|\bmidday\b", text, re.I):
        return "12:00"
    return None


def count_of(text: str, noun: str) -> int | None:
    """How many of `noun` ("two bags", "2 bikes", "a gas bottle"); None when not said."""
    m = re.search(COUNT + r"\s+(?:\w+\s+){0,2}?" + noun, text, re.I)
    if not m:
        return None
    word = m.group(1).lower()
    return int(word) if word.isdigit() else NUMBERS.get(word)


def pitch_type(text: str) -> str | None:
    low = text.lower()
    if re.search(r"\bmotor ?home|\bcamper ?van|\bcamper\b|\bvan\b", low):
        return "motorhome"
    if re.search(r"\bcaravan", low):
        return "caravan"
    if re.search(r"\btent", low):
        return "tent"
    return None


def wants(text: str, word: str) -> bool:
    """A thing asked for and not turned down ("with hook-up", not "no hook-up needed")."""
    low = text.lower()
    if not re.search(word, low):
        return False
    no = r"\b(?:no|without|don'?t (?:need|want))\s+(?:\w+\s+){0,2}?(?:" + word + ")"
    return not re.search(no, low)


STOP_WORDS = {
    "i", "hf", "hi", "hello", "please", "the", "my", "our", "can", "could", "add", "book",
    "cancel", "move", "change", "update", "send", "email", "dear", "thanks", "sorry", "we",
    "it", "its", "yes", "no", "ok", "thank", "mr", "mrs", "ms", "miss", "dr",
} | set(WEEKDAYS) | set(MONTH.strip("()").split("|"))  # fmt: skip


def name_candidates(text: str) -> list[str]:
    """Capitalised words not opening a sentence: how a name is said in passing."""
    out = []
    for m in re.finditer(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?:'s)?\b",
                         text.strip()):  # fmt: skip
        if m.group(1).lower() not in STOP_WORDS:
            out.append(m.group(1))
    return out


def name_said(text: str) -> str | None:
    """A surname offered in passing ("this is Jo Baxter", "it's under Hughes"), or None."""
    m = re.search(r"\b(?:i'?m|i am|this is|my name is|my name'?s|surname is|it'?s under|"
                  r"booked under)\s+(?:mr |mrs |ms |miss |dr )?((?:[A-Z][a-z'-]+ )?[A-Z][a-z'-]+)",
                  text)  # fmt: skip
    return m.group(1).split()[-1] if m else None


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
        r"great|lovely|that works|alright|all right|post it|log it)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- requests --------------------------------------------------------------------------------
OWN = r"\b(?:my|our|the) (?:booking|pitch|stay|reservation)\b"
BOOK_RE = re.compile(
    r"\b(?:book|reserve|need|want|like|looking for)\b.{0,40}\b(?:tent|caravan|motor ?home|"
    r"camper ?van|pitch)",
    re.I,
)
INTENTS: list[tuple[str, str]] = [
    ("guest", r"\b(?:our|my) friends?\b|\bwhich pitch (?:are|is) (?:the|they|he|she|my|our)|"
     r"\bis (?:the \w+ family|\w+ \w+) (?:booked|staying)"),
    ("lost", r"\bleft (?:my|our|a|an|some|behind)\b|\blost\b|\bforgot\b|\blost property"),
    ("complaint", r"\bcomplain|\bcomplaint|\bnot happy\b|\bunhappy\b|\bdisappointed\b"),
    ("contact", r"\b(?:new|change|update)\b.{0,40}\b(?:email|e-mail|mobile|phone)|"
     r"\b(?:email|e-mail|mobile|phone)\b.{0,30}\b(?:changed|new|update)"),
    ("cancel", r"\bcancel"),
    ("times", r"\barriv\w* (?:early|earlier|at (?:12|1[0-3]))|\bearly arrival|\bcome (?:in )?"
     r"early|\blate departure|\bleave (?:late|later|at (?:1[2-6]|[1-4] ?pm))|\bstay (?:on )?"
     r"(?:later|until)|\bcheck[- ]?out later|\blater (?:departure|check)"),
    ("lookup", r"\bhow much\b|\bwhat time\b|\bwhen (?:can|do|does|is|should)\b|\bstill (?:to "
     r"pay|owe)|\bbalance\b|\bleft to pay\b"),
    ("extra", r"\bfirewood|\blogs\b|\bgas\b|\bbikes?\b|\bbicycles?\b"),
    ("option", r"\bhook-?up|\belectric|\bawning|\bdogs?\b"),
    ("move", r"\b(?:move|reschedule|change (?:the|my|our) dates?|different dates|push (?:it|"
     r"our|my)|put (?:it )?back|bring (?:it )?forward)\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|hire|send|set|let|what|how|put)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the clause it was said in."""

    intent: str
    text: str


def intent_of(clause: str) -> str | None:
    """The request a clause makes: a new booking first, then the first pattern that fits."""
    if BOOK_RE.search(clause) and not re.search(OWN, clause, re.I):
        if not re.search(r"\bcancel|\bmove\b|\bleft\b|\blost\b|\bfriends?\b", clause, re.I):
            return "book"
    for intent, pattern in INTENTS:
        if re.search(pattern, clause, re.I):
            return intent
    return None


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause)."""
    out: list[Request] = []
    for clause in SPLIT.split(message):
        intent = intent_of(clause)
        if intent:
            out.append(Request(intent, clause))
    kinds = {r.intent for r in out}
    book = next((r for r in out if r.intent == "book"), None)
    if book is not None:
        # "... We'll have our two dogs with us": options said with a new booking are part of it
        said = " ".join([book.text, *(r.text for r in out if r.intent == "option")])
        out = [Request("book", said) if r is book else r for r in out if r.intent != "option"]
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def plus_days(iso: str, days: int) -> str:
    return (date.fromisoformat(iso) + timedelta(days=days)).isoformat()

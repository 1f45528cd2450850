"""Reading golfers' English: numbers, days, tee times, players, guests, answers, requests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

NUMBER_RE = re.compile(r"\b([MV])\s*-?\s*(\d{4})\b", re.I)
BOOKING_RE = re.compile(r"\bFW\s*-?\s*(\d{4})\b", re.I)
LESSON_RE = re.compile(r"\bPL\s*-?\s*(\d{4})\b", re.I)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
DAY_WORD = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?"
WEEKDAY = r"(?:" + DAY_WORD + r",?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b",
    re.I,
)
# a day said without a month: "Saturday", "tomorrow", "the 14th"
LOOSE_DAY_RE = re.compile(
    r"\b(?:this\s+|next\s+|on\s+)?(" + DAY_WORD + r")\b|\b(today|tomorrow)\b|"
    r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b",
    re.I,
)
# a day or a time said as the old one ("from 09:00", "instead of Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis (?:on|at)|\bbooked (?:in )?"
    r"(?:on|for|at)|\bmy)\s*(?:the\s+|my\s+|on\s+|at\s+)?(?:tee time\s+(?:on|at)\s+)?$",
    re.I,
)
NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
                "twelve": 12}  # fmt: skip
COUNT = r"(a|an|one|two|three|four|five|\d)"
TIME_RE = re.compile(
    r"(?<![£\d.:])\b(\d{1,2})[:.](\d\d)\s*(am|pm)?\b|"  # 09:40, 9.30, 3.20pm
    r"(?<![£\d.:])\b(\d{1,2})\s*(am|pm)\b|"  # 3pm, 10 am
    r"\bat\s+(\d{1,2})\b(?![:.\d]|\s*(?:st|nd|rd|th|players|people|of|guests?|minutes?)\b)|"
    r"\bhalf\s+past\s+(\w+)\b|"  # half past ten
    r"\b(\w+)\s+o'?\s?clock\b|"  # ten o'clock
    r"\b(noon|midday)\b",
    re.I,
)
# a condition inside the request: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra|cost))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)|"
    r"\bfree of charge\b.{0,20}\bonly\b|\bonly\b.{0,20}\bfree of charge\b",
    re.I,
)
# only with a buggy: no buggy, no booking
BUGGY_ONLY = re.compile(
    r"\bonly (?:if|with) (?:i can (?:have|get) )?a buggy|\bno buggy,? no\b|"
    r"\bif (?:there'?s|there is) no buggy|\bwithout a buggy,? (?:don'?t|leave|forget|there'?s no)",
    re.I,
)
SAME_TIME = re.compile(r"\bsame (?:tee )?time\b", re.I)
SAME_DAY = re.compile(r"\bsame day\b|\blater that day\b|\bearlier that day\b", re.I)


def golfer_numbers(text: str) -> list[str]:
    return [f"{m.group(1).upper()}{m.group(2)}" for m in NUMBER_RE.finditer(text)]


def bookings(text: str) -> list[str]:
    return [f"FW{m.group(1)}" for m in BOOKING_RE.finditer(text)]


def lessons(text: str) -> list[str]:
    return [f"PL{m.group(1)}" for m in LESSON_RE.finditer(text)]


def count(word: str) -> int | None:
    word = word.lower()
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word)


def _full_date(m: re.Match[str], today: date) -> date | None:
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


def _loose_date(m: re.Match[str], today: date) -> date | None:
    word, rel, nth = m.group(1), m.group(2), m.group(3)
    if rel:
        return today + timedelta(days=0 if rel.lower() == "today" else 1)
    if nth:
        for ahead in range(0, 62):
            d = today + timedelta(days=ahead)
            if d.day == int(nth):
                return d
        return None
    index = next(i for i, name in enumerate(WEEKDAYS) if name.startswith(word.lower()[:3]))
    ahead = (index - today.weekday()) % 7 or 7  # the coming one, never today
    return today + timedelta(days=ahead)


def dates(text: str, today: date, *, all_said: bool = False, fallback: bool = True) -> list[date]:
    """Days said, in order; unless all_said, those said as the old one are dropped.

    When every day said is an old one, they are all kept (fallback) or none (no fallback).
    """
    found: list[tuple[int, int, date | None]] = []
    for m in DATE_RE.finditer(text):
        found.append((m.start(), m.end(), _full_date(m, today)))
    for m in LOOSE_DAY_RE.finditer(text):
        # "on Monday": the day's own start, so "my tee time on" before it marks it as the old one
        start = m.start(1) if m.group(1) else m.start()
        if not any(s <= start < e for s, e, _ in found):
            found.append((start, m.end(), _loose_date(m, today)))
    found.sort(key=lambda f: f[0])
    if not all_said:
        kept = [f for f in found if not OLD_MARK.search(text[max(0, f[0] - 30) : f[0]])]
        found = kept or (found if fallback else [])
    return [d for _, _, d in found if d is not None]


def _hour(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word.lower())


def _time_of(m: re.Match[str]) -> str | None:
    g = m.groups()
    if g[0]:
        hour, minute, half = int(g[0]), int(g[1]), (g[2] or "").lower()
    elif g[3]:
        hour, minute, half = int(g[3]), 0, g[4].lower()
    elif g[5]:
        hour, minute, half = int(g[5]), 0, ""
    elif g[6] or g[7]:
        found = _hour(g[6] or g[7])
        if found is None:
            return None
        hour, minute, half = found, 30 if g[6] else 0, ""
    else:
        return "12:00"
    if hour > 23 or minute > 59:
        return None
    if half == "pm" and hour < 12:
        hour += 12
    elif half == "am" and hour == 12:
        hour = 0
    elif not half and 1 <= hour <= 6:
        hour += 12  # "at 3", "half past two": the afternoon, when the course is open
    return f"{hour:02d}:{minute:02d}"


def times(text: str, *, all_said: bool = False) -> list[str]:
    """Times of day said, in order, as HH:MM; unless all_said, those said as the old one go."""
    found = [(m.start(), _time_of(m)) for m in TIME_RE.finditer(text)]
    if not all_said:
        kept = [f for f in found if not OLD_MARK.search(text[max(0, f[0] - 30) : f[0]])]
        found = kept or found
    return [t for _, t in found if t]


def players(text: str) -> int | None:
    """How many play, when said: "three of us", "a fourball", "me and two friends"."""
    m = re.search(r"\b(one|two|three|four|[1-4])\s+(?:players|people|golfers|of us)\b", text, re.I)
    if m:
        return count(m.group(1))
    m = re.search(r"\b(two|three|four)-?\s?ball\b", text, re.I)
    if m:
        return count(m.group(1))
    m = re.search(r"\b(?:me|myself) and " + COUNT + r" (?:\w+ )?(?:friends?|mates?|others?|"
                  r"colleagues?|guests?|pals?)\b", text, re.I)  # fmt: skip
    if m:
        return (count(m.group(1)) or 0) + 1
    if re.search(r"\b(?:me|myself) and my (?:\w+ )?(?:wife|husband|partner|son|daughter|"
                 r"friend|brother|sister|dad|father|mum|mother)\b", text, re.I):  # fmt: skip
        return 2
    if re.search(r"\bjust (?:me|myself)\b|\bon my own\b|\bby myself\b|\bsolo\b", text, re.I):
        return 1
    return None


def guests(text: str) -> int | None:
    """A member's guests, when said: "two guests", "a guest", "my guest"."""
    m = re.search(r"\b" + COUNT + r"\s+(?:more\s+|other\s+|\w+\s+)?guests?\b", text, re.I)
    if m:
        return count(m.group(1))
    m = re.search(r"\b" + COUNT + r" of (?:them|us|the \w+) (?:are |being |will be )?guests?\b",
                  text, re.I)  # fmt: skip
    if m:
        return count(m.group(1))
    if re.search(r"\bmy guests?\b|\bwith a guest\b", text, re.I):
        return 1
    if re.search(r"\bno guests?\b|\bjust members\b|\bno visitors\b", text, re.I):
        return 0
    return None


def lesson_minutes(text: str) -> int | None:
    if re.search(r"\b(?:30|thirty)[- ]?min|\bhalf[- ]an?[- ]hour|\bhalf-hour", text, re.I):
        return 30
    if re.search(r"\b(?:60|sixty)[- ]?min|\b(?:an|one|full)[- ]hour|\bhour[- ]long|\bhour's",
                 text, re.I):  # fmt: skip
        return 60
    return None


def buggies(text: str) -> int:
    if not re.search(r"\bbugg(?:y|ies)\b", text, re.I):
        return 0
    if not BUGGY_ONLY.search(text) and re.search(
        r"\bno bugg(?:y|ies) (?:needed|required|please|thanks|for me)|\bwithout a buggy|"
        r"\bdon'?t (?:need|want) a buggy",
        text,
        re.I,
    ):
        return 0
    m = re.search(r"\b(two|2)\s+buggies\b", text, re.I)
    return 2 if m else 1


STOP_WORDS = {
    "i", "hi", "hello", "please", "the", "my", "our", "can", "could", "add", "book", "cancel",
    "move", "change", "dear", "thanks", "sorry", "yes", "no", "ok", "it", "it's", "its", "this",
    "that", "we", "fw", "pl", "mr", "mrs", "ms", "miss", "dr", "member", "visitor", "fairway",
    "golf", "club", "am", "pm", "today", "tomorrow", "christmas", "boxing", "day", "just", "pro",
    "buggy", "lesson", "also", "and",
} | set(WEEKDAYS) | set(MONTH.strip("()").split("|"))  # fmt: skip


def name_candidates(text: str) -> list[str]:
    """Capitalised words not opening a sentence: how a surname is said in passing."""
    out = []
    for m in re.finditer(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:['-][A-Z]?[a-z]+)?)\b", text.strip()):
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
        r"great|lovely|that works|alright|all right|cancel it|move it)\b",
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
    ("move", r"\b(?:move|reschedule|switch|push (?:it|me|us) back|bring (?:it|me|us) forward)"
     r"\b|\bchange (?:the |my |our )?(?:tee )?(?:time|day|date|booking)\b"),
    ("lesson", r"\blessons?\b|\bthe pro\b|\bprofessional\b|\bcoaching\b"),
    ("book", r"\bbook\b|\btee time for\b|\bget (?:me|us) out\b|\bplay (?:on|at|this|next)\b|"
     r"\bcan (?:i|we) (?:bring|play|have|get)\b|\ba tee time\b"),
    ("buggy", r"\bbugg(?:y|ies)\b"),
    ("lookup", r"\bwhat time\b|\bhow much\b|\bhow many\b|\bwhen (?:am|are|is|do)\b|\bcheck "
     r"(?:my|the|our) (?:booking|tee time)|\bteeing off\b|\bwhat(?:'s| is| have)\b.{0,30}"
     r"\b(?:paid|booked|owe)\b|\bdetails\b|\btell me about\b|\bFW\s*-?\s*\d{4}\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|move|cancel|"
    r"book|add|set|let|what|how)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the clause it was said in."""

    intent: str
    text: str


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits).

    A clause that asks for nothing itself ("I know it's short notice.") stays with the request
    before it (or the first one), so conditions and details said apart are not lost.
    """
    pieces: list[tuple[str | None, str]] = []
    for clause in SPLIT.split(message):
        intent = next((i for i, pattern in INTENTS if re.search(pattern, clause, re.I)), None)
        if intent == "book" and BOOKING_RE.search(clause):
            intent = "lookup"  # "the tee time for FW3116" is a booking already made
        pieces.append((intent, clause))
    kinds = {i for i, _ in pieces if i}
    if {"book", "buggy"} <= kinds:
        kinds.discard("buggy")  # "book me in... I'd like a buggy too": the new round's buggy
    if kinds & {"move", "cancel", "buggy", "lookup"}:
        # "the tee time Peter booked" names a booking already made, not a new one
        kinds.discard("book")
    if "lookup" in kinds and len(kinds) > 1:
        kinds.discard("lookup")
    out: list[Request] = []
    orphans: list[str] = []
    for intent, clause in pieces:
        same = next((i for i, r in enumerate(out) if r.intent == intent), None)
        if intent in kinds and same is not None:
            out[same] = Request(out[same].intent, f"{out[same].text} {clause}")
        elif intent in kinds:
            out.append(Request(intent or "", " ".join([*orphans, clause])))
            orphans = []
        elif out:
            out[-1] = Request(out[-1].intent, f"{out[-1].text} {clause}")
        else:
            orphans.append(clause)
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

"""Reading customers' English: references, emails, days, times, flights, counts, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

REF_RE = re.compile(r"\bSW\s*-?\s*(\d{5})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
MOBILE_RE = re.compile(r"\b(07\d{3})\s?(\d{3})\s?(\d{3})\b")
# BA2496, FR 1396, U24417, EZ4521; never a booking reference, a postcode or a report number
FLIGHT_RE = re.compile(
    r"\b(?!SW|LP|CP|KM)((?:[A-Z]{2}|[A-Z]\d|\d[A-Z]))\s?(\d{2,4})\b(?!\s?\d[A-Z]{2}\b)"
)
PROMO_RE = re.compile(r"\b([A-Z]{4,}\d{1,3})\b")
TIME_RE = re.compile(r"(?<![£\d.:])\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|"
                     r"th|of|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|minutes?|mins?|"
                     r"hours?))", re.I)  # fmt: skip
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
ORDINAL_RE = re.compile(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?" + MONTH + ")", re.I)
RELATIVE_RE = re.compile(r"\b(today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|"
                         r"saturday|sunday)(?:'s)?\b", re.I)  # fmt: skip
# a day or time said as the old one ("from 9am", "instead of Sunday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis at|\bbooked (?:for|at))"
    r"\s*(?:the\s+|my\s+|on\s+|at\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)|"
    r"\botherwise (?:leave|keep)",
    re.I,
)
NUMBER = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "no": 0, "zero": 0}  # fmt: skip
COUNT = r"(\d|a|an|one|two|three|four|five|six|seven|eight|no|zero)"


def count_word(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER[word.lower()]


def booking_refs(text: str) -> list[str]:
    return [f"SW{m.group(1)}" for m in REF_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".").lower() for m in EMAIL_RE.finditer(text)]


def mobiles(text: str) -> list[str]:
    """UK mobile numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    return [f"{m.group(1)} {m.group(2)}{m.group(3)}" for m in MOBILE_RE.finditer(text)]


def flights(text: str) -> list[str]:
    return [m.group(1) + m.group(2) for m in FLIGHT_RE.finditer(text)]


def promo_codes(text: str) -> list[str]:
    return [m.group(1) for m in PROMO_RE.finditer(text)]


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day in the early months is next year's ("4 January" said in December)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def _relative(word: str, today: date) -> date:
    word = word.lower()
    if word in {"today", "tonight"}:
        return today
    if word == "tomorrow":
        return today + timedelta(days=1)
    ahead = (WEEKDAYS.index(word) - today.weekday()) % 7
    return today + timedelta(days=ahead or 7)


def _is_old(text: str, start: int) -> bool:
    return bool(OLD_MARK.search(text[max(0, start - 24) : start]))


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order ("tomorrow" and a bare weekday too); the old one dropped."""
    found: list[tuple[int, date, bool]] = []
    spans = []
    for m in DATE_RE.finditer(text):
        d = _date(m, today)
        spans.append(m.span())
        if d is not None:
            found.append((m.start(), d, _is_old(text, m.start())))
    for m in ORDINAL_RE.finditer(text):
        # "the 19th" alone: this month's, or next month's once it has passed
        day = int(m.group(1))
        month, year = (today.month, today.year) if day >= today.day else (
            today.month % 12 + 1, today.year + (today.month == 12))  # fmt: skip
        try:
            found.append((m.start(), date(year, month, day), _is_old(text, m.start())))
        except ValueError:
            continue
    for m in RELATIVE_RE.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        found.append((m.start(), _relative(m.group(1), today), _is_old(text, m.start())))
    found.sort(key=lambda f: f[0])
    if not all_said:
        kept = [f for f in found if not f[2]]
        found = kept or found
    return [d for _, d, _ in found]


def clock_times(text: str) -> list[str]:
    """Times of day said ("5am", "06:00", "2.30pm"), as HH:MM, the old ones dropped."""
    found: list[tuple[str, bool]] = []
    for m in TIME_RE.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not (m.group(2) or half) or hour > 23 or minute > 59:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        if half == "am" and hour == 12:
            hour = 0
        found.append((f"{hour:02d}:{minute:02d}", _is_old(text, m.start())))
    if not found and re.search(r"\bnoon\b|\bmidday\b", text, re.I):
        found.append(("12:00", False))
    kept = [t for t, old in found if not old]
    return kept or [t for t, _ in found]


def clock_time(text: str) -> str | None:
    """The last new time of day said, or None."""
    times = clock_times(text)
    return times[-1] if times else None


def passengers(text: str) -> int | None:
    """How many are travelling, children included, when said."""
    low = text.lower()
    m = re.search(COUNT + r"\s+(?:of us|passengers?|people|persons|adults|travell?ers)\b", low)
    total = count_word(m.group(1)) if m else None
    if total is None and re.search(r"\b(?:just|only) me\b|\bon my own\b|\bmyself\b|\bjust one\b|"
                                   r"\bme alone\b", low):  # fmt: skip
        total = 1
    if total is None and re.search(r"\bme and my (?:wife|husband|partner|friend|son|daughter|"
                                   r"mum|dad)\b|\bmy (?:wife|husband|partner) and i\b",
                                   low):  # fmt: skip
        total = 2
    kids = re.search(r"\b(?:and|plus|with) " + COUNT + r" (?:child|children|kids?|toddlers?|"
                     r"bab(?:y|ies))\b", low)  # fmt: skip
    if total is not None and kids and not re.search(r"including|incl\.", low):
        total += count_word(kids.group(1))
    return total


def bare_count(text: str | None) -> int | None:
    """A short answer that is only a number ("2", "three", "just the one")."""
    if not text:
        return None
    m = re.fullmatch(r"\W*(?:just |only )?(?:the )?" + COUNT + r"(?: please)?\W*", text.lower())
    return count_word(m.group(1)) if m else None


def large_bags(text: str) -> int | None:
    """Large cases, when said ("two large suitcases", "one case", "hand luggage only")."""
    low = text.lower()
    if re.search(r"\bhand luggage only\b|\bno (?:large |big )?(?:bags|cases|suitcases|luggage)\b|"
                 r"\bonly hand luggage\b", low):  # fmt: skip
        return 0
    m = re.search(COUNT + r"\s+(?:large |big |full[- ]size )?(?:suit)?cases?\b|" + COUNT +
                  r"\s+(?:large|big|hold) (?:bags|pieces of luggage)\b", low)  # fmt: skip
    if m:
        return count_word(m.group(1) or m.group(2))
    return None


def child_seats(text: str) -> int:
    m = re.search(r"\b(?:" + COUNT + r"\s+)?(?:child|booster|baby|car)[ -]seats?\b", text, re.I)
    if not m:
        return 0
    return count_word(m.group(1)) if m.group(1) else 1


def meet_greet(text: str) -> bool:
    return bool(re.search(r"\bmeet(?:[- ]and[- ]|\s*&\s*|\s+n\s+|-)greet", text, re.I))


def vehicle_class(text: str) -> str | None:
    low = text.lower()
    if re.search(r"\b(?:8|eight)[- ]seater\b|\bminibus\b|\bpeople carrier\b", low):
        return "8-seater"
    if re.search(r"\bestate\b", low):
        return "estate"
    if re.search(r"\bsaloon\b", low):
        return "saloon"
    return None


def direction(text: str) -> str | None:
    low = text.lower()
    if re.search(r"\bfrom the airport\b|\b(?:at|from) arrivals\b|\bpick (?:me|us) up (?:at|from) "
                 r"the airport\b|\blanding\b|\blands\b|\bflying (?:back|home|in)\b|\bcar home\b",
                 low):  # fmt: skip
        return "from_airport"
    if re.search(r"\bto the airport\b|\bfor my flight\b|\bdrop (?:me|us) (?:off )?at\b|\bflying "
                 r"out\b|\bdeparture\b", low):  # fmt: skip
        return "to_airport"
    return None


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait a|let me (?:check|think)|not sure|one moment)\b", low):
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
        r"great|lovely|that works|alright|all right|log it|cancel it|update it)\b",
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
    ("lost", r"\bleft (?:my|a|our|his|her)\b|\blost\b|\bforgot (?:my|a|our)\b|\blost property"),
    ("complaint", r"\bcomplain|\bcomplaint\b"),
    ("waiting", r"\bwaiting (?:charge|fee)|\bcharged\b.{0,40}\bwait|\bwait(?:ing)?\b.{0,40}"
     r"\bcharged\b"),
    ("phone", r"\b(?:mobile|phone|contact) (?:number|details)\b|\bnew mobile\b"),
    ("cancel", r"\bcancel"),
    ("return", r"\b(?:add|book|need|want) (?:a|the|my) return\b|\breturn (?:leg|journey|trip|"
     r"transfer)\b|\b(?:the )?way back\b"),
    ("flight", r"\bflight number\b|\bflight\b.{0,40}\b(?:is now|now|changed to|new)\b|"
     r"\bnew flight\b"),
    ("move", r"\bmove\b|\breschedule|\bchange (?:the |my )?(?:pickup|pick-up)(?: time)?\b|"
     r"\bchange the (?:time|date)|\bpush(?:ed)? (?:back|to|it)|\bpushed\b|\bbring (?:it )?"
     r"forward|\bput (?:it )?back|\bdifferent time|\bearlier pickup|\blater pickup"),
    ("book", r"\bbook\b|\bcar (?:to|from|home)\b|\btransfer (?:to|from)\b|\bpick (?:me|us) up "
     r"(?:at|from)\b|\bneed a (?:car|taxi|cab)\b"),
    ("extras", r"\b(?:child|booster|baby|car)[ -]seats?\b|\bmeet(?:[- ]and[- ]|\s*&\s*|\s+n\s+|"
     r"-)greet"),
    ("question", r"\bhow long\b|\bhow much\b|\bwhat (?:does|will) it cost\b|\bwhat happens if\b|"
     r"\bwhat time\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|send|set|let|what|how)\b)",
    re.I,
)
FLIGHT_TOKEN = r"\b(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\s?\d{2,4}\b"
# requests about a booking that is being made now are part of it
JOINS_BOOKING = {"flight", "extras", "question"}


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the words it was said in."""

    intent: str
    text: str


def _intent(clause: str) -> str | None:
    for intent, pattern in INTENTS:
        if re.search(pattern, clause, re.I):
            if (
                intent == "flight"
                and not re.search(FLIGHT_TOKEN, clause)
                and not re.search(r"\bflight number\b", clause, re.I)
            ):
                continue
            return intent
    return None


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said; a clause with none joins its neighbour."""
    out: list[Request] = []
    loose: list[str] = []
    for clause in SPLIT.split(message):
        intent = _intent(clause)
        if intent is None:
            if out:
                out[-1] = Request(out[-1].intent, f"{out[-1].text} {clause}")
            else:
                loose.append(clause)
            continue
        out.append(Request(intent, " ".join([*loose, clause])))
        loose = []
    anchor = next((r for r in out if r.intent in {"book", "return"}), None)
    if anchor is not None:
        joined = " ".join(r.text for r in out if r is anchor or r.intent in JOINS_BOOKING)
        out = [Request(anchor.intent, joined) if r is anchor else r for r in out
               if r is anchor or r.intent not in JOINS_BOOKING]  # fmt: skip
    kinds = {r.intent for r in out}
    if "question" in kinds and len(kinds) > 1:
        out = [r for r in out if r.intent != "question"]
    return out


def say_when(stamp: str) -> str:
    """'Saturday 19 December at 05:00' for 2026-12-19T05:00."""
    d = date.fromisoformat(stamp[:10])
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')} at {stamp[11:16]}"


def say_day(day: date) -> str:
    return f"{WEEKDAYS[day.weekday()].capitalize()} {day.day} {day.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

"""Reading clients' English: references, days, times, lengths, artists, answers and requests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

CLIENT_RE = re.compile(r"\bIK\s*-?\s*(\d{4})\b", re.I)
BOOKING_RE = re.compile(r"\bTB\s*-?\s*(\d{4})\b", re.I)
GIFT_RE = re.compile(r"\bGC\s*-?\s*(\d{4})\b", re.I)
TIME_RE = re.compile(r"(?<![£\d.:/-])\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|th|"
                     r"of|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|hours?|hrs?|h\b|weeks?|"
                     r"days?|-hour|/))", re.I)  # fmt: skip
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
YEAR = r"(?:,?\s+(\d{4}))?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + YEAR + r"\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?" + YEAR + r"\b|"
    r"\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b|"
    r"\b(\d{1,2})/(\d{1,2})/((?:19|20)\d\d)\b|"
    r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?" + MONTH + r")",
    re.I,
)
# a day said as the old one ("from the 16th", "not Friday", "on Thursday to ...") is not wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when the deposit is kept / it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:i |we )?(?:keep|don'?t lose|do not lose|won'?t lose)|"
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:i'?d|i would|i'?ll|i will|i|it would|it'?d) (?:lose|cost)\b.{0,40}\b(?:leave|don'?t|"
    r"forget|keep)|\bas long as (?:i keep|it'?s free|there'?s no)",
    re.I,
)


def clients(text: str) -> list[str]:
    return [f"IK{m.group(1)}" for m in CLIENT_RE.finditer(text)]


def bookings(text: str) -> list[str]:
    return [f"TB{m.group(1)}" for m in BOOKING_RE.finditer(text)]


def gift_codes(text: str) -> list[str]:
    return [f"GC-{m.group(1)}" for m in GIFT_RE.finditer(text)]


def _year_for(month: int, day: int, today: date) -> int:
    # a yearless day in the past months is next year's ("14 January" said in December)
    year = today.year
    if (month, day) < (today.month, today.day) and month < today.month - 3:
        year += 1
    return year


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month, year = int(g[0]), MONTHS[g[1].lower()[:3]], g[2]
        elif g[3]:
            day, month, year = int(g[4]), MONTHS[g[3].lower()[:3]], g[5]
        elif g[6]:
            return date(int(g[6]), int(g[7]), int(g[8]))
        elif g[9]:
            return date(int(g[11]), int(g[10]), int(g[9]))
        else:
            # "the 20th": this month's, or next month's once it has passed
            d = int(g[12])
            first = date(today.year, today.month, 1)
            here = first.replace(day=d)
            if here >= today:
                return here
            nxt = (first + timedelta(days=32)).replace(day=1)
            return nxt.replace(day=d)
        return date(int(year) if year else _year_for(month, day, today), month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days from this year on, in order; unless all_said, those said as the old one are dropped."""
    found = list(DATE_RE.finditer(text))
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
        found = kept or found
    out = [d for d in (_date(m, today) for m in found) if d is not None]
    if re.search(r"\btomorrow\b", text, re.I):
        out.insert(0, today + timedelta(days=1))
    return [d for d in out if d.year >= today.year - 1]


def birth_date(text: str, today: date) -> date | None:
    """A date of birth: a day with a year at least 14 years ago."""
    for m in DATE_RE.finditer(text):
        d = _date(m, today)
        if d is not None and d.year <= today.year - 14:
            return d
    return None


def clock_time(text: str) -> str | None:
    """The last time of day said ("3pm", "15:00", "4:20pm", "noon"), as HH:MM."""
    found = None
    for m in TIME_RE.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not (m.group(2) or half) or hour > 23 or minute > 59:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        if half == "am" and hour == 12:
            hour = 0
        found = (m.end(), f"{hour:02d}:{minute:02d}")
    noon = list(re.finditer(r"\bnoon\b|\bmidday\b", text, re.I))
    if noon and (found is None or noon[-1].end() > found[0]):
        return "12:00"
    return found[1] if found else None


HOURS_RE = re.compile(r"\b(\d|two|four|six)[- ]?(?:hours?|hrs?|h)\b", re.I)
NUMBERS = {"two": 2, "four": 4, "six": 6}


def session_hours(text: str) -> int | None:
    """A session's length said ("a 4-hour session", "six hours")."""
    found = HOURS_RE.findall(text)
    if not found:
        return None
    word = found[-1].lower()
    return NUMBERS.get(word) or int(word)


def colour(text: str) -> bool | None:
    """True for a colour piece, False for black and grey, None when not said."""
    if re.search(r"\bno colou?r|\bnot (?:in )?colou?r|\bblack|\bgr[ae]y\b|\blinework|\bmonochrome",
                 text, re.I):  # fmt: skip
        return False
    if re.search(r"\bcolou?r(?:ed|ful)?\b", text, re.I):
        return True
    return None


ARTIST_NAMES = {"mara": "AR1", "dex": "AR2", "ivy": "AR3", "rook": "AR4"}


def artists(text: str) -> list[str]:
    """The artists named, as ids, in the order said."""
    return [ARTIST_NAMES[m.group(1).lower()] for m in
            re.finditer(r"\b(mara|dex|ivy|rook)\b", text, re.I)]  # fmt: skip


def kit(text: str) -> str | None:
    if re.search(r"\blarge\b|\bbig(?:ger)? (?:kit|one)\b|\bdeluxe\b", text, re.I):
        return "large"
    if re.search(r"\bstandard\b|\bsmall\b|\bregular\b|\bnormal\b|\bbasic\b", text, re.I):
        return "standard"
    return None


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment|"
                 r"give me a (?:sec|second|minute))\b", low):  # fmt: skip
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead|move)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|book it|happy|perfect|"
        r"great|lovely|that works|alright|all right|move it|cancel it|add it|use it)\b",
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
    ("patch", r"\b(?:book|need|want|like|get|arrange|come in for|have|do)\s+(?:me\s+)?(?:a|an)"
     r"\s+(?:skin |allergy )?patch[- ]?test|\b(?:book|arrange|get)\s+(?:me\s+)?(?:my|the)\s+"
     r"patch[- ]?test|\bpatch[- ]?test (?:appointment|slot)\b|^\W*(?:a\s+)?patch[- ]?test\b"),
    ("gift", r"\bgift ?cards?\b|\bgift voucher|\bGC\s*-?\s*\d{4}"),
    ("kit", r"\baftercare\b|\bkits?\b"),
    ("cancel", r"\bcancel"),
    ("info", r"\b(?:which|what) days?\b|\bper hour\b|\ban hour\b|\bhourly\b|\bhow much does "
     r"(?:mara|dex|ivy|rook)\b|\bwhat does (?:mara|dex|ivy|rook|he|she|they) charge"),
    ("lookup", r"\bhow much (?:will|do|is|have|would)\b|\bleft to pay\b|\bwhat time (?:is|does|do|"
     r"am)\b|\bwhen (?:is|does) my\b|\bowe\b|\bbalance\b|\bcheck my (?:booking|session)"),
    ("touchup", r"\btouch[- ]?ups?\b|\btouch(?:ing|ed) (?:\w+ )?up\b"),
    ("move", r"\b(?:move|reschedule|rearrange|push (?:it |my \w+ )?back|bring (?:it )?forward|"
     r"change the (?:date|day|time))\b"),
    ("consult", r"\bconsult"),
    ("book", r"\bbook\b|\bsession\b|\bappointment\b|\btattoo\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|move|cancel|book|add|"
    r"put|use|apply|what|how|when|which)\b)",
    re.I,
)
# an intent that names a booking already made: "my session" in it is not a new booking
ON_A_BOOKING = {"move", "cancel", "kit", "gift", "lookup", "touchup", "patch", "consult", "info"}


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
    if kinds & ON_A_BOOKING:
        out = [r for r in out if r.intent != "book"]
    if "lookup" in kinds and kinds - {"lookup", "book", "info"}:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso[:10])
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def say_when(stamp: str) -> str:
    return f"{say_day(stamp)} at {stamp[11:16]}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

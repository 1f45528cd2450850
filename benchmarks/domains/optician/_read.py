"""Reading customers' English: numbers, days, birth dates, times, phones, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

CUSTOMER_RE = re.compile(r"\bCV\s*-?\s*(\d{4})\b", re.I)
APPT_RE = re.compile(r"\bAP\s*-?\s*(\d{4})\b", re.I)
ORDER_RE = re.compile(r"\bGO\s*-?\s*(\d{4})\b", re.I)
SUB_RE = re.compile(r"\bCL\s*-?\s*(\d{4})\b", re.I)
FRAME_RE = re.compile(r"\bCF\s*-?\s*(\d{3})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
TIME_RE = re.compile(r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|th|of|jan|"
                     r"feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|months?|days?|\d))",
                     re.I)  # fmt: skip
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
    r"\b(\d{4})-(\d\d)-(\d\d)\b|\b(\d{1,2})/(\d{1,2})/(\d{4})\b",
    re.I,
)
# a day said as the old one ("from the 8th", "not Tuesday") is not the one wanted
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
NUMBERS = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _refs(pattern: re.Pattern[str], prefix: str, text: str) -> list[str]:
    return [f"{prefix}{m.group(1)}" for m in pattern.finditer(text)]


def customers(text: str) -> list[str]:
    return _refs(CUSTOMER_RE, "CV", text)


def appointments(text: str) -> list[str]:
    return _refs(APPT_RE, "AP", text)


def orders(text: str) -> list[str]:
    return _refs(ORDER_RE, "GO", text)


def frames(text: str) -> list[str]:
    return _refs(FRAME_RE, "CF-", text)


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def _date(m: re.Match[str], today: date) -> tuple[date | None, bool]:
    """The day a match names, and whether a year was said with it."""
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
        # a yearless day in the past months is next year's ("4 January" said in December)
        return date(today.year + 1 if month < today.month - 3 else today.year, month, day), False
    except (ValueError, KeyError):
        return None, False


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said for the diary, in order (birth dates left out); the old ones dropped."""
    found = [m for m in DATE_RE.finditer(text) if (d := _date(m, today)[0]) and d.year >= 2020]
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
        found = kept or found
    return [d for d in (_date(m, today)[0] for m in found) if d is not None]


def birth_date(text: str, today: date) -> str | None:
    """A date of birth said with its year ("12 April 1989", "12/04/1989"), as YYYY-MM-DD."""
    for m in DATE_RE.finditer(text):
        d, with_year = _date(m, today)
        if d is not None and with_year and d.year <= today.year - 5:
            return d.isoformat()
    return None


def clock_time(text: str) -> str | None:
    """The last time of day said ("3pm", "15:00", "half two" is not read), as HH:MM."""
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


def part_of_day(text: str) -> str | None:
    if re.search(r"\bmorning\b|\bam\b", text, re.I):
        return "morning"
    if re.search(r"\bafternoon\b|\bafter lunch\b", text, re.I):
        return "afternoon"
    return None


def months(text: str) -> int | None:
    m = re.search(r"\b(\d|one|a|two|three|four|five|six)\s+months?\b", text, re.I)
    if m:
        word = m.group(1).lower()
        return int(word) if word.isdigit() else NUMBERS[word]
    return None


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
        r"great|lovely|that works|alright|all right|send it)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- requests --------------------------------------------------------------------------------
COATING = r"anti-?glare|blue[- ]?light|coating|filter"
INTENTS: list[tuple[str, str]] = [
    ("prescription", r"\bprescription\b"),
    ("contact", r"\b(?:change|update|new)\b.{0,40}\b(?:phone|mobile|email|contact details|"
     r"number)\b|\b(?:phone|mobile|email)\b.{0,30}\b(?:changed|is now)\b"),
    ("claim", r"\blost\b|\bbroke|\bsnapped|\brepair|\bclaim\b|\bcover\b"),
    ("pause", r"\bpause|\bsuspend|\bput\b.{0,30}\bon hold\b"),
    ("cancel_sub", r"\bcancel\b.{0,40}\b(?:contact lens|lenses|lens plan|subscription|plan)\b"),
    ("cancel_order", r"\bcancel\b.{0,40}\b(?:order|glasses|specs|frames?)\b"),
    ("cancel", r"\bcancel"),
    ("lookup", r"\bwhen(?:'s| is)\b|\bhow much (?:is|will|do|does)\b|\bwhat time\b|"
     r"\bready\b|\bstatus\b|\bremind me\b"),
    ("order", r"\bCF\s*-?\s*\d{3}\b|\b(?:new|second|another|spare) pair\b|\border (?:a|the|some|"
     r"new)\b.{0,20}\b(?:glasses|frames?|pair)\b"),
    ("coating", r"\b(?:add|put|want|have)\b.{0,40}\b(?:" + COATING + r")\b"),
    ("move", r"\b(?:move|reschedule|rearrange|push|bring forward|put back|change)\b.{0,40}"
     r"\b(?:test|appointment|booking)\b"),
    ("book", r"\bbook\b|\beye test\b|\bsight test\b|\bappointment\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|send|email|set|let|what|how|pause|put|order)\b)",
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
    if kinds & {"move", "cancel", "lookup"}:
        # "my eye test" names the test being changed or asked about, not a new booking
        out = [r for r in out if r.intent != "book"]
    if "lookup" in kinds and len(kinds - {"lookup", "book"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

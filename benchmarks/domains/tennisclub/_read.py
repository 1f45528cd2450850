"""Reading members' English: numbers, postcodes, days, times, names, tiers, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

MEMBER_RE = re.compile(r"\bALT\s*-?\s*(\d{4})\b", re.I)
BOOKING_RE = re.compile(r"\bCB\s*-?\s*(\d{4})\b", re.I)
SESSION_RE = re.compile(r"\bCS\s*-?\s*(\d{3})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
COURT_RE = re.compile(r"\bcourt\s*(?:no\.?\s*|number\s*)?([1-6])\b", re.I)
TIME_RE = re.compile(r"(?<![£\d.:])\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm|o'?clock)?\b(?!\s*(?:st|nd|"
                     r"rd|th|of|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|guests?|"
                     r"people|players|hours?|days?|months?|places?))", re.I)  # fmt: skip
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
DAY_NAME_RE = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.I)
# a day said as the old one ("from the 11th", "not Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra|cost))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep|skip)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
TIER_WORDS = (("offpeak", r"\boff[- ]?peak"), ("junior", r"\bjunior"), ("senior", r"\bsenior"),
              ("adult", r"\badult|\bfull(?:[- ]price)? (?:membership|member)|\bstandard "
               r"(?:membership|member)"))  # fmt: skip
FALLBACK = re.compile(r"\b(?:otherwise|if not|if i can'?t|failing that|or else)\b", re.I)


def members(text: str) -> list[str]:
    return [f"ALT{m.group(1)}" for m in MEMBER_RE.finditer(text)]


def bookings(text: str) -> list[str]:
    return [f"CB{m.group(1)}" for m in BOOKING_RE.finditer(text)]


def sessions(text: str) -> list[str]:
    return [f"CS{m.group(1)}" for m in SESSION_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1)} {m.group(2)}".upper() for m in POSTCODE_RE.finditer(text)]


def courts(text: str) -> list[str]:
    return [f"C{m.group(1)}" for m in COURT_RE.finditer(text)]


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day in the past months is next year's
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def _relative(text: str, today: date) -> list[date]:
    """'today', 'tomorrow' and a weekday said alone ('on Saturday'): the next such day."""
    out = []
    if re.search(r"\btoday\b|\btonight\b|\bthis (?:evening|afternoon|morning)\b", text, re.I):
        out.append(today)
    if re.search(r"\btomorrow\b", text, re.I):
        out.append(today + timedelta(days=1))
    for m in DAY_NAME_RE.finditer(text):
        if OLD_MARK.search(text[max(0, m.start() - 24) : m.start()]):
            continue
        ahead = (WEEKDAYS.index(m.group(1).lower()) - today.weekday()) % 7 or 7
        out.append(today + timedelta(days=ahead))
    return out


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; unless all_said, those said as the old one are dropped."""
    found = list(DATE_RE.finditer(text))
    if not found:
        return _relative(text, today)
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
        found = kept or found
    return [d for d in (_date(m, today) for m in found) if d is not None]


def clock_time(text: str) -> str | None:
    """The last time of day said ("7pm", "19:00", "4 o'clock" in the afternoon), as HH:MM."""
    found = None
    for m in TIME_RE.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not (m.group(2) or half) or hour > 23 or minute > 59:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        elif half.startswith("o") and hour < 7:
            hour += 12  # "6 o'clock": no court opens before 07:00
        found = f"{hour:02d}:{minute:02d}"
    if found is None and re.search(r"\bnoon\b|\bmidday\b", text, re.I):
        found = "12:00"
    return found


def court_kind(text: str) -> str | None:
    """'indoor' or 'outdoor' (floodlit courts are outdoor), the last said."""
    said = re.findall(r"\b(indoors?|outdoors?|outside|inside|floodlit|under (?:the )?lights)\b",
                      text, re.I)  # fmt: skip
    if not said:
        return None
    return "indoor" if said[-1].lower().startswith(("indoor", "inside")) else "outdoor"


def tiers(text: str) -> list[str]:
    """Membership tiers named, in the order said."""
    found = []
    for tier, pattern in TIER_WORDS:
        for m in re.finditer(pattern, text, re.I):
            found.append((m.start(), tier))
    return [t for _, t in sorted(found)]


NOT_NAMES = {
    "i", "hi", "hello", "please", "the", "my", "our", "can", "could", "court", "courts",
    "book", "cancel", "add", "bring", "bringing", "thanks", "sorry", "yes", "no", "and",
    "adult", "junior", "senior", "off", "indoor", "outdoor", "cardio", "serve", "doubles",
    "tennis", "club", "ashcombe", "guest", "guests", "it", "that", "she", "he", "they",
    "we", "her", "his", "their", "name", "names", "is", "are", "called", "mr", "mrs", "ms",
    "dr", "also", "just", "one", "two", "three", "ok", "okay", "great", "thank", "you",
    "friend", "partner", "sister", "brother", "mum", "dad", "wife", "husband", "colleague",
} | set(WEEKDAYS) | {m for m in MONTH.strip("()").split("|")}  # fmt: skip
WORD = r"([A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)"
NAME_RE = re.compile(rf"(?=\b{WORD}\s+{WORD}\b)")  # overlapping: "Add Ollie Grant"


def full_names(text: str) -> list[str]:
    """Two capitalised words in a row that are not other words: how a guest is named."""
    out: list[str] = []
    for m in NAME_RE.finditer(text):
        if m.group(1).lower() in NOT_NAMES or m.group(2).lower() in NOT_NAMES:
            continue
        name = f"{m.group(1)} {m.group(2)}"
        if name not in out and not any(name.split()[0] == o.split()[1] for o in out):
            out.append(name)
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
        r"great|lovely|that works|alright|all right|add me|renew it)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- requests --------------------------------------------------------------------------------
COACHING = r"\bcoaching\b|\bsessions?\b|\blessons?\b|\bclinic\b|\bwaiting list\b|\bmasterclass"
INTENTS: list[tuple[str, str]] = [
    ("cancel", r"\bcancel|\bcan'?t make (?:it|my)|\bgive up my place"),
    ("renew", r"\brenew"),
    ("tier", r"\bupgrade|\bdowngrade|\b(?:switch|change|move|go)\b.{0,40}\b(?:membership|"
     r"tier|adult|off[- ]?peak|senior|junior)\b|\bmembership (?:type|tier|category)\b"),
    ("coaching", COACHING + r"|\bimprovers\b|\bcardio\b|\bsquad\b|\bjoin\b"),
    ("guest", r"\bguests?\b|\bbring(?:ing)?\b.{0,25}\b(?:friend|partner|sister|brother|"
     r"colleague|dad|mum|son|daughter|wife|husband|someone)\b"),
    ("lookup", r"\bwhen does\b|\bwhen do\b|\bwhat time\b|\bhow much\b|\bexpire|\brun out\b|"
     r"\bwhat\b.{0,30}\bbooked\b|\b(?:have i|i'?ve) got\b.{0,25}\bbooked\b|\bam i booked\b|"
     r"\bwhat tier\b|"
     r"\bwhich membership\b"),
    ("book", r"\bbook\b|\bcourt\b|\breserve\b|\bplay\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|i'?m bringing|i'?ll be "
    r"bringing|bring|change|update|move|cancel|book|add|put|renew|upgrade|join|let|what|how|"
    r"when)\b)",
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
    book = dict(INTENTS)["book"]
    for clause in SPLIT.split(message):
        for intent, pattern in INTENTS:
            if re.search(pattern, clause, re.I):
                if intent == "guest" and re.search(book, clause, re.I) and clock_time(clause):
                    out.append(Request("book", clause))  # a new booking with a guest on it
                out.append(Request(intent, clause))
                break
    kinds = {r.intent for r in out}
    if "renew" in kinds:
        out = [r for r in out if r.intent != "tier"]  # a renewal names its own tier
    if kinds & {"cancel", "guest", "coaching"} and "book" in kinds:
        # "my booking" names the one being changed, not a new one; unless a day and time are said
        out = [r for r in out if r.intent != "book" or clock_time(r.text)]
    if "cancel" in kinds:
        # "my guests can't come" explains a cancellation; it asks for no guest to be added
        out = [r for r in out if r.intent != "guest" or full_names(r.text)]
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


def end_of(start: str) -> str:
    return f"{int(start[:2]) + 1:02d}:00"

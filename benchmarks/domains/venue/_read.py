"""Reading hirers' English: references, days, times, rooms, numbers, answers and requests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

REF_RE = re.compile(r"\bMB\s*-?\s*(\d{4})\b", re.I)
INVOICE_RE = re.compile(r"\bINV\s*-?\s*(\d{4})\b", re.I)
LICENCE_RE = re.compile(r"\bTEN\s*[-/]?\s*(\d{6})\b", re.I)
CHARITY_RE = re.compile(r"(?<![\d£.:])\b(\d{6,7})\b(?![:.]\d)")
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
GUESTS_RE = re.compile(
    r"\b(\d{1,3})\s+(?:people|guests|adults|persons|of us|attendees|children|kids|members)\b",
    re.I,
)
# "2-6pm", "10am to 2pm", "19:00 until 23:00": a range whose first end may borrow the am/pm
RANGE_RE = re.compile(
    r"(?<![£\d.])\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\s*(?:-|–|to|till|until|til)\s*"
    r"(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)\b",
    re.I,
)
TIME_RE = re.compile(
    r"(?<![£\d.])\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|th|of|jan|feb|mar|"
    r"apr|may|jun|jul|aug|sep|oct|nov|dec|people|guests|days?|hours?|nights?)\b)|"
    r"\b(midnight|noon|midday)\b",
    re.I,
)
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
# a day said as the old one ("from the 9th", "not Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free of charge|no (?:fee|charge|extra))"
    r"|\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free of|no)",
    re.I,
)
SURNAME_RE = re.compile(r"\b(?:surname|last name|family name)\s*(?:is|'s|:)?\s+([A-Za-z][\w'-]+)",
                        re.I)  # fmt: skip
FULL_NAME_RE = re.compile(
    r"\b(?:[Mm]y name is|[Nn]ame'?s|I'?m|I am|[Tt]his is|[Ii]t'?s|[Ii]t is)\s+"
    r"(?:(?:Mrs?|Ms|Miss|Dr)\.?\s+)?([A-Z][a-z]+)(?:\s+([A-Z][\w'-]+))?"
)


def refs(text: str) -> list[str]:
    return [f"MB{m.group(1)}" for m in REF_RE.finditer(text)]


def invoices(text: str) -> list[str]:
    return [f"INV-{m.group(1)}" for m in INVOICE_RE.finditer(text)]


def licences(text: str) -> list[str]:
    return [f"TEN-{m.group(1)}" for m in LICENCE_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def charity_numbers(text: str) -> list[str]:
    """Six- or seven-digit numbers, once phone numbers and references are taken out."""
    rest = PHONE_RE.sub(" ", REF_RE.sub(" ", LICENCE_RE.sub(" ", INVOICE_RE.sub(" ", text))))
    return [m.group(1) for m in CHARITY_RE.finditer(rest)]


def guests(text: str, *, bare: bool = False) -> int | None:
    """The number of people said ("for 80 guests"); with bare, a number on its own too."""
    found = GUESTS_RE.findall(text)
    if found:
        return int(found[-1])
    if bare:
        rest = RANGE_RE.sub(" ", DATE_RE.sub(" ", text))
        plain = [m.group(1) for m in re.finditer(r"(?<![£\d.:])\b(\d{1,3})\b(?!\s*(?:am|pm|:))",
                                                 rest, re.I)]  # fmt: skip
        return int(plain[-1]) if plain else None
    return None


def room(text: str) -> str | None:
    if re.search(r"\bmeeting room|\bsmall(?:er)? (?:meeting )?room|\bmeeting\b.{0,10}\broom",
                 text, re.I):  # fmt: skip
        return "meeting"
    if re.search(r"\b(?:main|big|large|whole)?\s*hall\b", text, re.I):
        return "hall"
    return None


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day in the past months is next year's ("9 January" said in December)
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


def _hhmm(hour: int, minute: int, half: str) -> str | None:
    half = half.lower()
    if half == "pm" and hour < 12:
        hour += 12
    elif half == "am" and hour == 12:
        hour = 24
    if hour > 24 or minute > 59:
        return None
    return f"{hour:02d}:{minute:02d}"


def clock_times(text: str) -> list[str]:
    """Times of day said, in order, as HH:MM ("7pm", "19:00", "2-6pm", "midnight" is 24:00)."""
    found: list[tuple[int, str]] = []
    covered: list[tuple[int, int]] = []
    for m in RANGE_RE.finditer(text):
        h1, m1, half1, h2, m2, half2 = m.groups()
        second = _hhmm(int(h2), int(m2 or 0), half2)
        if second is None:
            continue
        first = _hhmm(int(h1), int(m1 or 0), half1 or half2)
        if not half1 and first and first > second:
            first = _hhmm(int(h1), int(m1 or 0), "am")
        if first:
            found += [(m.start(), first), (m.start(4), second)]
            covered.append((m.start(), m.end()))
    for m in TIME_RE.finditer(text):
        if any(a <= m.start() < b for a, b in covered):
            continue
        if m.group(4):
            found.append((m.start(), "24:00" if m.group(4).lower() == "midnight" else "12:00"))
            continue
        if not (m.group(2) or m.group(3)):
            continue
        value = _hhmm(int(m.group(1)), int(m.group(2) or 0), m.group(3) or "")
        if value:
            found.append((m.start(), value))
    return [v for _, v in sorted(found)]


STOP_WORDS = {
    "i", "mb", "inv", "ten", "hi", "hello", "please", "the", "my", "our", "can", "could", "add",
    "book", "cancel", "move", "change", "update", "send", "email", "dear", "thanks", "sorry",
    "hall", "main", "meeting", "room", "kitchen", "pa", "millbrook", "community", "christmas",
    "temporary", "event", "notice", "ok", "yes", "no", "surname", "name", "we", "it",
} | set(WEEKDAYS) | set(MONTH.strip("()").split("|"))  # fmt: skip


def name_candidates(text: str) -> list[str]:
    """Capitalised words not opening a sentence: how a surname is said in passing."""
    out = []
    for m in re.finditer(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z][\w'-]*)\b", text.strip()):
        if m.group(1).lower() not in STOP_WORDS:
            out.append(m.group(1))
    return out


def surname(text: str, *, asked: bool) -> str | None:
    """The hirer's surname, when said plainly; a short answer is one when it was asked for."""
    m = SURNAME_RE.search(text)
    if m and m.group(1).lower() not in {"is", "please"}:
        return m.group(1).strip("'")
    for m in FULL_NAME_RE.finditer(text):
        if m.group(2) and m.group(2).lower() not in STOP_WORDS:
            return m.group(2)
        if asked and m.group(1).lower() not in STOP_WORDS:
            return m.group(1)
    if asked:
        words = [
            w
            for w in re.findall(r"[A-Za-z][\w'-]*", text)
            if w.lower() not in STOP_WORDS | {"it's", "its", "is", "mrs", "mr", "ms", "dr"}
        ]
        if 1 <= len(words) <= 3:
            return words[-1]
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
        r"\b(?:yes|yeah|yep|yup|sure|please do|go ahead|go on|go for it|ok|okay|confirm|do it|"
        r"that'?s fine|correct|sounds good|fine|agreed|absolutely|of course|please|proceed|"
        r"book it|happy|perfect|great|lovely|that works|alright|all right|send it|that'?s right)\b",
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
    ("invoice", r"\binvoice\b|\breceipt\b"),
    ("discount", r"\bdiscount\b|\bcharity\b|\bcommunity (?:group )?rate\b"),
    ("contact", r"\b(?:change|update|new)\b.{0,40}\b(?:email|e-mail|phone|mobile|contact)\b|"
     r"\b(?:email address|phone number|contact details)\b.{0,30}\b(?:change|update|new|wrong)\b"),
    ("cancel", r"\bcancel"),
    ("claim", r"\bdeposit\b.{0,40}\b(?:back|return(?:ed)?|refund(?:ed)?)\b|\bclaim\b.{0,40}"
     r"\bdeposit|\b(?:get|want|have) (?:my|our|the) deposit\b"),
    ("alcohol", r"\balcohol|\bbar\b|\bdrinks?\b|\bwine\b|\bbeer\b|\bprosecco\b|\bTEN\b|"
     r"\btemporary event|\blicen[cs]e"),
    ("keys", r"\bkeys?\b"),
    ("addon", r"\bkitchen\b|\bPA\b|\bp\.a\.|\bsound system|\bspeakers?\b|\bmicrophones?\b|"
     r"\btables?\b|\bchairs?\b|\bclean(?:ing|ers?|-up)?\b"),
    ("move", r"\bmove\b|\bmoving\b|\breschedule|\bpostpone|\bbring (?:it )?forward|"
     r"\bput (?:it )?back|\bchange (?:the |my |our )?(?:date|day)|\bdifferent (?:date|day)"),
    ("book", r"\b(?:book|hire|reserve)\b(?!\s+club)"),
    ("available", r"\b(?:free|available|availability)\b"),
    ("lookup", r"\bhow much\b|\bwhat time\b|\bwhen (?:do|does|is|can)\b|\bhave (?:I|we) paid\b|"
     r"\bcheck (?:my|the) booking"),
]  # fmt: skip
BOOK_ROOM = re.compile(
    r"\b(?:book|hire|reserve)\s+(?:the\s+|a\s+|our\s+)?(?:main\s+|small\s+|big\s+)?(?:hall|"
    r"meeting room|room)\b|\b(?:need|want|like|after)\s+(?:the\s+)?(?:main\s+|small\s+)?(?:hall|"
    r"meeting room)\b",
    re.I,
)
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|we'?d (?:also )?like|i want|i need|we need|"
    r"change|update|move|cancel|book|add|send|email|set|let|what|how|i'?ll|we'?ll|record|claim|"
    r"apply)\b)",
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
        if BOOK_ROOM.search(clause):
            out.append(Request("book", clause))
            continue
        for intent, pattern in INTENTS:
            if re.search(pattern, clause, re.I):
                out.append(Request(intent, clause))
                break
    kinds = {r.intent for r in out}
    for quiet in ("available", "lookup"):
        # "only if it's free" and "what does it cost" belong to the change asked with them
        if quiet in kinds and kinds - {"available", "lookup"}:
            out = [r for r in out if r.intent != quiet]
    if "available" in kinds and "lookup" in kinds:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def plus_days(iso: str, days: int) -> str:
    return (date.fromisoformat(iso) + timedelta(days=days)).isoformat()

"""Reading customers' English: account, job and postcode, days, slots, pests, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

ACCOUNT_RE = re.compile(r"\bPC\s*-?\s*(\d{4})\b", re.I)
JOB_RE = re.compile(r"\bJB\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
CODE_RE = re.compile(r"\bcode\b\D{0,30}?\b(\d{4})\b|\b(\d{4})\b(?=\D{0,20}\bcode\b)", re.I)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
DAY_NAME = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?"
WEEKDAY = r"(?:" + DAY_NAME + r",?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b|"
    r"\b(" + DAY_NAME + r")\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b|"
    r"\b(today|tomorrow)\b",
    re.I,
)
# a day said as the one booked ("from the 15th", "not Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra|cost))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
PESTS = [
    ("bedbugs", r"\bbed ?-?bugs?\b"),
    ("cockroaches", r"\b(?:cock)?roach(?:es)?\b"),
    ("mice", r"\bmice\b|\bmouse\b"),
    ("rats", r"\brats?\b"),
    ("wasps", r"\bwasps?\b|\bhornets?\b"),
    ("ants", r"\bants?\b"),
    ("fleas", r"\bfleas?\b"),
]
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
BEDROOMS_RE = re.compile(
    r"\b(\d|one|two|three|four|five|six|seven)[\s-]*bed(?:room)?s?\b|"
    r"\bbedrooms?\W{0,3}(\d|one|two|three|four|five|six|seven)\b|"
    r"^\W*(\d|one|two|three|four|five|six|seven)\W*$",
    re.I,
)
DONT_HAVE = re.compile(
    r"\bdon'?t (?:have|know)\b|\bdo not (?:have|know)\b|\bno idea\b|\bnot (?:the|my) account\b|"
    r"\baccount (?:holder|is)\b.{0,40}\b(?:landlord|agent)\b|\b(?:i'?m|i am) (?:the |a )?tenant\b"
    r"|\bmy landlord\b|\bletting agent\b|\bonly (?:have|got)\b|\bhave(?:n'?t| not) got\b",
    re.I,
)


def accounts(text: str) -> list[str]:
    return [f"PC{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def jobs(text: str) -> list[str]:
    return [f"JB{m.group(1)}" for m in JOB_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in POSTCODE_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def key_codes(text: str, *, bare: bool = False) -> list[str]:
    """Four-digit codes said next to the word 'code' (any four digits alone when bare)."""
    found = [m.group(1) or m.group(2) for m in CODE_RE.finditer(text)]
    if not found and bare:
        found = re.findall(r"(?<![\d\s])\b(\d{4})\b(?!\s?\d)", text)
    return found


def pests(text: str) -> list[str]:
    hits = [(m.start(), name) for name, pattern in PESTS for m in re.finditer(pattern, text, re.I)]
    return [name for _, name in sorted(hits)]


def bedrooms(text: str) -> int | None:
    m = BEDROOMS_RE.search(text.strip())
    if m is None:
        return None
    word = next(g for g in m.groups() if g).lower()
    return int(word) if word.isdigit() else NUMBERS[word]


SLOT_AM = re.compile(r"\bmorning\b|\bbefore (?:noon|lunch|12)\b|\d\s?a\.?m\b|\b(?:the|an) am\b",
                     re.I)  # fmt: skip
SLOT_PM = re.compile(r"\bafternoon\b|\bafter (?:noon|lunch|12)\b|\d\s?p\.?m\b|\b(?:the|a) pm\b",
                     re.I)  # fmt: skip


def slot(text: str) -> str | None:
    """The last slot said: AM (morning) or PM (afternoon); "I am" is not a slot."""
    hits = [(m.start(), "AM") for m in SLOT_AM.finditer(text)]
    hits += [(m.start(), "AM") for m in re.finditer(r"\bAM\b", text)]
    hits += [(m.start(), "PM") for m in SLOT_PM.finditer(text)]
    hits += [(m.start(), "PM") for m in re.finditer(r"\bPM\b", text)]
    return max(hits)[1] if hits else None


def _on_weekday(today: date, name: str, day: int) -> date | None:
    """'Friday the 18th': the next day numbered `day` that falls on that weekday."""
    want = next(i for i, w in enumerate(WEEKDAYS) if w.startswith(name.lower()[:3]))
    d = today
    for _ in range(400):
        if d.day == day and d.weekday() == want:
            return d
        d += timedelta(days=1)
    return None


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[9]:
            return today + timedelta(days=0 if g[9].lower() == "today" else 1)
        if g[7]:
            return _on_weekday(today, g[7], int(g[8]))
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


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; unless all_said, those said as the booked one are dropped."""
    found = list(DATE_RE.finditer(text))
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
        found = kept or found
    return [d for d in (_date(m, today) for m in found) if d is not None]


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead|move|cancel)|forget it)\b",
        low,
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
INSPECT = r"\binspect|\bsurvey\b|\b(?:take|have) a look\b|\bcome (?:and|to) (?:look|see)\b"
INTENTS: list[tuple[str, str]] = [
    ("contact", r"\b(?:phone|mobile|contact) (?:number|no)\b|\bkey ?safe\b|"
     r"\b(?:access|door|gate|key) code\b|\bcode\b.{0,30}\d{4}"),
    ("cancel", r"\bcancel"),
    ("revisit", r"\brevisit|\bcome back\b|\bcome (?:out|round) again\b|\bwarranty\b|"
     r"\bguarantee\b|\b(?:are|is|they'?re|it'?s) back\b|\bsend (?:someone|a technician) back\b|"
     r"\b(?:have|has) (?:returned|come back|reappeared)\b|\bback again\b"),
    ("move", r"\b(?:move|reschedule|rebook|rearrange|push back|bring forward|put back)\b|"
     r"\bchange the (?:date|day)\b|\bdifferent day\b"),
    ("book", r"\bbook\b|\barrange\b|\bappointment for\b"),
    ("quote", r"\bhow much\b|\bwhat (?:do|would|does|will) (?:you|it) (?:charge|cost)\b|"
     r"\b(?:price|cost) (?:of|for)\b|\bquote\b|\bwhat(?:'s| is) the (?:price|cost)\b"),
    ("lookup", r"\bwhen(?:'s| is| does| will| do| are)\b|\bwhat time\b|\bhow long\b|"
     r"\bcheck (?:my|the|our) (?:visit|booking|appointment)\b"),
    ("book", r"\btreat|\bget rid\b|\bdeal with\b|\b(?:come|someone|technician) out\b|"
     + INSPECT),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|set|let|what|how)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the clauses it was said in."""

    intent: str
    text: str


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits).

    A clause that asks for nothing ("We've found bedbugs.") goes with the next request, or
    the last one when none follows.
    """
    out: list[Request] = []
    loose: list[str] = []
    for clause in SPLIT.split(message):
        intent = next((i for i, pattern in INTENTS if re.search(pattern, clause, re.I)), None)
        if intent is None:
            loose.append(clause)
            continue
        out.append(Request(intent, " ".join([*loose, clause])))
        loose = []
    if loose and out:
        out[-1] = Request(out[-1].intent, " ".join([out[-1].text, *loose]))
    if not out and pests(message):
        # "We've got mice in the kitchen, can you help?" asks for a treatment
        out = [Request("book", message)]
    kinds = {r.intent for r in out}
    if kinds & {"move", "cancel", "revisit", "contact"}:
        # "my booking" names the visit being changed, not a new one
        out = [r for r in out if r.intent != "book"]
    if len(kinds - {"lookup", "quote"}) > 0:
        out = [r for r in out if r.intent not in {"lookup", "quote"}]
    merged: list[Request] = []
    for r in out:
        if merged and merged[-1].intent == r.intent:
            merged[-1] = Request(r.intent, merged[-1].text + " " + r.text)
        else:
            merged.append(r)
    return merged


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

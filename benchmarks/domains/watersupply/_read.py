"""Reading customers' English: accounts, postcodes, readings, days, months, needs, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

ACCOUNT_RE = re.compile(r"\bBW\s*-?\s*(\d{4})\b", re.I)
BILL_RE = re.compile(r"\bBL\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d{1,2}[A-Z]?)\s*(\d[A-Z]{2})\b", re.I)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b|\b(today|yesterday)\b",
    re.I,
)
# a day of the month said alone: "the 15th", "on the 1st of each month"
ORDINAL_RE = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?" + MONTH + r"\b)", re.I)
LAST_DAY_RE = re.compile(r"\b(?:last (?:working )?day|end) of (?:the|each|every) month\b", re.I)
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bat the moment|\bwas|\bis on|\bnow)"
    r"\s*(?:the\s+|on\s+the\s+|on\s+)?$",
    re.I,
)
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "eighteen": 18,
                "twenty-four": 24, "twenty four": 24}  # fmt: skip
MONTHS_RE = re.compile(
    r"\b(\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+(?:monthly\s+)?(?:months?|instal?ments|"
    r"payments)\b|\b(a|one) year\b|\b(two|2) years\b",
    re.I,
)
LONGEST_RE = re.compile(r"\b(?:as long as|longest|most months|the maximum|as many months)\b", re.I)
DONT_KNOW = re.compile(
    r"\b(?:don'?t know|do not know|not sure|no idea|can'?t remember|haven'?t got|"
    r"don'?t have)\b",
    re.I,
)
NEED_WORDS = (
    ("dialysis", r"\bdialysis\b|\bkidney"),
    ("mobility", r"\bwheelchair|\bmobility\b|\bwalking (?:frame|stick)|\bcan'?t (?:walk|get out|"
     r"carry)|\bhousebound\b|\bzimmer"),
    ("sight", r"\bblind\b|\bsight\b|\bsighted\b|\bbraille\b|\blarge print\b|\bvisual|\bvision"),
    ("hearing", r"\bdeaf\b|\bhearing\b|\bhard of hearing\b|\btext relay\b"),
)  # fmt: skip
SUPPLY_PIPE = re.compile(
    r"\bsupply pipe\b|\bunderground\b|\bunder (?:the|my|our) (?:drive|lawn|garden|path|"
    r"pavement|front)|\bin the (?:front |back )?garden\b|\boutside\b|\bmains? pipe\b|"
    r"\bpipe (?:to|into) the house\b",
    re.I,
)
INTERNAL = re.compile(
    r"\btoilet\b|\bcistern\b|\btaps?\b|\bboiler\b|\bwashing machine\b|\binside\b|\bradiator\b|"
    r"\bshower\b|\bkitchen\b|\bbathroom\b|\bloft\b|\btank in\b|\bunder the sink\b",
    re.I,
)
NOT_REPAIRED = re.compile(r"\bnot (?:been )?(?:repaired|fixed) yet\b|\bstill leaking\b", re.I)


def accounts(text: str) -> list[str]:
    return [f"BW{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def bills(text: str) -> list[str]:
    return [f"BL{m.group(1)}" for m in BILL_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in POSTCODE_RE.finditer(text)]


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[7]:
            return today if g[7].lower() == "today" else today - timedelta(days=1)
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day in the months long past is next year's ("4 January" said in December)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date) -> list[date]:
    """Days said, in order."""
    return [d for d in (_date(m, today) for m in DATE_RE.finditer(text)) if d is not None]


ADDRESS_RE = re.compile(
    r"\b\d+[a-z]?\s+(?:[A-Z][a-z]+\s+){1,2}(?:Road|Street|Lane|Way|Court|Close|Avenue|Drive|"
    r"Place|Row|Grove|Mews|Hill|Side|Walk)\b"
)
AMOUNT_RE = re.compile(r"£\s?[\d,.]+|\b\d+\s*(?:m3|m³|cubic)", re.I)


def _scrub(text: str) -> str:
    """The text without what holds digits but is not a meter reading."""
    for pattern in (DATE_RE, ACCOUNT_RE, BILL_RE, POSTCODE_RE, ORDINAL_RE, MONTHS_RE, AMOUNT_RE,
                    ADDRESS_RE):  # fmt: skip
        text = pattern.sub(" ", text)
    return text


def meter_numbers(text: str, *, after: str = "reading") -> list[int]:
    """Meter readings said after the word `after` (or anywhere when it is not said)."""
    clean = _scrub(text)
    at = re.search(rf"\b{after}", clean, re.I)
    if at is not None:
        clean = clean[at.end() :]
    return [int(n) for n in re.findall(r"(?<![\d.])\d{1,6}(?![\d.]\d)", clean)]


def pay_days(text: str) -> list[int]:
    """Days of the month said for a payment ("the 20th"), not those said as the old one."""
    out = []
    for m in ORDINAL_RE.finditer(text):
        if OLD_MARK.search(text[max(0, m.start() - 24) : m.start()]):
            continue
        out.append(int(m.group(1)))
    return out


def bare_number(text: str | None) -> int | None:
    """A short answer that is one number ("15", "six", "the 15th please"), or None."""
    if not text:
        return None
    words = re.findall(r"\d+|[a-z]+(?:-[a-z]+)?", text.lower())
    numbers = [int(w) for w in words if w.isdigit()] or [NUMBER_WORDS[w] for w in words
                                                         if w in NUMBER_WORDS]  # fmt: skip
    return numbers[0] if len(numbers) == 1 and len(words) <= 6 else None


def day_said_alone(text: str | None, today: date) -> date | None:
    """A day said without its month ("the 10th"): the latest such day not after today."""
    n = bare_number(text)
    if n is None or not 1 <= n <= 31:
        return None
    month = today.replace(day=1)
    for _ in range(2):
        try:
            day = month.replace(day=n)
        except ValueError:
            day = None
        if day is not None and day <= today:
            return day
        month = (month - timedelta(days=1)).replace(day=1)
    return None


def wants_last_day(text: str) -> bool:
    return bool(LAST_DAY_RE.search(text))


def plan_months(text: str) -> int | None:
    """The number of monthly instalments asked for, or None."""
    found = None
    for m in MONTHS_RE.finditer(text):
        if m.group(1):
            word = m.group(1).lower()
            found = int(word) if word.isdigit() else NUMBER_WORDS[word]
        elif m.group(2):
            found = 12
        else:
            found = 24
    return found


def needs(text: str) -> list[str]:
    return [need for need, pattern in NEED_WORDS if re.search(pattern, text, re.I)]


def leak_place(text: str) -> str | None:
    """'supply_pipe' (outside, underground), 'internal' (inside the home) or None."""
    inside, outside = INTERNAL.search(text), SUPPLY_PIPE.search(text)
    if inside and not outside:
        return "internal"
    if outside:
        return "supply_pipe"
    return None


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|set|go ahead)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|happy|perfect|great|"
        r"lovely|that works|alright|all right|set it up|register me|apply it)\b",
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
    ("leak", r"\bleak|\bburst\b|\bhigh bill\b"),
    ("priority", r"\bpriority\b|\bextra help\b|\bdialysis\b|\bbraille\b|\blarge print\b|"
     r"\bregistered blind\b"),
    ("move_out", r"\bmov(?:ed|ing) out\b|\bclose (?:my|the) account\b|\bfinal (?:reading|bill)\b|"
     r"\bstop (?:my|the) (?:account|supply|billing)\b|\bleft (?:the|my|our) "
     r"(?:house|flat|home|property)\b"),
    ("move_in", r"\bmov(?:ed|ing) in(?:to)?\b|\bset me up\b|\bnew (?:home|house|flat|property|"
     r"address)\b|\btake (?:on|over) the (?:water|supply)\b|\bwater (?:set up|on) at\b|"
     r"\bset up my water\b"),
    ("plan", r"\bpayment plan\b|\bspread\b|\binstal?ments?\b|\bpay (?:it|this|that|the "
     r"balance|my balance)? ?off\b|\bover \w+ months\b"),
    ("payday", r"\b(?:payment|direct debit|dd) (?:date|day)\b|\b(?:change|move|switch)\b.{0,30}"
     r"\bdirect debit\b|\btake (?:my|the) (?:direct debit|payment)\b|\bdirect debit\b.{0,30}"
     r"\b(?:come out|be taken|go out|taken)\b.{0,12}\bon the\b"),
    ("reading", r"\bmeter reading\b|\breading\b|\bmeter\b"),
    ("balance", r"\bowe\b|\bowing\b|\bbalance\b|\bnext (?:direct debit|payment)\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|set|"
    r"close|register|add|put|take|spread|here'?s|what|how|when)\b)",
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
    before: list[str] = []
    for clause in SPLIT.split(message):
        intent = next((i for i, pattern in INTENTS if re.search(pattern, clause, re.I)), None)
        if intent is not None:
            out.append(Request(intent, " ".join([*before, clause])))
            before = []
        elif out:
            # a sentence with no request of its own ("It was fixed on 5 December.") belongs
            # to the request before it
            out[-1] = Request(out[-1].intent, f"{out[-1].text} {clause}")
        else:
            before.append(clause)
    kinds = {r.intent for r in out}
    if len(kinds - {"balance"}) > 0:
        # "my £540 balance" names what a plan pays off; a question next to a change is the
        # change's own
        out = [r for r in out if r.intent != "balance"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

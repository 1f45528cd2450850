"""Reading customers' English: order numbers, postcodes, days, windows, items, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

ORDER_RE = re.compile(r"\bBP\s*-?\s*(\d{4})\b", re.I)
BREAKAGE_RE = re.compile(r"\bBR\s*-?\s*(\d{3})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
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
# a day said as the old one ("from the 16th", "not Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:\w+ )?(?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:\w+ )?(?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,40}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
AM_RE = re.compile(r"\bmorning\b|\bbefore (?:noon|midday|lunch)\b|(?-i:\bAM\b)|\ba\.m\.", re.I)
PM_RE = re.compile(r"\bafternoon\b|\bafter (?:noon|midday|lunch)\b|(?-i:\bPM\b)|\bp\.m\.", re.I)
WINDOW_OLD = re.compile(r"(?:instead of|rather than|\bnot|\bfrom|\bcurrently)\s+(?:in\s+)?"
                        r"(?:the\s+)?$", re.I)  # fmt: skip
COLLECT_RE = re.compile(r"\bcollect\w*|\bpick(?:ing|ed)?[ -]?up\b|\bpick\w* (?:it|them|\w+) up\b",
                        re.I)  # fmt: skip
DELIVER_RE = re.compile(r"\bdeliver\w*|\bdrop\w*[ -]off\b|\barriv\w*", re.I)

# items, the longer names first; a name is read once
ITEM_PATTERNS = [
    ("MQ-L", r"(?:large|big|bigger|6\s?m?\s?x\s?9\s?m?)\s+marquees?"),
    ("MQ-S", r"(?:(?:small|little|3\s?m?\s?x\s?6\s?m?)\s+)?marquees?"),
    ("TB-R", r"round\s+tables?"),
    ("TB-T", r"(?:trestle\s+)?tables?"),
    ("CH-C", r"chiavari\s+chairs?"),
    ("CH-F", r"(?:folding\s+)?chairs?"),
    ("HT-P", r"(?:patio\s+)?heaters?"),
    ("CR-10", r"crockery(?:\s+(?:sets?|packs?))?"),
]
ITEM_RE = re.compile(
    r"\b(?:" + "|".join(f"(?P<{i.replace('-', '_')}>{p})" for i, p in ITEM_PATTERNS) + r")\b",
    re.I,
)
NUMBERS = {
    "a": 1, "an": 1, "one": 1, "another": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "dozen": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "couple": 2,
}  # fmt: skip
QTY_RE = re.compile(
    r"\b(\d{1,3}|" + "|".join(NUMBERS) + r")\s+(?:of\s+)?(?:more\s+|extra\s+|additional\s+|"
    r"of\s+(?:the|your|my)\s+|x\s+|white\s+|wooden\s+|gas\s+)?$",
    re.I,
)
REMOVE_RE = re.compile(
    r"\bremove\b|\btake\b.{0,50}\boff\b|\bdon'?t need\b|\bno longer need\b|\bwon'?t need\b|"
    r"\bdrop\b|\bget rid\b|\bwithout\b",
    re.I,
)
SET_RE = re.compile(
    r"\bmake it\b|\bmake that\b|\bchange\b.{0,30}\bto\b|\breduce\b|\bonly need\b|\bin total\b|"
    r"\baltogether\b|\bup to\b|\bdown to\b",
    re.I,
)


def orders(text: str) -> list[str]:
    return [f"BP{m.group(1)}" for m in ORDER_RE.finditer(text)]


def breakages(text: str) -> list[str]:
    return [f"BR-{m.group(1)}" for m in BREAKAGE_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1)} {m.group(2)}".upper() for m in POSTCODE_RE.finditer(text)]


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
        # a yearless day in the past months is next year's ("4 January" said in December)
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


def windows(text: str) -> dict[str, str]:
    """The windows said, by leg: {'delivery': 'AM', 'collection': 'PM'}; a bare one is delivery's.

    Each window word goes with the nearest delivery or collection word before it in its clause.
    """
    out: dict[str, str] = {}
    for clause in re.split(r"[.;!?]|,\s*(?:and|but)\b|\band\b", text):
        for regex, window in ((AM_RE, "AM"), (PM_RE, "PM")):
            for m in regex.finditer(clause):
                if WINDOW_OLD.search(clause[max(0, m.start() - 24) : m.start()]):
                    continue  # "instead of the afternoon" names the window to leave
                legs = [(lm.start(), "collection") for lm in COLLECT_RE.finditer(clause)]
                legs += [(lm.start(), "delivery") for lm in DELIVER_RE.finditer(clause)]
                leg = min(legs, key=lambda x: abs(x[0] - m.start()))[1] if legs else "delivery"
                out[leg] = window
    return out


def leg_named(text: str) -> str | None:
    """'collection' or 'delivery' when the text names one and not the other."""
    collect, deliver = bool(COLLECT_RE.search(text)), bool(DELIVER_RE.search(text))
    if collect != deliver:
        return "collection" if collect else "delivery"
    return None


def items(text: str) -> list[tuple[str, int | None]]:
    """Items named, in order, with the quantity said just before each (None if none)."""
    out: list[tuple[str, int | None]] = []
    for m in ITEM_RE.finditer(text):
        item_id = next(k for k, v in m.groupdict().items() if v).replace("_", "-")
        q = QTY_RE.search(text[max(0, m.start() - 30) : m.start()])
        qty = None
        if q:
            word = q.group(1).lower()
            qty = int(word) if word.isdigit() else NUMBERS[word]
        out.append((item_id, qty))
    return out


def change_op(text: str) -> str:
    """How an items change is meant: 'remove', 'set' (a new total) or 'add'."""
    if REMOVE_RE.search(text):
        return "remove"
    if SET_RE.search(text):
        return "set"
    return "add"


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead|change)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|book it|happy|perfect|"
        r"great|lovely|that works|alright|all right|log it|cancel it)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- requests --------------------------------------------------------------------------------
CHANGE_WORDS = (r"\b(?:change|move|switch|swap|make|rather|instead|prefer|earlier|later|can you|"
                r"could you|can we|could we|set)\b")  # fmt: skip
INTENTS: list[tuple[str, str]] = [
    ("dispute", r"\bdisput|\bbreakages?\b|\bbroken\b|\bdamage charge|\bcharged\b.{0,40}\b"
     r"(?:glass|glasses|chair|plate|table|breaking)\b"),
    ("contact", r"\b(?:phone|mobile|email|e-mail)\b|\bcontact details\b"),
    ("cancel", r"\bcancel"),
    ("book", r"(?<!my )(?<!the )(?<!our )(?<!this )\b(?:book|hire|rent)\b|\bnew (?:order|hire)\b"),
    ("window", r"\b(?:slot|window)\b"),  # or a window said (AM_RE, PM_RE): see _intent
    ("dates", r"\bmove\b|\bchange\b.{0,20}\bdates?\b|\bdifferent (?:day|dates?)\b|\b(?:a|one|"
     r"two) days? (?:later|earlier)\b|\bpush\b.{0,20}\bback\b|\bput\b.{0,20}\bback\b|\bbring\b"
     r".{0,20}\bforward\b|\breschedul|\bextend|\blonger\b|\bnew dates?\b"),
    ("items", r"\badd\b|\bremove\b|\btake\b.{0,50}\boff\b|\b(?:more|extra|additional|fewer|"
     r"less)\b|\bdon'?t need\b|\bno longer need\b|\bwon'?t need\b|\bdrop\b|\breduce\b|"
     r"\bmake it\b|\bonly need\b"),
    ("lookup", r"\bwhat\b|\bwhen\b|\bhow much\b|\bwhich\b|\bcheck\b|\btell me\b|\bwhat'?s\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|set|let|what|how|when|take|remove|dispute|switch)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the clause it was said in."""

    intent: str
    text: str


def _intent(clause: str) -> str | None:
    for intent, pattern in INTENTS:
        said = re.search(pattern, clause, re.I)
        if intent == "window":
            said = said or AM_RE.search(clause) or PM_RE.search(clause)
        if not said:
            continue
        if intent == "window" and not re.search(CHANGE_WORDS, clause, re.I):
            continue  # "delivered in the morning" is no request to change a window
        if intent == "items" and not ITEM_RE.search(clause):
            continue
        return intent
    return None


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits)."""
    out: list[Request] = []
    for clause in SPLIT.split(message):
        intent = _intent(clause)
        if intent:
            out.append(Request(intent, clause))
    kinds = {r.intent for r in out}
    if "book" in kinds:
        # a new hire's items, days and windows may be said in clauses of their own
        merged = " ".join(r.text for r in out if r.intent in {"book", "window", "dates", "items"})
        first = next(i for i, r in enumerate(out) if r.intent == "book")
        rest = [r for r in out if r.intent not in {"book", "window", "dates", "items", "lookup"}]
        out = [*rest[:first], Request("book", merged), *rest[first:]]
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

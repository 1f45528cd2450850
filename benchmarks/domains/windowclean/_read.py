"""Reading customers' English: accounts, postcodes, days, frequencies, codes, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

ACCOUNT_RE = re.compile(r"\bKW\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
CODE_RE = re.compile(r"(?<![\d£.:/-])\b(\d{4,6})\b(?![\d:/.-]\d)")
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
# a bare weekday ("on Friday", "next Thursday") or "tomorrow": the next one after today
BARE_DAY_RE = re.compile(
    r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)\b", re.I
)
# a day said as the old one ("from the 15th", "instead of Tuesday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for)|\bmy (?:clean|visit)(?: on)?|\bthe (?:clean|visit)(?: on)?)\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip


def accounts(text: str) -> list[str]:
    return [f"KW{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1)} {m.group(2)}".upper() for m in POSTCODE_RE.finditer(text)]


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


def _bare(word: str, today: date) -> date:
    if word.lower() == "tomorrow":
        return today + timedelta(days=1)
    ahead = (WEEKDAYS.index(word.lower()) - today.weekday()) % 7 or 7
    return today + timedelta(days=ahead)


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; unless all_said, those said as the old one are dropped."""
    found: list[tuple[int, date | None]] = []
    spans = []
    for m in DATE_RE.finditer(text):
        spans.append(m.span())
        if all_said or not OLD_MARK.search(text[max(0, m.start() - 30) : m.start()]):
            found.append((m.start(), _date(m, today)))
    for m in BARE_DAY_RE.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        if all_said or not OLD_MARK.search(text[max(0, m.start() - 30) : m.start()]):
            found.append((m.start(), _bare(m.group(1), today)))
    if not found and not all_said:
        return dates(text, today, all_said=True)
    return [d for _, d in sorted(found, key=lambda f: f[0]) if d is not None]


def month_said(text: str) -> int | None:
    """A month said without a day ("my clean in January"), or None."""
    m = re.search(r"\b(?:in|for|during|of)\s+" + MONTH + r"\b(?!\s+\d)", text, re.I)
    return MONTHS[m.group(1).lower()[:3]] if m else None


def weeks_said(text: str) -> int | None:
    """A length in weeks ("for 8 weeks", "for two months" is 8 weeks), or None."""
    m = re.search(r"\bfor (?:the next )?(\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+"
                  r"(weeks?|months?)\b", text, re.I)  # fmt: skip
    if not m:
        return None
    n = int(m.group(1)) if m.group(1).isdigit() else NUMBER_WORDS[m.group(1).lower()]
    return n * 4 if m.group(2).lower().startswith("month") else n


def frequency(text: str) -> int | None:
    """Every 4, 6 or 8 weeks, as said ('six-weekly', 'monthly'); the new one when two are said."""
    pattern = re.compile(
        r"\bevery\s+(4|6|8|four|six|eight)(?:\s+weeks?)?\b|\b(4|6|8|four|six|eight)[- ]?weekly\b|"
        r"\b(monthly|every month|once a month)\b|\bevery (two|2) months\b",
        re.I,
    )
    found = None
    for m in pattern.finditer(text):
        if OLD_MARK.search(text[max(0, m.start() - 30) : m.start()]):
            continue
        word = (m.group(1) or m.group(2) or "").lower()
        if m.group(3):
            found = 4
        elif m.group(4):
            found = 8
        else:
            found = int(word) if word.isdigit() else NUMBER_WORDS[word]
    return found if found in (4, 6, 8) else None


JOB_WORDS = (
    ("gutter_clear", r"\bgutters? (?:clear|clean(?:ed|ing)? out|emptied)|\bclear(?:ed|ing)? "
     r"(?:out )?(?:the |my )?gutters|\bgutter clear"),
    ("conservatory_roof", r"\bconservatory roof"),
    ("solar_panels", r"\bsolar"),
)  # fmt: skip


def job_kind(text: str) -> str | None:
    return next((k for k, p in JOB_WORDS if re.search(p, text, re.I)), None)


def extras(text: str) -> list[str]:
    """Extras at every visit said with a round: the conservatory, gutter fronts and fascias."""
    rest = re.sub("|".join(p for _, p in JOB_WORDS), " ", text, flags=re.I)
    out = []
    if re.search(r"\bconservatory\b", rest, re.I):
        out.append("conservatory")
    if re.search(r"\bgutters?\b|\bfascias?\b", rest, re.I):
        out.append("gutters")
    return out


def codes(text: str) -> list[str]:
    """Access codes said (4 to 6 digits, not a year or an account number)."""
    no_accounts = ACCOUNT_RE.sub(" ", text)
    return [m.group(1) for m in CODE_RE.finditer(no_accounts)
            if not re.fullmatch(r"20[2-3]\d", m.group(1))]  # fmt: skip


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
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|happy|perfect|great|"
        r"lovely|that works|alright|all right|set it up|take it)\b",
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
    ("access", r"\b(?:gate|access|key ?safe|door|lock) ?code\b|\bcode (?:for|to|on) (?:the|my) "
     r"(?:gate|side|back|key)"),
    ("dispute", r"\bdispute|\bquery (?:a |the |my )?(?:charge|bill)|\b(?:didn'?t|did not|never) "
     r"(?:come|turn up|show|clean)|\b(?:nobody|no one|no-one) (?:came|turned up|showed)|"
     r"\bshouldn'?t (?:have been|be) charged|\bwrongly charged|\bcharged for a clean"),
    ("job", "|".join(p for _, p in JOB_WORDS)),
    ("pause", r"\bpause|\bsuspend|\bput (?:it|the round|my round|the service|.{0,20}) on hold|"
     r"\bscaffold"),
    ("skip", r"\bskip|\bmiss (?:out )?(?:the|my|a|next)|\bcancel (?:the |my |this |next )*"
     r"(?:clean|visit)\b|\bdon'?t (?:need you to )?come\b"),
    ("move", r"\b(?:move|reschedule|rearrange)\b|\bchange (?:the )?(?:day|date)|\bcome (?:on|a "
     r"day|later|earlier)\b|\bdifferent day"),
    ("cancel", r"\bcancel|\bstop (?:the|my|our) (?:round|service|window|clean)|\bend (?:my|the|"
     r"our) (?:round|service)|\bgive (?:you )?notice|\bno longer (?:need|want)"),
    ("pay", r"\bpay (?!the (?:late[- ]skip )?fee\b|a fee\b|any fee\b|extra\b)(?:what|my|the|off|"
     r"it|for|now|that|everything|all|£)|\bpay\b\W*$|\bsettle|"
     r"\bmake a payment|\bclear (?:my|the) (?:balance|bill)"),
    ("round", r"\bsign (?:me |us )?up|\bstart (?:a |the |my )?(?:round|service|regular|window)|"
     r"\bjoin (?:the|your) round|\bregular (?:clean|window)|\bevery\s+(?:4|6|8|four|six|eight)"
     r"\b|\b(?:4|6|8|four|six|eight)[- ]?weekly|\bfrequency|\bmonthly|\bless often|"
     r"\bmore often|\bhow often"),
    ("lookup", r"\bhow much\b|\bwhat do i owe|\bbalance\b|\bwhen(?:'s| is| are| will| do)\b|"
     r"\bwhat day\b|\bnext (?:clean|visit)\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"skip|pause|add|pay|book|dispute|set|let|what|when|how|tell)\b)",
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
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

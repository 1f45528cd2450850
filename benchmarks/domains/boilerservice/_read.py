"""Reading customers' English: numbers, postcodes, days, windows, phones, answers, requests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

CUSTOMER_RE = re.compile(r"\bHW\s*-?\s*(\d{5})\b", re.I)
JOB_RE = re.compile(r"\bJOB\s*-?\s*(\d{4})\b", re.I)
QUOTE_RE = re.compile(r"\bPQ\s*-?\s*(\d{3})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d{1,2}[A-Z]?)\s*(\d[A-Z]{2})\b", re.I)
PHONE_RE = re.compile(r"(?<![\d-])0(?:[ -]?\d){10}(?!\d)")
MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
DAY_NAME = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?"
LEAD = r"(?:" + DAY_NAME + r",?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + LEAD + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b|"
    r"\b" + LEAD + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b",
    re.I,
)
RELATIVE_RE = re.compile(r"\b(today|tomorrow|tonight|this morning|this afternoon)\b|"
                         r"\b(?:on|this|next|for|by)\s+(" + DAY_NAME + r")\b", re.I)  # fmt: skip
WINDOW_RE = re.compile(
    r"\b(morning|before (?:noon|lunch|midday)|first thing)\b|(?<=\d)\s*(a\.?m)\b|"
    r"\b(afternoon|after (?:noon|lunch|midday))\b|(?<=\d)\s*(p\.?m)\b|"
    r"\b(any ?time|either|whichever|don'?t mind)\b",
    re.I,
)


def customers(text: str) -> list[str]:
    return [f"HW{m.group(1)}" for m in CUSTOMER_RE.finditer(text)]


def jobs(text: str) -> list[str]:
    return [f"JOB-{m.group(1)}" for m in JOB_RE.finditer(text)]


def quotes(text: str) -> list[str]:
    return [f"PQ-{m.group(1)}" for m in QUOTE_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in POSTCODE_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """UK phone numbers, written 'NNNNN NNNNNN' however they were spaced."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def _full_date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS.index(g[1].lower()[:3]) + 1
        elif g[2]:
            day, month = int(g[3]), MONTHS.index(g[2].lower()[:3]) + 1
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a day in a month well behind this one is next year's ("12 January" said in December)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except ValueError:
        return None


def _relative(m: re.Match[str], today: date) -> date:
    word = (m.group(1) or "").lower()
    if word == "tomorrow":
        return today + timedelta(days=1)
    if word:
        return today
    wanted = next(i for i, d in enumerate(WEEKDAYS) if d.startswith(m.group(2).lower()[:3]))
    ahead = (wanted - today.weekday()) % 7 or 7
    return today + timedelta(days=ahead)


def dates(text: str, today: date) -> list[date]:
    """The days said, in the order said: full dates, then today/tomorrow and bare weekdays."""
    found: list[tuple[int, date]] = []
    spans: list[tuple[int, int]] = []
    for m in DATE_RE.finditer(text):
        spans.append(m.span())
        d = _full_date(m, today)
        if d is not None:
            found.append((m.start(), d))
    for m in RELATIVE_RE.finditer(text):
        if not any(a <= m.start() < b or a < m.end() <= b for a, b in spans):
            found.append((m.start(), _relative(m, today)))
    return [d for _, d in sorted(found)]


def window(text: str) -> str | None:
    """The last visit window said: 'am', 'pm', 'any' or None."""
    said = None
    for m in WINDOW_RE.finditer(text):
        said = "am" if m.group(1) or m.group(2) else "pm" if m.group(3) or m.group(4) else "any"
    return said


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not decided yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|give me a (?:sec|"
                 r"minute|moment)|one moment|hmm)\b", low):  # fmt: skip
        return "hedge"
    low = re.sub(r"^no (?:problem|worries)\b", "", low)
    if re.match(r"(?:no\b|nope|nah|don'?t\b|do not\b|not now|not yet)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead|order)|forget it|"
        r"never mind|no thanks)\b",
        low,
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|yup|sure|please do|go ahead|go for it|ok|okay|confirm(?:ed)?|do it|"
        r"that'?s fine|that'?s right|correct|sounds good|fine|agreed|absolutely|of course|"
        r"please|proceed|book it|order it|happy|perfect|great|lovely|that works|alright|"
        r"all right|spot on)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|that'?s everything|"
                          r"nothing else)\b", text, re.I))  # fmt: skip


# -- requests --------------------------------------------------------------------------------
BREAKDOWN = (r"\bcall[- ]?outs?\b|\bnot working\b|\bstopped working\b|\bbroken\b|\bbroke down\b|"
             r"\bbreak ?down\b|\bleak|\bno (?:heating|hot water)\b|\bcutting out\b|\bpressure\b|"
             r"\bbanging\b|\bfault|\brepair\b|\bwon'?t (?:fire|start|come on|light)\b")  # fmt: skip
GAS_SAFETY = (r"\bgas safety\b|\bcp12\b|\bsafety (?:check|certificate|cert)\b|"
              r"\blandlord'?s? (?:gas )?(?:check|certificate|cert)\b")  # fmt: skip
INTENTS: list[tuple[str, str]] = [
    ("tenant", r"\btenant'?s?\b.{0,60}\b(?:number|phone|mobile|contact)|\b(?:number|phone|"
     r"mobile)\b.{0,40}\btenant"),
    ("part", r"\bPQ\s*-?\s*\d|\bquot(?:e|ed|ation)\b|\b(?:order|approve|fit)\b.{0,30}\b(?:part|"
     r"valve|pump|fan|board|pcb|exchanger)\b"),
    ("cancel", r"\bcancel"),
    ("move", r"\bmove\b|\bresched|\brebook|\bre-book|\bchange (?:the |my )?(?:date|day|"
     r"appointment|visit|booking)|\bput (?:it |my \w+ )?back\b|\bbring (?:it )?forward\b|"
     r"\bdifferent day\b"),
    ("plan", r"\b(?:join|sign (?:me |us |it )?up|put\b.{0,40}\bon|upgrade|switch|take out|"
     r"start)\b.{0,40}\b(?:hearth cover|cover plus|(?:service|boiler|cover) plan)\b"),
    ("lookup", r"\bwhen (?:does|is|will|do)\b|\bearliest\b|\bsoonest\b|\brun out\b|\bexpir|"
     r"\bwhat time\b|\bwho(?:'s| is) coming\b"),
    ("book", r"\bbook|\bservic(?:e|ed|ing)\b|\bannual (?:check|visit)\b|" + GAS_SAFETY
     + r"|\bcertificate\b|\bengineer\b.{0,25}\b(?:come|out|visit|round|over|to look)\b|"
     r"\bcome (?:out|round)\b|" + BREAKDOWN),
]  # fmt: skip
# "I don't want to book anything yet" asks for nothing
NEGATED = re.compile(r"\b(?:don'?t|do not|not|no need to|without)\b[^.?!]{0,25}\bbook", re.I)
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|put|join|sign|order|approve|let|what|when|how)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the clause it was said in."""

    intent: str
    text: str


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits).

    A clause that asks for nothing of its own ("I have job JOB-6108.", "my service on
    Friday") goes with the request next to it, so its numbers and days are not lost.
    """
    clauses: list[tuple[str | None, str]] = []
    for clause in SPLIT.split(message):
        intent = next((i for i, pattern in INTENTS if re.search(pattern, clause, re.I)
                       and not (i == "book" and NEGATED.search(clause))), None)  # fmt: skip
        clauses.append((intent, clause))
    kinds = {i for i, _ in clauses if i}
    dropped = set()
    if kinds & {"move", "cancel", "part", "tenant", "lookup"}:
        # "my service", "the call-out" name the visit being changed, not a new booking
        dropped.add("book")
    if "lookup" in kinds and kinds - {"lookup", "book"}:
        dropped.add("lookup")
    kept = [(i if i not in dropped else None, c) for i, c in clauses]
    out: list[Request] = []
    loose: list[str] = []
    for intent, clause in kept:
        if intent is None and out:
            out[-1] = Request(out[-1].intent, f"{out[-1].text} {clause}")
        elif intent is None:
            loose.append(clause)
        else:
            out.append(Request(intent, " ".join([*loose, clause])))
            loose = []
    return out


def visit_kind(text: str) -> str:
    if re.search(GAS_SAFETY, text, re.I):
        return "gas_safety"
    if re.search(BREAKDOWN, text, re.I):
        return "breakdown"
    return "service"


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def say_date(iso: str) -> str:
    return f"{say_day(iso)} {iso[:4]}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def squash(text: str) -> str:
    """Lower case, no apostrophes or commas: how addresses are compared."""
    return re.sub(r"\s+", " ", re.sub(r"[',.]", "", text.lower())).strip()

"""Reading parents' English: references, dates of birth, days, times, codes, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

ACCOUNT_RE = re.compile(r"\bLA\s*-?\s*(\d{4})\b", re.I)
SESSION_RE = re.compile(r"\bS\s*-?\s*(7\d{3})\b", re.I)
INVOICE_RE = re.compile(r"\bINV\s*-?\s*(\d{4})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
CODE_RE = re.compile(r"(?<![\d£.])(\d[\d ]{9,14}\d)(?!\d|\.\d)")
TIME_RE = re.compile(
    r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|th|of|jan|feb|"
    r"mar|apr|may|jun|jul|aug|sep|oct|nov|dec|minutes|mins|hours|days))",
    re.I,
)
MONEY_RE = re.compile(r"£\s?(\d+(?:\.\d\d)?)")
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
    r"\b(20\d\d)-(\d\d)-(\d\d)\b|\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing / when money comes back
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)|"
    r"\bonly if (?:i|we) (?:get|'?ll get) (?:a |the |my |our )?(?:refund|money back|credit)",
    re.I,
)
RELATIONS = [
    "mother-in-law",
    "father-in-law",
    "grandmother",
    "grandfather",
    "grandma",
    "grandad",
    "granny",
    "nan",
    "nanny",
    "mum",
    "mother",
    "dad",
    "father",
    "aunt",
    "auntie",
    "uncle",
    "brother",
    "sister",
    "cousin",
    "childminder",
    "neighbour",
    "friend",
]
STOP_WORDS = {"i", "hi", "hello", "please", "the", "my", "our", "can", "could", "add", "book",
              "cancel", "swap", "move", "change", "update", "remove", "her", "his", "she", "he",
              "dear", "thanks", "sorry", "little", "acorns", "nursery", "oak", "room", "it",
              "saplings", "seedlings", "epipen", "today", "tonight"}  # fmt: skip
STOP_WORDS |= set(WEEKDAYS) | set(MONTH.strip("()").split("|"))


def accounts(text: str) -> list[str]:
    return [f"LA{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def sessions(text: str) -> list[str]:
    return [f"S{m.group(1)}" for m in SESSION_RE.finditer(text)]


def invoices(text: str) -> list[str]:
    return [f"INV-{m.group(1)}" for m in INVOICE_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def codes(text: str) -> list[str]:
    """Eleven-digit eligibility codes, spaces allowed; phone numbers (starting 0) are not."""
    out = []
    for m in CODE_RE.finditer(text):
        digits = re.sub(r"\D", "", m.group(1))
        if len(digits) == 11 and not digits.startswith("0"):
            out.append(digits)
    return out


def amounts(text: str) -> list[int]:
    return [round(float(m.group(1)) * 100) for m in MONEY_RE.finditer(text)]


def _date(m: re.Match[str], today: date) -> tuple[date, bool] | None:
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
        # a yearless day is the one nearest today ("December" said in January is last month)
        found = date(today.year, month, day)
        if found < today - timedelta(days=180):
            found = date(today.year + 1, month, day)
        elif found > today + timedelta(days=180):
            found = date(today.year - 1, month, day)
        return found, False
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date) -> list[date]:
    """Days said, in order (with or without a year)."""
    found = (_date(m, today) for m in DATE_RE.finditer(text))
    return [d for d, _ in (f for f in found if f)]


def birth_dates(text: str, today: date) -> list[date]:
    """Days said with a year, in the past: how a date of birth is given."""
    found = (_date(m, today) for m in DATE_RE.finditer(text))
    return [d for d, has_year in (f for f in found if f) if has_year and d < today]


def day_said(text: str, today: date) -> date | None:
    """The day of a late collection: a date, or 'today' / 'tonight' / 'this evening'."""
    said = [d for d in dates(text, today) if d >= today]
    if said:
        return said[-1]
    if re.search(r"\b(?:today|tonight|this (?:evening|afternoon))\b", text, re.I):
        return today
    return None


def clock_time(text: str) -> str | None:
    """The last time of day said ("6.20pm", "18:20"), as HH:MM; a bare hour is not read."""
    found = None
    for m in TIME_RE.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not (m.group(2) or half) or hour > 23:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        found = f"{hour:02d}:{minute:02d}"
    return found


def session_kind(text: str) -> str | None:
    if re.search(r"\bfull[- ]day|\bwhole day|\ball day\b", text, re.I):
        return "full"
    if re.search(r"\bmorning|\bam session", text, re.I):
        return "morning"
    if re.search(r"\bafternoon|\bpm session", text, re.I):
        return "afternoon"
    return None


def password(text: str) -> str | None:
    m = re.search(r"\bpassword\b(?:\s+(?:will be|would be|is|of|as|should be|can be))?\s*[:\-]?"
                  r"\s*['\"“‘]?([A-Za-z0-9]{4,})", text, re.I)  # fmt: skip
    if m and m.group(1).lower() not in {"will", "would", "should", "please", "they", "that"}:
        return m.group(1)
    return None


def relationship(text: str) -> str | None:
    for word in RELATIONS:
        if re.search(rf"\b{word}\b", text, re.I):
            return word
    return None


def full_names(text: str) -> list[str]:
    """Two capitalised words together: how a person's full name is said."""
    out = []
    for m in re.finditer(r"\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?) ([A-Z][a-z'-]+)\b", text):
        last = m.group(2).lower()
        if m.group(1).lower() not in STOP_WORDS and last not in STOP_WORDS and "'" not in last:
            out.append(m.group(0))
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
INTENTS: list[tuple[str, str]] = [
    ("dispute", r"\bdispute|\bquery (?:a|the|my|this)\b|\bshouldn'?t have been charged|"
     r"\bcharged (?:me )?(?:wrongly|by mistake)|\bwrong(?:ly)? charged|\bovercharged"),
    ("remove_collector", r"\b(?:remove|take\b.{0,30}\boff|delete)\b.{0,60}\b(?:collect|pick|"
     r"list)|\bno longer (?:collect|pick|allowed)"),
    ("add_collector", r"\b(?:add(?:ed|ing)?|authori[sz]e|put)\b.{0,80}\b(?:collect|pick)|"
     r"\bnew (?:authori[sz]ed )?collector"),
    ("password", r"\b(?:what'?s|what is|what was|remind|forg[eo]t|tell me|give me)\b.{0,50}"
     r"\bpassword|\bpassword\b.{0,50}\b(?:forg[eo]t|again|remind)"),
    ("note", r"\ballerg|\bmedical|\bmedication|\bepipen|\basthma|\binhaler|\bintoleran"),
    ("funding", r"\bfunded\b|\bfunding\b|\b(?:15|30|fifteen|thirty)[- ]hours?\b|"
     r"\beligibility code"),
    ("late", r"\blate\b|\b18[:.]\d\d\b|\b6[:.]\d\d\s*pm\b"),
    ("contact", r"\b(?:phone|mobile|number|email|e-mail)\b.{0,40}\b(?:change|update|new|now)\b|"
     r"\b(?:change|update|new)\b.{0,40}\b(?:phone|mobile|number|email|e-mail)\b"),
    ("cancel", r"\bcancel"),
    ("swap", r"\bswap|\bmov(?:e|ed|ing)\b|\bswitch|\bchange\b.{0,40}\b(?:session|day)\b|"
     r"\bbring\b.{0,30}\bforward|\bput\b.{0,30}\bback\b|\bdifferent day"),
    ("lookup", r"\bwhat do (?:i|we) owe|\bhow much (?:do|is|was|will)\b|\bwhen is\b.{0,40}\bdue|"
     r"\bwhat'?s due"),
    ("book", r"\bbook|\bextra (?:session|morning|afternoon|day|full)|"
     r"\b(?:a|an) (?:morning|afternoon|full day)\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|send|set|swap|remove|record|note|let|what|how)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the clause it was said in."""

    intent: str
    text: str


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits).

    A clause that asks for nothing ("Her password will be bluebell.") belongs to the request
    before it.
    """
    out: list[Request] = []
    for clause in SPLIT.split(message):
        intent = next((i for i, pattern in INTENTS if re.search(pattern, clause, re.I)), None)
        if intent is not None:
            out.append(Request(intent, clause))
        elif out:
            out[-1] = Request(out[-1].intent, f"{out[-1].text} {clause}")
    kinds = {r.intent for r in out}
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

"""Reading tenants' English: tenancy numbers, postcodes, sites, dates, names, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from benchmarks.domains.allotment import _seed

TENANCY_RE = re.compile(r"\bGA\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
INVOICE_RE = re.compile(r"\bINV\s*-?\s*(\d{4})\b", re.I)
INSPECTION_RE = re.compile(r"\bINS\s*-?\s*(\d{3})\b", re.I)
REFERENCE_RE = re.compile(r"\b(SP|PC|UC|ESA|JSA)\s*-?\s*(\d{6,9})\b", re.I)
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
    r"\b(20\d\d)-(\d\d)-(\d\d)\b|"
    r"\b(?:the\s+)?end of " + MONTH + r"\b",
    re.I,
)
MONTH_NAMES = set(MONTH.strip("()").split("|"))
SITE_WORDS = {"Hill Road": r"\bhill\s*road\b|\bhill\b", "Mill Lane": r"\bmill\s*lane\b|\bmill\b",
              "Church Fields": r"\bchurch\s*fields?\b|\bchurch\b"}  # fmt: skip
NO_REFERENCE = re.compile(
    r"\b(?:don'?t|do not|haven'?t|have not|no)\b.{0,30}\b(?:reference|letter|number|proof|got)\b|"
    r"\bnot on (?:a |any )?(?:pension|benefits?)\b",
    re.I,
)


def tenancies(text: str) -> list[str]:
    return [f"GA{m.group(1)}" for m in TENANCY_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    out = []
    for m in POSTCODE_RE.finditer(text):
        if m.group(1).upper().startswith(("GA", "INV", "INS")):
            continue
        out.append(f"{m.group(1).upper()} {m.group(2).upper()}")
    return out


def invoices(text: str) -> list[str]:
    return [f"INV-{m.group(1)}" for m in INVOICE_RE.finditer(text)]


def inspections(text: str) -> list[str]:
    return [f"INS-{m.group(1)}" for m in INSPECTION_RE.finditer(text)]


def references(text: str) -> list[str]:
    return [f"{m.group(1).upper()}-{m.group(2)}" for m in REFERENCE_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def sites(text: str) -> list[str]:
    """Sites named, in the order said."""
    found = []
    for site, pattern in SITE_WORDS.items():
        m = re.search(pattern, text, re.I)
        if m:
            found.append((m.start(), site))
    return [s for _, s in sorted(found)]


def _last_day(year: int, month: int) -> date:
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return date.fromordinal(nxt.toordinal() - 1)


def dates(text: str, today: date) -> list[date]:
    """Days said, in order ('the end of March' is its last day; yearless days are ahead)."""
    out = []
    for m in DATE_RE.finditer(text):
        g = m.groups()
        try:
            if g[0]:
                day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
            elif g[2]:
                day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
            elif g[4]:
                out.append(date(int(g[4]), int(g[5]), int(g[6])))
                continue
            else:
                month = MONTHS[g[7].lower()[:3]]
                year = today.year + 1 if month < today.month else today.year
                out.append(_last_day(year, month))
                continue
            year = today.year + 1 if month < today.month else today.year
            out.append(date(year, month, day))
        except (ValueError, KeyError):
            continue
    return out


NAME_STOP = {"hill", "road", "mill", "lane", "church", "fields", "greenacre", "allotments",
             "council", "hi", "hello", "please", "thanks", "could", "can", "i", "my", "the",
             "add", "register", "put", "get", "order", "and", "also", "she", "he", "her", "his",
             "co", "worker", "yes", "no", "ok", "it's", "its", "they", "dear", "our"}  # fmt: skip


def full_names(text: str) -> list[str]:
    """Two capitalised words in a row ('Sam Okafor'), not sites, months or days."""
    out = []
    for m in re.finditer(r"\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\s+([A-Z][a-z'’]+(?:-[A-Z][a-z]+)?)\b",
                         text):  # fmt: skip
        first, last = m.group(1), m.group(2)
        words = {first.lower(), last.lower()}
        if words & (NAME_STOP | set(WEEKDAYS) | MONTH_NAMES):
            continue
        out.append(f"{first} {last}")
    return out


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|go ahead)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|happy|perfect|"
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
    ("rules", r"\bbonfires?\b|\bburn(?:ing)?\b|\bhose(?:pipe)?s?\b|\bsprinklers?\b"),
    ("appeal", r"\bappeal|\bchallenge (?:the|my|that) warning|\bdispute (?:the|my|that) warning"),
    ("transfer", r"\btake over\b|\btransfer (?:the|my) (?:plot|tenancy)|\bin (?:his|her|their) "
     r"name\b|\bhand (?:the|my) plot (?:on|over) to\b"),
    ("swap", r"\bswap|\bexchange my plot|\bmove (?:my plot|to a plot|plots?\b)|\bswitch (?:my )?"
     r"plot"),
    ("giveup", r"\bgive up\b|\bgiving up\b|\bgive (?:my )?notice|\bsurrender|\bend my tenancy|"
     r"\bhand (?:back|in) my plot|\bnotice on my plot|\bgive (?:it|the plot|my plot) up\b"),
    ("position", r"\bwhere am i\b|\bwhat position\b|\bmy position\b|\bhow (?:far|many people|"
     r"many households)\b|\bhow long (?:is|will)\b.*\b(?:list|wait)"),
    ("leave", r"\b(?:take|cross) me off\b|\bleave the\b.{0,25}\blist\b|\bremove me\b|\bcome off\b|"
     r"\boff the\b.{0,25}\blist\b"),
    ("join", r"\bjoin\b|\bput (?:me|my name) (?:on|down)\b|\badd me to\b|\b(?:on|onto) the\b.{0,25}"
     r"\bwaiting list\b"),
    ("coworker", r"\bco-?workers?\b|\bplot (?:partner|helper)\b"),
    ("key", r"\bgate keys?\b|\bkeys?\b"),
    ("concession", r"\bconcession|\bdiscount|\breduced (?:rent|rate)|\bcheaper rate\b|\b(?:state )?"
     r"pension(?:er)?\b|\bbenefits?\b"),
    ("lookup", r"\bhow much\b|\bwhat do i owe\b|\bwhen is (?:my|the|it)\b.*\bdue\b|\bwhat(?:'s| is)"
     r" my rent\b"),
    ("pay", r"\bpay\b|\bpayment\b|\bsettle\b"),
    ("extra", r"\bsheds?\b|\bcompost"),
    ("contact", r"\bphone\b|\bmobile\b|\bemail\b|\be-mail\b|\bcontact details\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"add|send|email|set|let|what|how|order|get|give|pay|rent|take|put|leave|join|swap|my "
    r"(?:new )?(?:phone|mobile|email))\b)",
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
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')} {d.year}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def site_of(plot: dict | None) -> str:
    return plot["site"] if plot else ""


ALL_SITES = _seed.SITES

"""Reading customers' English: account numbers, birth dates, days, slots, plans, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

ACCOUNT_RE = re.compile(r"\bLB\s*-?\s*(\d{6})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
MOBILE_RE = re.compile(r"(?<!\d)(?:\+44\s?7|07)\d{3}\s?\d{3}\s?\d{3}(?!\d)")
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
STREET_RE = re.compile(
    r"\b(\d+[A-Za-z]?,?\s+(?:[A-Z][a-z']+\s+){1,3}(?:Street|St|Road|Rd|Lane|Avenue|Ave|Close|"
    r"Way|Drive|Court|Place|Gardens|Terrace|Crescent|Row|Grove|Hill|Park|Square|Mews|Walk|View|"
    r"Fold|Green|Parade))\b(?:,?\s+([A-Z][a-z]+(?:[ -][A-Z][a-z]+)?)\b)?"
)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
YEAR = r"(?:,?\s+(\d{4}))?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b" + YEAR + "|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b" + YEAR + "|"
    r"\b(\d{4})-(\d\d)-(\d\d)\b|"
    r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})\b",
    re.I,
)
# a day said as the old one ("from the 16th", "not Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\breported(?: it)?(?: on)?|"
    r"\bsince|\bbooked (?:in )?(?:on|for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is |the visit is )?(?:free|no (?:fee|charge|"
    r"cost))|\bif (?:it|there|the visit)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge|"
    r"cost)|chargeable|not free|extra).{0,40}\b(?:leave|don'?t|forget|keep|won'?t|not)\b|"
    r"\bas long as (?:it'?s|there'?s) (?:free|no)|"
    r"\b(?:won'?t|not going to|don'?t want to) pay (?:for|anything|a penny)",
    re.I,
)
NEW_TERM_YES = re.compile(
    r"\b(?:new|fresh|another)\s+(?:18[- ]month\s+)?(?:contract|term|minimum term)\b.{0,40}"
    r"\b(?:fine|happy|ok|okay|yes|sign|good|please)|\b(?:happy|willing|glad|fine) to (?:sign|"
    r"start|take|go onto|commit)|\bsign (?:me up|up|a new)|\byes\b.{0,30}\b(?:new|term|contract)",
    re.I,
)
NEW_TERM_NO = re.compile(
    r"\b(?:don'?t|do not|rather not|won'?t|no)\b.{0,30}\b(?:new|another|fresh)\s+(?:18[- ]"
    r"month\s+)?(?:contract|term)|\bkeep (?:my|the) (?:current|existing|old) (?:contract|term)|"
    r"\b(?:i'?ll|i will|happy to|fine to|rather) pay the (?:£?50|fee|move fee)|\bpay the £?50",
    re.I,
)
THIRD_PARTY = re.compile(
    r"\b(?:my|our) (?:mum|mom|mother|dad|father|husband|wife|partner|son|daughter|brother|"
    r"sister|gran|grandma|nan|grandad|grandfather|grandmother|aunt|uncle|friend|neighbour|"
    r"flatmate|landlord|tenant|boss)'?s? (?:account|broadband|contract|line|name|internet|"
    r"email|plan)|\bon (?:behalf of|(?:his|her|their) behalf)\b|\bin (?:his|her|their|my "
    r"\w+'s) name\b|\bnot the account holder\b|\b(?:account|broadband) isn'?t in my name\b|"
    r"\bcalling for my\b|\bfor my (?:mum|mom|mother|dad|father|gran|nan)\b(?!'s? (?:room|house))",
    re.I,
)
SLOT_RE = re.compile(
    r"\b(morning|afternoon)\b|\d\s*(am|pm)\b|\b(a\.m\.|p\.m\.)|\b(?-i:(AM|PM))\b", re.I
)
PLAN_RE = re.compile(
    r"\bfibre\s*-?\s*(100|500|900)\b|\b(?:the|to|on|onto)\s+(100|500|900)\b(?![\d,])|"
    r"\b(100|500|900)\s*(?:mb|meg|mbps|plan|package|one|speed)\b",
    re.I,
)


def accounts(text: str) -> list[str]:
    return [f"LB{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def mobiles(text: str) -> list[str]:
    """UK mobile numbers, written '07NNN NNNNNN' whatever spacing was said."""
    out = []
    for m in MOBILE_RE.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        digits = "0" + digits[2:] if digits.startswith("44") else digits
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def plans(text: str) -> list[str]:
    return [f"fibre{next(g for g in m.groups() if g)}" for m in PLAN_RE.finditer(text)]


def slot(text: str) -> str | None:
    """AM or PM, said as a part of the day; the last one said wins."""
    found = None
    for m in SLOT_RE.finditer(text):
        word = next(g for g in m.groups() if g).lower()
        found = "AM" if word in {"morning", "am", "a.m."} else "PM"
    return found


def _date(m: re.Match[str], today: date) -> tuple[date, bool] | None:
    """The day matched, and whether a year was said."""
    g = m.groups()
    try:
        if g[0]:
            day, month, year = int(g[0]), MONTHS[g[1].lower()[:3]], g[2]
        elif g[3]:
            day, month, year = int(g[4]), MONTHS[g[3].lower()[:3]], g[5]
        elif g[6]:
            return date(int(g[6]), int(g[7]), int(g[8])), True
        else:
            y = int(g[11])
            y = y if y > 99 else (1900 + y if y > today.year % 100 else 2000 + y)
            return date(y, int(g[10]), int(g[9])), True
        if year:
            return date(int(year), month, day), True
        # a yearless day in months already gone is next year's ("4 January" in November)
        return date(today.year + 1 if month < today.month - 3 else today.year, month, day), False
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days to come said, in order (birth dates left out); unless all_said, old ones dropped."""
    found = list(DATE_RE.finditer(text))
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
        found = kept or found
    out = []
    for m in found:
        got = _date(m, today)
        if got and got[0].year >= today.year:
            out.append(got[0])
    return out


def past_dates(text: str, today: date) -> list[date]:
    """Days said in the recent past (this year or last), in order."""
    out = []
    for m in DATE_RE.finditer(text):
        got = _date(m, today)
        if got and today.year - 1 <= got[0].year and got[0] <= today:
            out.append(got[0])
    return out


def birth_date(text: str, today: date) -> str | None:
    """A date of birth: a day with a year said, at least ten years ago, as YYYY-MM-DD."""
    for m in DATE_RE.finditer(text):
        got = _date(m, today)
        if got and got[1] and got[0].year <= today.year - 10:
            return got[0].isoformat()
    return None


def address(text: str) -> str | None:
    """A street address with its postcode, as 'N Street, Town POSTCODE'."""
    post = list(POSTCODE_RE.finditer(text))
    if not post:
        return None
    code = f"{post[-1].group(1).upper()} {post[-1].group(2).upper()}"
    streets = list(STREET_RE.finditer(text[: post[-1].start()]))
    if not streets:
        return None
    street = re.sub(r",", "", streets[-1].group(1))
    town = streets[-1].group(2)
    return f"{street}, {town} {code}" if town else f"{street}, {code}"


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead)|forget it|no thanks)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|book it|happy|perfect|"
        r"great|lovely|that works|alright|all right|order it|cancel it|change it)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- requests --------------------------------------------------------------------------------
NEGATED = re.compile(r"\b(?:don'?t|do not|not)\s+(?:want to\s+|wish to\s+)?(?:cancel|change|"
                     r"move|book)\b[^.,;!?]*", re.I)  # fmt: skip
INTENTS: list[tuple[str, str]] = [
    ("lookup", r"\bwhen does (?:my )?(?:contract|minimum term|term)|\bcost (?:me )?to (?:leave|"
     r"cancel)|\bwhat plan\b|\bminimum term (?:end|finish)|\bcontract (?:end|finish)|"
     r"\bhow long (?:is )?left|\bwhat would it cost\b|\bearly termination charge\b|"
     r"\bwhat (?:would|will) i (?:owe|pay)"),
    ("compensation", r"\bcompensat|\bcredit\b|\bmoney back\b|\bclaim\b"),
    ("cancel", r"\bcancel|\bleave linnet\b|\bend (?:my|the) (?:contract|service|broadband)|"
     r"\bclose (?:my|the) account|\bterminate"),
    ("move", r"\bmov(?:e|ing) (?:house|home|flat)|\bmov(?:e|ing) (?:my |the )?(?:broadband|"
     r"service|connection|internet)|\bmoving (?:to|out|on)\b|\bhome move|\bnew (?:house|flat|"
     r"home|address)\b|\brelocat|\bmove it\b"),
    ("router", r"\brouter\b|\bhub\b"),
    ("engineer", r"\bengineer|\bfault|\b(?:broadband|internet|connection|line|wi-?fi)\b.{0,40}"
     r"\b(?:down|dropping|drops|not working|stopped|dead|keeps|cutting|crackl)|\bno (?:internet|"
     r"broadband|connection)|\bbook (?:a|an) visit|\bline test"),
    ("plan", r"\bupgrade|\bdowngrade|\bfibre\s*-?\s*\d{3}|\b(?:speed|broadband) (?:plan|package)|"
     r"\bchange (?:my |the )?(?:plan|package|speed)|\bcheaper (?:plan|package)|\bfaster "
     r"(?:plan|speed|broadband)|\bswitch (?:me )?(?:to|plan)"),
    ("contact", r"\be-?mail\b|\bmobile (?:number|phone)|\bphone number|\bcontact (?:details|"
     r"number)|\bnew number\b|\bmy mobile\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|send|order|set|let|what|how|claim|upgrade|downgrade|put)\b)",
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
        plain = NEGATED.sub(" ", clause)
        for intent, pattern in INTENTS:
            if re.search(pattern, plain, re.I):
                out.append(Request(intent, clause))
                break
    kinds = {r.intent for r in out}
    if "compensation" in kinds:
        # "it was down from the 2nd until it was fixed": the fault told, not a new one
        out = [r for r in out if r.intent != "engineer"]
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def say_date(iso: str) -> str:
    return f"{say_day(iso)} {iso[:4]}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

"""Reading drivers' English: emails, cards, sessions, chargers, plates, amounts, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

SESSION_RE = re.compile(r"\bVS\s*-?\s*(\d{5})\b", re.I)
CHARGER_RE = re.compile(r"\bCH\s*-?\s*(\d{3})\b", re.I)
CARD_ID_RE = re.compile(r"\bRF\s*-?\s*(\d{4})\b", re.I)
REG_RE = re.compile(r"\b([A-Z]{2}\d{2})\s?([A-Z]{3})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
POUNDS_RE = re.compile(r"£\s?(\d{1,4}(?:,\d{3})*)(?:\.(\d\d))?|\b(\d{1,4})\s?(?:pounds|quid)\b",
                       re.I)  # fmt: skip
LAST4_RE = re.compile(r"(?:\bend(?:s|ing)(?: in| with)?|\blast (?:four|4)(?: digits)?(?: of (?:my|"
                      r"the) card)?(?: (?:are|is))?|\bcard(?: number)?)\s*:?\s*(\d{4})\b",
                      re.I)  # fmt: skip
# an email said as the new one is not the one on the account
NEW_MARK = re.compile(r"(?:\bto|\bnew (?:email|address)(?: is| will be)?|\bis now|\bchange "
                      r"(?:it|that) to)\s*:?\s*$", re.I)  # fmt: skip
TIME_RE = re.compile(r"\b(\d{1,2})[:.](\d\d)\s*(am|pm)?\b|\b(\d{1,2})\s*(am|pm)\b", re.I)
IN_MINUTES = re.compile(r"\bin (?:about |around )?(\d{1,3}|half an hour|an hour)\s*(?:minutes?|"
                        r"mins?)?\b", re.I)  # fmt: skip
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
LONE_DAY = re.compile(r"\b(?:on |last )?(monday|tuesday|wednesday|thursday|friday|saturday|"
                      r"sunday)\b|\b(yesterday)\b", re.I)  # fmt: skip


def sessions(text: str) -> list[str]:
    return list(dict.fromkeys(f"VS{m.group(1)}" for m in SESSION_RE.finditer(text)))


def chargers(text: str) -> list[str]:
    return [f"CH{m.group(1)}" for m in CHARGER_RE.finditer(text)]


def card_ids(text: str) -> list[str]:
    return [f"RF{m.group(1)}" for m in CARD_ID_RE.finditer(text)]


def registrations(text: str) -> list[str]:
    return [f"{m.group(1)} {m.group(2)}".upper() for m in REG_RE.finditer(text)]


def emails(text: str, *, new_only: bool = False, old_only: bool = False) -> list[str]:
    """Emails said; `new_only` keeps those said as the new one, `old_only` the others."""
    out = []
    for m in EMAIL_RE.finditer(text):
        new = bool(NEW_MARK.search(text[max(0, m.start() - 30) : m.start()]))
        if (new_only and not new) or (old_only and new):
            continue
        out.append(m.group(0).rstrip(".").lower())
    return out


def last4(text: str, *, bare: bool = False) -> str | None:
    """A card's last 4 digits: said as such, or (when `bare`) any lone 4 digits."""
    m = LAST4_RE.search(text)
    if m:
        return m.group(1)
    if bare:
        lone = re.findall(r"(?<![\d£.:-])\b(\d{4})\b(?![\d.:-])", text)
        return lone[-1] if lone else None
    return None


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def amounts(text: str) -> list[int]:
    """Amounts of money said, in pence."""
    out = []
    for m in POUNDS_RE.finditer(text):
        if m.group(3):
            out.append(int(m.group(3)) * 100)
        else:
            out.append(int(m.group(1).replace(",", "")) * 100 + int(m.group(2) or 0))
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
        # sessions are in the past: a yearless day after today is last year's
        candidate = date(today.year, month, day)
        return candidate if candidate <= today else date(today.year - 1, month, day)
    except (ValueError, KeyError):
        return None


def past_days(text: str, today: date) -> list[date]:
    """Days in the past said ("9 December", "on Saturday", "yesterday"), in order."""
    found = [d for d in (_date(m, today) for m in DATE_RE.finditer(text)) if d is not None]
    if found:
        return found
    out = []
    for m in LONE_DAY.finditer(text):
        if m.group(2):
            out.append(today - timedelta(days=1))
            continue
        back = (today.weekday() - WEEKDAYS.index(m.group(1).lower())) % 7 or 7
        out.append(today - timedelta(days=back))
    return out


def start_time(text: str, now: datetime) -> str | None:
    """A start time today, as HH:MM: "10:20", "10.20am", "2pm" or "in 20 minutes"."""
    m = IN_MINUTES.search(text)
    if m:
        said = m.group(1).lower()
        minutes = 30 if said == "half an hour" else 60 if said == "an hour" else int(said)
        return (now + timedelta(minutes=minutes)).strftime("%H:%M")
    found = None
    for m in TIME_RE.finditer(text):
        hour = int(m.group(1) or m.group(4))
        minute = int(m.group(2) or 0)
        half = (m.group(3) or m.group(5) or "").lower()
        if hour > 23 or minute > 59:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        found = f"{hour:02d}:{minute:02d}"
    return found


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
VEHICLE = (r"(?:\bcar\b|\bvan\b|\bvehicle|\breg(?:istration)?\b|\bnumber plate|"
           r"\b[A-Z]{2}\d{2} ?[A-Z]{3}\b)")
INTENTS: list[tuple[str, str]] = [
    ("close", r"\bclos(?:e|ing)\b.{0,20}\baccount\b|\bdelete my account|\bleaving voltway"),
    ("dispute", r"\bdisput|\bovercharg|\bcharged (?:me )?(?:twice|too much|for)|\bfailed\b|"
     r"\bdidn'?t (?:charge|work|start)|\bstopped charging|\bnever (?:started|charged)|"
     r"\brefund\b.{0,40}\b(?:session|charge)\b|\b(?:session|charge)\b.{0,40}\brefund"),
    ("reserve", r"\breserv|\bhold (?:a |the )?charger|\bbook (?:a |the )?charger"),
    ("card", r"\b(?:charge|charging|rfid|key|spare|extra|new|replacement|another|second) card\b|"
     r"\blost (?:my |the )?card|\bcard (?:was |has been |got )?(?:lost|stolen|broken)|"
     r"\border (?:a |me a )?card"),
    ("vehicle_remove", r"\b(?:remove|take off|delete|sold)\b.{0,40}" + VEHICLE + "|" + VEHICLE
     + r".{0,40}\b(?:remove|take off|off the account|sold)\b"),
    ("vehicle_add", r"\b(?:add|register|put)\b.{0,40}" + VEHICLE + r"|\bnew (?:car|van)\b"),
    ("contact", r"\b(?:change|update|new)\b.{0,20}\b(?:email|phone|mobile|number)\b|"
     r"\bcontact details"),
    ("balance", r"\b(?:refund|pay|money|cash|get)\b.{0,40}\bbalance\b|\bbalance\b.{0,40}\b(?:back"
     r"|refund(?:ed)?|paid out)\b"),
    ("topup", r"\btop(?:\s|-)?up|\btop\b.{0,25}\bup\b|\b(?:add|put|load)\b.{0,30}\b(?:balance|"
     r"account)\b|\b(?:add|put|load)\b.{0,10}£\s?\d+"),
    ("plan", r"\bplus\b|\bpay as you go\b|\bpayg\b|\bsubscription|\bmembership|\bplan\b"),
    ("lookup", r"\bhow much (?:was|did|is)|\bhow many kwh|\bwhat did\b.{0,30}\bcost|\bsession\b|"
     r"\bcharg(?:e|ing) (?:on|at|last)\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|cancel|"
    r"add|remove|top|put|order|reserve|switch|move|what|how|refund|send)\b)",
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
    loose = ""  # a clause with no request in it belongs to the request beside it
    for clause in SPLIT.split(message):
        intent = next((i for i, pattern in INTENTS if re.search(pattern, clause, re.I)), None)
        if intent is None:
            if out:
                out[-1] = Request(out[-1].intent, f"{out[-1].text} {clause}")
            else:
                loose = f"{loose} {clause}".strip()
            continue
        out.append(Request(intent, f"{loose} {clause}".strip()))
        loose = ""
    kinds = {r.intent for r in out}
    if "dispute" in kinds:
        # "refund it as credit on my balance" is how the disputed session is refunded
        out = [Request("dispute", r.text) if r.intent == "balance" else r for r in out]
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    if "close" in kinds:
        # closing refunds the balance: a "balance back" clause is part of it
        out = [r for r in out if r.intent != "balance"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso[:10])
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

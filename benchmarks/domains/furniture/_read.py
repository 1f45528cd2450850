"""Reading customers' English: order numbers, postcodes, days, phones, emails, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

ORDER_RE = re.compile(r"\bOF\s*-?\s*(\d{5})\b", re.I)
POSTCODE = r"[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}"
POSTCODE_RE = re.compile(r"\b(" + POSTCODE + r")\b", re.I)
PHOTO_RE = re.compile(r"\bPH\s*-?\s*(\d{4,6})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
# a street address said before its postcode: "12 Spen Lane, Leeds LS16 5BR"
ADDRESS_RE = re.compile(
    r"((?:flat\s+\d+\w?,?\s+)?\d+[a-z]?\s+[A-Za-z][A-Za-z' .-]*?(?:,\s*[A-Za-z][A-Za-z' .-]*?)*)"
    r",?\s+(" + POSTCODE + r")\b",
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
# a day said as the old one ("from the 22nd", "instead of Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bdue (?:on|for)|"
    r"\bbooked (?:in )?(?:on|for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
ITEM_WORDS = (r"order|delivery|purchase|furniture|wardrobe|sofa|table|bed|chair|armchair|"
              r"bookcase|desk|drawers|sideboard|footstool")  # fmt: skip
KIN = (r"wife|husband|partner|mum|mother|dad|father|son|daughter|friend|neighbour|sister|"
       r"brother|gran|grandma|grandad|nan|aunt|uncle|boss|flatmate|landlord|tenant")  # fmt: skip
# the caller speaks for someone else: "my mum's order", "on behalf of", "she ordered"
THIRD_PARTY = re.compile(
    r"\b(?:my|our) (?:" + KIN + r")'?s\b(?:\s+\w+){0,2}?\s+(?:" + ITEM_WORDS + r")|"
    r"\bon (?:behalf|the behalf) of\b|\b(?:she|he|they) (?:ordered|bought|placed)\b|"
    r"\b(?:calling|ringing|asking|phoning) (?:for|about) my (?:" + KIN + r")\b",
    re.I,
)


def orders(text: str) -> list[str]:
    return [f"OF{m.group(1)}" for m in ORDER_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    """Postcodes said, written 'LS6 2AB' whatever the spacing and case."""
    out = []
    for m in POSTCODE_RE.finditer(text):
        flat = re.sub(r"\s", "", m.group(1).upper())
        out.append(f"{flat[:-3]} {flat[-3:]}")
    return out


def address(text: str) -> tuple[str, str] | None:
    """The last street address with its postcode said, as (address, postcode)."""
    found = None
    for m in ADDRESS_RE.finditer(text):
        street = re.sub(r"\s+", " ", m.group(1)).strip(" ,.")
        flat = re.sub(r"\s", "", m.group(2).upper())
        found = (street, f"{flat[:-3]} {flat[-3:]}")
    return found


def photos(text: str) -> list[str]:
    return [f"PH-{m.group(1)}" for m in PHOTO_RE.finditer(text)]


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


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|go ahead)|forget it|threw|thrown|"
        r"got rid|recycled|no longer have|haven'?t (?:got|kept))\b", low
    ):  # fmt: skip
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|book it|happy|perfect|"
        r"great|lovely|that works|alright|all right|still (?:have|got)|kept|i have|i do)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


def third_party(text: str) -> bool:
    return bool(THIRD_PARTY.search(text))


# -- requests --------------------------------------------------------------------------------
INTENTS: list[tuple[str, str]] = [
    ("contact", r"\b(?:phone|mobile|contact) (?:number|details)\b|\bemail address\b|"
     r"\b(?:change|update|new)\b.{0,25}\b(?:email|phone|mobile|number)\b"),
    ("address", r"\b(?:change|new|different|update|another)\b.{0,30}\baddress\b|\baddress\b.{0,20}"
     r"\b(?:change|to \d)|\bmoving (?:house|home)\b|\bdeliver (?:it |them )?to (?:\d|my new"
     r"|our new)"),
    ("cancel", r"\bcancel"),
    ("problem", r"\bdamage|\bscratch|\bdent(?:ed)?\b|\bbroken\b|\bcrack|\bchipped\b|\bsplit\b|"
     r"\bmissing\b|\bfaulty\b|\bsnapped\b"),
    ("return", r"\breturn|\bsend (?:\w+ ){1,3}?back\b|\bcollect (?:\w+ ){1,3}?back\b|"
     r"\b(?:doesn'?t|does not) fit\b"),
    ("assembly", r"\bassembl|\bput (?:it |them )?together\b|\bbuild (?:it|them)\b"),
    ("move", r"\b(?:move|moved|reschedule|rearrange|postpone|push (?:it |the delivery )?back|"
     r"bring (?:it |the delivery )?forward|different day|another day|later day|change (?:the |"
     r"my )?delivery (?:day|date))\b|\b(?:come|arrive)s? on\b|\binstead of\b|"
     r"\bdeliver(?:ed|y)? (?:on|for) (?:\w+ )?(?:\d|the)"),
    ("lookup", r"\bwhen (?:is|will|are|'s)\b|\bwhat day\b|\bstatus\b|\bwhere(?:'s| is) my\b|"
     r"\bdispatched\b|\bdelivery (?:day|date)\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"add|book|send|set|return|report|let|what|when|how)\b)",
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
    if len({r.intent for r in out} - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def match_items(items: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """The items named ("the wardrobe", "both"), by their kind; the only item when one."""
    if re.search(r"\b(?:both|all (?:of )?(?:them|the \w+)|everything|each of them)\b", text, re.I):
        return list(items)
    named = [i for i in items if re.search(rf"\b{i['kind']}s?\b", text, re.I)]
    if not named:
        named = [i for i in items if re.search(rf"\b{i['kind'].split()[-1]}s?\b", text, re.I)]
    if not named and len(items) == 1:
        named = list(items)
    # "sofa bed" names the sofa bed, not also the sofa, when both are on the order
    exact = [i for i in named if not any(o is not i and i["kind"] in o["kind"] for o in named)]
    return exact or named


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

"""Reading customers' English: numbers, postcodes, days, headcounts, menus, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

ACCOUNT_RE = re.compile(r"\bCT\s*-?\s*(\d{4})\b", re.I)
ORDER_RE = re.compile(r"\bEV\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[ABD-HJLNP-UW-Z]{2})\b", re.I)
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
# a value said as the old one ("from 50", "instead of the buffet") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bat the moment|\bbooked (?:in )?"
    r"(?:on|for|as))\s*(?:the\s+|my\s+|our\s+|on\s+|a\s+)?$",
    re.I,
)
PACKAGE_WORDS = (
    ("canapes", r"\bcanap[eé]s?\b|\breception\b|\bfinger food\b"),
    ("buffet", r"\bbuffet\b"),
    ("dinner", r"\bdinner\b|\bthree[- ]course\b|\bsit[- ]down\b|\bplated\b"),
)
DIET_WORDS = (
    ("vegetarian", r"vegetarians?|veggies?"),
    ("vegan", r"vegans?"),
    ("gluten_free", r"gluten[- ]free|coeliacs?|gf"),
)
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15,
                "twenty": 20}  # fmt: skip
NUM = r"(\d{1,3}|" + "|".join(NUMBER_WORDS) + r")"
GUESTS = r"(?:guests?|people|persons?|heads?|covers|attendees|of us|adults)"
# a condition inside the goal: go ahead only when there is no late-added supplement
NO_SUPPLEMENT = re.compile(
    r"\bif there'?s (?:a |any )?(?:late |extra )?(?:supplement|surcharge|late (?:fee|charge))"
    r".{0,40}\b(?:leave|don'?t|forget|keep|stay)|\bonly if (?:there'?s )?no (?:late |extra )?"
    r"(?:supplement|surcharge|fee)",
    re.I,
)


def _num(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


def accounts(text: str) -> list[str]:
    return [f"CT{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def orders(text: str) -> list[str]:
    return [f"EV{m.group(1)}" for m in ORDER_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in POSTCODE_RE.finditer(text)]


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
        # a yearless day in the past months is next year's ("23 January" said in December)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date) -> list[date]:
    """Days said, in order; those said as the old one are dropped when others are said."""
    found = list(DATE_RE.finditer(text))
    kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
    return [d for d in (_date(m, today) for m in kept or found) if d is not None]


def _without_phones_and_refs(text: str) -> str:
    text = PHONE_RE.sub(" ", text)
    text = ORDER_RE.sub(" ", ACCOUNT_RE.sub(" ", text))
    text = POSTCODE_RE.sub(" ", text)
    return DATE_RE.sub(" ", text)


def headcount(text: str) -> int | None:
    """A number of guests said as a total ("for 60 guests", "to 64", "60 people")."""
    clean = _without_phones_and_refs(text)
    found = None
    for m in re.finditer(NUM + r"\s+" + GUESTS + r"\b|\b(?:for|to|be|now|of|is|are|make it)\s+"
                         r"(?:about\s+|around\s+)?" + NUM + r"\b(?!\s*(?:more|extra|fewer|less"
                         r"|additional|vegan|vegetarian|gluten|veggie))", clean, re.I):  # fmt: skip
        word = m.group(1) or m.group(2)
        before = clean[max(0, m.start() - 30) : m.start()]
        if re.search(r"\b(?:add|another|extra|more)\s*$", before, re.I):
            continue
        if OLD_MARK.search(before):
            continue
        found = _num(word)
    return found


def guest_delta(text: str) -> int | None:
    """A change said as a difference: "4 more guests", "add 4", "5 fewer", "lose 6"."""
    clean = _without_phones_and_refs(text)
    up = re.search(NUM + r"\s+(?:more|extra|additional|further)\b|\b(?:add|another|plus)\s+"
                   r"(?:an?\s+)?(?:extra\s+|further\s+)?" + NUM + r"\b", clean, re.I)  # fmt: skip
    if up:
        return _num(up.group(1) or up.group(2))
    down = re.search(NUM + r"\s+(?:fewer|less)\b|" + NUM + r"\s+(?:of (?:our|my|the) )?"
                     r"(?:guests?|people)?\s*(?:have |can'?t|cannot|won'?t|dropped|pulled)|"
                     r"\b(?:lose|drop|minus|remove)\s+" + NUM + r"\b", clean, re.I)  # fmt: skip
    if down:
        return -_num(next(g for g in down.groups() if g))
    return None


def bare_number(text: str) -> int | None:
    """A number on its own ("64", "sixty-four" is not read), as an answer to 'how many'."""
    clean = _without_phones_and_refs(text)
    found = re.findall(r"\b(\d{1,3})\b", clean)
    return int(found[-1]) if found else None


def packages(text: str) -> list[str]:
    """Menu packages named, in order, leaving out those said as the old one."""
    found: list[tuple[int, str]] = []
    for name, pattern in PACKAGE_WORDS:
        for m in re.finditer(pattern, text, re.I):
            if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()]):
                found.append((m.start(), name))
    named = [name for _, name in sorted(found)]
    # "the three-course dinner" names one package, not two
    return [n for i, n in enumerate(named) if i == 0 or named[i - 1] != n]


def dietary(text: str) -> dict[str, int]:
    """Dietary counts said: "8 vegetarian, 3 vegan and 2 gluten-free"."""
    out: dict[str, int] = {}
    for key, words in DIET_WORDS:
        m = re.search(NUM + r"\s+(?:of them\s+)?(?:are\s+|will be\s+)?(?:" + words + r")\b|"
                      r"\b(?:" + words + r")(?:\s+meals?)?\s*(?::|-|=)?\s*" + NUM + r"\b", text,
                      re.I)  # fmt: skip
        if m:
            out[key] = _num(m.group(1) or m.group(2))
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
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s (?:fine|right)|"
        r"correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|book it|happy|perfect|"
        r"great|lovely|that works|alright|all right|pay it|cancel it)\b",
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
    ("cancel", r"\bcancel"),
    ("contact", r"\bon[- ]the[- ]day\b|\bcontact(?:'s)? (?:number|phone)|\bcontact\b.*\b\d{5}"),
    ("deposit", r"\bdeposit\b.{0,30}\b(?:pay|paid|take|settle)|\b(?:pay|take|settle)\b.{0,20}"
     r"\bdeposit\b"),
    ("balance", r"\bpay\b.{0,25}\b(?:balance|rest|remainder|what'?s (?:left|owed|due|"
     r"outstanding)|in full|the lot|off)\b|\bsettle\b|\bclear the balance\b"),
    ("lookup", r"\bhow much\b|\bwhat do i owe\b|\bwhen is\b.{0,30}\bdue\b|\bwhat(?:'s| is| are)"
     r" the (?:headcount|menu|details|total|balance)\b|\bwhat'?s booked\b|\bdetails of\b|"
     r"\bcheck (?:my|our|the) order\b"),
    ("book", r"\bbook\b|\bcater\b|\bnew (?:order|event|booking)\b"),
    ("dietary", r"\bvegetarian|\bvegan|\bgluten|\bdietary\b|\bcoeliac|\bveggie|\ballerg"),
    ("menu", r"\bmenu\b|\bpackage\b|\bswitch\b|\bupgrade\b|\bchange\b.{0,40}\b(?:canap|buffet|"
     r"dinner|three[- ]course|reception)|\b(?:canap\w*|buffet|dinner|three-course) instead\b"),
    ("guests", r"\bguests?\b|\bheadcount\b|\bnumbers?\b.{0,20}\b(?:up|down|change|going)\b|"
     r"\bpeople\b|\b(?:more|fewer|extra) (?:people|guests)\b|\bcovers\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|send|set|let|what|how|pay|switch)\b)",
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
    before = ""  # clauses said before the first request ("Our order is EV7024.") belong to it
    for clause in SPLIT.split(message):
        intent = next((i for i, pattern in INTENTS if re.search(pattern, clause, re.I)), None)
        if intent is not None:
            out.append(Request(intent, f"{before} {clause}".strip()))
            before = ""
        elif out:
            # a clause with no request of its own says more about the one before it
            out[-1] = Request(out[-1].intent, f"{out[-1].text} {clause}")
        else:
            before = f"{before} {clause}"
    kinds = {r.intent for r in out}
    if "book" in kinds:
        # "book a dinner for 40. 6 of them are vegetarian" is one booking with its numbers
        parts = {"book", "dietary", "menu", "guests"}
        whole = " ".join(r.text for r in out if r.intent in parts)
        first = next(i for i, r in enumerate(out) if r.intent in parts)
        out = [r for r in out if r.intent not in parts]
        out.insert(first, Request("book", whole))
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

"""Reading customers' English: numbers, postcodes, days, slots, flowers, addresses, answers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

CUSTOMER_RE = re.compile(r"\bBB\s*-?\s*(\d{4})\b", re.I)
ORDER_RE = re.compile(r"\bOR\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
# a district alone ("BS31"), written in capitals as postcodes are
DISTRICT_RE = re.compile(r"\b([A-Z]{1,2}\d{1,2}[A-Z]?)\b(?!\s*\d[A-Za-z]{2}\b)")
MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
MONTH = (
    r"(january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
)
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b",
    re.I,
)
RELATIVE_RE = re.compile(r"\b(today|tonight|this (?:morning|afternoon)|tomorrow)(?:'s)?\b", re.I)
BARE_DAY_RE = re.compile(r"\b(mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)day\b", re.I)
# a day said as the old one ("from Friday", "instead of Friday", "delivered on Monday")
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bdue(?: on)?|"
    r"\bdelivered(?: on)?|\barrived(?: on)?|\bcame(?: on)?|\bordered for|\bbooked (?:in )?"
    r"(?:on|for))\s*(?:the\s+|my\s+|on\s+|last\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra|cost))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
# a cancellation only for a full refund
REFUND_ONLY = re.compile(
    r"\bonly if (?:i|we) (?:get|can get) (?:a full refund|(?:all )?my money back)|"
    r"\bif (?:i|we) (?:can'?t|don'?t|won'?t) get (?:a full refund|(?:all )?my money back)",
    re.I,
)
SIZES = {
    "standard": r"\bstandard|\bregular|\bmedium|\bsmall|\bclassic size",
    "large": r"\blarge|\bbig\b|\bbigger",
    "luxe": r"\bluxe|\bluxury|\bdeluxe",
}
NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
# product words; a wreath is a funeral wreath when the message speaks of a funeral
PRODUCT_WORDS: list[tuple[str, str]] = [
    ("bridal", r"\bbridal(?:\s+bouquet)?\b|\bbride'?s\s+bouquet\b"),
    ("buttonhole", r"\bbutton-?\s?holes?\b"),
    ("sympathy", r"\bsympathy\s+(?:bouquet|flowers|arrangement)\b"),
    ("wreath", r"\b(?:funeral\s+|christmas\s+|door\s+|christmas\s+door\s+)?wreaths?\b"),
    ("roses", r"\b(?:classic\s+)?(?:red\s+)?roses?\b"),
    ("seasonal", r"\bseasonal(?:\s+hand[- ]?tied)?\b|\bhand[- ]?tied\b"),
    ("peony", r"\b(?:peony\s+blush|peon(?:y|ies))\b"),
    ("lily", r"\b(?:white\s+)?lil(?:y|ies)(?:\s+arrangement)?\b"),
    ("orchid", r"\b(?:potted\s+)?orchids?\b"),
    ("ranunculus", r"\branunculus(?:\s+posy)?\b"),
]
STREET = (
    r"(?:Road|Rd|Street|St|Lane|Avenue|Close|Way|Place|Crescent|Terrace|Gardens|Drive|"
    r"Hill|Court|Row|Square|Walk|Park|Grove|View|Mews|Parade|Buildings|Vale)"
)
ADDRESS_RE = re.compile(
    r"\b(\d{1,4}[A-Za-z]?),?\s+((?:[A-Za-z'’-]+\s+){0,3}" + STREET + r")\b", re.I
)
NOT_NAME = {
    "st",
    "church",
    "funeral",
    "directors",
    "classic",
    "red",
    "roses",
    "seasonal",
    "hand",
    "bouquet",
    "bath",
    "peony",
    "blush",
    "white",
    "lily",
    "potted",
    "orchid",
    "bridal",
    "road",
    "street",
    "lane",
    "square",
    "hill",
    "december",
    "january",
    "mum",
    "saturday",
    "monday",
    "friday",
    "thursday",
    "wednesday",
    "tuesday",
    "sunday",
    "christmas",
    "happy",
    "love",
}
RECIPIENT_RE = re.compile(
    r"\b(?:for|to)\s+(?:(?:my|our|his|her)\s+[a-z]+(?:'s)?,?\s+)?"
    r"([A-Z][a-z]+(?:[ -][A-Z][a-z'’-]+){1,2})\b"
)
QUOTED_RE = re.compile(r"(?:^|(?<=[\s:(—-]))[\"“‘'](.+?)[\"”’'](?=\s*(?:[.,;!?)—-]|and\b|$))", re.S)
NO_CARD = re.compile(
    r"\s*(?:no\b|none\b|nothing\b|leave it blank|blank\b|we don'?t need|i don'?t need|"
    r"without)(?![^.]*\b(?:say|saying|read)\b)",
    re.I,
)
CARD_COLON_RE = re.compile(r"\b(?:card|message)(?: message)?\s*:\s*(.+)$", re.I)
CARD_SAYS_RE = re.compile(
    r"\bcard\b[^.?!\"“‘']{0,30}?\b(?:say|saying|says|read|reading|reads)\s*:?\s+(.+)$", re.I
)


def customers(text: str) -> list[str]:
    return [f"BB{m.group(1)}" for m in CUSTOMER_RE.finditer(text)]


def orders(text: str) -> list[str]:
    return [f"OR{m.group(1)}" for m in ORDER_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in POSTCODE_RE.finditer(text)]


def districts(text: str) -> list[str]:
    """Postcode districts said, from full postcodes or alone ("BS31")."""
    found = [(m.start(), m.group(1).upper()) for m in POSTCODE_RE.finditer(text)]
    found += [
        (m.start(), m.group(1))
        for m in DISTRICT_RE.finditer(text)
        if not re.fullmatch(r"BB\d+|OR\d+", m.group(1))
    ]
    return [d for _, d in sorted(found)]


# -- days and slots --------------------------------------------------------------------------
def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day in the past months is next year's ("9 January" said in December)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def _day_mentions(text: str, today: date) -> list[tuple[int, date]]:
    """Every day said, with where it was said: dates, 'today'/'tomorrow', bare weekdays."""
    found: list[tuple[int, date]] = []
    spans = []
    for m in DATE_RE.finditer(text):
        spans.append((m.start(), m.end()))
        d = _date(m, today)
        if d is not None:
            found.append((m.start(), d))
    for m in RELATIVE_RE.finditer(text):
        plus = 1 if m.group(1).lower() == "tomorrow" else 0
        found.append((m.start(), today + timedelta(days=plus)))
    for m in BARE_DAY_RE.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        wanted = next(i for i, w in enumerate(WEEKDAYS) if w.startswith(m.group(1).lower()[:3]))
        ahead = (wanted - today.weekday()) % 7 or 7
        found.append((m.start(), today + timedelta(days=ahead)))
    return sorted(found)


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; unless all_said, those said as the old one are dropped."""
    found = _day_mentions(text, today)
    if not all_said:
        kept = [(at, d) for at, d in found if not OLD_MARK.search(text[max(0, at - 24) : at])]
        found = kept
    return [d for _, d in found]


def slot(text: str) -> str | None:
    """The last slot said: morning or afternoon."""
    found = None
    for m in re.finditer(r"\b(morning|afternoon|am|a\.m\.|pm|p\.m\.|lunchtime)\b", text, re.I):
        word = m.group(1).lower()
        found = "morning" if word in {"morning", "am", "a.m."} else "afternoon"
    return found


# -- flowers ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mention:
    """A product said: its id, the size and quantity said with it, where it was said."""

    product: str
    size: str | None
    qty: int
    start: int


def size_of(text: str) -> str | None:
    for size, pattern in SIZES.items():
        if re.search(pattern, text, re.I):
            return size
    return None


def _qty(before: str) -> int:
    m = re.search(
        r"\b(\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
        r"twelve)\s+(?:[a-z-]+\s+){0,2}$",
        before,
        re.I,
    )
    if m is None:
        return 1
    word = m.group(1).lower()
    return int(word) if word.isdigit() else NUMBERS[word]


def products(text: str) -> list[Mention]:
    """The products said, in order, each with the size and quantity said before (or just after)."""
    hits: list[tuple[int, int, str]] = []
    for product, pattern in PRODUCT_WORDS:
        for m in re.finditer(pattern, text, re.I):
            if not any(a <= m.start() < b for a, b, _ in hits):
                hits.append((m.start(), m.end(), product))
    hits.sort()
    funeral = bool(re.search(r"\bfuneral|\bsympathy|\bpassed away|\bcondolence", text, re.I))
    out: list[Mention] = []
    previous = 0
    for i, (start, end, product) in enumerate(hits):
        if product == "wreath":
            said = text[start:end].lower()
            product = (
                "funeral-wreath"
                if "funeral" in said or (funeral and "christmas" not in said and "door" not in said)
                else "door-wreath"
            )
        before = text[previous:start]
        nxt = hits[i + 1][0] if i + 1 < len(hits) else len(text)
        after = text[end : min(nxt, end + 16)]
        size = _nearest_size(before) or size_of(re.split(r"[.;!?]", after)[0])
        out.append(Mention(product, size, _qty(text[max(previous, start - 30) : start]), start))
        previous = end
    return out


def _nearest_size(before: str) -> str | None:
    best, where = None, -1
    for size, pattern in SIZES.items():
        for m in re.finditer(pattern, before, re.I):
            if m.start() > where:
                best, where = size, m.start()
    return best


# -- addresses, names, cards -------------------------------------------------------------------
def addresses(text: str) -> list[tuple[str, str]]:
    """(house and street, postcode) pairs said, in order."""
    out = []
    for pc in POSTCODE_RE.finditer(text):
        before = text[max(0, pc.start() - 80) : pc.start()]
        streets = list(ADDRESS_RE.finditer(before))
        if not streets:
            continue
        s = streets[-1]
        out.append((f"{s.group(1)} {s.group(2)}", f"{pc.group(1).upper()} {pc.group(2).upper()}"))
    return out


def address_answer(text: str) -> tuple[str, str] | None:
    """An address given as an answer: the street part, or what comes before the postcode."""
    said = addresses(text)
    if said:
        return said[-1]
    pcs = list(POSTCODE_RE.finditer(text))
    if not pcs:
        return None
    before = text[: pcs[-1].start()].strip(" ,.")
    before = re.sub(r"^(?:it'?s|to|the address is|that'?s)\s+", "", before, flags=re.I)
    line = before.split(",")[0].strip()
    return (line, f"{pcs[-1].group(1).upper()} {pcs[-1].group(2).upper()}") if line else None


def recipient(text: str) -> str | None:
    """A recipient's full name said after 'for' or 'to' ("to my mum, Jean Harris")."""
    for m in RECIPIENT_RE.finditer(text):
        words = re.split(r"[ -]", m.group(1))
        if not any(w.lower().strip("'’s") in NOT_NAME or w.lower() in NOT_NAME for w in words):
            return m.group(1)
    return None


def name_answer(text: str) -> str:
    """A name given as an answer: after 'for'/'to', the longest run of capitalised words, or
    the answer without the words around it."""
    said = recipient(text)
    if said:
        return said
    runs = re.findall(r"[A-Z][\w'’&.-]*(?:\s+(?:&\s+)?[A-Z][\w'’&.-]*)+", text)
    if runs:
        return max(runs, key=len)
    said = re.sub(
        r"^(?:it'?s|they'?re|to|for|the recipient is|her name is|his name is|"
        r"their name is|that'?s|please)\s+",
        "",
        text.strip(),
        flags=re.I,
    )
    return said.strip(" .!\"'“”")


def card_message(text: str) -> str | None:
    """The words for a card: in quotes, or after 'the card should say'."""
    quoted = [m.group(1).strip() for m in QUOTED_RE.finditer(text)]
    if quoted:
        return quoted[-1]
    m = CARD_SAYS_RE.search(text) or CARD_COLON_RE.search(text)
    return m.group(1).strip().rstrip(".") if m else None


def card_answer(text: str) -> str:
    """The card's words given as an answer; '' for no card."""
    if NO_CARD.match(text):
        return ""
    said = card_message(text)
    if said:
        return said
    said = re.sub(
        r"^(?:it should say|make it|please put|put|it'?s|just)\s*:?\s+",
        "",
        text.strip(),
        flags=re.I,
    )
    return said.strip().strip("\"'“”‘’").strip()


# -- answers -------------------------------------------------------------------------------------
def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|change|cancel|go ahead)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|happy|perfect|great|"
        r"lovely|that works|alright|all right|send it|place it|order it)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- requests --------------------------------------------------------------------------------
FLOWERS = (
    r"(?:bouquet|roses?|flowers|wreath|lil(?:y|ies)|orchids?|seasonal|hand-tied|"
    r"button-?holes?|peon(?:y|ies)|posy|arrangement)"
)
INTENTS: list[tuple[str, str]] = [
    (
        "complaint",
        r"\bwilt|\bdroop|\bdead\b|\bdying\b|\bbrown(?:ing)?\b|\bcomplain|\bdamaged\b|"
        r"\bnot fresh\b",
    ),
    ("cancel", r"\bcancel"),
    (
        "quote",
        r"\bhow much (?:would|will|does|is|for|do)\b|\bdo you deliver\b|\bwhat(?:'s| is| "
        r"would be) the (?:delivery|price|cost)\b|\bdelivery (?:charge|cost|fee) (?:to|for)\b",
    ),
    ("swap", r"\bswap|\bsubstitut|\bout of stock\b|\breplace (?:the |them |it )?(?:\w+ )?with\b"),
    (
        "card",
        r"\b(?:change|update|edit|correct|fix|reword|alter)\b.{0,30}\b(?:card|message)\b|"
        r"\bcard (?:message )?(?:to|should|could|must) (?:say|read)\b|\bnew (?:card )?message\b",
    ),
    (
        "address",
        r"\b(?:change|update|correct|new|different)\b.{0,30}\baddress\b|\bdeliver(?:ed)? "
        r"(?:it |them )?to (?:a different|another|my new)\b",
    ),
    (
        "lookup",
        r"\bwhen (?:is|are|will|does|do|it'?s|they'?re|it is|they are)\b|\btell me when\b|"
        r"\bwhat (?:does )?the card says?\b|\bwhat(?:'s| is) on the card\b|\bstatus\b|"
        r"\bwhere(?:'s| is) my order\b|\bcheck (?:on )?(?:my|the) order\b",
    ),
    (
        "move",
        r"\bmove\b|\bmoved to\b|\bbe moved\b|\breschedule|\bpostpone|\bbring (?:it |them )?"
        r"forward|\b(?:put|push) (?:it |them )?back\b|\bchange the (?:date|day|slot|delivery "
        r"(?:date|day|slot))\b|\binstead of\b",
    ),
    (
        "order",
        r"\b(?:order|send|deliver|book|get|buy|like|want|need)\b.{0,80}\b"
        + FLOWERS
        + r"\b|\b(?:bouquet|wreath|button-?holes?)\b",
    ),
]
SPLIT = re.compile(
    r"(?<=[!?;])\s+(?=[A-Z])|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"send|swap|set|let|what|how|tell)\b)",
    re.I,
)
# quoted card words are not read for requests ("'Welcome to your new home'" is no address)
NO_QUOTES = re.compile(r"[\"“‘'][^\"”’']{3,}?[\"”’'](?=\s*(?:[.,;!?)]|and\b|$))")


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the words it was said in."""

    intent: str
    text: str


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits)."""
    out: list[Request] = []
    for clause in SPLIT.split(message):
        plain = NO_QUOTES.sub(" ", clause)
        for intent, pattern in INTENTS:
            if re.search(pattern, plain, re.I):
                out.append(Request(intent, clause))
                break
    kinds = {r.intent for r in out}
    if kinds == {"order", "card"}:
        # a card said with a new order is that order's card
        out = [r for r in out if r.intent != "card"]
    elif kinds & {"move", "cancel", "swap", "address", "complaint", "card", "lookup"}:
        # "my order" names the order being changed, not a new one
        out = [r for r in out if r.intent != "order"]
    if "lookup" in kinds and {r.intent for r in out} - {"lookup"}:
        out = [r for r in out if r.intent != "lookup"]
    if len({r.intent for r in out}) == 1:
        # one request: every clause of the message is its detail (a day said before it)
        out = [Request(out[0].intent, message)]
    return out


# -- saying things -------------------------------------------------------------------------------
def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

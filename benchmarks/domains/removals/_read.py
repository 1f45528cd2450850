"""Reading the customer's words: references, postcodes, dates, rooms, volumes, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

REF_RE = re.compile(r"\bPK\s*-?\s*(\d{5})\b", re.I)
BARE_REF_RE = re.compile(r"\b(\d{5})\b")
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d{1,2}[A-Z]?)\s*(\d[A-Z]{2})\b", re.I)
MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
            ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
            ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
            ("dec", "december"),
        ]
    )
    for name in names
}  # fmt: skip
MONTH = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + ")"
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b(?:,?\s+(\d{4}))?"
    r"|" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?"
    r"|\b(\d{4})-(\d\d)-(\d\d)\b",
    re.I,
)
# A value said as the old or wrong one ("from the 8th", "not 20 January") is dropped.
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bold|\bwas|\bwrong|\bon)\s*"
    r"(?:the\s+|my\s+|it'?s\s+)?$",
    re.I,
)
NUM = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "first": 1, "second": 2, "third": 3,
    "fourth": 4, "fifth": 5, "sixth": 6, "fortnight": 2,
}  # fmt: skip
NUMBER = r"(\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)"


def _keep(matches: list[re.Match[str]], text: str) -> list[re.Match[str]]:
    kept = [m for m in matches if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
    return kept or matches


def _num(word: str) -> int:
    return int(word) if word.isdigit() else NUM[word.lower()]


def refs(text: str, *, bare: bool = False) -> list[str]:
    found = [f"PK{m.group(1)}" for m in REF_RE.finditer(text)]
    if not found and bare:
        found = [f"PK{m.group(1)}" for m in BARE_REF_RE.finditer(text)]
    return found


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1)} {m.group(2)}".upper() for m in POSTCODE_RE.finditer(text)]


def from_postcode(text: str, *, asked: bool) -> str | None:
    """The postcode moved FROM: when asked, the last said; else one said after "from"."""
    found = list(POSTCODE_RE.finditer(text))
    for m in found:
        before = text[max(0, m.start() - 40) : m.start()].lower()
        if asked or re.search(r"\bfrom\b|\bcurrent|\bold\b|\bpostcode (?:is|was)\b", before):
            if not re.search(r"\bto\s+(?:\S+\s+){0,5}$", before) or asked:
                return f"{m.group(1)} {m.group(2)}".upper()
    return None


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month, year = int(g[0]), MONTHS[g[1].lower()], g[2]
        elif g[3]:
            day, month, year = int(g[4]), MONTHS[g[3].lower()], g[5]
        else:
            return date(int(g[6]), int(g[7]), int(g[8]))
        if year:
            return date(int(year), month, day)
        guess = date(today.year, month, day)
        return guess if guess >= today - timedelta(days=31) else date(today.year + 1, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Dates in the order said; values said as the old one are dropped unless `all_said`."""
    found = [m for m in DATE_RE.finditer(text) if _date(m, today)]
    chosen = found if all_said else _keep(found, text)
    return [d for m in chosen if (d := _date(m, today)) is not None]


def rooms(text: str) -> int | None:
    found = re.findall(NUMBER + r"\s+(?:\w+\s+)?(?:rooms?|bedrooms?)\b", text, re.I)
    bare = re.fullmatch(r"\s*(?:just\s+)?" + NUMBER + r"\W*(?:please\W*)?", text, re.I)
    return _num(found[-1]) if found else (_num(bare.group(1)) if bare else None)


def volume(text: str) -> int | None:
    found = re.findall(r"(\d{1,2})\s*(?:m3|m³|cubic met(?:re|er)s?|cu\.? ?m)\b", text, re.I)
    bare = re.fullmatch(r"\s*(?:about\s+)?(\d{1,2})\W*", text)
    return int(found[-1]) if found else (int(bare.group(1)) if bare else None)


def removing(text: str) -> bool:
    return bool(
        re.search(
            r"\b(?:remove|take (?:off|out)|leave (?:\w+ )?behind|no longer|not taking|fewer|"
            r"less|selling|sold|giving away|drop)\b",
            text,
            re.I,
        )
    )


def weeks(text: str) -> int | None:
    low = text.lower()
    if re.search(r"\bfortnight\b", low):
        return 2
    found = re.findall(NUMBER + r"\s+weeks?\b", low)
    bare = re.fullmatch(r"\s*(?:just\s+)?" + NUMBER + r"\W*(?:please\W*)?", low)
    return _num(found[-1]) if found else (_num(bare.group(1)) if bare else None)


def floors(text: str) -> int | None:
    low = text.lower()
    if re.search(r"\bground floor\b", low):
        return 0
    found = re.findall(
        r"\b(\d|first|second|third|fourth|fifth|sixth|one|two|three|four|five|six)"
        r"(?:st|nd|rd|th)?[- ](?:floor|flights?|storeys?)",
        low,
    )
    bare = re.fullmatch(r"\s*(\d|one|two|three|four|five|six)\W*", low)
    return _num(found[-1]) if found else (_num(bare.group(1)) if bare else None)


def parking(text: str) -> bool:
    return bool(re.search(r"\bparking\b|\bpermit\b|\bsuspension\b", text, re.I))


def value_pence(text: str) -> int | None:
    found = re.findall(r"£\s?(\d[\d,]*(?:\.\d\d)?)|\b(\d[\d,]*)\s*(?:pounds|quid)\b", text)
    if not found:
        return None
    amount = (found[-1][0] or found[-1][1]).replace(",", "")
    return round(float(amount) * 100)


DAMAGE = r"(?:damaged|broken|scratched|cracked|smashed|dented|chipped|snapped|ripped|torn)"


def item(text: str) -> str | None:
    """The damaged item, from "my oak wardrobe was scratched" or "a cracked mirror"."""
    lead = r"\b(?:the|my|our|a|an)\s+((?:[a-z]+\s+){0,3}?[a-z]+),?\s+(?:which\s+|that\s+)?"
    m = re.search(
        lead + r"(?:was|were|got|is|has been|arrived)\s+(?:\w+\s+)?" + DAMAGE, text, re.I
    ) or re.search(
        r"\b" + DAMAGE + r"\s+(?!(?:in|during|on|by|at|when|while|and|it)\b)([a-z]+)\b",
        text,
        re.I,
    )
    return m.group(1).lower() if m else None


def phone(text: str) -> str | None:
    found = re.findall(r"(?<!\d)(0\d{3,4}[\s-]?\d{3}[\s-]?\d{3,4})(?!\d)", text)
    found = [f for f in found if len(re.sub(r"\D", "", f)) == 11]
    if not found:
        return None
    digits = re.sub(r"\D", "", found[-1])
    return f"{digits[:5]} {digits[5:]}"  # the house style: 07700 900112


def email(text: str) -> str | None:
    found = re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", text)
    return found[-1].lower().rstrip(".") if found else None


def answer(text: str) -> str | None:
    low = text.lower().strip()
    if re.search(
        r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|think about|not yet|"
        r"one moment)\b",
        low,
    ):
        return "hedge"
    if re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now|never mind)", low) or re.search(
        r"\b(?:don'?t (?:do|bother|change|cancel|move|want|add)|leave it|rather not|forget it|"
        r"not then|in that case,? no|i'?ll keep|rather keep|keep (?:it|the|my)|not worth it)\b",
        low,
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm(?:ed)?|do it|fine|"
        r"that'?s (?:right|correct|great)|correct|sounds good|agreed|of course|please)\b",
        low,
    ):
        return "yes"
    return None


def question(text: str) -> bool:
    """A question about a proposal ("Will my deposit come back?"), not an answer."""
    low = text.strip().lower()
    return low.endswith("?") and bool(
        re.match(
            r"(?:and |but |so |sorry,? )?(?:can|could|will|would|is|are|do|does|did|what|how|"
            r"when|which|why|where|who|have|has)\b",
            low,
        )
    )


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


def dont_know(text: str) -> bool:
    return bool(
        re.search(
            r"\b(?:don'?t|do not|doesn'?t|can'?t|cannot|haven'?t|not sure|never)\b.*"
            r"\b(?:know|remember|have|got|sure)\b|\bno idea\b",
            text,
            re.I,
        )
    )


# -- requests --------------------------------------------------------------------------------
INTENTS: list[tuple[str, str]] = [
    ("claim", r"\bclaim\b|\b" + DAMAGE + r"\b|\bdamage"),
    ("contact", r"\bphone\b|\bmobile\b|\bemail\b|\bcontact (?:number|details)\b|@"),
    ("cancel", r"\bcancel(?!\s+that)|\bcall off\b|\bno longer need (?:the|my|a) (?:move|removal)"),
    ("storage", r"\bstorage\b|\bstore\b|\bwarehouse\b"),
    ("packing", r"\bpacking\b|\bpack (?:up|my|our|everything)\b|\bpackers\b"),
    ("access", r"\bstairs\b|\blift\b|\bfloor\b|\bflights?\b|\bparking\b|\bpermit\b|\baccess\b"),
    (
        "items",
        r"\bitems?\b|\bm3\b|m³|\bcubic\b|\bpiano\b|\bwardrobe\b|\bsofa\b|\bfurniture\b|"
        r"\b(?:add|adding|extra|more)\b.*\b(?:things|stuff|boxes)\b",
    ),
    (
        "date",
        r"\b(?:change|move|reschedule|rearrange|push|bring|switch)\b.*\b(?:date|day|to)\b|"
        r"\bpostpone|\bdifferent (?:day|date)|\bdate\b",
    ),
    (
        "lookup",
        r"\bwhen is\b|\bwhat(?:'s| is) (?:my|the)\b|\bdetails\b|\bhow much\b|"
        r"\bconfirm (?:my|the)\b|\bwhich van\b|\bhow many (?:movers|men|people|crew)\b|\bcrew\b",
    ),
]
NOT_CANCEL = re.compile(r"\b(?:don'?t|do not|not|never|rather not)\s+(?:want to\s+)?cancel", re.I)
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d like|i want|i need|i'?d also|add|change|update|move|"
    r"cancel|book|put|switch|get|my|i'?m|tell me|let me know|what|when|store)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    intent: str
    text: str


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits)."""
    out: list[Request] = []
    for clause in SPLIT.split(message):
        for intent, pattern in INTENTS:
            if re.search(pattern, clause, re.I):
                if intent == "cancel" and NOT_CANCEL.search(clause):
                    continue  # "I don't want to cancel" is no request to cancel
                out.append(Request(intent, clause))
                break
    if len({r.intent for r in out}) == 1:
        return [Request(out[0].intent, message)]
    return out


def say_date(iso: str) -> str:
    day = date.fromisoformat(iso[:10])
    return f"{day:%A} {day.day} {day:%B %Y}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

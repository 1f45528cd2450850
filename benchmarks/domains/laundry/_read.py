"""Reading the customer's words: order numbers, emails, slots, items, values, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

REF_RE = re.compile(r"\bPC\s*-?\s*(\d{5})\b", re.I)
BARE_REF_RE = re.compile(r"\b(\d{5})\b")
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
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
DATE_RE = re.compile(
    r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b"
    r"|\b" + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b"
    r"|\b(\d{4})-(\d\d)-(\d\d)\b"
    r"|\b(today|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.I,
)
# "2 to 4", "4-6pm", "14:00-16:00", "between 10am and 12"
WINDOW_RE = re.compile(
    r"\b(\d{1,2})(?:[:.]00)?\s*(am|pm)?\s*(?:-|–|to|until|till|and)\s*(\d{1,2})(?:[:.]00)?\s*"
    r"(am|pm)?(?!\s*(?:kg|shirts?|suits?|items?|\d))",
    re.I,
)
SINGLE_RE = re.compile(r"\b(\d{1,2})(?::00)?\s*(am|pm)\b|\b(\d{2}):00\b", re.I)
# A value said as the old or wrong one ("not 10 to 12", "instead of Tuesday") is dropped.
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bold|\bwas|\bwrong|\bis)\s*"
    r"(?:the\s+|my\s+|it'?s\s+|at\s+)?$",
    re.I,
)
NUM = {
    "a": 1, "an": 1, "one": 1, "another": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2,
}  # fmt: skip
NUMBER = r"(\d{1,2}|a couple of|an?|another|one|two|three|four|five|six|seven|eight|nine|ten)"
ITEM_WORDS = {
    "leather jacket": r"leather jackets?",
    "shirt": r"shirts?|blouses?",
    "trousers": r"(?:pairs? of )?trousers",
    "dress": r"dress(?:es)?",
    "suit": r"suits?",
    "coat": r"coats?",
    "duvet": r"duvets?",
}
ITEM = "(" + "|".join(ITEM_WORDS.values()) + ")"


def _num(word: str) -> int:
    return int(word) if word.isdigit() else NUM[word.lower()]


def refs(text: str, *, bare: bool = False) -> list[str]:
    found = [f"PC{m.group(1)}" for m in REF_RE.finditer(text)]
    if not found and bare:
        found = [f"PC{m.group(1)}" for m in BARE_REF_RE.finditer(text)]
    return found


def email(text: str) -> str | None:
    found = EMAIL_RE.findall(text)
    return found[-1].lower().rstrip(".") if found else None


def postcode(text: str) -> str | None:
    found = POSTCODE_RE.findall(text)
    return f"{found[-1][0]} {found[-1][1]}".upper() if found else None


def address(text: str) -> str | None:
    """The street line of a new address: "Flat 3, 14 Clapham Road" or "14 Clapham Road"."""
    m = re.search(
        r"((?:flat \w+,?\s+)?\d+[a-z]?\s+(?:[A-Z][a-z']+\s+){1,3}(?:Road|Street|Lane|Avenue|"
        r"Grove|Hill|Rise|Place|Square|Gardens|Terrace|Way|Close|Crescent|Walk|Park))\b",
        text,
        re.I,
    )
    return m.group(1).strip(" ,") if m else None


def _day(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()]
        elif g[4]:
            return date(int(g[4]), int(g[5]), int(g[6]))
        else:
            word = g[7].lower()
            if word == "today":
                return today
            if word == "tomorrow":
                return today + timedelta(days=1)
            ahead = (WEEKDAYS.index(word) - today.weekday()) % 7
            return today + timedelta(days=ahead or 7)
        guess = date(today.year, month, day)
        return guess if guess >= today - timedelta(days=31) else date(today.year + 1, month, day)
    except (ValueError, KeyError):
        return None


def days(text: str, today: date) -> list[date]:
    """Days named, in the order said; a weekday just before a date counts once."""
    found = [m for m in DATE_RE.finditer(text) if _day(m, today)]
    out: list[date] = []
    for i, m in enumerate(found):
        nxt = found[i + 1] if i + 1 < len(found) else None
        if m.group(8) and nxt is not None and not nxt.group(8) and nxt.start() - m.end() <= 5:
            continue  # "Thursday 10 December": the date that follows says it
        day = _day(m, today)
        if day is not None:
            out.append(day)
    return out


def _start(h1: int, ap1: str | None, h2: int | None, ap2: str | None) -> int:
    ap = (ap1 or "").lower()
    if ap == "pm" and h1 < 12:
        h1 += 12
    elif not ap and (ap2 or "").lower() == "pm" and h2 is not None and h2 <= 12 and h1 < 12:
        h1 = h1 + 12 if h1 + 2 != 12 else h1  # "10 to 12pm" is the morning's last slot
    elif not ap and h1 < 8:
        h1 += 12  # nobody means a 2am slot: "2 to 4" is the afternoon
    return h1


def _windows(text: str) -> list[tuple[int, int, int]]:
    """(position, end, start hour) of each slot said: windows, then single times."""
    found: list[tuple[int, int, int]] = []
    for m in WINDOW_RE.finditer(text):
        h1, h2 = int(m.group(1)), int(m.group(3))
        if h1 <= 23 and h2 <= 23 and (h2 - h1) % 12 == 2:
            found.append((m.start(), m.end(), _start(h1, m.group(2), h2, m.group(4))))
    for m in SINGLE_RE.finditer(text):
        if any(a <= m.start() < b for a, b, _ in found):
            continue
        hour = int(m.group(3)) if m.group(3) else _start(int(m.group(1)), m.group(2), None, None)
        found.append((m.start(), m.end(), hour))
    return sorted(found)


def hours(text: str) -> list[int]:
    """Slot start hours said, in order: "2 to 4" -> 14, "10am-12" -> 10, "6pm" -> 18."""
    return [h for _, _, h in _windows(text)]


def slot_hours(text: str, *, all_said: bool = False) -> list[int]:
    """The start hours of slots said; one said as the old slot is dropped unless `all_said`."""
    found = _windows(text)
    if all_said:
        return [h for _, _, h in found]
    kept = [h for pos, _, h in found if not OLD_MARK.search(text[max(0, pos - 24) : pos])]
    return kept or [h for _, _, h in found]


def items(text: str) -> list[tuple[str, int]]:
    """Items and counts said ("2 shirts and a suit"); "3 kg of washing" is ("wash", 3)."""
    out: list[tuple[str, int]] = []
    for m in re.finditer(NUMBER + r"\s+(?:more\s+|extra\s+|of\s+my\s+|of\s+the\s+)?" + ITEM,
                         text, re.I):  # fmt: skip
        word = m.group(2).lower()
        name = next(k for k, pat in ITEM_WORDS.items() if re.fullmatch(pat, word))
        out.append((name, _num(m.group(1))))
    for m in re.finditer(r"(\d{1,2})\s*(?:kg|kilos?|kilograms?)\b", text, re.I):
        out.append(("wash", int(m.group(1))))
    if not out:
        for m in re.finditer(r"\b(?:the|my|our)\s+(?:\w+\s+)?" + ITEM, text, re.I):
            word = m.group(1).lower()
            name = next(k for k, pat in ITEM_WORDS.items() if re.fullmatch(pat, word))
            out.append((name, 1))
            break  # "the suit ... the coat": only the first is the one meant
    return out


def named_item(text: str) -> str | None:
    """The one item a claim is about: the first item word said."""
    m = re.search(ITEM + r"|\bwash(?:ing)?\b", text, re.I)
    if not m:
        return None
    word = m.group(0).lower()
    return next((k for k, pat in ITEM_WORDS.items() if re.fullmatch(pat, word)), "wash")


def removing(text: str) -> bool:
    return bool(
        re.search(
            r"\b(?:remove|take (?:\w+ ){0,3}(?:off|out)|leave (?:\w+ )?(?:out|off|behind)|"
            r"no longer|fewer|less|drop|don'?t (?:need|want) (?:the|my))\b",
            text,
            re.I,
        )
    )


def lost(text: str) -> bool:
    return bool(re.search(r"\blost\b|\bmissing\b|never came back|didn'?t come back", text, re.I))


def value_pence(text: str) -> int | None:
    found = re.findall(r"£\s?(\d[\d,]*(?:\.\d\d)?)|\b(\d[\d,]*)\s*(?:pounds|quid)\b", text)
    if not found:
        return None
    amount = (found[-1][0] or found[-1][1]).replace(",", "")
    return round(float(amount) * 100)


def promo(text: str) -> str | None:
    found = re.findall(r"\b([A-Z]{4,}\d{1,3})\b", text, re.I)
    return found[-1].upper() if found else None


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
    """A question about a proposal ("Will I be charged?"), not an answer."""
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
    (
        "claim",
        r"\bclaim\b|\bdamaged?\b|\bruined\b|\bshrunk\b|\btorn\b|\bripped\b|\bstained\b|"
        r"\blost\b|\bmissing\b|never came back|didn'?t come back|compensat",
    ),
    ("address", r"\baddress\b|\bmoved (?:house|flat)\b|\bnew flat\b|\bnew house\b"),
    ("cancel", r"\bcancel(?!\s+that)|\bcall off\b|\bdon'?t need the (?:order|collection)\b"),
    ("express", r"\bexpress\b|\b24[- ]hours?\b|\bnext[- ]day\b|\bquicker\b|\bfaster\b|\brush\b"),
    ("promo", r"\bpromo\b|\bdiscount code\b|\bvoucher\b|\bcode\b"),
    ("plus", r"\bpressed plus\b|\bsubscription\b|\bloyalty\b|\bmembership\b|\bsubscribe\b"),
    (
        "lookup",
        r"^\s*(?:and\s+|also\s+)?(?:when(?:'s| is| will)|what time|what(?:'s| is) (?:my|the)|"
        r"how much|where is)\b|\bstatus\b|\bdetails\b|\bfind out\b|\bhow much\b|"
        r"\bwhen (?:is|are|will|you|do)\b|\bwhat (?:it|they|does it) costs?\b",
    ),
    (
        "slot",
        r"\b(?:change|move|reschedule|rearrange|switch|push|bring|swap)\b.*"
        r"\b(?:slot|collection|delivery|pick ?-?up|time|collect|deliver)\b|\bslot\b|"
        r"\bdifferent time\b|\blater time\b|\bearlier time\b|"
        r"\b(?:collect\w*|deliver\w*|pick ?-?up)\b.*\b(?:later|earlier|instead)\b|"
        r"\b(?:later|earlier|another|different)\b.*\b(?:collection|delivery)\b",
    ),
    (
        "items",
        r"\bitems?\b|\bkg\b|\bkilos?\b|" + ITEM + r"|\b(?:add|adding|remove|extra|more)\b.*"
        r"\b(?:things|clothes|washing)\b",
    ),
]
NOT_CANCEL = re.compile(r"\b(?:don'?t|do not|not|never|rather not)\s+(?:want to\s+)?cancel", re.I)
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d like|i want|i need|i'?d also|add|change|update|move|"
    r"cancel|book|put|switch|get|my|i'?m|tell me|let me know|what|when|apply|use|join|sign)\b)",
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


def say_slot(slot: str) -> str:
    """'2026-12-08 10:00' -> 'Tuesday 8 December, 10:00–12:00'."""
    day = date.fromisoformat(slot[:10])
    start = int(slot[11:13])
    return f"{day:%A} {day.day} {day:%B}, {start:02d}:00–{start + 2:02d}:00"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

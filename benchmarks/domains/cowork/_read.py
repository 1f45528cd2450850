"""Reading the customer's words: member numbers, emails, days, times, rooms, names, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

MEMBER_RE = re.compile(r"\bHW\s*-?\s*(\d{4})\b", re.I)
BARE_NUMBER_RE = re.compile(r"\b(\d{4})\b")
BOOKING_RE = re.compile(r"\bBK\s*-?\s*(\d{4})\b", re.I)
INVOICE_RE = re.compile(r"\bINV-?\s*(\d{4})-?(\d{4})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
MONTH_WORD = (
    r"(january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
)
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH_WORD + r"\b|"
    r"\b" + WEEKDAY + MONTH_WORD + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b|"
    r"\b(\d{1,2})/(\d{1,2})(?:/(?:20)?\d\d)?\b|"
    r"\b(today|tomorrow)\b|"
    r"\b(?:(next|this|on)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"(?!,?\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b|,?\s+" + MONTH_WORD + r")",
    re.I,
)
SAME_DAY_RE = re.compile(r"\b(?:that|the same|same) (?:day|date)\b|\bthe day of\b", re.I)
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bold|\bwas|\bis on|\bmeant? not|"
    r"\bbooked (?:on|for)|\bwrong|\bexisting)\s*(?:the\s+|my\s+|it'?s\s+|on\s+)?$",
    re.I,
)
NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "fourteen": 14, "sixteen": 16, "couple": 2, "half": 0,
}  # fmt: skip
NUM = (
    r"(\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"fourteen|sixteen|a couple of|couple of)"
)
ROOM_PATTERNS = [
    ("nectar", r"\bnectar\b|\bphone booth\b|\bbooth\b"),
    ("bee", r"\bbee\b"),
    ("honeycomb", r"\bhoney\s?comb\b"),
    ("hall", r"\bqueen'?s\s+hall\b|\bthe hall\b|\bhall\b"),
]
PLAN_PATTERNS = [
    ("office", r"\bprivate office\b|\boffice plan\b|\boffice\b"),
    ("desk", r"\bfixed desk\b|\bdedicated desk\b|\bfixed\b|\bdesk plan\b"),
    ("flex", r"\bflex(?:ible)?\b|\bhot ?desk(?:ing)?\b"),
]
STOP = {
    "hi", "hello", "yes", "no", "please", "could", "can", "my", "the", "and", "her", "his",
    "i", "it", "she", "he", "they", "thanks", "thank", "ok", "okay", "sorry", "we", "our",
    "hive", "works", "coworking", "dear", "so", "but", "mr", "mrs", "ms", "miss", "name",
    "guest", "guests", "pass", "passes", "day", "new", "booking", "also", "will", "would",
    "is", "not", "actually", "that", "this", "just", "monday", "tuesday", "wednesday",
    "thursday", "friday", "saturday", "sunday", "december", "january", "february", "march",
    "november", "october", "sister", "brother", "husband", "wife", "friend", "colleague",
    "client", "partner", "to", "for", "with", "on", "of", "in", "it's", "that's", "i'm",
    "she's", "he's", "they're", "we're", "from", "room", "bee", "honeycomb", "nectar",
    "queen's", "hall", "flex", "fixed", "desk", "private", "office", "plan", "locker",
    "invoice", "register", "book", "add", "a", "an", "me", "us", "them", "their",
    "visitor", "visitors", "both", "are", "be", "coming", "who", "called", "named",
    "hw", "bk", "email", "member", "number", "membership", "you", "there",
    "morning", "afternoon", "hour", "hours", "one", "two", "guys", "team",
}  # fmt: skip


def _keep(matches: list[re.Match[str]], text: str) -> list[re.Match[str]]:
    """Drop values said as the old or wrong one ("from X", "not X"), when another remains."""
    kept = [m for m in matches if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
    return kept or matches


def members(text: str) -> list[str]:
    return [f"HW{m.group(1)}" for m in _keep(list(MEMBER_RE.finditer(text)), text)]


def bookings(text: str) -> list[str]:
    return [f"BK{m.group(1)}" for m in BOOKING_RE.finditer(text)]


def invoices(text: str) -> list[str]:
    return [f"INV-{m.group(1)}-{m.group(2)}" for m in INVOICE_RE.finditer(text)]


NEW_MARK = re.compile(
    r"(?:\bto|\bnew(?: one| address| email)?(?: is| will be)?|\bnow|"
    r"\bbecome|\bswitch(?:ing)? to|\binstead)\s*:?\s*$",
    re.I,
)


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def identity_emails(text: str) -> list[str]:
    """Emails not said as the new one ("change it to x@y" is not the account's address)."""
    return [
        m.group(0).rstrip(".")
        for m in EMAIL_RE.finditer(text)
        if not NEW_MARK.search(text[max(0, m.start() - 30) : m.start()])
    ]


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[1]:
            day, month = int(g[1]), MONTHS[g[2].lower()[:3]]
        elif g[4]:
            day, month = int(g[5]), MONTHS[g[4].lower()[:3]]
        elif g[6]:
            return date(int(g[6]), int(g[7]), int(g[8]))
        elif g[9]:
            day, month = int(g[9]), int(g[10])
        elif g[11]:
            return today + timedelta(days=0 if g[11].lower() == "today" else 1)
        else:
            target = WEEKDAYS.index(g[13].lower())
            ahead = (target - today.weekday()) % 7 or 7
            if (g[12] or "").lower() == "next" and ahead < 4:
                ahead += 7
            return today + timedelta(days=ahead)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


ORDINAL_RE = re.compile(r"\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b", re.I)


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    found = list(DATE_RE.finditer(text))
    chosen = found if all_said else _keep(found, text)
    out = [d for d in (_date(m, today) for m in chosen) if d is not None]
    if not out:
        for m in ORDINAL_RE.finditer(text):
            day = int(m.group(1))
            month, year = today.month, today.year
            if day < today.day:
                month, year = (1, year + 1) if month == 12 else (month + 1, year)
            try:
                out.append(date(year, month, day))
            except ValueError:
                continue
    return out


def _hour(h: str, ampm: str | None) -> int:
    hour = int(h)
    ampm = (ampm or "").lower()
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    elif not ampm and 1 <= hour <= 7:
        hour += 12
    return hour


RANGE_RE = re.compile(
    r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\s*(?:-|–|to|till|until|and)\s*"
    r"(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?(?:\s*(?:noon|midday))?"
    r"(?!\s*(?:hours?|hrs?|people|guests|months?))\b",
    re.I,
)
TIME_RE = re.compile(
    r"\b(\d{1,2})[:.](\d{2})\s*(am|pm)?|\b(\d{1,2})\s*(am|pm)\b|\b(noon|midday)\b|"
    r"\b(?:at|from)\s+(\d{1,2})\b(?!\s*(?:hours?|people|guests|months?|[/:.]|"
    r"(?:st|nd|rd|th)\b|\s*(?:" + MONTH_WORD[1:-1] + r")))",
    re.I,
)


def times(text: str) -> list[tuple[int, int | None]]:
    """(start hour, end hour or None) for each time or time range said, in order."""
    out: list[tuple[int, tuple[int, int | None]]] = []
    spans: list[tuple[int, int]] = []
    for m in RANGE_RE.finditer(text):
        end_ampm = m.group(6)
        start_ampm = m.group(3) or (
            end_ampm if end_ampm and int(m.group(1)) < int(m.group(4)) else None
        )
        start = _hour(m.group(1), start_ampm)
        end = _hour(m.group(4), end_ampm)
        if not (m.group(3) or m.group(6) or m.group(2) or m.group(5)):
            if re.search(r"\bhours?\b|\bpeople\b", text[m.end() : m.end() + 8], re.I):
                continue
        if start < end <= 24:
            out.append((m.start(), (start, end)))
            spans.append(m.span())
    for m in TIME_RE.finditer(text):
        if any(m.start() < b and m.end() > a for a, b in spans):
            continue
        if m.group(6):
            out.append((m.start(), (12, None)))
            continue
        hour = _hour(m.group(1) or m.group(4) or m.group(7), m.group(3) or m.group(5))
        if hour < 24:
            out.append((m.start(), (hour, None)))
    return [t for _, t in sorted(out)]


def kept_times(text: str) -> list[tuple[int, int | None]]:
    """Times, dropping those said as the old one ("from 10am to 3pm" is a range, kept)."""
    return times(text)


def hours(text: str) -> int | None:
    m = list(re.finditer(NUM + r"\s+(?:whole\s+)?(?:hours?|hrs?)\b", text, re.I))
    if m:
        word = m[-1].group(1).lower().replace(" of", "")
        return int(word) if word.isdigit() else NUMBER_WORDS.get(word.split()[-1], None)
    if re.search(r"\ban hour\b|\bone hour\b|\bhour long\b", text, re.I):
        return 1
    if re.search(r"\bhalf (?:a )?day\b", text, re.I):
        return 4
    return None


def attendees(text: str) -> int | None:
    m = list(
        re.finditer(
            NUM + r"\s+(?:of us|people|persons|attendees|colleagues)\b|"
            r"\b(?:team|group|party) of\s+" + NUM + r"\b",
            text,
            re.I,
        )
    )
    if m:
        word = (m[-1].group(1) or m[-1].group(2)).lower().replace(" of", "")
        return int(word) if word.isdigit() else NUMBER_WORDS.get(word.split()[-1])
    return None


def rooms(text: str) -> list[str]:
    found = []
    for room, pattern in ROOM_PATTERNS:
        for m in re.finditer(pattern, text, re.I):
            if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()]):
                found.append((m.start(), room))
    if not found:
        for room, pattern in ROOM_PATTERNS:
            found += [(m.start(), room) for m in re.finditer(pattern, text, re.I)]
    return [r for _, r in sorted(found)]


def plans(text: str) -> list[str]:
    found = []
    for plan, pattern in PLAN_PATTERNS:
        for m in re.finditer(pattern, text, re.I):
            found.append(
                (m.start(), plan, OLD_MARK.search(text[max(0, m.start() - 24) : m.start()]))
            )
            break
    kept = [(s, p) for s, p, old in found if not old] or [(s, p) for s, p, _ in found]
    return [p for _, p in sorted(kept)]


def months(text: str) -> int | None:
    m = re.search(NUM + r"\s+months?\b", text, re.I)
    if m:
        word = m.group(1).lower().replace(" of", "")
        return int(word) if word.isdigit() else NUMBER_WORDS.get(word.split()[-1])
    if re.search(r"\ba month\b|\bone month\b", text, re.I):
        return 1
    m = re.fullmatch(r"\s*(?:just\s+)?(\d|one|two|three|four|five|six)\W*", text, re.I)
    if m:
        return int(m.group(1)) if m.group(1).isdigit() else NUMBER_WORDS[m.group(1).lower()]
    return None


def month_names(text: str) -> list[int]:
    return [
        MONTHS[m.group(1).lower()[:3]]
        for m in re.finditer(r"\b" + MONTH_WORD + r"\b(?!\s+\d)", text, re.I)
        if not re.search(r"\d\s*(?:st|nd|rd|th)?\s*(?:of\s+)?$", text[: m.start()])
    ]


def amounts(text: str) -> list[int]:
    return [
        round(float(m.group(1).replace(",", "")) * 100)
        for m in re.finditer(r"£\s*(\d[\d,]*(?:\.\d\d)?)", text)
    ]


def key_lost(text: str) -> bool | None:
    low = text.lower()
    if re.search(
        r"\b(?:lost|lose|misplaced|can'?t find|cannot find|missing|don'?t have|haven'?t got|"
        r"no longer have|no key|without the key|gone)\b",
        low,
    ):
        return True
    if re.search(
        r"\b(?:have (?:it|the key)|got (?:it|the key)|hand (?:it|the key) back|"
        r"still have|i do|yes)\b",
        low,
    ):
        return False
    return None


def full_names(text: str) -> list[str]:
    """Capitalised runs of two or more words that look like a person's name."""
    out = []
    for m in re.finditer(r"[A-Z][a-z'-]+(?:\s+(?:[A-Z][a-z'-]+|O'[A-Z][a-z]+))+", text):
        words = m.group(0).split()
        while words and words[0].lower() in STOP:
            words.pop(0)
        while words and words[-1].lower() in STOP:
            words.pop()
        if len(words) >= 2 and not any(w.lower() in STOP for w in words):
            out.append(" ".join(words[:3]))
    if not out:
        for part in re.split(r",|\band\b|&", text):
            bare = re.fullmatch(
                r"\s*(?:it'?s\s+|that'?s\s+|her name is\s+|his name is\s+)?"
                r"([a-z'-]+\s+[a-z'-]+)\W*",
                part,
                re.I,
            )
            if bare and not any(w.lower() in STOP for w in bare.group(1).split()):
                out.append(" ".join(w.capitalize() for w in bare.group(1).split()))
    return out


def answer(text: str) -> str | None:
    low = text.lower().strip()
    if re.search(
        r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|think about|"
        r"not yet|one moment)\b",
        low,
    ):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(
        r"(?:no\b|nope|nah|don'?t|do not|leave it|not now|no thanks|cancel that|keep it)", low
    ) or re.search(
        r"\b(?:don'?t (?:do|go|bother|change|book|add|cancel)|leave it|keep (?:it|the booking)|"
        r"rather not|not worth)\b",
        low,
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|yup|sure|please do|go ahead|ok|okay|confirm(?:ed)?|do it|"
        r"that'?s (?:fine|right|correct|great|ok)|correct|sounds good|fine|agreed|"
        r"absolutely|of course|please|proceed|book it|happy (?:with that|to)|perfect|great|"
        r"lovely|brilliant|that works|alright|all right|go on|yes,?)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(
            r"\b(?:thanks|thank you|cheers|bye|goodbye|that'?s all|nothing else|"
            r"that'?s everything)\b",
            text,
            re.I,
        )
    )


def dont_know(text: str) -> bool:
    return bool(
        re.search(
            r"\b(?:don'?t|do not|doesn'?t|can'?t|cannot|haven'?t|no idea|not sure|"
            r"unsure|never)\b.*\b(?:know|remember|have|got|sure|idea)\b|\bno idea\b",
            text,
            re.I,
        )
    )


# -- requests --------------------------------------------------------------------------------
INTENTS: list[tuple[str, str]] = [
    ("pause", r"\bpaus|\bfreez|\bsuspend|\bon hold\b|\bbreak from\b|\btake a break\b"),
    (
        "dispute",
        r"\bdispute|\bquery (?:a|the|one|this)|\bcharged (?:me )?(?:for|wrongly)|\bovercharg|"
        r"\bwrong(?:ly)? charg|\bshouldn'?t (?:have been|be) (?:charged|on)|\bchallenge|"
        r"\bdidn'?t (?:use|print|have|bring|book)\b.*\b(?:invoice|charge|bill)",
    ),
    (
        "locker_return",
        r"\b(?:return|give (?:up|back)|hand (?:in|back)|end|stop|cancel|"
        r"close|release|no longer need)\b.*\blocker|\blocker\b.*\b(?:back|return|"
        r"no longer|give up|lost (?:the|my) key)",
    ),
    ("locker", r"\blocker"),
    (
        "email",
        r"\b(?:change|update|new|switch|replace|different)\b.*\be-?mail|"
        r"\be-?mail\b.*\b(?:change|update|to be|instead|new|switch)",
    ),
    (
        "plan",
        r"\bupgrad|\bdowngrad|\b(?:change|switch|move|go|swap)\b.*\b(?:plan|membership|"
        r"flex|fixed desk|private office|dedicated desk)\b",
    ),
    ("cancel", r"\bcancel(?!\s+that)|\bcall off\b|\bdon'?t need (?:the|my) (?:room|booking)"),
    (
        "move",
        r"\b(?:move|reschedule|rebook|push|bring forward|put back|shift|change)\b.*"
        r"\b(?:booking|room|meeting|slot|time|to (?:mon|tues|wednes|thurs|fri)day|to the|BK\d)",
    ),
    ("daypass", r"\bday[- ]?pass"),
    ("guest", r"\bguests?\b|\bvisitors?\b|\bguest pass|\bbring(?:ing)? (?:a |my |two )?\w+ in\b"),
    (
        "lookup",
        r"\b(?:what time|when (?:is|does)|details of|look up|check (?:my |the |a )?booking|"
        r"what'?s on|who (?:has )?booked|which room|(?:my|what|which|any) (?:room )?bookings|"
        r"what have i (?:got )?booked)\b|\bBK\s*\d{4}\b",
    ),
    ("invoice", r"\binvoice|\bbill\b|\bstatement"),
    (
        "book",
        r"\bbook(?!ings?\b)|\breserve|\bmeeting room|\b(?:need|want|like|get) (?:a|the) room\b|"
        r"\b(?:room|nectar|honeycomb|queen'?s hall|bee room)\b.*"
        r"\b(?:for|on|at)\b",
    ),
]
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i would|we would|i'?ll|i want|i need|"
    r"we'?d like|add|change|"
    r"update|move|cancel|book|register|rent|return|pause|dispute|upgrade|downgrade|buy|"
    r"get|switch|put|give|hand|sign|my|i'?m)\b)",
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
                out.append(Request(intent, clause))
                break
    intents = {r.intent for r in out}
    if "dispute" in intents:
        out = [r for r in out if r.intent != "invoice"]
    if {"book", "move"} <= intents:
        out = [r for r in out if r.intent != "book"]
    if "lookup" in intents and len(intents) > 1:
        out = [r for r in out if r.intent != "lookup"]
    merged: list[Request] = []
    for r in out:
        same = next((i for i, x in enumerate(merged) if x.intent == r.intent), None)
        if same is None:
            merged.append(r)
        else:
            merged[same] = Request(r.intent, merged[same].text + " " + r.text)
    if len(merged) == 1:
        return [Request(merged[0].intent, message)]
    return merged


def say_day(iso: str) -> str:
    day = date.fromisoformat(iso[:10])
    return f"{day:%A} {day.day} {day:%B}"


def pounds(pence: int) -> str:
    return f"{'-' if pence < 0 else ''}£{abs(pence) / 100:,.2f}"


def hh(hour: int) -> str:
    return f"{hour:02d}:00"


def bare_number(text: str) -> int | None:
    """A reply that is only a number: "3", "three", "just two"."""
    m = re.fullmatch(
        r"\W*(?:just\s+|about\s+|it'?s\s+)?(\d{1,2}|one|two|three|four|five|six|seven|eight|"
        r"nine|ten|eleven|twelve)\W*",
        text,
        re.I,
    )
    if not m:
        return None
    word = m.group(1).lower()
    return int(word) if word.isdigit() else NUMBER_WORDS[word]

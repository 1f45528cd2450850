"""Reading the customer's words: references, surnames, dates, times, vehicles, names, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

REF_RE = re.compile(r"\bFB\s*-?\s*(\d{4})\b", re.I)
BARE_REF_RE = re.compile(r"\b(\d{4})\b")
REG_RE = re.compile(r"\b([A-Z]{2}\d{2})\s?([A-Z]{3})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
LENGTH_RE = re.compile(r"(\d{1,2}(?:\.\d{1,2})?)\s*(?:m|metres?|meters?)\b", re.I)
MONTHS = {"dec": 12, "december": 12, "jan": 1, "january": 1}
WEEKDAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(december|january|dec|jan)"
    r"\b|" + WEEKDAY + r"(december|january|dec|jan)\s+(\d{1,2})(?:st|nd|rd|th)?"
    r"\b|\b(20\d\d)-(\d\d)-(\d\d)\b",
    re.I,
)
TIME_RE = re.compile(r"\b(\d{1,2})[:.](\d{2})\s*(am|pm)?|\b(\d{1,2})\s*(am|pm)\b", re.I)
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bold|\bwas|"
    r"\bbooked (?:on|for)|\bwrong)\s*(?:the\s+|my\s+|it'?s\s+)?$",
    re.I,
)
NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "both": 2,
    "my": 1,
    "our": 1,
    "another": 1,
    "the": 1,
}
PET_WORD = r"(?:dogs?|cats?|pets?|puppy|puppies|kittens?)"
STOP = {
    "hi",
    "hello",
    "yes",
    "no",
    "please",
    "could",
    "can",
    "my",
    "the",
    "and",
    "her",
    "his",
    "i",
    "it",
    "she",
    "he",
    "they",
    "thanks",
    "thank",
    "ok",
    "okay",
    "sorry",
    "we",
    "our",
    "tidewater",
    "ferries",
    "poole",
    "cherbourg",
    "st",
    "malo",
    "dear",
    "so",
    "but",
    "mr",
    "mrs",
    "ms",
    "miss",
    "name",
    "surname",
    "change",
    "passenger",
    "new",
    "booking",
    "also",
    "will",
    "would",
    "is",
    "instead",
    "not",
    "actually",
    "that",
    "this",
    "fb",
    "just",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "december",
    "january",
    "dec",
    "jan",
    "sister",
    "brother",
    "husband",
    "wife",
    "son",
    "daughter",
    "friend",
    "mum",
    "dad",
    "partner",
    "to",
    "for",
    "with",
    "on",
    "of",
    "in",
    "it's",
    "that's",
    "i'm",
    "she's",
    "he's",
    "they're",
    "we're",
    "cousin",
    "from",
}


def _keep(matches: list[re.Match[str]], text: str) -> list[re.Match[str]]:
    """Drop values said as the old or wrong one ("from X", "not X"), when another remains."""
    kept = [m for m in matches if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
    return kept or matches


def refs(text: str) -> list[str]:
    return [f"FB{m.group(1)}" for m in _keep(list(REF_RE.finditer(text)), text)]


def regs(text: str, *, all_said: bool = False) -> list[str]:
    found = list(REG_RE.finditer(text))
    chosen = found if all_said else _keep(found, text)
    return [f"{m.group(1)} {m.group(2)}".upper() for m in chosen]


def lengths(text: str) -> list[float]:
    return [float(m.group(1)) for m in LENGTH_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in _keep(list(EMAIL_RE.finditer(text)), text)]


def _date(m: re.Match[str]) -> date | None:
    if m.group(7):
        day, month, year = int(m.group(9)), int(m.group(8)), int(m.group(7))
    else:
        day = int(m.group(1) or m.group(4))
        month = MONTHS[(m.group(2) or m.group(3)).lower()]
        year = 2026 if month == 12 else 2027
    try:
        return date(year, month, day)
    except ValueError:
        return None


def dates(text: str, *, all_said: bool = False) -> list[date]:
    found = list(DATE_RE.finditer(text))
    chosen = found if all_said else _keep(found, text)
    return [d for d in (_date(m) for m in chosen) if d is not None]


def times(text: str) -> list[str]:
    out = []
    for m in TIME_RE.finditer(text):
        hour = int(m.group(1) or m.group(4))
        minute = int(m.group(2) or 0)
        ampm = (m.group(3) or m.group(5) or "").lower()
        if ampm == "pm" and hour < 12:
            hour += 12
        if hour < 24 and minute < 60:
            out.append(f"{hour:02d}:{minute:02d}")
    return out


def part_of_day(text: str) -> str | None:
    m = re.search(r"\b(morning|afternoon|evening|night|early|late)\b", text, re.I)
    return m.group(1).lower() if m else None


def cabin_type(text: str) -> str | None:
    low = text.lower()
    if re.search(r"\bpet(?:-friendly)?\s+cabin|\bcabin for (?:the|my|our) (?:dog|pet)", low):
        return "pet"
    if re.search(r"\b(?:outside|sea[- ]?view|window|porthole)\b", low):
        return "outside"
    if re.search(r"\binside\b|\binterior\b|\bcheapest\b|\bbasic\b", low):
        return "inside"
    return None


def pet_count(text: str) -> int | None:
    """How many pets the words name: "two dogs" 2, "my dog" 1, "a dog and a cat" 2."""
    low = text.lower()
    total = 0
    for m in re.finditer(r"\b" + PET_WORD + r"\b", low):
        before = re.findall(r"[a-z0-9]+", low[max(0, m.start() - 30) : m.start()])[-3:]
        count = None
        for word in reversed(before):
            if word.isdigit() and len(word) == 1:
                count = int(word)
            elif word in {"my", "our", "the"} and m.group(0).endswith("s"):
                break
            elif word in NUMBERS:
                count = NUMBERS[word]
            if count is not None:
                break
        if count is None and not m.group(0).endswith("s"):
            count = 1
        total += count or 0
    if total:
        return total
    m = re.fullmatch(r"\s*(?:just\s+)?(\d|one|two|three|four)\W*", low)
    if m:
        return int(m.group(1)) if m.group(1).isdigit() else NUMBERS[m.group(1)]
    return None


def full_names(text: str) -> list[str]:
    """Capitalised runs of two or more words that look like a person's name."""
    out = []
    for m in re.finditer(r"[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)+", text):
        words = m.group(0).split()
        while words and words[0].lower() in STOP:
            words.pop(0)
        while words and words[-1].lower() in STOP:
            words.pop()
        if len(words) >= 2 and not any(w.lower() in STOP for w in words):
            out.append(" ".join(words))
    bare = re.fullmatch(r"\s*(?:it'?s\s+|that'?s\s+)?([a-z'-]+(?:\s+[a-z'-]+){1,2})\W*", text, re.I)
    if not out and bare and not any(w.lower() in STOP for w in bare.group(1).split()):
        out.append(" ".join(w.capitalize() for w in bare.group(1).split()))
    return out


def surname(text: str, *, asked: bool) -> str | None:
    if dont_know(text):
        return None
    m = re.search(r"\b(?:surname|last name|family name)(?: is|'s|:)?\s+([A-Za-z'-]+)", text, re.I)
    if m and m.group(1).lower() not in STOP:
        return m.group(1).capitalize()
    m = re.search(r"\bunder (?:the name (?:of )?)?(?:[A-Z][a-z'-]+\s+)?([A-Z][a-z'-]+)", text)
    if m and m.group(1).lower() not in STOP:
        return m.group(1)
    if asked:
        words = [w for w in re.findall(r"[A-Za-z'-]+", text) if w.lower() not in STOP]
        caps = [w for w in words if w[0].isupper()]
        if caps:
            return caps[-1]
        if len(words) == 1:
            return words[0].capitalize()
    return None


def answer(text: str) -> str | None:
    low = text.lower().strip()
    if re.search(
        r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|think about|"
        r"later|not yet|one moment)\b",
        low,
    ):
        return "hedge"
    if re.match(
        r"(?:no\b|nope|nah|don'?t|do not|leave it|not now|no thanks|cancel that)", low
    ) or re.search(r"\b(?:don'?t (?:do|go|bother|change|book|add)|leave it)\b", low):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|yup|sure|please do|go ahead|ok|okay|confirm(?:ed)?|do it|"
        r"that'?s (?:fine|right|correct|great)|correct|sounds good|fine|agreed|"
        r"absolutely|of course|please)\b",
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
            r"unsure|never)\b.*\b(?:know|remember|have|got|sure|idea)\b|"
            r"\bno idea\b",
            text,
            re.I,
        )
    )


# -- requests --------------------------------------------------------------------------------
ACTION = (
    r"(?:add|bring|brings|bringing|take|taking|change|update|swap|switch|replace|new|"
    r"register|put|include|remove|drop|book|travel(?:ling)? with|come with)"
)
INTENTS: list[tuple[str, str]] = [
    ("cancel", r"\bcancel(?!\s+that)"),
    (
        "name",
        r"\bname change|\bchange (?:the |a |my |his |her )?(?:passenger'?s? )?name|"
        r"\b(?:travel(?:ling)?|go(?:ing)?|come|coming|sail(?:ing)?) instead\b|"
        r"\binstead of (?:me|him|her)\b|"
        r"\bin (?:his|her|their|my) place\b|\btransfer (?:the|my|his|her) (?:ticket|place)",
    ),
    ("email", r"\be-?mail"),
    ("cabin", r"\bcabin"),
    (
        "pet",
        rf"\b{ACTION}\b.*\b{PET_WORD}\b|\b{PET_WORD}\b.*\b(?:come|coming|travel|join|too|"
        r"as well|add)|^\W*(?:and )?(?:my|our|a|two|both) " + PET_WORD,
    ),
    (
        "vehicle",
        rf"\b{ACTION}\b.*\b(?:car|vehicle|van|campervan|motorhome|registration)\b|"
        r"\b(?:car|vehicle|van|campervan|motorhome)\b.*\b(?:off|instead|change[sd]?|"
        r"new|registration)\b|" + REG_RE.pattern,
    ),
    (
        "sailing",
        r"\b(?:change|move|switch|swap|rebook|transfer|bring forward|put back|"
        r"postpone|later|earlier)\b.*\b(?:sailing|crossing|ferry|date|day|time|"
        r"booking|trip|travel|to (?:mon|tues|wednes|thurs|fri|satur|sun)day|to the)\b",
    ),
    (
        "lookup",
        r"\b(?:what time|when does|when is|details|look up|check (?:my |the |our )?"
        r"booking|what'?s on)\b",
    ),
]
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d like|i want|i need|we'?d like|add|change|"
    r"update|move|cancel|book|put|switch|remove|take|get|swap|my|our|i'?m)\b)",
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
                if intent == "vehicle" and re.search(
                    rf"{PET_WORD}\b.*\b(?:in|stay)\b.*\bcar\b", clause, re.I
                ):
                    continue
                out.append(Request(intent, clause))
                break
    if len({r.intent for r in out}) == 1:
        return [Request(out[0].intent, message)]
    return out


def say_date(iso: str) -> str:
    day = date.fromisoformat(iso[:10])
    return f"{day:%A} {day.day} {day:%B %Y}"


def say_sailing(s: dict) -> str:
    return (
        f"the {s['depart'][11:]} {s['origin']} to {s['destination']} sailing on "
        f"{say_date(s['depart'])}"
    )


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

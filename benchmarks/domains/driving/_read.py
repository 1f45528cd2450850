"""Reading the customer's words: learner numbers, birth dates, days, times, hours, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

NO_RE = re.compile(r"\bL\s*-?\s*(\d{5})\b", re.I)
BARE_NO_RE = re.compile(r"\b(\d{5})\b")
MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ]
    )
    for m in names
}
MONTH = r"(january|february|march|april|may|june|july|august|september|october|november|" \
    r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(mon|tues|wednes|thurs|fri|satur|sun)day\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b(?:,?\s+(\d{4}))?"
    r"|" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?"
    r"|\b(\d{4})-(\d\d)-(\d\d)\b|\b(\d{1,2})/(\d{1,2})/(\d{4})\b"
    r"|\b(tomorrow)\b|\b(?:this\s+|next\s+|on\s+)?(mon|tues|wednes|thurs|fri|satur|sun)day\b",
    re.I,
)
TIME_RE = re.compile(
    r"\b(\d{1,2})[:.](\d{2})\s*(am|pm)?|\b(\d{1,2})\s*(am|pm)\b|\b(noon|midday)\b"
    r"|\bat\s+(\d{1,2})(?!\s*(?:hours?|hrs?|[:./\d]|(?:st|nd|rd|th)\b))\b"
    r"|\b(\d{1,2})\s*o'?clock\b",
    re.I,
)
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bold|\bwas|\bwrong)\s*"
    r"(?:the\s+|my\s+|it'?s\s+)?$",
    re.I,
)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d{1,2}[A-Z]?)\s*(\d[A-Z]{2})\b", re.I)
STREET = (
    r"(?:Road|Rd|Street|St|Lane|Avenue|Ave|Drive|Close|Way|Terrace|Crescent|Grove|Place|"
    r"Gardens|Court|Row|Walk|Hill|Mount|View|Park|Square|Rise|Vale|Mews|Parade)"
)
ADDRESS_RE = re.compile(r"\b(\d+[A-Za-z]?,?\s+(?:[A-Z][A-Za-z']+\s+){1,3}" + STREET + r")\b")
NUM = {"one": 1, "an": 1, "a": 1, "two": 2, "five": 5, "ten": 10, "twenty": 20}


def _keep(matches: list[re.Match[str]], text: str) -> list[re.Match[str]]:
    """Drop values said as the old or wrong one ("from X", "not X"), when another remains."""
    kept = [m for m in matches if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
    return kept or matches


def learner_nos(text: str, *, bare: bool = False) -> list[str]:
    found = [f"L{m.group(1)}" for m in _keep(list(NO_RE.finditer(text)), text)]
    if not found:
        said = re.finditer(r"\blearner (?:number|no\.?|#)\D{0,12}?(\d{5})\b", text, re.I)
        found = [f"L{m.group(1)}" for m in said]
    if not found and bare:
        found = [f"L{m.group(1)}" for m in BARE_NO_RE.finditer(text)]
    return found


def _date(m: re.Match[str], today: date) -> tuple[date | None, bool]:
    """The date a match names, and whether a year was said."""
    g = m.groups()
    try:
        if g[1]:
            day, month, year = int(g[1]), MONTHS[g[2].lower()], g[3]
        elif g[5]:
            day, month, year = int(g[6]), MONTHS[g[5].lower()], g[7]
        elif g[8]:
            return date(int(g[8]), int(g[9]), int(g[10])), True
        elif g[11]:
            return date(int(g[13]), int(g[12]), int(g[11])), True
        elif g[14]:
            return today + timedelta(days=1), False
        else:
            want = WEEKDAYS.index(g[15].lower() + "day")
            ahead = (want - today.weekday()) % 7 or 7
            return today + timedelta(days=ahead), False
        if year:
            return date(int(year), month, day), True
        guess = date(today.year, month, day)
        if guess < today - timedelta(days=31):
            guess = date(today.year + 1, month, day)
        return guess, False
    except (ValueError, KeyError):
        return None, False


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days for lessons and tests (not birth dates), in the order said."""
    found = [m for m in DATE_RE.finditer(text) if _date(m, today)[0] is not None]
    chosen = found if all_said else _keep(found, text)
    out = []
    for m in chosen:
        day, _ = _date(m, today)
        if day is not None and day >= today - timedelta(days=400) and day.year >= 2020:
            out.append(day)
    return out


def births(text: str, today: date) -> list[date]:
    out = []
    for m in DATE_RE.finditer(text):
        day, with_year = _date(m, today)
        if day is not None and with_year and 1930 < day.year < today.year - 15:
            out.append(day)
    return out


def times(text: str, *, all_said: bool = False) -> list[str]:
    found = list(TIME_RE.finditer(text))
    chosen = found if all_said else _keep(found, text)
    out = []
    for m in chosen:
        if m.group(6):
            out.append("12:00")
            continue
        hour = int(m.group(1) or m.group(4) or m.group(7) or m.group(8))
        minute = int(m.group(2) or 0)
        ampm = (m.group(3) or m.group(5) or "").lower()
        if ampm == "pm" and hour < 12:
            hour += 12
        elif ampm == "am" and hour == 12:
            hour = 0
        elif not ampm and 1 <= hour < 8:
            hour += 12
        if hour < 24 and minute < 60:
            out.append(f"{hour:02d}:{minute:02d}")
    return out


def lesson_hours(text: str) -> int | None:
    low = text.lower()
    found = re.findall(r"(?<![\d.])\b(1|2|one|two|an|a)[- ]hours?\b", low)
    if re.search(r"\bdouble lesson|\b2\s*hrs?\b", low):
        found.append("2")
    if re.search(r"\bsingle lesson|\b1\s*hr\b", low):
        found.append("1")
    if not found:
        bare = re.fullmatch(r"\s*(?:just\s+)?(1|2|one|two)\W*(?:please\W*)?", low)
        if bare:
            found.append(bare.group(1))
    if not found:
        return None
    last = found[-1]
    return int(last) if last.isdigit() else NUM[last]


def package_hours(text: str) -> int | None:
    low = text.lower()
    found = re.findall(r"\b(5|10|20|five|ten|twenty)[- ]?(?:hours?|hrs?|-hour)\b", low)
    if not found:
        found = re.findall(
            r"\b(5|10|20|five|ten|twenty)\b(?=[^.?!]*\b(?:package|block|bundle))", low
        )
    if not found:
        bare = re.fullmatch(r"\s*(?:the\s+)?(5|10|20|five|ten|twenty)\W*(?:please\W*)?", low)
        if bare:
            found.append(bare.group(1))
    if not found:
        return None
    last = found[-1]
    return int(last) if last.isdigit() else NUM[last]


def postcodes(text: str) -> list[str]:
    return [
        f"{m.group(1)} {m.group(2)}".upper() for m in _keep(list(POSTCODE_RE.finditer(text)), text)
    ]


def addresses(text: str) -> list[str]:
    return [m.group(1).replace(",", "") for m in _keep(list(ADDRESS_RE.finditer(text)), text)]


def ill(text: str) -> bool:
    return bool(
        re.search(
            r"\b(?:ill|illness|sick|unwell|flu|covid|virus|fever|poorly|migraine|infection|"
            r"doctor|gp|hospital|medical)\b",
            text,
            re.I,
        )
    )


def has_note(text: str) -> bool:
    low = text.lower()
    if re.search(r"\b(?:no|don'?t have a|haven'?t got a|without a)\s+(?:\w+\s+)?note\b", low):
        return False
    return bool(re.search(r"\b(?:note|fit note|sick note|doctor'?s letter|gp letter)\b", low))


def answer(text: str) -> str | None:
    low = text.lower().strip()
    if re.search(
        r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|think about|"
        r"later|not yet|one moment)\b",
        low,
    ):
        return "hedge"
    if re.match(
        r"(?:no\b|nope|nah|don'?t|do not|leave it|not now|no thanks|cancel that|never mind)", low
    ) or re.search(
        r"\b(?:don'?t (?:do|go|bother|change|book|cancel|move|buy|refund|want)|leave it|"
        r"do not want|not worth it|i'?ll keep|rather keep|keep (?:it|the lesson|my lesson|"
        r"the test|my test)|rather not|forget it|not then|in that case,? no)\b",
        low,
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|yup|sure|please do|go ahead|ok|okay|confirm(?:ed)?|do it|"
        r"that'?s (?:fine|right|correct|great)|correct|sounds good|fine|agreed|"
        r"absolutely|of course|please)\b",
        low,
    ):
        return "yes"
    return None


def question(text: str) -> bool:
    """A question about a proposal ("Can you confirm I keep my hours?"), not an answer."""
    low = text.strip().lower()
    return low.endswith("?") and bool(
        re.match(
            r"(?:and |but |so )?(?:can|could|will|would|is|are|do|does|did|what|how|when|"
            r"which|why|where|who|have|has)\b",
            low,
        )
    )


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
    ("refund", r"\brefund|\bmoney back|\bunused hours|\bcash in\b"),
    ("test", r"\b(?:practical |driving )?test\b"),
    ("address", r"\baddress|\bpick[- ]?up\b|\bpostcode|\bcollect me from|\bmoved (?:house|to)\b"),
    (
        "instructor",
        r"\b(?:change|switch|swap|new|different|another|move to)\b.*\binstructor|"
        r"\binstructor\b.*\b(?:change|switch|instead)|"
        r"\b(?:have|want|like|prefer|request)\b.*\b(?:as|be) my (?:\w+ )?instructor",
    ),
    (
        "package",
        r"\b(?:buy|purchase|top up|top-up|get|order|want)\b.*\b(?:package|block|bundle|"
        r"(?:5|10|20|five|ten|twenty)[- ]?hours?)\b|\bpackage\b.*\b(?:buy|purchase)",
    ),
    ("cancel", r"\bcancel(?!\s+that)|\bcan'?t make (?:my|the|it)\b|\bcall off\b"),
    (
        "move",
        r"\b(?:move|reschedule|rearrange|change|switch|swap|put back|push back|bring forward|"
        r"shift)\b.*\b(?:lesson|it)\b|\blesson\b.*\b(?:moved|instead)\b",
    ),
    ("book", r"\bbook\b|\blesson\b.*\b(?:on|at|for)\b|\bschedule\b|\bslot\b"),
    (
        "lookup",
        r"\bupcoming|\bwhat lessons|\bwhen (?:is|are) (?:my|his|her)|\bhours (?:left|remaining)|"
        r"\bhow many (?:\w+ )?hours|\bbalance\b|\b(?:my|his|her) lessons\b|"
        r"\bnext (?:\w+ )?lessons?\b|\bwhen (?:\w+ )?lessons? (?:is|are)\b",
    ),
]
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d like|i want|i need|i'?d also|add|change|"
    r"update|move|cancel|book|buy|put|switch|get|swap|my|i'?m|tell me|let me know|"
    r"how many|what|refund)\b)",
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
    if len({r.intent for r in out}) == 1:
        return [Request(out[0].intent, message)]
    return out


def say_date(iso: str) -> str:
    day = date.fromisoformat(iso[:10])
    return f"{day:%A} {day.day} {day:%B %Y}"


def say_start(stamp: str) -> str:
    return f"{say_date(stamp)} at {stamp[11:16]}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

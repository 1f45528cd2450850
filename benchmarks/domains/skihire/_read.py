"""Reading customers' English: references, days, times, counts of days, levels, names, answers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

REF_RE = re.compile(r"\bPP\s*-?\s*(\d{4})\b", re.I)
# a reference said as someone else's ("our friends are on booking PP4130")
OTHER_MARK = re.compile(
    r"\b(?:friends?'?s?|mates?'?s?|their|his|her|brother'?s|sister'?s|parents'?|colleagues?'?s?|"
    r"neighbours?'?s?|cousins?'?s?|another|other)\b[^.?!]{0,30}$",
    re.I,
)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
ORD = r"(?:st|nd|rd|th)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(?P<d1>\d{1,2})" + ORD + r"\s+(?:of\s+)?(?P<m1>" + MONTH[1:-1] + r")\b"
    r"(?:,?\s+(?P<y1>(?:19|20)\d\d)\b)?|"
    r"\b" + WEEKDAY + r"(?P<m2>" + MONTH[1:-1] + r")\s+(?P<d2>\d{1,2})" + ORD + r"\b"
    r"(?:,?\s+(?P<y2>(?:19|20)\d\d)\b)?|"
    r"\b(?P<y3>(?:19|20)\d\d)-(?P<m3>\d\d)-(?P<d3>\d\d)\b|"
    r"\b(?P<d4>\d{1,2})[/.](?P<m4>\d{1,2})[/.](?P<y4>(?:19|20)\d\d)\b",
    re.I,
)
TIME_RE = re.compile(
    r"(?<![£\d./:])\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm|a\.m\.|p\.m\.|o'?clock)?(?![\d/]|\.\d)",
    re.I,
)
LEVEL_RE = re.compile(r"\b(bronze|silver|gold)\b", re.I)
# a level said as the one they have now ("from silver", "we booked gold")
OLD_LEVEL = re.compile(
    r"(?:\bfrom|\bcurrently(?: on)?|instead of|rather than|\bbooked|\b(?:we'?re|i'?m|we are|i am|"
    r"is|are|was|were) on|\bstaying on|\bstay on|\bnot)\s*(?:the\s+|a\s+|our\s+|my\s+)?$",
    re.I,
)
# a level said as the one wanted ("up to gold", "make it silver")
NEW_LEVEL = re.compile(
    r"(?:\b(?:up |down |over |across )?to|\bonto|\binto|\bmake it|\bswitch(?:ed)? to)\s*"
    r"(?:the\s+|a\s+)?$",
    re.I,
)
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
           "thirteen": 13, "fourteen": 14}  # fmt: skip
NUM = r"(\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|" \
      r"fourteen)"  # fmt: skip
EXTRA_DAYS = [
    re.compile(r"\b" + NUM + r"\s+(?:more|extra|additional|further)\s+days?\b", re.I),
    re.compile(r"\b(?:another|an extra|one more|a further)\s+(?:" + NUM + r"\s+)?days?\b", re.I),
    re.compile(r"\b(?:add|adding|extend(?:ed)?(?: it| the hire| our hire| my hire)? by)\s+"
               + NUM + r"\s+days?\b", re.I),  # fmt: skip
    re.compile(r"\b" + NUM + r"\s+days?\s+(?:more|longer)\b|\b(a) day longer\b", re.I),
]
TOTAL_DAYS = re.compile(
    r"\b(?:the full|a full|total of|make it|to)\s+" + NUM + r"\s+days?\b|\b" + NUM
    + r"\s+days?\s+(?:in all|in total|altogether)\b",
    re.I,
)  # fmt: skip
ALL_RE = re.compile(
    r"\b(?:both of us|all of us|both|everyone|everybody|the whole (?:group|family|party|"
    r"booking)|all (?:two|three|four|five|six|seven|eight|\d) of us|the (?:two|three|four|five|"
    r"six) of us|all (?:two|three|four|five|six|seven|eight))\b",
    re.I,
)
ME_RE = re.compile(r"\b(?:me|mine|myself|my own|my package|just me)\b", re.I)
ADULTS_RE = re.compile(r"\b(?:the (?:two |three |four )?adults|grown-?ups)\b", re.I)
CHILD_WORDS = re.compile(
    r"\b(?:son|daughter|child|kid|boy|girl|grandson|granddaughter|little one|nephew|niece|"
    r"toddler|stepson|stepdaughter)\b",
    re.I,
)
# a condition inside the goal: if the slot asked for is full, leave it
LEAVE_IF_FULL = re.compile(
    r"\bif (?:it'?s|that'?s|it is|that is|that one'?s|there'?s no (?:room|space))"
    r"(?: already)? (?:full|taken|booked up|gone)?",
    re.I,
)
PRICE_ONLY = re.compile(
    r"\bhow much (?:would|will|does|is|do)\b|\bjust (?:want )?(?:the|a) (?:price|quote)\b|"
    r"\bnot (?:buying|adding|booking|taking) (?:it|them|anything)?\s*yet\b|"
    r"\bdon'?t want to (?:buy|add|book|take) (?:it|them|anything)\b|"
    r"\bonly (?:want|need) (?:the|a) (?:price|quote)\b",
    re.I,
)


def refs(text: str) -> list[str]:
    return [f"PP{m.group(1)}" for m in REF_RE.finditer(text)]


def own_and_other_refs(text: str) -> tuple[list[str], list[str]]:
    """References said as the caller's own, and those said as someone else's."""
    own, other = [], []
    for m in REF_RE.finditer(text):
        before = text[max(0, m.start() - 40) : m.start()]
        (other if OTHER_MARK.search(before) else own).append(f"PP{m.group(1)}")
    return own, other


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groupdict()
    try:
        if g["d1"]:
            day, month, year = int(g["d1"]), MONTHS[g["m1"].lower()[:3]], g["y1"]
        elif g["d2"]:
            day, month, year = int(g["d2"]), MONTHS[g["m2"].lower()[:3]], g["y2"]
        elif g["y3"]:
            day, month, year = int(g["d3"]), int(g["m3"]), g["y3"]
        else:
            day, month, year = int(g["d4"]), int(g["m4"]), g["y4"]
        if year:
            return date(int(year), month, day)
        # a yearless day in the past months is next year's ("9 January" said in December)
        return date(today.year + 1 if month < today.month - 3 else today.year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date) -> list[date]:
    """Days said, in order."""
    return [d for d in (_date(m, today) for m in DATE_RE.finditer(text)) if d is not None]


def birth_date(text: str, today: date) -> date | None:
    """A date of birth: the last day said with its year, in the past."""
    born = [
        _date(m, today) for m in DATE_RE.finditer(text)
        if m.group("y1") or m.group("y2") or m.group("y3") or m.group("y4")
    ]  # fmt: skip
    past = [d for d in born if d is not None and d < today]
    return past[-1] if past else None


def clock_time(text: str) -> str | None:
    """The last time of day said ("9am", "10:30", "8.30"), as HH:MM; a bare number is not."""
    found = None
    for m in TIME_RE.finditer(text):
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        half = (m.group(3) or "").lower().replace(".", "")
        if not (m.group(2) or half) or hour > 23 or minute > 59:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        found = f"{hour:02d}:{minute:02d}"
    return found


def _count(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def extra_days(text: str) -> int | None:
    """Days to add, the last said ("three more days — sorry, two more days" is 2)."""
    found: list[tuple[int, int]] = []
    for pattern in EXTRA_DAYS:
        for m in pattern.finditer(text):
            word = next((g for g in m.groups() if g), "one")
            found.append((m.start(), _count(word)))
    return max(found)[1] if found else None


def total_days(text: str) -> int | None:
    """A hire length said as the total ("the full six days")."""
    said = [next(g for g in m.groups() if g) for m in TOTAL_DAYS.finditer(text)]
    return _count(said[-1]) if said else None


def level(text: str) -> str | None:
    """The package level wanted: the last said after "to", else the last not said as current."""
    found = list(LEVEL_RE.finditer(text))
    wanted = [m for m in found if NEW_LEVEL.search(text[max(0, m.start() - 24) : m.start()])]
    kept = wanted or [
        m for m in found if not OLD_LEVEL.search(text[max(0, m.start() - 24) : m.start()])
    ]
    return kept[-1].group(1).lower() if kept else None


STOP_WORDS = {
    "i", "pp", "hi", "hello", "please", "the", "my", "our", "can", "could", "add", "book",
    "cancel", "move", "change", "upgrade", "dear", "thanks", "sorry", "bronze", "silver", "gold",
    "christmas", "new", "year", "alps", "ski", "piste", "perfect", "ok", "okay", "yes", "no",
    "we", "we're", "i'm", "i've", "it", "its", "mr", "mrs", "ms", "miss", "dr", "just",
} | set(WEEKDAYS) | set(MONTH.strip("()").split("|"))  # fmt: skip


def name_candidates(text: str) -> list[str]:
    """Capitalised words not opening a sentence: how a name is said in passing."""
    out = []
    for m in re.finditer(r"(?<![.!?—:]\s)(?<!^)\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?:'s)?\b",
                         text.strip()):  # fmt: skip
        if m.group(1).lower() not in STOP_WORDS:
            out.append(m.group(1))
    return out


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment|"
                 r"give me a (?:sec|second|minute))\b", low):  # fmt: skip
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead|add|change)|forget it|"
        r"no thanks|no thank you)\b",
        low,
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|book it|happy|perfect|"
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
INTENTS: list[tuple[str, str]] = [
    ("cancel", r"\bcancel"),
    ("insurance", r"\binsur|\bbreakage\b|\btheft\b|\bdamage cover\b"),
    ("helmet", r"\bhelmets?\b"),
    ("lookup", r"\bwhat time\b|\bwhen(?:'s| is| are| do)\b|\bwhat (?:packages?|levels?)\b|"
     r"\bwhich (?:packages?|levels?) (?:are|is|have)\b|\bwhat(?:'s| is) on (?:my|our|the)\b|"
     r"\bcheck (?:my|our|the) booking\b|\bdetails of\b|\bhow much (?:have|did) (?:i|we) pa"),
    ("extend", r"\b(?:extra|more|another|additional|further) (?:\w+ )?days?\b|\badd (?:\w+ )?"
     r"days?\b|\bextend|\bday longer\b|\bdays? longer\b"),
    ("add", r"\badd\b.{0,40}\b(?:son|daughter|child|kid|boy|girl|brother|sister|friend|husband|"
     r"wife|partner|dad|father|mum|mother|person|someone|him|her|nephew|niece|grandson|"
     r"granddaughter|colleague|cousin|uncle|aunt)\b|\bjoin(?:ing)? us\b|\bcoming (?:with us|"
     r"too|after all)\b|\bone more (?:person|skier)\b|\banother (?:person|skier)\b"),
    ("package", r"\bupgrade|\bdowngrade|\b(?:change|switch|swap|move|put)\b.{0,40}\b(?:package|"
     r"bronze|silver|gold|level)s?\b|\b(?:up|down) to (?:bronze|silver|gold)\b"),
    ("fitting", r"\bfitting|\bfitted\b|\bboot fit"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|upgrade|downgrade|"
    r"move|cancel|book|add|extend|what|how|when)\b)",
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
    before = ""  # clauses with no request of their own qualify the request next to them
    for clause in SPLIT.split(message):
        intent = next((i for i, pattern in INTENTS if re.search(pattern, clause, re.I)), None)
        if intent:
            out.append(Request(intent, f"{before} {clause}".strip()))
            before = ""
        elif out:
            out[-1] = Request(out[-1].intent, f"{out[-1].text} {clause}")
        else:
            before = f"{before} {clause}".strip()
    kinds = {r.intent for r in out}
    if len(kinds - {"lookup"}) > 0:
        # "what time is our fitting" inside a change request is part of the change
        out = [r for r in out if r.intent != "lookup"]
    if "add" in kinds:
        # "add my son — he'll need a helmet": the helmet comes with the new skier
        out = [r for r in out if r.intent != "helmet"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

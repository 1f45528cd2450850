"""Reading customers' English: references, postcodes, days, windows, panels, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

CUSTOMER_RE = re.compile(r"\bBR\s*-?\s*(\d{4})\b", re.I)
SURVEY_RE = re.compile(r"\bSV\s*-?\s*(\d{4})\b", re.I)
QUOTE_RE = re.compile(r"\bQ\s*-?\s*(\d{4})\b", re.I)
JOB_RE = re.compile(r"\bJ\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
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
# a day said as the old one ("from the 21st", "not Thursday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
MORNING = re.compile(
    r"\bmorning\b|\b(?:9|10|11)(?::00)?\s*am\b|\b9(?::00)?\s*(?:-|–|to)\s*12\b|\b09:00\b", re.I
)
AFTERNOON = re.compile(
    r"\bafternoon\b|\b(?:1|2|3)(?::00)?\s*pm\b|\b1(?::00)?\s*(?:-|–|to)\s*4\b|\b13:00\b", re.I
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
# a condition inside the goal: only at the price first quoted
PRICE_HOLD_ONLY = re.compile(
    r"\bonly (?:at|for) the (?:price|amount|figure) (?:i was |you )?quoted|\bonly if the price "
    r"(?:still )?holds|\bif (?:the price|it)(?:'s| has)? (?:gone up|risen|increased|changed)"
    r"[^.]{0,30}\b(?:leave|don'?t|forget)",
    re.I,
)
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
                "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
                "nineteen": 19, "twenty": 20}  # fmt: skip
NUMBER = r"(\d{1,2}|" + "|".join(NUMBER_WORDS) + r")"
PANELS_RE = re.compile(r"\b" + NUMBER + r"\s+(?:solar\s+|more\s+)?panels?\b", re.I)
CORRECTION_RE = re.compile(
    r"\b(?:sorry|i mean|i meant|actually|make (?:it|that)|rather|no,|correction)\b", re.I
)
BARE_NUMBER = re.compile(r"\b" + NUMBER + r"\b(?!\s*(?:kwh|kw|st|nd|rd|th|" + MONTH[1:-1]
                         + r"|am|pm|:))", re.I)  # fmt: skip


def customers(text: str) -> list[str]:
    return [f"BR{m.group(1)}" for m in CUSTOMER_RE.finditer(text)]


def surveys(text: str) -> list[str]:
    return [f"SV{m.group(1)}" for m in SURVEY_RE.finditer(text)]


def quotes(text: str) -> list[str]:
    return [f"Q{m.group(1)}" for m in QUOTE_RE.finditer(text)]


def jobs(text: str) -> list[str]:
    return [f"J{m.group(1)}" for m in JOB_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in POSTCODE_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day is the one nearest ahead: within 3 months back, 9 months on
        found = date(today.year, month, day)
        if found < today - timedelta(days=90):
            found = date(today.year + 1, month, day)
        elif found > today + timedelta(days=275):
            found = date(today.year - 1, month, day)
        return found
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; unless all_said, those said as the old one are dropped."""
    found = list(DATE_RE.finditer(text))
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
        found = kept or found
    return [d for d in (_date(m, today) for m in found) if d is not None]


def slot(text: str) -> str | None:
    """The last window said: 'morning' or 'afternoon'."""
    said = [(m.start(), "morning") for m in MORNING.finditer(text)]
    said += [(m.start(), "afternoon") for m in AFTERNOON.finditer(text)]
    # "from the morning to the afternoon": the window said as the old one is not wanted
    said = [s for s in said if not OLD_MARK.search(text[max(0, s[0] - 24) : s[0]])] or said
    return max(said)[1] if said else None


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


def panel_count(text: str) -> int | None:
    """Panels asked for: 'N panels', or a number said after a correction ('sorry, make it 14')."""
    said = [(m.start(), _number(m.group(1))) for m in PANELS_RE.finditer(text)]
    for m in CORRECTION_RE.finditer(text):
        n = BARE_NUMBER.search(text, m.end(), m.end() + 20)
        if n:
            said.append((n.start(), _number(n.group(1))))
    return max(said)[1] if said else None


def bare_count(text: str) -> int | None:
    """A short answer that is only a number ('14', 'fourteen please')."""
    found = BARE_NUMBER.findall(text)
    return _number(found[0]) if len(found) == 1 and len(text.split()) <= 4 else None


def inverter(text: str) -> str | None:
    said = [(m.start(), kind) for kind, pattern in (
        ("micro", r"\bmicro[\s-]?inverters?\b|\bmicros\b"), ("hybrid", r"\bhybrid\b"),
        ("string", r"\bstring\b")) for m in re.finditer(pattern, text, re.I)]  # fmt: skip
    return max(said)[1] if said else None


def battery(text: str) -> str | None:
    """'none', '5kWh', '10kWh', or None when not said (or said without a size)."""
    said = [(m.start(), f"{m.group(1)}kWh")
            for m in re.finditer(r"\b(5|10)(?:\.\d)?\s*-?\s*kwh\b", text, re.I)]  # fmt: skip
    none = (r"\bno batter(?:y|ies)\b|\bwithout (?:a |the |any )?batter|\bnone\b|^\s*no\W*$|"
            r"^\s*no,? (?:thanks|thank you)\b|"
            r"\bdon'?t (?:want|need) (?:a |the |any )?batter|\bskip the battery\b")  # fmt: skip
    said += [(m.start(), "none") for m in re.finditer(none, text, re.I)]
    said += [(m.start(), "5kWh") for m in re.finditer(r"\bsmaller battery\b", text, re.I)]
    said += [(m.start(), "10kWh") for m in re.finditer(r"\b(?:bigger|larger) battery\b", text,
                                                        re.I)]  # fmt: skip
    return max(said)[1] if said else None


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|send|go ahead)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|book it|happy|perfect|"
        r"great|lovely|that works|alright|all right|send it|issue it|cancel it|move it)\b",
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
    ("export", r"\bexport\b|\bSEG\b|\bMCS\b|\bpaperwork\b|\bcertificate\b"),
    ("cancel", r"\bcancel"),
    ("lookup", r"\bwhen(?:'s| is| are| do)\b|\bhow much (?:will|do|is|am|have|did)\b|\bstill valid"
     r"\b|\bvalid (?:until|till)\b|\bwhat (?:price|did|was|is the price|day|time)\b|\bwhat'?s "
     r"the (?:price|date|total)\b|\btell me (?:the|what|when|how)\b|\bprice (?:on|of)\b|"
     r"\buntil when\b|\bhow long (?:is|does|will)\b"),
    ("quote", r"\bquote me\b|\b(?:a|new|fresh|another) quote\b|\bquote for \w+ (?:solar )?panels\b|"
     r"\bprice (?:me )?up\b"),
    ("move", r"\b(?:mov(?:e|ing)|chang(?:e|ing)|reschedul\w*|rearrang\w*|put back|bring forward)"
     r"\b.{0,40}\bsurvey\b|\bsurvey\b.{0,40}\b(?:move|moved|reschedul\w*|another day|"
     r"different day)\b"),
    ("survey", r"\bsurvey\b"),
    ("install", r"\binstall|\bgo ahead with (?:my|the|our) quote\b|\bfitting\b|\baccept (?:my|"
     r"the|our) quote\b|\bfit (?:the |my )?panels\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|move|cancel|quote|"
    r"book|send|email|let|what|how|when|is)\b)",
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
    kinds = {r.intent for r in out}
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        # "...and tell me when" asks about the change being made, not a question apart
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def plus_days(iso: str, days: int) -> str:
    return (date.fromisoformat(iso) + timedelta(days=days)).isoformat()

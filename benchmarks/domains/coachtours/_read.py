"""Reading customers' English: references, towns, seats, names, phones, emails, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from benchmarks.domains.coachtours import _seed

REF_RE = re.compile(r"\bWF\s*-?\s*(\d{5})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
SEATS_RE = re.compile(r"\bseats?\s*(?:numbers?\s*)?((?:\d{1,2}(?:\s*(?:,|and|&|\+)\s*)?)+)", re.I)
TOWNS = sorted({p[1] for p in _seed.PICKUPS} | {"London", "Liverpool", "Derby", "Bradford",
                                                 "Oxford", "Cardiff", "Plymouth"})  # fmt: skip
# a town said as the old one ("from Leeds", "instead of Hull") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bat the moment|\bis|\bwas)\s*$", re.I
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
TITLES = r"(?:Mrs|Mr|Ms|Miss|Dr)\.?"


def refs(text: str) -> list[str]:
    return [f"WF{m.group(1)}" for m in REF_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def seat_numbers(text: str, *, bare: bool = False) -> list[int]:
    """Seat numbers said after "seat(s)"; with bare, any small numbers (an answer to 'which')."""
    found = [int(n) for m in SEATS_RE.finditer(text) for n in re.findall(r"\d{1,2}", m.group(1))]
    if not found and bare:
        found = [int(n) for n in re.findall(r"(?<![\d:£.])\b(\d{1,2})\b(?![\d:.])", text)]
    return list(dict.fromkeys(found))


def towns(text: str, *, all_said: bool = False) -> list[str]:
    """Towns named, in the order said; unless all_said, those said as the old one are dropped."""
    found: list[tuple[int, str]] = []
    for town in TOWNS:
        flags = 0 if town == "Reading" else re.I  # "reading" is also a word
        for m in re.finditer(rf"\b{town}\b(?!-)", text, flags):
            if all_said or not OLD_MARK.search(text[max(0, m.start() - 16) : m.start()]):
                found.append((m.start(), town))
    return [t for _, t in sorted(found)]


STOP_WORDS = {
    "i", "hi", "hello", "please", "the", "my", "our", "can", "could", "we", "add", "cancel",
    "change", "update", "thanks", "sorry", "dear", "wayfarer", "coach", "holidays", "mrs", "mr",
    "ms", "miss", "dr", "lead", "passenger", "yes", "no", "okay", "ok", "christmas", "new",
    "year", "hogmanay", "spring", "winter", "lake", "district", "cornish", "gardens", "isle",
    "wight", "bath", "wells", "snowdonia", "cotswolds", "edinburgh", "yorkshire", "dales", "wf",
    "it", "is", "that", "this", "and", "also", "just", "if", "so", "he", "she", "they", "his",
    "her", "their", "a", "an", "to", "on", "in", "at", "for", "of", "front", "seat", "seats",
    "travel", "insurance", "single", "room", "fine", "great", "lovely", "good", "morning",
} | {w.lower() for w in WEEKDAYS} | {t.lower() for t in TOWNS} | {
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
}  # fmt: skip


def name_candidates(text: str) -> list[str]:
    """Capitalised words not opening a sentence: how a surname is said in passing."""
    out = []
    for m in re.finditer(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?:'s)?\b",
                         text.strip()):  # fmt: skip
        if m.group(1).lower() not in STOP_WORDS:
            out.append(m.group(1))
    return out


def full_names(text: str) -> list[str]:
    """Two or more capitalised words in a row that are not places or titles: people's names."""
    out = []
    clean = re.sub(rf"\b{TITLES}\s+", "", text)
    for m in re.finditer(r"\b([A-Z][a-z]+(?:['-][A-Z]?[a-z]+)?(?:\s+[A-Z][a-z]+(?:['-][A-Z]?"
                         r"[a-z]+)?)+)\b", clean):  # fmt: skip
        words = [w for w in m.group(1).split() if w.lower() not in STOP_WORDS]
        if len(words) >= 2:
            out.append(" ".join(words[-2:]))
    return out


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead|change)|forget it|"
        r"no thanks|no thank you)\b",
        low,
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|happy|perfect|great|"
        r"lovely|that works|alright|all right)\b",
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
    ("contact", r"\b(?:e-?mail|phone|mobile|contact details|telephone)\b"),
    ("cancel", r"\bcancel"),
    ("name", r"\bname\b.{0,40}\b(?:change|wrong|correct|spell|swap|replace|transfer)|"
     r"\b(?:change|correct|swap|replace|transfer)\b.{0,40}\bname\b|"
     r"\b(?:in|take) (?:her|his|my) place\b|\bplace to\b|\bgo instead of\b"),
    ("insurance", r"\binsur"),
    ("single", r"\bsingle(?:[- ]room)?\b|\b(?:my|her|his) own room\b|\broom (?:of|to) "
     r"(?:my|her|his) own\b"),
    ("passenger", r"\badd (?:a |another |one more )?(?:passenger|person|friend|my \w+ \w+ to)\b|"
     r"\b(?:join|come with) (?:us|me)\b|\bcome along\b|\bextra (?:passenger|person|place)\b|"
     r"\badd \w+ \w+ to (?:our|my|the) booking\b|\bone more (?:passenger|person|place)\b"),
    ("seats", r"\bseats?\b"),
    ("lookup", r"\bwhat time\b|\bwhere (?:do|does|is|are|will)\b|\bwho(?:'s| is) on\b|"
     r"\bhow much\b|\bcheck (?:my|the|our) booking\b|\bremind me\b"),
    ("pickup", r"\bpick[- ]?up\b|\bpicked up\b|\bboard (?:at|from)\b|\bget on (?:at|in)\b|"
     r"\bjoin the coach\b|\bdrop (?:us|me) (?:off )?at\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|we'?d (?:also )?like|"
    r"change|update|move|cancel|book|add|put|give|reserve|let|what|how|where)\b)",
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
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()]} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

"""Reading customers' English: numbers, languages, pages, turnaround, answers and requests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from benchmarks.domains.translation import _seed

ACCOUNT_RE = re.compile(r"\bCW\s*-?\s*(\d{4})\b", re.I)
ORDER_RE = re.compile(r"\bTR\s*-?\s*(\d{4})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
NUMBER_WORDS = {"one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
                "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
                "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}  # fmt: skip
NUMBER = r"(\d{1,3}|" + "|".join(NUMBER_WORDS) + r")"
PAGES_RE = re.compile(r"\b" + NUMBER + r"[\s-]+pages?\b", re.I)
BARE_NUMBER = re.compile(r"\b" + NUMBER + r"\b", re.I)
ALIASES = {"mandarin": "Chinese", "cantonese": "Chinese", "portugese": "Portuguese",
           "english": "English"}  # fmt: skip
LANG_RE = re.compile(r"\b(" + "|".join([*_seed.LANGUAGES, *ALIASES, "English"]) + r")\b", re.I)
# a few languages customers ask for that the agency doesn't offer
UNOFFERED_RE = re.compile(r"\b(Welsh|Hindi|Urdu|Farsi|Swahili|Thai|Vietnamese|Hebrew)\b", re.I)
INTO = re.compile(r"\b(?:into|to|in(?:to)? plain|needed in|need it in|want it in)\s+$", re.I)
FROM = re.compile(r"\b(?:from|out of|written in|is in|it'?s in|are in)\s+$", re.I)

NOT_CERTIFIED = re.compile(
    r"\buncertified\b|\bnon-certified\b|\b(?:no|not|without|don'?t need|doesn'?t need|no need "
    r"for|no need to be|needn'?t be|not be)\s+(?:a\s+|any\s+|it\s+|to be\s+|them\s+)?certif",
    re.I,
)
CERTIFIED = re.compile(r"\bcertif(?!icate)", re.I)
NO_HURRY = re.compile(r"\bno rush\b|\bnot in a rush\b|\bno hurry\b|\bnot urgent\b", re.I)
STANDARD = re.compile(r"\bstandard\b|\bnormal (?:turnaround|service|speed)\b|\b5 working days",
                      re.I)  # fmt: skip
RUSH = re.compile(r"\brush\b|\burgent(?:ly)?\b|\bexpress\b|\bas soon as possible\b|\basap\b|"
                  r"\bfast(?:est)?\b|\b2 working days", re.I)  # fmt: skip
# a ceiling said as a condition: "only if it's under £50"
CAP_RE = re.compile(
    r"\b(?:under|less than|below|up to|no more than|not more than|at most|max(?:imum)?(?: of)?)"
    r"\s*£\s*(\d+(?:\.\d{1,2})?)",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
ERROR_WORDS = re.compile(
    r"\b(?<!my )(?<!made a )(?:mistakes?|errors?|typos?|mistranslat\w*|wrong(?:ly)? translated|"
    r"mis-?spel\w*)\b",
    re.I,
)
SOURCE_WORDS = re.compile(
    r"\b(?:changed|updated|amended|revised|edited)\b.{0,25}\b(?:original|source)\b|"
    r"\bnew version\b|\b(?:original|source)\b.{0,25}\b(?:changed|updated|amended|revised)\b|"
    r"\bi changed\b",
    re.I,
)
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def accounts(text: str) -> list[str]:
    return [f"CW{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def orders(text: str) -> list[str]:
    return [f"TR{m.group(1)}" for m in ORDER_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


def pages(text: str) -> int | None:
    """The last page count said ("3 pages", "a five-page letter", "one page")."""
    found = [_number(m.group(1)) for m in PAGES_RE.finditer(text)]
    return found[-1] if found else None


def bare_number(text: str) -> int | None:
    """The last number in a short answer ("5", "five", "it's 12")."""
    found = [_number(m.group(1)) for m in BARE_NUMBER.finditer(text)]
    return found[-1] if found else None


def language(word: str) -> str:
    return ALIASES.get(word.lower(), word.capitalize())


def languages(text: str) -> list[str]:
    return [language(m.group(1)) for m in LANG_RE.finditer(text)]


def pair(text: str) -> tuple[str | None, str | None]:
    """The language pair said: (from, into); a side not said is None.

    "French into English", "from English to Arabic", "my Polish birth certificate ... in
    English": a language after "into/to" is the one wanted, one after "from" the document's,
    and an unmarked one is the document's.
    """
    source = target = None
    unmarked: list[str] = []
    for m in LANG_RE.finditer(text):
        lang, before = language(m.group(1)), text[max(0, m.start() - 20) : m.start()]
        if INTO.search(before):
            target = lang
        elif FROM.search(before):
            source = lang
        else:
            unmarked.append(lang)
    for lang in unmarked:
        if source is None and lang != target:
            source = lang
        elif target is None and lang != source:
            target = lang
    return source, target


def certified(text: str) -> bool | None:
    if NOT_CERTIFIED.search(text):
        return False
    if CERTIFIED.search(text):
        return True
    return None


def turnaround(text: str) -> tuple[str | None, bool]:
    """("rush" / "standard" / None, whether standard is fine when rush can't be done)."""
    plain = NO_HURRY.sub(" standard ", text)
    rush, standard = bool(RUSH.search(plain)), bool(STANDARD.search(plain))
    if rush:
        return "rush", standard
    return ("standard" if standard else None), False


def cap(text: str) -> int | None:
    """A price ceiling said as a condition, in pence."""
    found = [round(float(m.group(1)) * 100) for m in CAP_RE.finditer(text)]
    return min(found) if found else None


def revision_kind(text: str) -> str | None:
    if SOURCE_WORDS.search(text):
        return "source_change"
    if ERROR_WORDS.search(text):
        return "error"
    return None


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead|send|place)|forget it)\b",
        low,
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|place it|happy|perfect|"
        r"great|lovely|that works|alright|all right|send it)\b",
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
    ("revision", ERROR_WORDS.pattern + r"|\bcorrections?\b|\bcorrected\b|\brevis(?:e|ion)\b|"
     r"\bre-?translat|"
     + SOURCE_WORDS.pattern),
    ("upgrade", r"\bupgrade\b|\bspeed (?:\w+ ){0,3}up\b|\bhurry (?:\w+ ){0,3}up\b|"
     r"\b(?:switch|change|move|put|make|turn)\b.{0,40}\b(?:to|on|onto|into) (?:a )?rush\b|"
     r"\b(?:to|on) rush\b|\bsooner\b|\bquicker\b|\bfaster\b"),
    ("quote", r"\bquote\b|\bquotation\b|\bhow much (?:would|will|does|is)\b|\bprice (?:for|of)\b|"
     r"\bwhat would (?:it|that) cost\b|\bcost of\b"),
    ("lookup", r"\bwhen will\b|\b(?:is|be) (?:it |they )?ready\b|\bstatus\b|\bwhere is\b|"
     r"\bwhen (?:is|does) .{0,40}\bdue\b|\bhow much did\b|\bchase\b|\bprogress\b"),
    ("order", r"\btranslat|\border\b|\bcertif"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|upgrade|speed|"
    r"cancel|send|email|quote|give|tell|let|what|how|when|correct|fix|order|translate)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the clause it was said in."""

    intent: str
    text: str


def _intent(clause: str) -> str | None:
    for intent, pattern in INTENTS:
        if re.search(pattern, clause, re.I):
            if (
                intent == "upgrade"
                and not orders(clause)
                and (pages(clause) or any(lang != "English" for lang in languages(clause)))
            ):
                return "order"  # "3 pages of French into English, rush" is a new order
            return intent
    return None


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits)."""
    out: list[Request] = []
    lead = ""  # clauses before the first request ("I have a 5-page German contract.")
    for clause in SPLIT.split(message):
        intent = _intent(clause)
        if intent is None and not out:
            lead += clause + " "
        elif intent is None and out:
            # a clause with no request of its own adds to the one before ("It's 4 pages.")
            out[-1] = Request(out[-1].intent, out[-1].text + " " + clause)
        elif intent is not None:
            if out and out[-1].intent == intent:
                out[-1] = Request(intent, out[-1].text + " " + clause)
            else:
                out.append(Request(intent, lead + clause))
                lead = ""
    kinds = {r.intent for r in out}
    if "lookup" in kinds and len(kinds) > 1:
        # "when will it be ready" next to a change belongs to the change
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()]} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"

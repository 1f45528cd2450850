"""Words for a request: the goal's own sentences made speakable, never machine names.

A goal is written for people ("Check whether parcel PD10000006 has been delivered; I never got
it."). The offline user says it in the first person, one clause at a time: a first-person
sentence or a question as it is, an imperative through a request template ("I'd like to..."),
"check/find out whether..." as a question ("Could you check whether...?"), a third-person goal
("The patient wants to...") turned into the first person, and any other statement whole. It never
puts a clause that does not start with a verb after "I'd like to".

A sub-goal of a structured agenda has no words of its own: its intent template (data) says it,
else the goal's clause about it, else a sentence built from its verb and its values. Intent and
slot names are never said (`send_reminder`, "send reminder", "channel sms").

>>> [c.form for c in request_clauses("PD10000006 shows as delivered; find out what happened")]
['statement', 'tell']
>>> request_clauses("Check whether parcel PD10000006 has been delivered")[0].text
'whether parcel PD10000006 has been delivered'
>>> built_task("send_reminder", {"appointment_id": "A123", "channel": "sms"})
'send a reminder for appointment A123 by sms'
>>> built_task("book_appointment", {"appointment_date": "2026-03-19", "doctor": "Dr Lee"})
'book an appointment on 19 March with Dr Lee'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from vistasim.dates import day_text
from vistasim.scenario import Scalar
from vistasim.values import text_values

__all__ = [
    "REQUEST_OPENING",
    "Clause",
    "built_task",
    "goal_clause",
    "goal_clauses",
    "goal_requests",
    "is_verb",
    "request_clauses",
]

_VERBS = frozenset(
    "cancel return exchange update change apply enroll drop reschedule move waive extend reserve"
    " book refund report escalate add remove buy end close open create register submit pay renew"
    " replace rent check find know see get track ask talk view list learn have make set send"
    " arrange confirm sign verify schedule request switch transfer upgrade downgrade tell give"
    " keep use pick collect ship order contact speak call file claim dispute complain notify"
    " remind subscribe unsubscribe activate deactivate reset recover unlock block unblock redeem"
    " hire start stop edit modify delete join leave withdraw unenroll correct fix sort resolve"
    " look reactivate reorder postpone shorten lengthen lower raise split combine top put"
    " take bring move chase follow query answer explain".split()
)
_FIRST_PERSON = re.compile(r"^(i|i'd|i'm|i've|i'll|my|we|we'd|our|please|can|could)\b", re.I)
_QUESTION = re.compile(
    r"^(what|when|where|which|who|whom|whose|why|how|is|are|am|was|were|do|does|did|will|would|"
    r"should|shall|may|might|has|have)\b(?!\s+(?:a|an|the|my)\b)",
    re.I,
)
_ASK = re.compile(
    r"^(?:(check|confirm|verify|see)|(?:ask|find\s+out|learn|know|tell\s+me|figure\s+out))"
    r"\s+((?:by\s+|until\s+|from\s+)?(?:whether|if|when|what|where|which|who|why|how)\b.*)$",
    re.I,
)
_ROLE = re.compile(
    r"^(?:the\s+)?(?:customer|patient|user|caller|client|guest|student|member|passenger|"
    r"travell?er|renter|buyer|shopper|person)\s+(wants|needs|would\s+like|wishes|is\s+trying|"
    r"hopes|has)\s+to\b",
    re.I,
)
_YOU = re.compile(r"^you\s+(want|need|would\s+like|wish|are\s+trying|hope|have)\s+to\b", re.I)
_FIRST = {"wants": "want", "needs": "need", "wishes": "wish", "hopes": "hope", "has": "have",
          "is trying": "am trying", "are trying": "am trying"}  # fmt: skip
_SPLIT = re.compile(r"(?<=[.!?])\s+|;\s*|\n+")
_LINK = re.compile(
    r",?\s+(?:and\s+then|and\s+also|then|and)\s+(?=(?:also\s+|to\s+)?(?:"
    + "|".join(sorted(_VERBS, key=len, reverse=True))
    + r")\b)",
    re.I,
)
_ID_WORDS = frozenset({"id", "number", "no", "code", "ref", "reference", "num"})
_QUIET = frozenset({"api", "email", "phone", "name"})

Form = Literal["statement", "verb", "tell", "check"]


@dataclass(frozen=True, kw_only=True)
class Clause:
    """One clause of a request and how to say it."""

    form: Form
    """`statement`: said as it is; `verb`: through a request template ("I'd like to ...");
    `tell`/`check`: as a question ("Could you tell me when ...?", "Could you check whether")."""
    text: str


def is_verb(word: str) -> bool:
    """Whether a word is a verb a request starts with ("book", "cancel", "check")."""
    return word.lower() in _VERBS


def request_clauses(task: str) -> list[Clause]:
    """Split request words into clauses, each with the form it is said in."""
    return [_clause(part) for part in _SPLIT.split(task.strip()) if part.strip(" .")]


def goal_clause(goal: str, intent: str, slots: Mapping[str, Scalar]) -> str | None:
    """The clause of the goal that asks for this sub-goal (names its values or its words)."""
    best: tuple[int, str] | None = None
    for clause in _clauses(goal):
        score = _score(clause, intent, slots)
        if score > 0 and (best is None or score > best[0]):
            best = (score, clause)
    return best[1] if best is not None else None


def built_task(intent: str, slots: Mapping[str, Scalar]) -> str:
    """A request built from an intent's verb and a sub-goal's values, without its name.

    `send_reminder` becomes "send a reminder"; each value follows with a preposition that fits
    its type ("on 19 March", "at 10:00", "for appointment A1002", "by sms"); an intent that is
    not a verb phrase (`rental_due_time`) becomes a question about the thing its values name.
    """
    words = [w for w in intent.lower().split("_") if w]
    phrases = [_value_phrase(k, v) for k, v in slots.items() if k not in _QUIET]
    if words and is_verb(words[0]) and len(words) > 1:
        noun = " ".join(words[1:])
        article = "an" if noun[0] in "aeiou" else "a"
        return " ".join([f"{words[0]} {article} {noun}", *phrases])
    about = [_named(k, str(v)) for k, v in slots.items() if k not in _QUIET]
    return f"ask about {' and '.join(about)}" if about else "ask a question"


def _value_phrase(slot: str, value: Scalar) -> str:
    text = str(value)
    kinds = {kind for kind, _ in text_values(text)}
    if "date" in kinds:
        day = next(v for k, v in text_values(text) if k == "date")
        return f"on {day_text(day)}"
    if "time" in kinds:
        return f"at {text}"
    if kinds:
        return f"for {text}"
    if _id_like(value):
        return f"for {_named(slot, text)}"
    words = set(slot.lower().split("_"))
    return f"by {text}" if words & {"channel", "method", "via", "by", "medium"} else f"with {text}"


def _clause(part: str) -> Clause:
    text = part.strip().rstrip(".")
    text = _first_person(text)
    if _FIRST_PERSON.match(text) or _QUESTION.match(text) or text.endswith("?"):
        return Clause(form="statement", text=text)
    asked = _ASK.match(text)
    if asked is not None:
        form: Form = "check" if asked.group(1) else "tell"
        return Clause(form=form, text=asked.group(2).rstrip("?"))
    first = re.match(r"[A-Za-z]+(?![\w-])", text)
    if first is not None and is_verb(first.group(0)):
        return Clause(form="verb", text=text)
    # Not a verb ("PD10000006 shows as delivered"): said whole, never after "I'd like to".
    return Clause(form="statement", text=text)


def _first_person(text: str) -> str:
    """Say a third-person goal in the first person ("The patient wants to" -> "I want to")."""
    for pattern, pronouns in ((_ROLE, r"\b(?:his|her|their)\b"), (_YOU, r"\byour\b")):
        found = pattern.match(text)
        if found is None:
            continue
        verb = " ".join(found.group(1).lower().split())
        rest = re.sub(pronouns, "my", text[found.end() :], flags=re.I)
        return f"I {_FIRST.get(verb, verb)} to{rest}"
    return text


def goal_clauses(goal: str) -> list[str]:
    """The goal's clauses, split at sentences and at "and" before a verb.

    >>> goal_clauses("Cancel my Spin tomorrow and book me onto the Yoga on Friday.")
    ['Cancel my Spin tomorrow', 'book me onto the Yoga on Friday']
    """
    return _clauses(goal)


REQUEST_OPENING = re.compile(
    r"^(?:please\s+|(?:can|could|would)\s+you\s+(?:please\s+)?|"
    r"i(?:'d|\s+would)?\s+(?:also\s+)?(?:like|want|need)\s+(?:to\s+)?)",
    re.IGNORECASE,
)
"""Words a request opens with before its verb ("Can you book...", "I'd also like to sign...")."""
_WANTS_TOO = re.compile(
    r",?\s+and\s+(?=i(?:'d|\s+would)?\s+(?:also\s+)?(?:like|want|need)\b)", re.IGNORECASE
)
"""", and I'd like a new food caddy too": a second request inside one sentence."""


def goal_requests(goal: str) -> list[str]:
    """The goal's clauses, each second request inside a sentence on its own.

    >>> goal_requests("Please log my bin as missed, and I'd like a new caddy too.")
    ['Please log my bin as missed', "I'd like a new caddy too"]
    """
    return [p.strip(" ,.") for c in _clauses(goal) for p in _WANTS_TOO.split(c) if p.strip(" ,.")]


def _clauses(goal: str) -> list[str]:
    out: list[str] = []
    for part in _SPLIT.split(goal):
        for i, piece in enumerate(_LINK.split(part)):
            piece = re.sub(r"^(?:and|then|also|,)\s+", "", piece.strip(" .,"), flags=re.I)
            if i:  # "I'd like to know my bill, and to give today's reading": "give ..."
                piece = re.sub(r"^to\s+", "", piece, flags=re.I)
            if piece:
                out.append(piece)
    return out


def _score(clause: str, intent: str, slots: Mapping[str, Scalar]) -> int:
    lowered = clause.casefold()
    score = sum(2 for k, v in slots.items() if k not in _QUIET and str(v).casefold() in lowered)
    for word in intent.lower().split("_"):
        if len(word) >= 4 and re.search(rf"\b{re.escape(word[:5])}", lowered):
            score += 1
    return score


def _named(slot: str, value: str) -> str:
    noun = " ".join(w for w in slot.lower().split("_") if w and w not in _ID_WORDS)
    return f"{noun} {value}" if noun and noun not in value.lower() else value


def _id_like(value: Scalar) -> bool:
    text = str(value)
    return " " not in text and any(c.isdigit() for c in text)


def spoken_words(names: Sequence[str]) -> list[str]:
    """The forms of machine names that must never be said: `send_reminder`, "send reminder"."""
    out: list[str] = []
    for name in names:
        if "_" in name:
            out += [name, name.replace("_", " ")]
    return out


def goal_is_question(text: str) -> bool:
    """Whether a goal asks for information ("Find out when ...") rather than for a change.

    A goal that also asks for a change ("Find out what I owe and pay off whatever is mine") is
    no question: an answer alone does not end it.

    >>> goal_is_question("Book a check-up next Thursday."), goal_is_question("When is R2 due?")
    (False, True)
    >>> goal_is_question("Find out what I owe and pay off whatever is genuinely mine.")
    False
    >>> goal_is_question("Could Poppy have a groom on the day I collect her?")
    False
    >>> goal_is_question("Could you email me a copy of my latest prescription?")
    False
    >>> goal_is_question("I'm a pensioner now — can I have the reduced rent on my plot?")
    False
    >>> goal_is_question("I'd like to know my August bill, and to give today's meter reading.")
    False
    >>> goal_is_question("What's the password I set for my mum? I've forgotten it.")
    True
    >>> goal_is_question("How much have I paid so far? I don't want to change anything.")
    True
    >>> goal_is_question("My sister Kim is visiting — can you add her to our trip on 4 July?")
    False
    >>> goal_is_question("My son is off sick this week — can you tell me when his exam is?")
    True
    >>> goal_is_question("We can hear scratching in the loft. Could someone come and take a "
    ...                  "look on Thursday 17 December?")
    False
    >>> goal_is_question("Can I spread what's left of this year's council tax over 12 "
    ...                  "instalments instead of 10?"), goal_is_question("Can I see my bill?")
    (False, True)
    >>> goal_is_question("My car has gone into the garage, so please cancel Thursday's valet. "
    ...                  "What do I get back?")
    False
    >>> goal_is_question("I'd like a touch-up with Ivy on Thursday 14 January at 10am. I know "
    ...                  "it's been more than 8 weeks, so I'm happy to pay.")
    False
    >>> goal_is_question("Some lines have healed patchy — can I book a touch-up with Dex on "
    ...                  "Monday 21 December at 3pm?")
    False
    >>> goal_is_question("I know my plan renews soon — can I check when?")
    True
    >>> goal_is_question("Is my quote still valid, and until when? I'm not ready to book yet.")
    True
    """
    kinds = [_clause_kind(c) for part in _clauses(text) for c in request_clauses(part)]
    return "question" in kinds and "change" not in kinds


def _clause_kind(clause: Clause) -> str | None:
    """`question`, `change`, or `None` when the clause says neither (a fact, a greeting)."""
    if clause.form in ("tell", "check"):
        return "question"
    words = re.findall(r"[a-z]+(?![\w-])", clause.text.lower())
    if _WH_QUESTION.match(clause.text) or _STATE_QUESTION.match(clause.text):
        # "What's the password I set for my mum?": "set" is no request; "Is my quote still
        # valid?": "quote" is the thing asked about
        return "question"
    if _NO_CHANGE.match(clause.text):
        return None  # "I don't want to change anything": what the goal does not ask for
    if clause.form == "verb":
        return "question" if _asks_information(words, 0) else "change"
    # "I'd like to book ..." asks for a change, "I'd like to know ..." for information.
    at = next(
        (
            i
            for i, w in enumerate(words[:8])
            if w in _VERBS and w not in _LIGHT_VERBS and not _states_knowing(words, i)
        ),
        None,
    )
    if at is not None:
        return "question" if _asks_information(words, at) else "change"
    asked = _CAN_YOU.search(clause.text) or _PLEASE_VERB.search(clause.text)
    if asked is not None and asked.group(1).lower() in _VERBS - _LIGHT_VERBS:
        # "My sister is visiting — can you add her to our trip?": the request after the news.
        pair = [asked.group(1).lower(), (asked.group(2) or "").lower()]
        return "question" if _asks_information(pair, 0) else "change"
    if _ASKS_FOR_A_THING.search(clause.text) or _SEND_ME.match(clause.text):
        return "change"  # "Could Poppy have a groom on the day I collect her?": a request
    if _SOMEONE_COMES.search(clause.text):
        return "change"  # "Could someone come and take a look on Thursday?": a visit booked
    leave = _MAY_I.search(clause.text)
    if leave is not None and leave.group(1).lower() not in _INFO_VERBS | _LIGHT_VERBS | {"be"}:
        return "change"  # "Can I spread what's left over 12 instalments?": leave to act
    return "question" if clause.text.endswith("?") else None


_PLEASE_VERB = re.compile(r"\bplease\s+([a-z]+)(?:\s+([a-z]+))?", re.IGNORECASE)
"""A request after the news in one sentence: "My car is in the garage, so please cancel ..."."""
_SOMEONE_COMES = re.compile(
    r"\b(?:can|could|would)\s+(?:someone|somebody|an engineer|a technician)\s+(?:please\s+)?"
    r"(?:come|visit|call|pop)\b",
    re.IGNORECASE,
)
"""Asking for a visit or a call ("Could someone come and take a look?"): a booking, no question."""
_MAY_I = re.compile(
    r"(?:^\W*|[\u2013\u2014]\s*)(?:can|could|may)\s+(?:i|we)\s+(?:please\s+|still\s+)?([a-z]+)",
    re.I,
)
"""Asking leave to do something ("Can I spread it over 12 instalments?"), and its verb; after
the news too ("Some lines have healed patchy — can I book a touch-up?")."""
_MODALS = frozenset("can could may might shall should would will do did".split())


def _states_knowing(words: Sequence[str], at: int) -> bool:
    """Whether the verb at `at` says what the user knows ("I know it's been 8 weeks"): a fact.

    "I'd like to know" and "can I check" ask; "I know" and "we see" only tell.
    """
    subject = words[at - 1] if at >= 1 else ""
    before = words[at - 2] if at >= 2 else ""
    return words[at] in ("know", "see") and subject in ("i", "we") and before not in _MODALS


_WH_QUESTION = re.compile(
    r"^\W*(?:what|when|where|which|who)(?:'s|\s+(?:is|are|was|were)\b)[^?]*\?\s*$", re.I
)
"""A question about a thing's value ("What's the password I set...?", "When is R2 due?")."""
_NO_CHANGE = re.compile(
    r"^\W*(?:i|we)(?:\s+(?:don'?t|do\s+not|won'?t)\s+(?:want|need|wish)|(?:'m|'re|\s+am|\s+are)"
    r"\s+not\s+(?:ready|looking|going|planning)|\s+(?:can'?t|cannot)\s+commit)\s+to\s+(?:change|"
    r"move|cancel|book|do|alter|pay|commit|sign)\b",
    re.IGNORECASE,
)
"""A clause that rules a change out ("I don't want to change anything", "I'm not ready to book
yet"), asking for none."""
_STATE_QUESTION = re.compile(
    r"^\W*(?:is|are|was|were)\s+(?:my|our|the|this|that)\b[^?]*\?\s*$", re.IGNORECASE
)
"""A yes/no question about a thing's state ("Is my quote still valid, and until when?")."""
_CAN_YOU = re.compile(
    r"\b(?:can|could|would|will)\s+you\s+(?:please\s+)?([a-z]+)(?:\s+([a-z]+))?", re.IGNORECASE
)
"""A polite request anywhere in a clause ("... — can you add her to our trip?") and its verb."""
_ASKS_FOR_A_THING = re.compile(
    r"(?:^\W*|[—–]\s*)(?:could|can|may|would)\s+(?:\w+\s+){1,2}?(?:(?:have|get)\s+(?:a|an|some)|have\s+"
    r"(?:the|my|our))\b",
    re.I,
)
"""A polite question asking for a new thing or service: "Could Poppy have a groom?"."""
_SEND_ME = re.compile(
    r"^\W*(?:please\s+)?(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:e-?mail|text|post|mail)\s+(?:me|us|him|her|them)\b",
    re.IGNORECASE,
)
"""A request to send something ("Could you email me a copy of my prescription?"): a thing the
desk does, which "done — it has been sent" ends, not a question an answer ends."""


def _asks_information(words: Sequence[str], at: int) -> bool:
    # "check out at noon", "ask for a cot": a change asked for, not a question.
    after = words[at + 1] if at + 1 < len(words) else ""
    return bool(words) and words[at] in _INFO_VERBS and (words[at], after) not in _CHANGE_PHRASES


_CHANGE_PHRASES = frozenset(
    {("check", "out"), ("check", "in"), ("ask", "for"), ("ask", "to"), ("see", "to")}
)
_INFO_VERBS = frozenset("check find know see track ask view list learn look tell query".split())
_LIGHT_VERBS = frozenset("have get make keep take put use let".split())

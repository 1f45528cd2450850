"""Read what an agent's message means for the user's goal, in any product's wording.

The lexicon (`_lexicon.py`) tells what an agent asks for. This module tells the rest of what a
rule-based user needs, without a hand-written list per product:

- whether an informational request was answered (the reply names the thing asked about and
  carries a value the user did not give: "R204 is due back at 18:00");
- whether the agent refused with a reason ("I can't extend it because it is overdue");
- whether a proposal or report disagrees with the user's goal in any slot — ids, numbers with
  units ("2 hours" for "2 days"), dates, times, amounts, or a set of items only partly named;
- which words of a slot's name an agent uses to ask for it (`rental_id` -> "rental number").

>>> is_refusal("Sorry, I can't extend R204 because it is already overdue.")
True
>>> answers_request("R204 is due back at 18:00 today.", ["R204"], "When is R204 due back?")
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from vistasim.llm import ToolSpec
from vistasim.scenario import Scalar
from vistasim.values import OPENING_HOURS, id_shape, measure_of, text_ids, text_values

__all__ = [
    "is_change_intent",
    "Refusal",
    "is_refusal",
    "refusal",
    "refusal_sentences",
    "requested_kinds",
    "statements",
    "answers_request",
    "item_parts",
    "slot_phrases",
    "tool_lexicon",
    "value_mismatch",
]

_CHANGE_VERBS = frozenset(
    "cancel return exchange update change apply enroll drop reschedule move waive extend reserve"
    " book refund report escalate add remove buy swap transfer renew end close open create"
    " register submit pay redeem upgrade downgrade replace rent hire start stop set switch"
    " edit modify delete schedule file claim request unenroll withdraw join leave send notify"
    " remind arrange confirm sign subscribe unsubscribe activate deactivate reset block unblock"
    " order ship deliver collect postpone shorten reorder reactivate".split()
)
"""Verbs whose intent changes something; an intent with none of them asks for information."""
_REFUSAL = re.compile(
    r"\b(?:can(?:no|')t|cannot|can not|could(?:n't| not)|unable to|not able to|not possible|"
    r"(?:is|are|was|were)n't (?:possible|eligible|allowed|able)|not eligible|won't be able|"
    r"do(?:es)?n't allow|not allowed|not permitted|(?:i'm|i am) afraid|unfortunately|no longer|"
    r"(?:is|are)(?:n't| not) (?:needed|necessary|required)|no need to|"
    r"I (?:have(?:n't| not)|did(?:n't| not)) (?:yet )?(?:opened|cancell?ed|booked|changed|made|"
    r"added|removed|applied|processed|filed|issued|moved|refunded|created|submitted)"
    r"(?!\s+(?:anything|a thing|yet)\b))\b",
    re.IGNORECASE,
)
_RESTRICTION = re.compile(
    r"(?:\bonly\b[^.;]*?,\s+(?:and\s+)?|,\s+so\s+)not\s+(?:to\s+|on\s+|for\s+|by\s+|in\s+"
    r"|at\s+)?(?:an?(?:other)?|the|any|your|other)\b"
    r"|\b(?:at most|at least|only|no more than|up to)\b[^.;]*\brather than\b",
    re.IGNORECASE,
)
"""A rule that declines by itself: "Refunds can only go back to the card you paid with, not to
another card" refuses the other card without a "can't", and the rule is its reason; so do
"Rent can be collected on any day from the 1st to the 28th, so not the 30th" and "over at most
6 months, so that's 6 months rather than 12"."""
_ONLY_WITHIN = re.compile(
    r"\bcan only be \w+(?:ed|en)\s+(?:within|before|up to|until|in the first)\b", re.IGNORECASE
)
_SORRY_BECAUSE = re.compile(
    r"\W*(?:I'?m |I am |we'?re )?(?:so |very )?sorry\b.*\b(?:(?:has|have|needs?) to be|must"
    r"|at (?:least|most)|the (?:earliest|latest)|no (?:earlier|sooner|later) than)\b",
    re.I,
)
"""An apology with the rule it keeps: "I'm sorry — Mr Reid doesn't teach GCSE maths, and a
change of tutor has to be within the same subject." (declines beside "nothing has been
changed")."""
_NOTHING_CHANGED = re.compile(
    r"\bnothing (?:has been|was|is) (?:changed|done)\b"
    r"|\bI(?:'ve not| have not| haven'?t) (?:changed|booked|moved|made|added|cancelled|done)\b",
    re.IGNORECASE,
)
"""A time rule and "nothing has been changed": "...issued 42 days ago, and a line can only be
disputed within 30 days of issue. Nothing has been changed" declines without a "can't"."""
_REASON = re.compile(
    r"\b(?:because|since|so|as (?:it|the|your|this|that)|due to|polic(?:y|ies)|only|already|"
    r"past|exceed\w*|maximum|limit\w*|after|within|window|overdue|final.sale|expired|requires?|"
    r"must|too (?:late|early|soon|old)|no (?:seats|stock|availability)|full|more than|less than|"
    r"longer than|older than|any ?more|ago|not (?:\w+ ){0,3}on your account|belongs? to|unless|"
    r"without|needs?)\b"
    r"|:\s|\s[—–-]\s",
    re.IGNORECASE,
)
_UNAVAILABLE = re.compile(
    r"\b(?:fully booked|booked up|sold out|out of stock|no longer available|not available|"
    r"unavailable|no (?:more |other )?(?:availability|openings|vacanc\w+)|"
    r"no (?:free|open|available) (?:slots?|spots?|seats?|appointments?|times?|tables?|rooms?"
    r"|sections?|classes|places?|spaces?|sessions?|courses?|lessons?|pitches)|"
    r"nothing (?:free|available|open|left)|(?:there is|there are|there's) no (?:\w+ ){0,2}"
    r"(?:available|left|free)|no (?:more )?(?:slots?|spots?|seats?|places?|spaces?|rooms?|"
    r"sessions?|tables?|appointments?) (?:left|remaining)"
    r"|(?:doesn'?t|does not|don'?t|do not) work (?:on|that day)|(?:is|are) (?:closed|shut) on"
    r"|(?:isn'?t|is not|aren'?t|are not) (?:working|open|in) on)\b",
    re.IGNORECASE,
)
"""An unavailability: a slot, a seat or an item the agent cannot give (no reason needed), or a
day nobody works ("Dex doesn't work on Wednesday 16 December")."""
_TAKEN = re.compile(
    r"\b(?:(?:has|have|was|were|is|are|got)\s+(?:just\s+|already\s+|now\s+)*(?:been\s+)?"
    r"(?:booked|taken|reserved|filled|sold|claimed)|just (?:been )?(?:booked|taken)"
    r"|(?:is|are) (?:already )?(?:full|taken|gone))\b"
    r"(?!\s+(?:care|for|in|on) you|\s+care|\s+in\s+(?:for|with|at|on)\b)",
    re.IGNORECASE,
)
"""Taken by someone else ("that slot was just booked"), unless it is the user's own ("Bella
is booked in for a vaccination": booked *in* is a booking made)."""
_YOURS = re.compile(r"\b(?:you|your|you're|yours)\b", re.IGNORECASE)
_DONE_OPENER = re.compile(r"\W*(?:all\s+)?(?:done|sorted)\b", re.IGNORECASE)
"""A report that opens "Done —": what is booked there is what the user asked for ("Done —
lift-out LO5015 for Skua is booked on Thursday 20 May"), not taken by someone else."""
_WANTS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (re.compile(r"\b(?:how much|cost\w*|price|fees?|charged?|owe|balance|total|amount)\b", re.I),
     frozenset({"money"})),
    (re.compile(r"\b(?:when|what time|due|until|opening hours)\b", re.I),
     frozenset({"time", "date"})),
    (re.compile(r"\b(?:which|what) (?:other |different )?(?:day|date)s?\b", re.I),
     frozenset({"date"})),
    # "What's the earliest an engineer could come?": a day, not the verification's "five digits"
    (re.compile(r"\b(?:earliest|soonest|latest|how soon|(?:next|first) (?:available|free))\b",
                re.I),
     frozenset({"time", "date"})),
    (re.compile(r"\bhow long\b", re.I), frozenset({"quantity"})),
    (re.compile(r"\bhow many\b", re.I), frozenset({"number", "quantity"})),
)  # fmt: skip
"""Question words and the kind of value that answers them."""


@dataclass(frozen=True, kw_only=True)
class Refusal:
    """A statement declining the request: with a reason (`policy`) or as `unavailable`."""

    kind: Literal["policy", "unavailable"]
    sentence: str


_NEWS_WORD = re.compile(r"\b[a-z]{3,}(?:ed|ing|able)\b", re.IGNORECASE)
_NOT_NEWS = frozenset(
    "regarding looking thinking something anything nothing everything during following"
    " according being having helping checking wondering waiting asking interested needed"
    " provided included based required".split()
)
_ID_WORDS = frozenset({"id", "number", "no", "code", "ref", "reference", "num"})
_CONDITIONAL = re.compile(r"\W*(?:if|unless|once|when|before)\b", re.IGNORECASE)
_OWNER_WORDS = frozenset({"account", "customer", "user", "member", "client", "patient", "guest"})


_INFO_WORDS = frozenset(
    "status info information when what which where whether how check track find know ask see"
    " list balance availability available dates date schedule due cost price seats time"
    " details lookup look view".split()
)
"""Words that make an intent a question even when it names a change (`refund_status`)."""
_GENERIC_TOPIC = _INFO_WORDS | {"my", "the", "a", "an", "about", "of", "for", "order", "goal"}


def is_change_intent(intent: str) -> bool:
    """Whether an agenda intent asks for a change (`extend_rental`) or for information."""
    words = re.split(r"[_\W]+", intent.lower())
    if _INFO_WORDS & set(words):
        return False
    for word in words:
        stem = re.sub(r"(?:ling|ing|ed|s)$", "", word)
        if word in _CHANGE_VERBS or stem in _CHANGE_VERBS or stem + "e" in _CHANGE_VERBS:
            return True
    return False


def is_refusal(text: str) -> bool:
    """Whether a statement of the message declines the request and says why (or is unavailable)."""
    return refusal(text) is not None


def refusal(text: str) -> Refusal | None:
    """The statement that declines the request with a reason, or says it is unavailable.

    >>> refusal("Sorry, that slot was just booked. Anything else?").kind
    'unavailable'
    >>> refusal("It's not possible because the clinic is closed that day.").kind
    'policy'
    >>> refusal("Sorry — there are no open sections of BIO102 right now.").kind
    'unavailable'
    >>> refusal("I'm sorry — the system refused that: no places left in the Oak Room.").kind
    'unavailable'
    >>> refusal("Your appointment has just been booked.") is None
    True
    >>> refusal("Dex doesn't work on Wednesday 16 December. Which other day would you like?").kind
    'unavailable'
    >>> refusal("The studio is closed on Sundays.").kind
    'unavailable'
    >>> refusal("Done — lift-out LO5015 for Skua is booked on Thursday 20 May.") is None
    True
    >>> refusal("Refunds only go to the card you paid with, not to another card.").kind
    'policy'
    >>> refusal("Rent can be collected on any day from the 1st to the 28th, so not the 30th.").kind
    'policy'
    >>> refusal("We can spread arrears over at most 6 months, so that's 6 months rather than "
    ...         "12.").kind
    'policy'
    >>> refusal("A line can only be disputed within 30 days. Nothing has been changed.").kind
    'policy'
    >>> refusal("I'm sorry — a change of tutor has to be within the same subject. Nothing has "
    ...         "been changed.").kind
    'policy'
    >>> refusal("I'm sorry — re-marks must be asked for within 30 days of results day. Nothing "
    ...         "has been changed.").kind
    'policy'
    >>> refusal("I'm sorry — installations are at least 21 days after the survey, so the "
    ...         "earliest date is Friday 29 January. I haven't booked anything.").kind
    'policy'
    """
    said = statements(text)
    for index, sentence in enumerate(said):
        if _UNAVAILABLE.search(sentence) or (
            _TAKEN.search(sentence) and not _YOURS.search(sentence)
            and not _DONE_OPENER.match(sentence)
        ):
            return Refusal(kind="unavailable", sentence=sentence.strip())
        if _RESTRICTION.search(sentence) or (
            (_ONLY_WITHIN.search(sentence) or _SORRY_BECAUSE.match(sentence))
            and _NOTHING_CHANGED.search(text)
        ):
            return Refusal(kind="policy", sentence=sentence.strip())
        found = _REFUSAL.search(sentence)
        if found is None:
            continue
        # The reason may come first ("R204 isn't on your account, so I can't share it").
        rest = sentence[: found.start()] + " " + sentence[found.end() :]
        # Or in the statement just before ("Renewal only opens on 1 January. I can't renew it
        # yet.").
        before = said[index - 1] if index else ""
        if _REASON.search(rest) or _REASON.search(before):
            return Refusal(kind="policy", sentence=sentence.strip())
    return None


def refusal_sentences(text: str) -> list[str]:
    """Every statement of the message that refuses or says something is unavailable."""
    return [s for s in statements(text) if refusal(s) is not None]


def requested_kinds(question: str) -> frozenset[str]:
    """The kinds of value a question asks for: `money`, `time`, `date`, `quantity`, `number`.

    Empty when any news answers it (a status, a yes or no).

    >>> sorted(requested_kinds("Could you tell me when my rental R204 is due back?"))
    ['date', 'time']
    >>> sorted(requested_kinds("ask how much my rental cost"))
    ['money']
    >>> sorted(requested_kinds("What's the earliest an engineer could come and service my boiler?"))
    ['date', 'time']
    """
    kinds: set[str] = set()
    for pattern, found in _WANTS:
        if pattern.search(question):
            kinds |= found
    return frozenset(kinds)


def statements(text: str) -> list[str]:
    """The sentences of a message that state something (not questions)."""
    return [
        s
        for s in re.split(r"(?<=[.!?])\s+|\n+", text)
        if s.strip() and not s.rstrip().endswith("?")
    ]


def answers_request(
    text: str,
    entities: Sequence[str],
    user_said: str,
    intent: str = "",
    wants: frozenset[str] = frozenset(),
) -> bool:
    """Whether a reply answers an informational request about `entities`.

    It must name one of them (when there are any) in a statement, and carry something the user
    did not say: a value (date, time, amount, quantity, id) or a state word ("shipped"). A state
    word only counts if the reply also names the request's topic (`refund_status`: "refund").
    When the question asks for a kind of value (`wants`: "how much" asks for `money`), only a
    new value of that kind answers it: "we open at 9:00" does not say what a rental cost.
    """
    body = " ".join(
        s for s in statements(text) if not OPENING_HOURS.search(s) and not _CONDITIONAL.match(s)
    )  # "If you don't have the reference, the email you booked with works too" is no answer
    if not body:
        return False
    if entities and not any(e.casefold() in body.casefold() for e in entities):
        # A reply about another order is no answer; one naming no id at all may still be
        # ("It was left with a neighbour on 3 March").
        shapes = {id_shape(e) for e in entities}
        if any(id_shape(i) in shapes for i in text_ids(body)):
            return False
    said = user_said.casefold()
    if wants:
        return _gives_kind(body, user_said, wants)
    known_values = text_values(user_said)
    if any(v not in known_values for v in text_values(body)):
        return True
    if any(i.casefold() not in said for i in text_ids(body)):
        return True
    if _new_numbers(body, user_said):
        return True  # a count, a price or a time the user did not give ("all 10 docks")
    if any(q.casefold() not in said for q in _QUOTED.findall(body)):
        return True  # 'Her collection password is "daffodil"': a word given in quotes
    topic = [w for w in re.split(r"[_\W]+", intent.lower()) if w and w not in _GENERIC_TOPIC]
    if topic and not any(re.search(rf"\b{re.escape(w[:5])}", body, re.I) for w in topic):
        return False
    return any(
        w.lower() not in said and w.lower() not in _NOT_NEWS for w in _NEWS_WORD.findall(body)
    )


_QUOTED = re.compile(r"[\"“]([^\"”\n]{2,40})[\"”]")
"""A value given in double quotes (single ones are also apostrophes)."""


def _gives_kind(body: str, user_said: str, wants: frozenset[str]) -> bool:
    known = text_values(user_said)
    for kind, value in text_values(body):
        if kind.split(":")[0] in wants and (kind, value) not in known:
            return True
    return "number" in wants and bool(_new_numbers(body, user_said))


def _new_numbers(body: str, user_said: str) -> list[str]:
    number = r"(?<![\w.])\d+(?:[.,:]\d+)?(?![\w])"
    known = set(re.findall(number, user_said))
    return [n for n in re.findall(number, body) if n not in known]


def item_parts(value: Scalar) -> list[str]:
    """Split a list of items ("the toaster and the coffee maker") into its items."""
    text = str(value)
    parts = re.split(r"\s*(?:,\s*(?:and\s+)?|\band\b|&|\bplus\b)\s*", text)
    cleaned = [re.sub(r"^(?:the|my|a|an|both)\s+", "", p.strip(), flags=re.I) for p in parts]
    return [p for p in cleaned if p]


def value_mismatch(
    text: str, held: Mapping[str, Scalar], item_slots: Sequence[str] = ()
) -> tuple[str, str, str] | None:
    """Find a held slot the message states otherwise: `(slot, wrong, right)`, or `None`.

    Compares numbers with units of one measure (any span of time: "2 hours" against "2 days";
    never a length against a span: "9.4 m" is no wrong "6 weeks"), dates, times and amounts of
    the same kind, and sets of items of which the message names some but not all.
    """
    stated = text_values(text)
    for slot, value in held.items():
        mine = text_values(str(value))
        for family in sorted({measure_of(k) for k, _ in mine}):
            if {v for v in mine if measure_of(v[0]) == family} <= stated:
                continue  # the message says our value ("08:30, held until 09:00" is fine)
            other = sorted(v for v in stated if measure_of(v[0]) == family and v not in mine)
            if other:
                kind, found = other[0]
                unit = kind.split(":")[1] if ":" in kind else ""
                wrong = f"{found} {unit}s" if unit and found != "1" else f"{found} {unit}".strip()
                return slot, wrong, str(value)
    for slot in item_slots:
        parts = item_parts(held.get(slot, ""))
        named = [p for p in parts if _names_item(text, p)]
        if len(parts) >= 2 and named and len(named) < len(parts):
            return slot, " and ".join(named), str(held[slot])
    return _composite_mismatch(text, held)


def _composite_mismatch(text: str, held: Mapping[str, Scalar]) -> tuple[str, str, str] | None:
    """A value made of words and numbers (an address) restated with one number changed.

    "12 Birch Ct, Salem 97302" for "12 Birch Ct, Salem, OR 97301": the message names most of
    the value's words, misses one of its numbers and has another of the same length instead.

    >>> _composite_mismatch("ship to 12 Birch Ct, Salem 97302?", {"a": "12 Birch Ct, Salem 97301"})
    ('a', '97302', '12 Birch Ct, Salem 97301')
    """
    stated_numbers = set(_NUMBER.findall(text))
    lowered = text.casefold()
    for slot, value in held.items():
        if not isinstance(value, str):
            continue
        words = [w for w in _WORD.findall(value) if len(w) >= 3]
        numbers = _NUMBER.findall(value)
        if len(words) < 2 or not numbers:
            continue
        named = sum(1 for w in words if re.search(rf"\b{re.escape(w.casefold())}\b", lowered))
        if named * 2 < len(words):
            continue  # the message is not about this value
        for number in numbers:
            if number in stated_numbers:
                continue
            other = sorted(n for n in stated_numbers if len(n) == len(number) and n not in numbers)
            if other:
                return slot, other[0], value
    return None


_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.]*\d)")
_WORD = re.compile(r"[A-Za-z]+")


def slot_phrases(slot: str) -> list[str]:
    """Return the phrases a slot's name gives (`rental_id` -> "rental number", "which rental")."""
    words = [w for w in slot.lower().split("_") if w]
    if not words:
        return []
    phrases = [" ".join(words)]
    noun = " ".join(w for w in words if w not in _ID_WORDS)
    if noun and words[-1] in _ID_WORDS:
        phrases += [f"{noun} {w}" for w in ("id", "number", "#", "code", "reference")]
        phrases += [f"which {noun}", f"what {noun}"]
    if len(words) == 2 and words[0] in _OWNER_WORDS and words[1] not in _ID_WORDS:
        phrases.append(words[1])  # `account_pin` is asked for as "your PIN"
    if {"days", "hours", "duration", "length", "period", "weeks", "nights"} & set(words):
        phrases += ["how long", "how many days", "how many hours", "duration", "how much longer"]
    if {"dob", "birth", "birthday", "birthdate", "born"} & set(words):
        # A date of birth is asked for as such, never by "what date" or "when".
        phrases += ["date of birth", "birth date", "birthdate", "birthday", "dob", "born"]
    elif {"date", "day", "time", "when"} & set(words):
        phrases += ["which date", "what date", "what time", "which day", "when"]
    if "reason" in words:
        phrases += ["why", "reason"]
    if {"age", "ages"} & set(words):
        phrases += _AGE_PHRASES
    return list(dict.fromkeys(phrases))


_AGE_PHRASES = [
    "age", "ages", "aged", "how old",
    *(f"{side} {years}" for side in ("under", "over") for years in range(2, 22)),
    *(f"{years} or {side}" for side in ("over", "older", "under") for years in range(2, 22)),
]  # fmt: skip
"""An age is asked for by the limits it is checked against: "under 16", "18 or over"."""


def tool_lexicon(tools: Sequence[ToolSpec]) -> dict[str, list[str]]:
    """Derive slot phrases from tool schemas: every argument name asks for that slot."""
    lexicon: dict[str, list[str]] = {}
    for tool in tools:
        properties = tool.parameters.get("properties")
        if not isinstance(properties, dict):
            continue
        for name in properties:
            lexicon.setdefault(str(name), [])
            for phrase in slot_phrases(str(name)):
                if phrase not in lexicon[str(name)]:
                    lexicon[str(name)].append(phrase)
    return lexicon


def _names_item(text: str, item: str) -> bool:
    words = re.findall(r"[A-Za-z]+", item)
    if not words:
        return False
    last = words[-1].lower().removesuffix("s")
    return re.search(rf"\b{re.escape(last)}(?:e?s)?\b", text, re.IGNORECASE) is not None

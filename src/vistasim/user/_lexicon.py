"""Read an agent's message the way a rule-based user must: what it asks for, confirms or reports.

Agents phrase the same request many ways ("order number", "order id", "which order"). A lexicon
maps slot names to those phrases; domains extend the default one. The phrase lists are data, in
`_lexicon_phrases.py`: extend them rather than adding special cases to the policy.

>>> asked_slots("Thanks. For verification, what's the email on the order?", DEFAULT_LEXICON)
['email']
>>> is_done("Done — order W1007 has been cancelled.")
True
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from vistasim.scenario import Scalar
from vistasim.user._lexicon_phrases import (
    CONFIRM_PHRASES,
    DEFAULT_LEXICON,
    DONE_PHRASES,
    NEGATIONS,
    UNREAL,
)

_ASK_OPENERS = re.compile(
    r"\b(please (provide|enter|share|tell|give|send|confirm|specify)|"
    r"(can|could|would) you (please )?(provide|tell|share|give|send|confirm|specify)|"
    r"i('ll| will)? need your|may i have|let me know)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_LABEL_STOPWORDS = frozenset({"id", "number", "no", "code", "ref"})
_CONTACT_WORDS = frozenset({"phone", "email", "address"})


@dataclass(frozen=True, kw_only=True)
class Mismatch:
    """The agent named a held slot with a value other than ours."""

    slot: str
    wrong: str
    """The value the agent used."""
    right: str
    """The value the user holds."""


def merge_lexicons(*lexicons: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """Combine lexicons: phrases of the same slot are unioned, first occurrence first."""
    merged: dict[str, list[str]] = {}
    for lexicon in lexicons:
        for slot, phrases in lexicon.items():
            known = merged.setdefault(slot, [])
            known.extend(p for p in phrases if p not in known)
    return merged


def alias_phrases(names: Sequence[str]) -> dict[str, list[str]]:
    """Give held slots the phrases of the default slot they are a kind of.

    A scenario says `phone_number` where the default lexicon knows `phone` ("mobile number"),
    `delivery_address` where it knows `address`: the agent asks in those words.

    >>> alias_phrases(["phone_number"])["phone_number"][-1]
    'mobile number'
    """
    aliases: dict[str, list[str]] = {}
    for name in names:
        words = [w for w in name.lower().split("_") if w and w not in _LABEL_STOPWORDS]
        # `pet_name` is not "your name": only contact slots are known by their last word.
        last = words[-1] if words and words[-1] in _CONTACT_WORDS else ""
        for core in dict.fromkeys(["_".join(words), last]):
            if core and core != name and core not in names and core in DEFAULT_LEXICON:
                aliases[name] = list(DEFAULT_LEXICON[core])
                break
    return aliases


def abbreviations_held(
    held: Sequence[str], lexicon: Mapping[str, Sequence[str]]
) -> dict[str, list[str]]:
    """The lexicon with each slot a held slot abbreviates (or that abbreviates it) folded in.

    A desk's lexicon and tools say `date_of_birth` ("date of birth"), its scenarios `dob`: the
    agent's "your date of birth" asked for a slot the user did not hold, and it said it did not
    have one. A slot named by the initials of another's words is that slot: its phrases become
    the held slot's, and it leaves the lexicon.

    >>> abbreviations_held(["dob"], {"date_of_birth": ["date of birth"], "dob": ["dob"]})
    {'dob': ['dob', 'date of birth']}
    >>> abbreviations_held(["date_of_birth"], {"dob": ["d.o.b."]})
    {'date_of_birth': ['d.o.b.']}
    >>> abbreviations_held(["pin"], {"postcode_in": ["postcode"]})
    {'postcode_in': ['postcode']}
    """
    out = {slot: list(phrases) for slot, phrases in lexicon.items()}
    for name in held:
        for other in list(out):
            if other in held or other == name:
                continue
            if _initials(other) == name.lower() or _initials(name) == other.lower():
                mine = out.setdefault(name, [])
                mine.extend(p for p in out.pop(other) if p not in mine)
    return out


def _initials(slot: str) -> str:
    """The initials of a slot of three words or more (`date_of_birth` -> `dob`), else ""."""
    words = [w for w in slot.lower().split("_") if w]
    return "".join(w[0] for w in words) if len(words) >= 3 else ""


def slot_phrases(slot: str) -> list[str]:
    """Return the phrases a slot's own name gives (`refund_to` -> `refund to`).

    Figures in a name are words apart, and "last 4" is said of digits:

    >>> slot_phrases("card_last4")
    ['card last 4', 'last 4 digits', 'last four digits']
    """
    words = spaced_figures(slot.replace("_", " ").strip().lower())
    phrases = [words] if words else []
    last = last_digits(words)
    if last is not None:
        phrases += [f"last {n} digits" for n in last]
    return phrases


def spaced_figures(words: str) -> str:
    """Figures apart from letters: "last4" -> "last 4"."""
    return re.sub(r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])", " ", words)


def last_digits(words: str) -> tuple[str, str] | None:
    """The count of "last 4" in figures and in words, if the words say one."""
    found = re.search(r"\blast (\d|one|two|three|four|five|six)\b", words)
    if found is None:
        return None
    said = found.group(1)
    figure = str(_NUMBER_WORDS.index(said)) if said in _NUMBER_WORDS else said
    return figure, _NUMBER_WORDS[int(figure)]


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def split_sentences(text: str) -> list[str]:
    """Split a message into sentences (keeping their final punctuation)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def question_sentences(text: str) -> list[str]:
    """Return the sentences that ask the user something (questions and polite requests)."""
    return [s for s in split_sentences(text) if s.endswith("?") or _ASK_OPENERS.search(s)]


def asked_slots(text: str, lexicon: Mapping[str, Sequence[str]]) -> list[str]:
    """Return the slots the message asks for, in order of mention.

    A phrase inside a longer phrase of another slot does not count ("address" inside
    "email address"), so the most specific reading wins.

    >>> asked_slots("Could you check the permit or account number?", {"permit": ["permit number"]})
    ['permit']
    >>> asked_slots("And the name of one of your pets?", {"pet_name": ["pet name"]})
    ['pet_name']
    """
    asked = " ".join(ruled_out_removed(s) for s in _asking_sentences(text))
    asked = _PLURAL_OWNERS.sub(lambda m: " ".join(g for g in m.groups() if g), asked)
    asked = _NAME_OF.sub(r"\1 name", asked)
    return mentioned_slots(_SHARED_NOUN.sub(r"\1 \3 or \2 \3", asked), lexicon)


def for_another(text: str, asked: Sequence[str], held: Collection[str]) -> list[str]:
    """The asked slots, one asked of another person taken as the user's fact about them.

    "What's the second adult's full name?" asks for the `joint_name` the user holds, not its
    own `name`: a possessive that names the held slot's qualifier ("the joint member's"), or
    another person ("second", "other", "additional"), when the user holds one such fact.

    >>> for_another("And the second adult's date of birth?", ["date_of_birth"],
    ...             ["date_of_birth", "joint_date_of_birth"])
    ['joint_date_of_birth']
    >>> for_another("And the named member's date of birth?", ["date_of_birth"],
    ...             ["date_of_birth", "joint_date_of_birth"])
    ['date_of_birth']
    >>> for_another("The second adult's name, and your email?", ["name", "email"],
    ...             ["name", "joint_name", "email", "new_email"])
    ['joint_name', 'email']
    """
    out = list(asked)
    for match in _ANOTHERS.finditer(text):
        owner = set(match.group("owner").lower().split())
        kinds = _FACT_OF_PERSON[match.group("fact").lower()]
        for i, slot in enumerate(out):
            if slot not in kinds:
                continue  # "the second adult's name and your email": only the name is theirs
            theirs = [h for h in held if h != slot and h.endswith(f"_{slot}")]
            named = [h for h in theirs if set(h.removesuffix(f"_{slot}").split("_")) <= owner]
            if named or (owner & _ANOTHER_PERSON and len(theirs) == 1):
                out[i] = (named or theirs)[0]
    return out


_FACT_OF_PERSON = {
    "name": {"name"},
    "date of birth": {"date_of_birth", "dob", "birthday"},
    "birthday": {"date_of_birth", "dob", "birthday"},
    "email": {"email"},
    "e-mail": {"email"},
    "phone": {"phone"},
    "mobile": {"phone", "mobile"},
}
"""The slots a fact said of a person names."""
_ANOTHERS = re.compile(
    r"\b(?P<owner>(?:\w+ ){0,2}?\w+)['’]s (?:full |first |last )?"
    r"(?P<fact>name|date of birth|birthday|email|e-mail|phone|mobile)\b",
    re.IGNORECASE,
)
"""A fact asked of someone by a possessive: "the second adult's full name"."""
_ANOTHER_PERSON = frozenset({"second", "other", "another", "additional", "2nd", "extra"})


_PLURAL_OWNERS = re.compile(
    r"\b(\w+?)s['’] (name|number|id|date)s?\b|\b(?!(?:what|that|it|who|there)['’])(\w+)['’]s "
    r"(name|number|id|date)\b",
    re.IGNORECASE,
)
""""one of your pets' names" and "your pet's name" ask for a pet name."""
_NAME_OF = re.compile(
    r"\bname of (?:one of |any of |either of )?(?:your |the |his |her |their )(\w+?)s?\b",
    re.IGNORECASE,
)
""""the name of one of your pets" asks for a pet name too."""


_ALTERNATIVE = re.compile(
    r"^\W*(?:or|alternatively|otherwise)\b(?!\W+(?:i|we)\b)"
    r"|^\W*if (?:it'?s |that'?s )?easier\b"
    r"|^\W*if you (?:don'?t|do not) have\b"
    r"|\b(?:will|would) (?:also )?(?:do|work) (?:instead|too|as well)\b|\bworks? (?:too|as well)\b",
    re.IGNORECASE,
)
"""A statement offering other facts for the same question: "Or, if easier, the email address on
the account and your date of birth.", "If you don't have it, your phone number will do"."""


def _asking_sentences(text: str) -> list[str]:
    """The question sentences, and the statements after one that offer other facts instead."""
    sentences = split_sentences(text)
    asking: list[str] = []
    for sentence in sentences:
        if sentence.endswith("?") or _ASK_OPENERS.search(sentence):
            asking.append(sentence)
        elif asking and _ALTERNATIVE.search(sentence):
            asking.append(sentence)
    return asking


_SHARED_NOUN = re.compile(
    r"\b(\w+) or (\w+) (number|id|reference|code|name|address)\b", re.IGNORECASE
)
""""the permit or account number" asks for the permit number (or the account number)."""


_RULED_OUT = re.compile(
    r"\b(?:is ?n[o']t|are ?n[o']t|not) (?:enough|sufficient|accepted|valid|needed|required)\b"
    r"|\bwon'?t (?:do|work)\b|\bcan(?:no|')t (?:use|accept)\b|\binstead of\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"\([^)]*\)|[^,;()]+")


def ruled_out_removed(sentence: str) -> str:
    """Drop the clauses that rule a fact out ("(a date of birth isn't enough)"): not asked for.

    >>> ruled_out_removed("What's your PIN (a date of birth isn't enough here)?")
    "What's your PIN ?"
    """
    kept = [c.group(0) for c in _CLAUSE.finditer(sentence) if not _RULED_OUT.search(c.group(0))]
    return re.sub(r"\s+", " ", " ".join(k.strip() for k in kept)).strip()


def mentioned_slots(text: str, lexicon: Mapping[str, Sequence[str]]) -> list[str]:
    """Return the slots a text names (asked or not), in order of mention, most specific first."""
    matches = _phrase_matches(text, lexicon)
    kept = [m for m in matches if not any(_strictly_inside(m, other) for other in matches)]
    # "the postcode": the slot named `postcode` itself, not the address slots that list
    # "postcode" among their phrases (the user would give its new address for it).
    named = {(start, end) for start, end, slot in kept if _names(text, start, end, slot)}
    kept = [m for m in kept if m[:2] not in named or _names(text, *m)]
    ordered: list[str] = []
    for _, _, slot in sorted(kept):
        if slot not in ordered:
            ordered.append(slot)
    return ordered


def _names(text: str, start: int, end: int, slot: str) -> bool:
    """Whether the words at `start:end` are the slot's own name ("postcode" for `postcode`)."""
    return slot.replace("_", " ") == text[start:end].lower()


def shadowed_slots(
    text: str, lexicon: Mapping[str, Sequence[str]], held: Sequence[str]
) -> set[str]:
    """Return asked slots whose every mention is also a mention of a held slot.

    "reason" may mean `reason` or `defect`: a user holding `defect` answers that and does not
    also say it lacks a `reason`.
    """
    matches = _phrase_matches(" ".join(question_sentences(text)), lexicon)
    held_spans = [(s, e) for s, e, slot in matches if slot in held]
    shadowed: set[str] = set()
    for slot in {slot for _, _, slot in matches if slot not in held}:
        spans = [(s, e) for s, e, name in matches if name == slot]
        if all(any(hs <= s and e <= he for hs, he in held_spans) for s, e in spans):
            shadowed.add(slot)
    return shadowed


def is_confirmation_request(text: str) -> bool:
    """Return whether the agent asks the user to approve an action."""
    if re.search(r"\(?yes\s*/\s*no\)?", text, re.IGNORECASE):
        return True
    return any(
        _contains(s, CONFIRM_PHRASES) and not _WH_QUESTION.match(s)
        for s in question_sentences(text)
    )


_WH_QUESTION = re.compile(
    r"\W*(?:which|what|when|where|who|how)\b(?![^?]*\b(?:shall|should) i\b)", re.IGNORECASE
)
"""A question for a value ("Which day of the month would you like it taken?"), not for a yes;
"When you're ready, shall I book it?" still asks for one."""


_RESULT_VERBS = (
    "placed|created|added|set up|arranged|extended|moved|updated|changed|processed|upgraded|"
    "downgraded|transferred|switched|removed|replaced"
)
_DONE_FRAMES = re.compile(
    r"^\W*(?!(?:need|based|interested|located|required)\b)[A-Z][a-z]+ed\s*[—–:-]"
    r"|\b(?:has|have) (?:now |just |already )?been (?!(?:asked|told|checked|looked|verified)\b)"
    r"[a-z]+ed\b"
    r"|\bI(?:'ve| have) (?:just |now |successfully )?(?!(?:checked|looked|verified|found|noted|"
    r"received|located|pulled|searched|asked|reviewed)\b)[a-z]+ed\b"
    r"|\b(?:is|are) now [a-z]+ed\b"
    r"|\b(?:is|are) (?:now )?(?:open|opened|logged|lodged|raised|submitted|filed)\b"
    r"[^.?!]{0,12}\b(?:reference|ref|number)\b"
    r"|\b(?:is|are) (?:cancelled|canceled|booked|confirmed|frozen|renewed|issued|scheduled|"
    r"registered|reserved|activated|closed)\b(?!\s+(?:if|once|when|unless)\b)"
    r"|\b(?:has|have) (?:now |just |already )?been (?:sent|set|made|put|given|paid|sorted|done)\b"
    r"|\bI(?:'ve| have) (?:just |now |successfully )?(?:sent|set|made|put|paid|sorted|done)\b"
    r"|\b[Yy]ou(?:'re|’re| are) (?:now |all )?(?:booked|scheduled|registered|enrolled|confirmed)\b"
    # "Your hold on Dune is placed (hold H709)": a result verb that policy statements share
    # ("holds are placed in the order received") counts with the record's id after it.
    rf"|\b(?:is|are) (?:now )?(?:{_RESULT_VERBS})\b[^.?!]{{0,40}}\b[A-Z]{{1,4}}-?\d{{2,}}\b"
    r"|^\W*(?!(?i:noted|checked|received|needed|based|located|required|interested)\b)"
    r"[A-Z][a-z]+ed\b(?:\s+(?:for|on|at|to|in|until|from)\b|\W*$)",
)
"""Generic reports of a change in any product: "Booked — RS415", "I've extended R204",
"has been filed", "is now reserved", "Booked." (read verbs such as "I've checked" do not count)."""


_IDENTITY_CHECKED = re.compile(
    r"\bthat(?:'s|’s| is)\s+(?:your\s+)?(?:\w+\s+){0,2}?[\w/-]*\d[\w/-]*\s+"
    r"(?:confirmed|verified|found)\b"
    r"|\b(?:your\s+)?(?:identity|details|account|security check)\s+(?:is\s+|are\s+|has\s+been\s+"
    r"|have\s+been\s+)?(?:now\s+)?(?:confirmed|verified)\b",
    re.IGNORECASE,
)
"""A check of who the customer is, not the request done: "Thank you, Ravi, that's policy
HH-105044 confirmed", "your identity is verified"."""


def is_done(text: str) -> bool:
    """Return whether a statement in the message reports the request as carried out.

    >>> is_done("Thank you, Ravi, that's policy HH-105044 confirmed. Anything else?")
    False
    >>> is_done("Your booking B-1201 is confirmed for Friday.")
    True
    >>> is_done("Your claim is open, reference CL-55101.")
    True
    """
    lowered = text.lower()
    proposal = any(p in lowered for p in _PROPOSAL_WORDS) and is_confirmation_request(text)
    for sentence in split_sentences(text):
        if sentence.endswith("?"):
            continue
        sentence = _IDENTITY_CHECKED.sub(" ", sentence)
        frame = _DONE_FRAMES.search(sentence)
        if frame is not None and not _negated(sentence, frame.start()):
            return True
        for phrase in DONE_PHRASES:
            if proposal and phrase in _PROPOSAL_WORDS:
                continue  # "That's £55.00 in total, charged to your card. Shall I go ahead?"
            for match in _phrase_regex(phrase).finditer(sentence):
                if not _negated(sentence, match.start()):
                    return True
    return False


_PROPOSAL_WORDS = frozenset({"charged to", "refund of"})
"""Done phrases a proposal uses too ("a refund of £30, charged to your card: shall I?"): they
report a change only in a message that asks no yes or no."""


def _negated(sentence: str, start: int) -> bool:
    # Only nearby words negate: "cancelled; you will not be charged" is still done. An offer
    # is unreal throughout: "I can sell you 1 book for £25.00, charged to your card ...".
    before = sentence[max(0, start - 24) : start]
    return (
        _contains(before, NEGATIONS)
        or _contains(before, UNREAL)
        or _OFFERING.match(sentence) is not None
    )


_OFFERING = re.compile(r"\W*(?:i|we)\s+(?:can|could|would|will)\b(?!\s+see\b)", re.IGNORECASE)


def find_mismatch(
    text: str, held: Mapping[str, Scalar], lexicon: Mapping[str, Sequence[str]]
) -> Mismatch | None:
    """Find a held slot the message names with a different value ("order W1008" for W1007).

    Only values with a recognisable shape (ids with digits, emails) are checked: the message must
    mention the slot (its label or a lexicon phrase), not contain our value, and contain another
    value of the same shape.
    """
    for slot, value in held.items():
        right = str(value)
        if not _has_shape(right) or right.casefold() in text.casefold():
            continue
        if not _mentions_slot(text, slot, lexicon):
            continue
        for found in re.finditer(_shape_pattern(right), text):
            if found.group(0).casefold() != right.casefold():
                return Mismatch(slot=slot, wrong=found.group(0), right=right)
    return None


def mentions(text: str, phrases: Sequence[str]) -> bool:
    """Return whether any phrase occurs in the text as whole words (case-insensitive)."""
    return _contains(text, phrases)


def normalize(text: str) -> str:
    """Return text casefolded with whitespace and trailing punctuation collapsed (for repeats)."""
    return _SPACES.sub(" ", text).strip().rstrip(".!?").casefold()


_SPACES = re.compile(r"\s+")
"""Compiled once: `normalize` runs twice on every message of an LLM user (`re.sub` looked the
pattern up in `re`'s cache each time)."""


def _phrase_matches(text: str, lexicon: Mapping[str, Sequence[str]]) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    for slot, phrases in lexicon.items():
        for phrase in phrases:
            for match in _phrase_regex(phrase.lower()).finditer(text):
                found.append((match.start(), match.end(), slot))
    return found


def _strictly_inside(span: tuple[int, int, str], other: tuple[int, int, str]) -> bool:
    start, end, _ = span
    o_start, o_end, _ = other
    return o_start <= start and end <= o_end and (o_end - o_start) > (end - start)


def _contains(text: str, phrases: Sequence[str]) -> bool:
    return any(_phrase_regex(p).search(text) for p in phrases)


@cache
def _phrase_regex(phrase: str) -> re.Pattern[str]:
    # "n't" is a suffix ("can't"), so it must not need a word boundary before it.
    head = "" if phrase.startswith(("n't", "'")) else r"(?<!\w)"
    tail = r"(?!\w)" if phrase[-1:].isalnum() else ""
    return re.compile(head + re.escape(phrase) + tail, re.IGNORECASE)


def _has_shape(value: str) -> bool:
    return "@" in value or (any(c.isdigit() for c in value) and " " not in value)


@cache
def _shape_pattern(value: str) -> re.Pattern[str]:
    if "@" in value:
        return re.compile(_EMAIL)
    parts: list[str] = []
    for run in re.finditer(r"[A-Za-z]+|\d+|[^A-Za-z\d]+", value):
        chunk = run.group(0)
        if chunk.isalpha():
            parts.append(f"[A-Za-z]{{{len(chunk)}}}")
        elif chunk.isdigit():
            parts.append(f"\\d{{{len(chunk)}}}")
        else:
            parts.append(re.escape(chunk))
    return re.compile(r"(?<![\w-])" + "".join(parts) + r"(?![\w-])")


def _mentions_slot(text: str, slot: str, lexicon: Mapping[str, Sequence[str]]) -> bool:
    labels = [w for w in slot.lower().split("_") if w and w not in _LABEL_STOPWORDS]
    return _contains(text, [*labels, *lexicon.get(slot, [])])

"""What a user's request names: the verbs of the agent's tools, their objects, the tools asked for.

Read by the dropped-request detector (`metrics/_duties.py`): a request names a tool when it says
the tool's verb (or a synonym) and, in the verb's object, a word only that tool's name or
description has ("add" + "bicycle" for `add_extra`: "Add a bicycle, pet or...").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

__all__ = [
    "SYNONYMS", "asked_words", "asks_on", "described_objects", "keywords", "last_mention",
    "mentions", "noun_phrase", "object_phrases", "tool_objects",
]  # fmt: skip

SYNONYMS: dict[str, tuple[str, ...]] = {
    "book": ("book", "reserve", "schedule"),
    "reserve": ("reserv", "book", "hold"),
    "schedule": ("schedul", "book", "appointment"),
    "reschedule": ("reschedul", "move", "change"),
    "modify": ("modif", "change", "move"),
    "change": ("chang", "switch", "move"),
    "update": ("updat", "change"),
    "cancel": ("cancel",),
    "block": ("block", "freez", "lock", "stolen", "lost"),
    "freeze": ("freez", "block", "lock"),
    "replace": ("replac", "new card"),
    # "I'd like a new food caddy": what is new is ordered ("new" alone, as a stem, would
    # prefix "newsletter").
    "order": ("order", "new "),
    "add": ("add", "regist", "sign up"),
    "remove": ("remov",),
    "extend": ("extend", "extension", "longer"),
    "refund": ("refund", "money back"),
    "transfer": ("transfer", "move"),
    "refill": ("refill",),
    "upgrade": ("upgrad",),
    "dispute": ("disput",),
    "subscribe": ("subscri", "sign up", "sign me up", "join"),
    "report": ("report",),
    "end": ("end my", "return the", "check in"),
    "set": ("set",),
}
"""What a user says when asking for what a tool of that verb does (stems, matched as prefixes)."""


def noun_phrase(phrase: str) -> str:
    """The object up to the value it is changed to: "the drop-off" of "the drop-off to Kendal"."""
    return re.split(r"\s(?:to|into|with)\s", phrase, maxsplit=1)[0]


def last_mention(text: str, stems: tuple[str, ...]) -> int:
    """Where the last word starting with one of `stems` starts (-1: none)."""
    found = [m.start() for s in stems for m in re.finditer(rf"\b{re.escape(s)}", text, re.I)]
    return max(found, default=-1)


def tool_objects(tool: str, tools: Sequence[str], unique: tuple[str, ...]) -> tuple[str, ...]:
    """What a request for `tool` names after its verb.

    Words only the tool has, and its name's own words that no other tool with the same verb
    has in its name: "fine" of `pay_fine`, "cabin" of `add_cabin` beside `add_pets` (though
    "a pet cabin" is in the pets tool's description).
    """
    verb, *own = tool.split("_")
    others = {w for o in tools if o != tool and o.split("_")[0] == verb for w in o.split("_")}
    return (*unique, *(w for w in own if len(w) >= 3 and w not in others))


def asks_on(text: str, stems: tuple[str, ...], words: tuple[str, ...]) -> bool:
    """Whether one of `words` is the object of one of `stems`."""
    return bool(asked_words(text, stems, words))


def asked_words(text: str, stems: tuple[str, ...], words: tuple[str, ...]) -> tuple[str, ...]:
    """Those of `words` that are the object of one of `stems`.

    It is in the verb's word or the few words after it, in its sentence: "Add a sea-view cabin"
    asks for a cabin; "add my car to our booking for the crossing back" does not ask for what
    only the cabin tool's description names ("crossing").
    """
    found: list[str] = []
    for said in object_phrases(text, stems, words):
        found += [w for w in words if mentions(said, _forms(w)) and w not in found]
    return tuple(found)


def object_phrases(text: str, stems: tuple[str, ...], words: tuple[str, ...]) -> list[str]:
    """Each use of one of `stems` with its object (`_object_phrase`) that names one of `words`."""
    verbs = "|".join(re.escape(stem) for stem in stems)
    phrases: list[str] = []
    for verb in re.finditer(rf"\b(?:{verbs})", text, re.IGNORECASE):
        if _STATE_BEFORE.search(text, 0, verb.start()):
            continue  # "Lily is booked on Tuesdays next term": what is, not what is asked
        window = re.match(r"\w*(?:[^\w.!?;]+\w+){0,5}", text[verb.start() :])
        if window is None:
            continue
        said = _object_phrase(window.group(0))
        if any(mentions(said, _forms(w)) for w in words):
            phrases.append(said)
    return phrases


def _forms(word: str) -> tuple[str, ...]:
    return (word, *_OTHER_NUMBER.get(word, ()))


def _object_phrase(window: str) -> str:
    """The verb and its object: the window up to a preposition after the object's first noun.

    "change the message on my cake": the message is changed, not the cake (a bakery written
    blind has `change_cake` beside `change_inscription`); "book me in for a trim" keeps its
    object, as "me in" names none yet. "of" binds its noun to the object ("the flavour of my
    cake"), so it is no end.
    """
    words = list(re.finditer(r"[\w'-]+", window))
    named = False
    for word in words[1:]:
        lowered = word.group(0).lower()
        if named and lowered in _ENDS_OBJECT:
            return window[: word.start()]
        named = named or lowered not in _NO_NOUN
    return window


_ENDS_OBJECT = frozenset("on in at for from with by during before after".split())


_NO_NOUN = frozenset(
    "a an the my our your his her their its this that these those me us him them it some any"
    " one in on up back off out over".split()
)
"""Words after a verb that name nothing yet: articles, pronouns, particles ("book me in")."""


_OTHER_NUMBER = {"people": ("person",), "person": ("people",), "men": ("man",), "man": ("men",),
                 "women": ("woman",), "woman": ("women",)}  # fmt: skip
"""Nouns whose singular and plural share no stem: "add one more person" for "Add people"."""


_STATE_BEFORE = re.compile(
    r"\b(?:is|are|was|were|been|being|'s|’s)\s+(?:already\s+|now\s+|still\s+)?$", re.IGNORECASE
)
"""Before a verb of a tool, words that make it the state of a record ("is booked"), no request."""


_STOPWORDS = frozenset(
    "the and for with from that this into onto your their given only when must will have has"
    " been card order booking account customer user agent tool call returns return result"
    " date time amount new current existing verified".split()
)


_NOT_OBJECTS = frozenset(
    "every each another other more some free until true false keep check also only just".split()
)
"""Words after a verb in a description that name no thing it acts on ("Add breakfast for
every guest", "Cancel ... free until ...")."""


def described_objects(
    names: Sequence[str], descriptions: Mapping[str, str]
) -> dict[str, frozenset[str]]:
    """Per tool, the words its description puts right after its verb, no other tool's there.

    "Add people or outfit changes to a booked session": `add_to_session` adds people, though
    `book_session`'s description speaks of people too (a photo studio written blind). A word
    another tool's name has, or another tool of a like verb acts on, names neither: "Change
    the delivery address" is no request to move a delivery (`move_delivery`).
    """
    verbs = {name: name.split("_")[0].lower() for name in names}
    stems = {name: set(SYNONYMS.get(verb, (verb,))) for name, verb in verbs.items()}
    found: dict[str, set[str]] = {}
    for name in names:
        pattern = "|".join(re.escape(stem) for stem in sorted(stems[name]))
        # In the verb's own clause: "Cancel a court booking; refund_pence ..." cancels no refund.
        after = re.search(rf"\b(?:{pattern})\w*((?:[^\w;:.,()]+\w+){{1,4}})",
                          descriptions.get(name, ""), re.IGNORECASE)  # fmt: skip
        words = re.findall(r"[a-z]{4,}", after.group(1).lower()) if after is not None else []
        found[name] = {w for w in words if w not in _STOPWORDS | _NOT_OBJECTS}
    out = {}
    for name, own in found.items():
        others = [o for o in names if o != name]
        # Another tool's name says what it acts on ("delivery" of `move_delivery`), and a
        # tool of a like verb acts on its own objects: neither is this tool's.
        taken = {w for o in others for w in o.lower().split("_")}
        taken |= {w for o in others if stems[o] & stems[name] for w in found[o]}
        out[name] = frozenset(own - taken)
    return out


def keywords(names: Sequence[str], descriptions: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Per tool, the words (4+ letters) of its name and description that no other tool has."""
    words = {
        name: {
            w for w in re.findall(r"[a-z]{4,}", f"{name.replace('_', ' ')} "
                                   f"{descriptions.get(name, '')}".lower())
            if w not in _STOPWORDS
        } - {name.split("_")[0]}
        for name in names
    }  # fmt: skip
    return {
        name: frozenset(w for w in own if not any(w in words[o] for o in names if o != name))
        for name, own in words.items()
    }


def mentions(text: str, stems: tuple[str, ...]) -> bool:
    return any(re.search(rf"\b{re.escape(stem)}", text, re.IGNORECASE) for stem in stems)

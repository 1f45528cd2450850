"""The agent's list of what it can do, and which item the user's request is.

An agent that did not understand often lists its services ("I can help with your bill, changing
plan, PAC codes for switching network, ..."). Repeating the request in the same words loops; a
person picks the item that is theirs and says it in the agent's words first.

>>> options = menu_options("Sorry, I'm not sure. I can help with your bill, changing plan, "
...     "PAC codes for switching network, and replacement SIMs. What would you like to do?")
>>> options
['your bill', 'changing plan', 'PAC codes for switching network', 'replacement SIMs']
>>> best_option(options, "I'm moving network; get me the code to take my number with me")
'PAC codes for switching network'
>>> best_option(options, "Book a table for two") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from vistasim.user._tasks import is_verb

__all__ = ["best_option", "menu_options", "option_request"]

_MENU = re.compile(
    r"\b(?:I can (?:also )?(?:help(?: you)?|assist(?: you)?) with|I can help you|"
    r"I can do|you can ask (?:me )?(?:about|for)|(?:the )?options are|I handle|I can)\s*:?\s*"
    r"(?P<items>[^.?!]+)",
    re.IGNORECASE,
)
_SPLIT = re.compile(r"\s*[,;]\s*(?:(?:and|or)\s+)?", re.IGNORECASE)
"""Items are split at commas: "a lost or stolen card" and "address or due date" are one item."""
_DETERMINERS = frozenset("a an the my your this that some any".split())
_STOP = frozenset(
    "the a an my your our their for with and or of to on in at by from about any this that "
    "help can you me want need like would could please get some".split()
)


def menu_options(text: str) -> list[str]:
    """The items of a list of services in the message, or [] when it lists none (fewer than 3).

    >>> menu_options("I can help with your rentals (due times, costs), reservations, refunds "
    ...     "and station availability.")
    ['your rentals (due times, costs)', 'reservations', 'refunds', 'station availability']
    """
    for found in _MENU.finditer(text):
        listed = found.group("items")
        items = [i.strip(" :") for i in _split_outside_brackets(listed) if i.strip(" :")]
        if len(items) >= 3:
            return _last_pair_split(items, listed)
    return []


def _split_outside_brackets(listed: str) -> list[str]:
    # "your rentals (due times, costs, returns)" is one item: its commas are inside brackets.
    def hide(bracket: re.Match[str]) -> str:
        return bracket.group(0).replace(",", "\0").replace(";", "\1")

    hidden = re.sub(r"\([^()]*\)", hide, listed)
    return [i.replace("\0", ",").replace("\1", ";") for i in _SPLIT.split(hidden)]


def _last_pair_split(items: list[str], listed: str) -> list[str]:
    # Without a comma before it, the list's last "and" joins its last two items ("refunds and
    # station availability"); with one (", and replacement SIMs") the split is already made.
    if re.search(r",\s*and\s", listed, re.IGNORECASE):
        return items
    head, sep, tail = items[-1].rpartition(" and ")
    if not sep or "(" in tail or not head.strip():
        return items
    return [*items[:-1], head.strip(), tail.strip()]


def best_option(options: Sequence[str], request: str) -> str | None:
    """The one option sharing most words with the request; None if none or a tie."""
    wanted = set(_stems(request))
    stems = [set(_stems(o)) for o in options]
    # A word every option shares ("card" in "block a card", "replace a card") tells little.
    weight = {w: 1 / sum(1 for s in stems if w in s) for s in stems for w in s}
    scored = sorted(
        (
            (round(sum(weight[w] for w in wanted & s), 3), o)
            for s, o in zip(stems, options, strict=True)
        ),
        reverse=True,
    )
    if not scored or scored[0][0] == 0:
        return None
    if len(scored) > 1 and scored[1][0] == scored[0][0]:
        return None
    return scored[0][1]


def option_request(option: str) -> str:
    """Say a listed service as a request: "changing plan" -> "I'd like to change my plan".

    >>> option_request("cancelling a line"), option_request("PAC codes for switching network")
    ("I'd like to cancel a line.", "I'd like help with PAC codes for switching network.")
    """
    first, _, rest = option.partition(" ")
    if is_verb(first):
        return f"I'd like you to {option.replace('your ', 'my ')}."
    verb = _verb_of(first) if first.lower().endswith("ing") else None
    if verb is None:
        return f"I'd like help with {option.replace('your ', 'my ')}."
    rest = rest.replace("your ", "my ")
    if rest and rest.split()[0].lower() not in _DETERMINERS:
        rest = f"my {rest}"
    return f"I'd like to {verb} {rest}".rstrip() + "."


def _verb_of(gerund: str) -> str | None:
    base = gerund.lower()[:-3]
    doubled = base[:-1] if len(base) > 2 and base[-1] == base[-2] else base
    for verb in (base, base + "e", doubled):
        if is_verb(verb):
            return verb
    return None


def _stems(text: str) -> list[str]:
    # Five letters are enough to tie "changing" to "change" and "codes" to "code".
    words = re.findall(r"[a-z]+", text.lower())
    return [w[:5] if len(w) > 5 else w.removesuffix("s") for w in words if w not in _STOP]

"""Which of a goal's several requests each held fact belongs to.

"Please upgrade my diploma, order TR7023, to rush, and send me a quote for a 3-page contract":
the 3 pages are the quote's, so a proposal for the upgrade that says "(your diploma, 2 pages)"
contradicts nothing the user holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from vistasim.user._stated import stated_values
from vistasim.user._tasks import REQUEST_OPENING, goal_requests, is_verb

if TYPE_CHECKING:
    from vistasim.user._facts import Fact, Part

__all__ = ["ARTICLE", "owned_by_requests", "request_text"]

ARTICLE = re.compile(r"(?:a|an|another|some|the)\s", re.IGNORECASE)
"""A request for a thing, with no verb: "I'd like a new food caddy"."""
_PLEASE_VERB = re.compile(r"[,;]\s*please\s+(\w+)", re.IGNORECASE)


def request_text(said: str) -> str:
    """A clause from its request's verb: "For our visit on 27 December, please add ..."."""
    clause = REQUEST_OPENING.sub("", said)
    first = clause.split()[0].lower() if clause.split() else ""
    later = _PLEASE_VERB.search(clause)
    if not is_verb(first) and later is not None and is_verb(later.group(1).lower()):
        return clause[later.start(1) :]
    return clause


def owned_by_requests(
    goal: str, facts: list[Fact], parts: tuple[Part, ...], today: date | None
) -> list[Fact]:
    """Each fact with the goal's requests, and the one request whose words alone state it."""
    clauses = [s for s in goal_requests(goal) if _is_request(s)]
    if len(clauses) != len(parts):
        return facts  # which clause is which part is not sure: every part keeps every fact
    stated = [stated_values(clause, today) for clause in clauses]
    out = []
    for fact in facts:
        # "a 3-page contract" reads as an id of its own: the value's words count as well.
        words = [re.compile(rf"(?<![A-Za-z0-9]){re.escape(w)}(?![A-Za-z0-9])", re.IGNORECASE)
                 for w in _spoken(fact.said.values())]  # fmt: skip
        saying = [
            i for i, values in enumerate(stated)
            if any(v.kind in fact.values and v.values & fact.values[v.kind] for v in values)
            or any(w.search(clauses[i]) for w in words)
        ]  # fmt: skip
        request = saying[0] if len(saying) == 1 else None
        out.append(replace(fact, requests=parts, request=request))
    return out


_SPELLED = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve")  # fmt: skip


def _spoken(said: Iterable[str]) -> list[str]:
    """The fact's words, and a small count's in letters: "make it five players" says 5.

    >>> _spoken(["5", "LB2017"])
    ['5', 'five', 'LB2017']
    """
    out: list[str] = []
    for word in (w for w in said if w):
        out.append(word)
        if word.isdigit() and int(word) < len(_SPELLED):
            out.append(_SPELLED[int(word)])
    return out


def _is_request(said: str) -> bool:
    """Whether a clause of the goal makes a request of its own (as `_facts._parts` counts)."""
    clause = request_text(said)
    verb = clause.split()[0].lower() if clause.split() else ""
    return bool(ARTICLE.match(clause)) or is_verb(verb)

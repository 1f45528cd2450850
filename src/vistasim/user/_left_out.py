"""A goal of several requests reported done in part: the user asks for the part left out.

"Can you book a collection for an old bed on Tuesday 15 December? I'd also like to sign up for
garden waste, one bin", answered "Done — bulky collection BLK-40523 is booked. That's
everything you asked for done.": nothing the agent said named the garden waste, and a customer
asks about it rather than thank the agent and leave. Only a scenario without an agenda has its
requests in the goal's words alone (an agenda gives each its own sub-goal), and each request is
asked after once: what the agent says then is taken as it comes. A request counts only when the
goal says it as one more ("I'd also like...", "...too") and it asks for a change: "and tell me
the total" is answered by the total, and "keep the car one more day and bring it back on
Tuesday" is one request said twice.
"""

from __future__ import annotations

import re

from vistasim.user._agenda_step import Step
from vistasim.user._owners import GENERIC
from vistasim.user._tasks import REQUEST_OPENING, goal_requests, is_verb

__all__ = ["left_out"]

_ANOTHER = re.compile(r"\b(?:also|too|as well)\b", re.IGNORECASE)
"""A request said as one more ("I'd also like...", "...a new food caddy too"): not a restatement
of the first ("keep the car one more day and bring it back on Tuesday")."""
_ASKING = re.compile(
    r"\b(?:tell|know|what|how much|how many|whether|check|confirm|explain|cost|costs|total)\b",
    re.IGNORECASE,
)
"""A question ("and tell me the total"): answered by a value, not by naming it."""
_FUNCTION = frozenset(
    "also like would could should want need please thanks thank that this there these those with"
    " from into onto have been just only them they then than when what will your mine some"
    " sure help able case sort sorted today tomorrow".split()
)


def left_out(step: Step, message: str) -> str | None:
    """The goal's request that nothing the agent said names, when the goal makes several.

    `message`: the agent's reply that reports the rest done. `None` when every request was
    named, the scenario has an agenda, or the user already asked after the one left out.
    """
    view = step.view
    if view.scenario.agenda:
        return None
    requests = _requests(view.scenario.goal)
    if len(requests) < 2:
        return None
    requests = [
        r for r in requests[1:] if _ANOTHER.search(r) and not _ASKING.search(r) and _words(r)
    ]
    agent = " ".join([*(u.text for u in view.transcript if u.role == "agent"), message]).lower()
    said = [u.text for u in view.transcript if u.role == "user"]
    later = " ".join(said[1:]).lower()  # after the opening, which is the goal
    for request in requests:
        words = _words(request)
        if not any(_named(word, agent) or _named(word, later) for word in words):
            return request
    return None


def _requests(goal: str) -> list[str]:
    return [c for c in goal_requests(goal) if REQUEST_OPENING.match(c) or is_verb(c.split()[0])]


def _words(request: str) -> set[str]:
    """What names the request: its nouns and values, not its verbs or the words around them."""
    words = {w for w in re.findall(r"[a-z]+", request.lower()) if len(w) >= 4}
    values = {v for v in re.findall(r"\b\w*\d\w*\b", request.lower()) if len(v) >= 3}
    return (words - GENERIC - _FUNCTION - {w for w in words if is_verb(w)}) | values


def _named(word: str, text: str) -> bool:
    """`word` in `text`, or a word sharing its first five letters (subscribe, subscription)."""
    stem = word[:5] if len(word) > 5 and not any(ch.isdigit() for ch in word) else word
    return re.search(rf"\b{re.escape(stem)}", text) is not None

"""What the agenda user says of its goal and facts, with the scenario's behaviours applied.

A scenario's goal text is for LLM users and people: it may carry instructions ("but hesitate and
do not confirm yet") that a real customer would never say. The offline user speaks only the
request part, and plays the instructions as behaviours (`correct` says a wrong value and takes it
back; `change_mind` and `amend` first ask for another value; `withhold` keeps a fact back once).
"""

from __future__ import annotations

import re

from vistasim.scenario import Behaviour, BehaviourOp, Scalar
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._phrasing import Phrasing
from vistasim.user._stated import stated_values
from vistasim.user._whole import says, whole

_INSTRUCTION = re.compile(
    r"\b(?:hesitat\w*|do not confirm|don't confirm|not confirm|when asked|if asked|if the agent|"
    r"when the agent|pretend\w*|insist\w*|refuse to|say to|say that|be sure to|make sure to|"
    r"at first|then say|act as|play the|without confirming|never confirm|ask about)\b",
    re.IGNORECASE,
)
_CLAUSE_BREAK = re.compile(r",?\s+but\s+|;\s*|(?<=[.!?])\s+")


def spoken_goal(goal: str) -> str:
    """Return the goal without the clauses that instruct the simulated user.

    >>> spoken_goal("Ask about cancelling order W1003, but hesitate and do not confirm it yet.")
    ''
    >>> spoken_goal("Cancel order W1001; I found the coffee maker cheaper elsewhere.")
    'Cancel order W1001; I found the coffee maker cheaper elsewhere.'
    """
    if not _INSTRUCTION.search(goal):
        return goal.strip()
    clauses = [c for c in _CLAUSE_BREAK.split(goal) if c.strip()]
    kept = [c.strip().rstrip(".,;") for c in clauses if not _INSTRUCTION.search(c)]
    return ". ".join(kept) + ("." if kept else "")


def say_value(
    phrasing: Phrasing, entry: AgendaEntry, slot: str, value: Scalar
) -> tuple[str, list[BehaviourOp]]:
    """Return how the user states `slot` now, and the behaviours that this plays."""
    correct = entry.pending("correct")
    if correct is not None and correct.slot == slot:
        text = phrasing.pick(
            phrasing.templates.self_correct, wrong=str(correct.wrong), right=str(value)
        )
        return text, ["correct"]
    for change in (entry.pending("change_mind"), entry.pending("amend")):
        if change is not None and change.slot == slot:
            return str(change.first), []
    return str(value), []


def switch_pending(entry: AgendaEntry, about: str = "") -> Behaviour | None:
    """The entry's `change_mind` or `amend` still to be played: its slot is said as `first`.

    With both pending, the one whose first value `about` names: a refusal of the amend's
    "R208" is not about the change of mind on the duration.
    """
    pending = [b for b in (entry.pending("change_mind"), entry.pending("amend")) if b]
    named = [b for b in pending if about and says(about, b.first)]
    return next(iter(named or pending), None)


def switch_on_refusal(phrasing: Phrasing, change: Behaviour, value: str, request: str) -> str:
    """What the user says when the agent refuses the value it meant to change (`first`).

    `change_mind` switches now ("I changed my mind — W1007, not W1008"); `amend` had said the
    wrong one, so it says so and asks again with the right one (`request`: the request's words).
    """
    if change.op == "amend":
        return f"{phrasing.pick(phrasing.templates.amend_refused, value=value)} {request}"
    return phrasing.pick(phrasing.templates.change_mind, value=value, first=str(change.first))


def say_task(phrasing: Phrasing, entry: AgendaEntry, task: str) -> tuple[str, list[BehaviourOp]]:
    """Return the request words with the entry's value behaviours applied to its slots."""
    played: list[BehaviourOp] = []
    correct = entry.pending("correct")
    if correct is not None and says(task, correct.wrong):
        played.append("correct")  # the goal's own words already say it, then take it back
        entry = entry.model_copy(update={"played": [*entry.played, "correct"]})
    for slot, value in entry.slots.items():
        text = str(value)
        found = whole(text).search(task) if text.strip() else None
        span = (found.start(), found.end()) if found is not None else _count_in_words(task, text)
        if span is not None:
            said, ops = say_value(phrasing, entry, slot, value)
            if said != text:
                task = task[: span[0]] + said + task[span[1] :]
                played += ops
    return task, played


def _count_in_words(task: str, text: str) -> tuple[int, int] | None:
    """Where the request says a count in words ("for two months" for the slot's "2").

    Without it a drawn change of mind listed "my months is 3" after "freeze my membership for
    two months", in one breath.
    """
    if not text.isdigit():
        return None
    for said in stated_values(task, None):
        if said.kind == "quantity" and any(v.split(" ")[0] == text for v in said.values):
            first = said.surface.split(" ", 1)[0]
            return said.start, said.start + len(first)
    return None




def withholds(entry: AgendaEntry, slot: str) -> bool:
    """Whether the user still keeps `slot` back (a `withhold` behaviour not yet played)."""
    withhold = entry.pending("withhold")
    return withhold is not None and withhold.slot == slot


def mark(state: AgendaState, ops: list[BehaviourOp]) -> AgendaState:
    """Mark behaviours as played on the current entry."""
    for op in dict.fromkeys(ops):
        if state.stack and state.stack[0].pending(op) is not None:
            state = state.played(op)
    return state

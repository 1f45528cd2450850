"""What one step of the agenda user works with, and what it makes of the agent's message.

`Step` and `Reaction` are shared by the reading half of the offline policy (`_agenda_react.py`)
and the modules it delegates to (answers, checks, refusals), so they live apart from all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from vistasim.scenario import BehaviourOp, Scalar
from vistasim.user._agenda_say import spoken_goal
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._phrasing import Phrasing
from vistasim.user._types import UserView
from vistasim.user._web_skills import WebSkill

__all__ = ["Reaction", "Step", "held_facts", "is_id", "task_words"]


@dataclass(frozen=True, kw_only=True)
class Step:
    """What one step works with; built fresh each call, never stored."""

    view: UserView
    state: AgendaState
    phrasing: Phrasing
    lexicon: dict[str, list[str]]
    skills: Mapping[str, WebSkill]
    today: date | None = None
    """The episode's day (environment clock, policy clock or scenario); `None`: unknown."""
    max_unread: int = 3
    """Agent replies in a row the user may fail to read before it stops."""

@dataclass(frozen=True, kw_only=True)
class Reaction:
    """What the user makes of the agent's message: what to say, and what it means for the goal."""

    text: str
    progress: bool
    """The message moved things on; a reaction without progress costs patience."""
    done: bool = False
    """The sub-goal is over: advance (after saying `text`, when there is one)."""
    refused: bool = False
    """The agent refused the sub-goal with a reason, and the user accepts that."""
    stopped: str | None = None
    """The agent refused and the goal allows nothing else: the refusal, for the stop detail."""
    asks_next: bool = False
    """`text` already asks for the next sub-goal (done, then a question about it)."""
    played: tuple[BehaviourOp, ...] = ()
    rejected: str | None = None
    changes: Mapping[str, object] = field(default_factory=dict)
    """Changes to the current sub-goal (its fallback taken, an alternative asked for)."""
    later_done: int | None = None
    """Position on the stack of a later sub-goal the message reports done (not the current)."""
    plain: bool = False
    """`text` is a bare value given again: said as it is, with no "As I said," before it."""

def task_words(step: Step, entry: AgendaEntry) -> str:
    """Return the words of a sub-goal's request: the goal text, or words for its intent."""
    if entry.task:
        return entry.task.strip().rstrip(".")
    slots = {k: v for k, v in entry.slots.items() if k != "api"}
    return step.phrasing.task(entry.intent, slots, goal=spoken_goal(step.view.scenario.goal))

def user_said(view: UserView) -> str:
    """Everything the user has said in the chat, in one text (for "did it say X already?")."""
    return " ".join(u.text for u in view.transcript if u.role == "user")


def fact_sources(step: Step, state: AgendaState) -> list[Mapping[str, Scalar]]:
    """Where the user's facts come from, the first holding a slot winning.

    The current sub-goal, the knowledge, the hidden facts, then the later sub-goals.
    """
    scenario = step.view.scenario
    sources: list[Mapping[str, Scalar]] = [state.stack[0].slots, scenario.knowledge]
    sources.append(scenario.hidden)
    return sources + [entry.slots for entry in state.stack[1:]]


def held_facts(step: Step, state: AgendaState) -> dict[str, Scalar]:
    """Facts the user can give when asked: current sub-goal, knowledge, hidden, later sub-goals."""
    held: dict[str, Scalar] = {}
    for source in fact_sources(step, state):
        for key, value in source.items():
            if key != "api":
                held.setdefault(key, value)
    return held

def is_id(value: Scalar) -> bool:
    """Whether a value looks like an id (letters and digits, or an email), not words."""
    text = str(value)
    return " " not in text and ("@" in text or any(c.isdigit() for c in text))

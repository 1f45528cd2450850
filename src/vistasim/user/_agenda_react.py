"""How the agenda user reacts to the agent's last message: answer, confirm, object, or move on.

This is the reading half of the offline policy (`_agenda.py` drives the stack of sub-goals): it
tells what the agent asked, proposed, reported or refused, checks proposals against the user's
goal, and words the answer with the scenario's behaviours applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from vistasim.scenario import BehaviourOp, Scalar
from vistasim.user._agenda_say import say_value, withholds
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._lexicon import (
    asked_slots,
    find_mismatch,
    is_confirmation_request,
    is_done,
    shadowed_slots,
)
from vistasim.user._phrasing import Phrasing, lower_first
from vistasim.user._reading import answers_request, is_change_intent, is_refusal, value_mismatch
from vistasim.user._types import UserView
from vistasim.user._web_skills import WebSkill
from vistasim.values import text_ids, text_values

_NOT_FACTS = frozenset({"confirm", "confirmation", "yes_no"})


@dataclass(frozen=True, kw_only=True)
class Step:
    """What one step works with; built fresh each call, never stored."""

    view: UserView
    state: AgendaState
    phrasing: Phrasing
    lexicon: dict[str, list[str]]
    skills: Mapping[str, WebSkill]


@dataclass(frozen=True, kw_only=True)
class Reaction:
    """What the user makes of the agent's message: what to say, and what it means for the goal."""

    text: str
    progress: bool
    done: bool = False
    """The sub-goal is over: advance (after saying `text`, when there is one)."""
    refused: bool = False
    """The agent refused the sub-goal with a reason, and the user accepts that."""
    played: tuple[BehaviourOp, ...] = ()
    rejected: str | None = None


def task_words(step: Step, entry: AgendaEntry) -> str:
    """Return the words of a sub-goal's request: the goal text, or words from its intent."""
    if entry.task:
        return entry.task.strip().rstrip(".")
    return step.phrasing.task(entry.intent, {k: v for k, v in entry.slots.items() if k != "api"})


def react(
    step: Step, state: AgendaState, message: str, previous: str | None = None
) -> Reaction | None:
    """Read the agent's latest message (and its previous one); `None`: nothing useful in it."""
    entry = state.stack[0]
    held = held_facts(step, state)
    confirming = is_confirmation_request(message)
    # Domain lexicons may list "confirm" as a slot: that is a yes/no question, not a fact. In a
    # yes/no question a slot's name is part of the proposal ("to the payment method on file"),
    # so only facts the user holds are answered there.
    asked = [s for s in asked_slots(message, step.lexicon) if s not in _NOT_FACTS]
    done = is_done(message)
    if confirming or done:
        # "Done — RS414 is cancelled. Which station...?" reports this sub-goal; a question about
        # a fact the user does not hold is not its business.
        asked = [s for s in asked if s in held]
    if asked:
        return _answer(step, state, message, asked)
    if confirming:
        return _on_confirmation(step, state, message, previous)
    mismatch = _mismatch(step, state, message)
    if done:
        if mismatch is not None:
            return mismatch
        return Reaction(text="", progress=True, done=True)
    if is_refusal(message):
        change = entry.pending("change_mind")
        if change is not None and change.slot is not None:
            # The refusal is about the value the user meant to take back: it does so now,
            # rather than accept a refusal of something it never wanted.
            ph = step.phrasing
            value = str(entry.slots.get(change.slot, ""))
            text = ph.pick(ph.templates.change_mind, value=value, first=str(change.first))
            return Reaction(text=text, progress=True, played=("change_mind",))
        return Reaction(text="", progress=True, refused=True)
    if entry.has("hesitate") is not None and "hesitate" in entry.played:
        return Reaction(text="", progress=True, done=True)  # the agent held off, as asked
    if not is_change_intent(entry.intent) and answers_request(
        message, _entities(entry), _user_said(step.view), entry.intent
    ):
        return Reaction(text="", progress=True, done=True)
    return None


def _on_confirmation(
    step: Step, state: AgendaState, message: str, previous: str | None
) -> Reaction:
    ph = step.phrasing
    entry = state.stack[0]
    hesitate = entry.has("hesitate")
    if hesitate is not None and "hesitate" not in entry.played:
        return Reaction(text=ph.pick(ph.templates.hesitate), progress=True, played=("hesitate",))
    if hesitate is not None and hesitate.then == "stop":
        return Reaction(text=ph.pick(ph.templates.decline), progress=True, done=True)
    change = entry.pending("change_mind")
    if change is not None and change.slot is not None:
        value = str(entry.slots.get(change.slot, ""))
        text = ph.pick(ph.templates.change_mind, value=value, first=str(change.first))
        return Reaction(text=text, progress=True, played=("change_mind",))
    mismatch = _mismatch(step, state, message)
    bare = not text_ids(message) and not text_values(message)
    on_table = _last_proposal(step.view, previous)
    if mismatch is None and on_table and state.rejected and bare:
        # "Sorry, I need a clear yes or no" (however often): the proposal on the table is
        # still the one the user rejected.
        again = _mismatch(step, state, on_table)
        mismatch = again if again is not None and again.rejected in state.rejected else None
    if mismatch is not None:
        return mismatch
    return Reaction(text=ph.styled("confirm"), progress=True)


def _last_proposal(view: UserView, previous: str | None) -> str | None:
    """The agent's latest earlier message that states values (the proposal still on the table)."""
    earlier = [u.text for u in view.transcript if u.role == "agent"][:-1]
    for text in reversed(earlier):
        if text_ids(text) or text_values(text):
            return text
    return previous


def _mismatch(step: Step, state: AgendaState, message: str) -> Reaction | None:
    """Object to a proposal or report that disagrees with the goal in any slot."""
    ph = step.phrasing
    checkable = _checkable(step, state)
    found = find_mismatch(message, checkable, step.lexicon)
    if found is not None:
        label = ph.templates.value_labels.get(found.slot, ph.label(found.slot))
        text = ph.pick(ph.templates.correct, label=label, value=found.right, wrong=found.wrong)
        return Reaction(text=text, progress=True, rejected=found.wrong)
    items = [s for s in checkable if "item" in s]
    other = value_mismatch(message, checkable, items)
    if other is None:
        return None
    _, wrong, right = other
    text = ph.pick(ph.templates.object_value, value=right, wrong=wrong)
    return Reaction(text=text, progress=True, rejected=wrong)


def _answer(step: Step, state: AgendaState, message: str, asked: list[str]) -> Reaction:
    ph = step.phrasing
    entry = state.stack[0]
    held = held_facts(step, state)
    shadowed = shadowed_slots(message, step.lexicon, [s for s in asked if s in held])
    clauses: list[str] = []
    played: list[BehaviourOp] = []
    for slot in (s for s in asked if s in held):
        if withholds(entry, slot):
            clauses.append(ph.pick(ph.templates.withhold, label=ph.label(slot)))
            played.append("withhold")
            continue
        said, ops = say_value(ph, entry, slot, held[slot])
        clauses.append(ph.fact(slot, said))
        played += ops
    # Answer what was asked and nothing more: a second slot name in the same question ("refund to
    # your original payment method or a gift card?") is usually part of the first one's options.
    missing = [slot for slot in asked if slot not in held and slot not in shadowed]
    gives_facts = bool(clauses)
    if missing and not clauses:
        clauses.append(ph.pick(ph.templates.dont_have, label=ph.label(missing[0])))
    if entry.pending("second_request") is not None and len(state.stack) > 1:
        later = ph.request(task_words(step, state.stack[1]))
        clauses.append(ph.pick(ph.templates.second_request, request=lower_first(later)))
        played.append("second_request")
    text = ph.answer(clauses, gives_facts=gives_facts)
    return Reaction(text=text, progress=True, played=tuple(played))


def held_facts(step: Step, state: AgendaState) -> dict[str, Scalar]:
    """Facts the user can give when asked: current sub-goal, knowledge, hidden, later sub-goals."""
    scenario = step.view.scenario
    held: dict[str, Scalar] = {}
    sources = [state.stack[0].slots, scenario.knowledge, scenario.hidden]
    sources += [entry.slots for entry in state.stack[1:]]
    for source in sources:
        for key, value in source.items():
            if key != "api":
                held.setdefault(key, value)
    return held


def _checkable(step: Step, state: AgendaState) -> dict[str, Scalar]:
    # Hidden facts are left out: correcting one would reveal it unasked. A slot whose value the
    # user has yet to change its mind about is left out too: the agent's proposal is what it said.
    entry = state.stack[0]
    change = entry.pending("change_mind")
    held = {
        k: v
        for k, v in entry.slots.items()
        if k != "api" and not (change is not None and change.slot == k)
    }
    for key, value in step.view.scenario.knowledge.items():
        held.setdefault(key, value)
    return held


def _entities(entry: AgendaEntry) -> list[str]:
    """The ids an informational request is about (an order, a rental), if it names any."""
    return [str(v) for k, v in entry.slots.items() if k != "api" and is_id(v) and "@" not in str(v)]


def _user_said(view: UserView) -> str:
    return " ".join(u.text for u in view.transcript if u.role == "user")


def is_id(value: Scalar) -> bool:
    text = str(value)
    return " " not in text and ("@" in text or any(c.isdigit() for c in text))

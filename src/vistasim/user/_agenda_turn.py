"""One chat turn of the agenda user: read the agent's reply, then answer, move on or stop.

The user never loops: a sub-goal the agent reports done (or answers) is popped, with any later
one it asked for in the same message that the reply also covers; a refusal is accepted, worked
around or ends the sub-goal; an unhelpful reply costs patience. A reply it cannot read at all
(no question, proposal, answer, refusal or report it recognises) is counted apart: after
`max_unread` of them in a row it stops with a detail starting "the simulated user could not follow
the agent", which the metrics count as the simulated user's failure, not the agent's.
"""

from __future__ import annotations

from collections.abc import Callable

from vistasim.user._agenda_react import completes, react
from vistasim.user._agenda_say import mark
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._agenda_step import Reaction, Step
from vistasim.user._agenda_words import agent_turns, rephrase, says_again
from vistasim.user._done_before import names_entry
from vistasim.user._lexicon import normalize
from vistasim.user._phrasing import lower_first
from vistasim.user._types import Action, Finish, Say

__all__ = ["LOST", "respond"]

LOST = "the simulated user could not follow the agent"
"""How the stop detail starts when the user could not read the agent (an `invalid` episode)."""

Advance = Callable[..., tuple[Action, AgendaState]]
Turn = tuple[Action, AgendaState]


def respond(step: Step, state: AgendaState, advance: Advance) -> Turn:
    """React to the agent's reply since the user's last action."""
    latest, previous = agent_turns(step.view)
    repeated = bool(latest) and previous is not None and normalize(latest) == normalize(previous)
    reaction = react(step, state, latest, previous) if latest else None
    unreadable = bool(latest) and reaction is None
    state = state.model_copy(update={"unread": state.unread + 1 if unreadable else 0})
    if unreadable and state.unread >= step.max_unread:
        return _lost(state)
    if reaction is not None:
        state = _applied(state, reaction)
        finished = _finished(step, state, reaction, latest, advance)
        if finished is not None:
            return finished
        if reaction.progress and not repeated:
            return Say(text=reaction.text), state
    return _unhelpful(step, state, reaction, unreadable, advance)


def _finished(
    step: Step, state: AgendaState, reaction: Reaction, message: str, advance: Advance
) -> Turn | None:
    """The sub-goal is over (done, refused, stopped): pop it and go on, or None."""
    if reaction.stopped is not None:
        return _stop_refused(step, state, reaction.stopped, advance)
    if reaction.refused:
        return _after_refusal(step, state.popped(), advance)
    # A done report counts even if worded as before: agents reuse one line for every request.
    if not reaction.done:
        return None
    state = _pop_covered(step, state.popped(), state.stack[0], message)
    if reaction.asks_next and state.stack:
        state = state.with_entry(asked=True)
    if reaction.text:
        return Say(text=reaction.text), state
    return advance(step, state)


def _unhelpful(
    step: Step, state: AgendaState, reaction: Reaction | None, unreadable: bool, advance: Advance
) -> Turn:
    if state.patience <= 0 and len(state.stack) > 1:
        return _move_on(step, state, advance)
    if state.patience <= 0 and unreadable and state.unread >= 2:
        return _lost(state)  # it gave up on replies it could not read: not the agent's failure
    if state.patience <= 0:
        return Finish(reason="user_stop", text=step.phrasing.styled("give_up")), state
    state = state.model_copy(update={"patience": state.patience - 1})
    if reaction is not None and reaction.progress:
        if reaction.plain or not says_again(step.view, reaction.text):
            return Say(text=reaction.text), state
        prefix = step.phrasing.pick(step.phrasing.templates.repeat_prefix)
        return Say(text=f"{prefix} {lower_first(reaction.text)}"), state
    return Say(text=rephrase(step, state)), state


def _applied(state: AgendaState, reaction: Reaction) -> AgendaState:
    state = mark(state, list(reaction.played))
    if "second_request" in reaction.played and len(state.stack) > 1:
        later = state.stack[1].model_copy(update={"asked": True})  # it was asked for just now
        state = state.model_copy(update={"stack": [state.stack[0], later, *state.stack[2:]]})
    if reaction.rejected is not None:
        state = state.model_copy(update={"rejected": [*state.rejected, reaction.rejected]})
    if reaction.changes and state.stack:
        state = state.with_entry(**reaction.changes)
    if reaction.later_done is not None and reaction.later_done < len(state.stack):
        stack = [e for i, e in enumerate(state.stack) if i != reaction.later_done]
        state = state.model_copy(update={"stack": stack})
    return state


def _pop_covered(step: Step, state: AgendaState, done: AgendaEntry, message: str) -> AgendaState:
    """Pop later sub-goals the user already asked for that the same reply reports done too."""
    while state.stack and state.stack[0].asked and _covers(step, state.stack[0], done, message):
        state = state.popped()
    return state


def _covers(step: Step, entry: AgendaEntry, done: AgendaEntry, message: str) -> bool:
    # A report naming this sub-goal covers it; so does one naming no sub-goal ("Done — all
    # set" to two requests); one naming only the sub-goal before it does not.
    if not completes(step, entry, message):
        return False
    return names_entry(entry, message) or not names_entry(done, message)


def _move_on(step: Step, state: AgendaState, advance: Advance) -> Turn:
    """Give up on this sub-goal only, as people do, and ask for the next one."""
    state = state.popped().model_copy(update={"patience": state.full_patience})
    return advance(step, state, template="move_on")


def _after_refusal(step: Step, state: AgendaState, advance: Advance) -> Turn:
    """Accept a refusal the goal allows: go on with the next sub-goal, or leave."""
    if state.stack:
        return advance(step, state, template="after_refusal")
    return Finish(reason="refused", text=step.phrasing.styled("accept_refusal")), state


def _stop_refused(step: Step, state: AgendaState, refusal: str, advance: Advance) -> Turn:
    """The agent refused and the goal allows nothing else: end this sub-goal with the reason."""
    state = state.popped().model_copy(update={"refusals": [*state.refusals, refusal]})
    if state.stack:
        return advance(step, state, template="after_refusal")
    return Finish(reason="user_stop", text=f"the agent refused: {refusal}"), state


def _lost(state: AgendaState) -> Turn:
    detail = (
        f"{LOST}: {state.unread} replies in a row had no question, proposal, answer, refusal "
        "or report it could read"
    )
    return Finish(reason="user_stop", text=detail), state

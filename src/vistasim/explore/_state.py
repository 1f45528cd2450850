"""Where an episode stands, as a frozen value folded from its events.

Live play and restoring (resume after a crash, a DIVERT branch from an inner snapshot) build the
state the same way: by folding the events on the episode's path, so a restored episode sees
exactly what the live one saw. Nothing else changes it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from pydantic import JsonValue

from vistasim.agent import PastTurn, Utterance
from vistasim.env import ToolOutcome
from vistasim.errors import StoreError
from vistasim.events import (
    AgentReply,
    ApiCall,
    Event,
    Note,
    Snapshot,
    ToolCall,
    UserMessage,
    WebAction,
)
from vistasim.store import StoredEvent

__all__ = ["EpisodeState", "fold", "state_at"]


@dataclass(frozen=True, kw_only=True)
class EpisodeState:
    """An episode between two user turns (in memory; the store holds the durable copy)."""

    leaf: int | None
    """Last committed event."""
    turn: int
    """User actions taken so far."""
    user_state: JsonValue
    transcript: tuple[Utterance, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()
    last_api_result: ToolOutcome | None = None
    """The result of the user's last action when it was an API call (its next step reads it)."""
    last_web_error: str | None = None
    """The error of the user's last action when it was a web action that failed."""
    turns: tuple[PastTurn, ...] = ()
    """The conversation turn by turn with the agent's tool calls (what an LLM agent is sent)."""
    pending_user: str | None = None
    """A user message the agent has not answered yet (only while a turn is being folded)."""
    pending_calls: tuple[ToolCall, ...] = ()
    """Tool calls the agent made for the pending message."""


def fold(state: EpisodeState, events: Iterable[Event]) -> EpisodeState:
    """The state after `events` (one turn's, or a whole stored path's)."""
    for event in events:
        state = _apply(state, event)
    return state


def _apply(state: EpisodeState, event: Event) -> EpisodeState:
    match event:
        case UserMessage(text=text):
            return replace(
                state,
                pending_user=text,
                pending_calls=(),
                last_api_result=None,
                last_web_error=None,
            )
        case AgentReply(text=text):
            return _answered(state, text)
        case ToolCall():
            return replace(
                state,
                tool_calls=(*state.tool_calls, event),
                pending_calls=(*state.pending_calls, event),
            )
        case ApiCall(result=result, error=error):
            outcome = ToolOutcome(result=result, error=error)
            return replace(state, last_api_result=outcome, last_web_error=None)
        case WebAction(error=error):
            return replace(state, last_web_error=error, last_api_result=None)
        case Snapshot(turn=turn, user_state=user_state):
            return replace(state, turn=turn, user_state=user_state)
        case _:
            return state


def _answered(state: EpisodeState, text: str) -> EpisodeState:
    user = state.pending_user
    said = () if user is None else (Utterance(role="user", text=user),)
    turn = PastTurn(user=user or "", tool_calls=state.pending_calls, reply=text)
    return replace(
        state,
        transcript=(*state.transcript, *said, Utterance(role="agent", text=text)),
        turns=(*state.turns, turn),
        pending_user=None,
        pending_calls=(),
    )


def state_at(path: list[StoredEvent]) -> tuple[EpisodeState, Snapshot]:
    """The state at the end of a stored path that ends in a snapshot (notes may follow it).

    Raises:
        StoreError: the path does not end in a snapshot.
    """
    last = next((s for s in reversed(path) if not isinstance(s.event, Note)), None)
    if last is None or not isinstance(last.event, Snapshot):
        episode = path[-1].episode_id if path else "?"
        raise StoreError(f"episode {episode} does not end in a snapshot; cannot restore it")
    start = EpisodeState(leaf=None, turn=0, user_state=None)
    state = fold(start, (s.event for s in path))
    return replace(state, leaf=path[-1].id), last.event

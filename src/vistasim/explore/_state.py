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
    # Folded in a mutable copy and frozen once: a frozen dataclass rebuilt per event cost
    # more than everything else the fold does (a turn has four events).
    folding = _Folding(state)
    for event in events:
        folding.apply(event)
    return folding.frozen()


class _Folding:
    """`EpisodeState` while events are folded into it."""

    def __init__(self, state: EpisodeState) -> None:
        self.start = state
        self.turn, self.user_state = state.turn, state.user_state
        self.transcript = list(state.transcript)
        self.tool_calls = list(state.tool_calls)
        self.last_api_result, self.last_web_error = state.last_api_result, state.last_web_error
        self.turns = list(state.turns)
        self.pending_user, self.pending_calls = state.pending_user, list(state.pending_calls)
        self.changed = False

    def apply(self, event: Event) -> None:
        match event:
            case UserMessage(text=text):
                self.pending_user, self.pending_calls = text, []
                self.last_api_result = self.last_web_error = None
            case AgentReply(text=text):
                self._answered(text)
            case ToolCall():
                self.tool_calls.append(event)
                self.pending_calls.append(event)
            case ApiCall(result=result, error=error):
                self.last_api_result = ToolOutcome(result=result, error=error)
                self.last_web_error = None
            case WebAction(error=error):
                self.last_web_error, self.last_api_result = error, None
            case Snapshot(turn=turn, user_state=user_state):
                self.turn, self.user_state = turn, user_state
            case _:
                return
        self.changed = True

    def _answered(self, text: str) -> None:
        user = self.pending_user
        if user is not None:
            self.transcript.append(Utterance(role="user", text=user))
        self.transcript.append(Utterance(role="agent", text=text))
        self.turns.append(
            PastTurn(user=user or "", tool_calls=tuple(self.pending_calls), reply=text)
        )
        self.pending_user, self.pending_calls = None, []

    def frozen(self) -> EpisodeState:
        if not self.changed:
            return self.start
        return EpisodeState(
            leaf=self.start.leaf,
            turn=self.turn,
            user_state=self.user_state,
            transcript=tuple(self.transcript),
            tool_calls=tuple(self.tool_calls),
            last_api_result=self.last_api_result,
            last_web_error=self.last_web_error,
            turns=tuple(self.turns),
            pending_user=self.pending_user,
            pending_calls=tuple(self.pending_calls),
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

"""What the runner gives an agent under test, what it gets back, and the adapter protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from pydantic import JsonValue

from vistasim.events import RequestDigest, ToolCall
from vistasim.llm._usage import TokenUsage

RestoreStrategy = Literal["state", "stateless", "replay"]
"""How an adapter is brought back to an earlier turn (docs/architecture.md, Restoring an agent):
`state` snapshot/restore in process; `stateless` the whole history is sent each turn;
`replay` the prefix's user turns are re-sent and the replies compared."""


@dataclass(frozen=True, kw_only=True)
class Utterance:
    """One line of the conversation as the agent sees it."""

    role: Literal["user", "agent"]
    text: str


@dataclass(frozen=True, kw_only=True)
class Turn:
    """One user message for the agent, with the conversation before it."""

    episode_id: str
    """Stable per episode; HTTP adapters use it as the session id."""
    message: str
    """The new user message."""
    history: tuple[Utterance, ...] = ()
    """Earlier messages of this episode, oldest first (without `message`)."""


@dataclass(frozen=True, kw_only=True)
class Reply:
    """The agent's answer to a turn."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    """Tool calls the agent made while answering, in order, with results: `ToolCall`s, or dicts
    `{name, args, result, error}` (turned into `ToolCall`s as the reply is read)."""
    usage: TokenUsage | None = None
    """Tokens the agent spent on this turn, if known."""
    metadata: dict[str, JsonValue] = field(default_factory=dict)
    requests: tuple[RequestDigest, ...] = ()
    """Digests of the model requests the agent sent for this turn (DIVERT's efficiency metrics);
    `ModelAgent` fills them, other adapters leave them empty."""


@runtime_checkable
class StatefulAgent(Protocol):
    """An adapter that can save and bring back its state (restore strategy `state`)."""

    def snapshot(self) -> JsonValue:
        """The agent's state, as JSON data."""
        ...

    def restore(self, state: JsonValue) -> None:
        """Go back to a `snapshot()`."""
        ...


@runtime_checkable
class AgentAdapter(Protocol):
    """The agent under test, as the runner reaches it. One adapter instance per episode.

    Adapters may also offer `snapshot() -> JsonValue` and `restore(state)` (strategy `state`).
    """

    restore_strategy: RestoreStrategy

    async def respond(self, turn: Turn) -> Reply:
        """Answer one user message. Raise `AgentError` when the agent fails."""
        ...

    async def aclose(self) -> None:
        """Release connections and other resources."""
        ...

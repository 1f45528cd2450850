"""The environment protocol: the state an agent acts on, its tools, and snapshots of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from pydantic import JsonValue

from vistasim.llm._types import ToolSpec
from vistasim.scenario import Scalar


@dataclass(frozen=True, kw_only=True)
class ToolOutcome:
    """The result of a tool or user-side API call."""

    result: JsonValue = None
    error: str | None = None
    """A realistic error message when the call failed (policy, unknown id, bad args)."""


@runtime_checkable
class Environment(Protocol):
    """State plus tools; one instance per episode, fresh from seed data.

    `snapshot()` returns a value (bytes) and `restore()` brings the state back exactly, so a branch
    is copy-and-resume.

    Optional: `now() -> datetime` (aware or naive), the environment's own clock — the "today"
    its data and tools assume. It is not part of the protocol (an environment without it is
    still one); when present, the offline agenda user reads relative dates ("next Thursday",
    "tomorrow") against it (`vistasim.user.environment_now`). Return a fixed instant, or one
    kept in the state, so episodes replay the same.

    Optional: `start_scenario(scenario)`, called once on a fresh environment before its
    episode starts, for an environment whose initial state depends on the scenario (a tau2
    task's initial data and history, `vistasim.tau2`). And `episode_judgment(*, stop,
    agent_texts) -> Judgment`: when present, the episode's `criteria` judgment is the
    environment's own (a benchmark's grading, as tau2's reward), not the scenario's criteria.
    """

    def agent_tools(self) -> list[ToolSpec]:
        """Tools the agent under test may call."""
        ...

    def user_tools(self) -> list[ToolSpec]:
        """User-side APIs the simulated user may call (may be empty)."""
        ...

    async def call_tool(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Run an agent tool. Never raises for bad input: returns an error outcome."""
        ...

    async def call_user_api(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Run a user-side API. Never raises for bad input: returns an error outcome."""
        ...

    def select(self, table: str, where: dict[str, Scalar]) -> list[dict[str, JsonValue]]:
        """Rows of `table` whose columns equal `where`; used by state criteria."""
        ...

    def snapshot(self) -> bytes:
        """Serialize the whole state."""
        ...

    def restore(self, state: bytes) -> None:
        """Bring the state back exactly to a `snapshot()`."""
        ...

    def lexicon(self) -> dict[str, list[str]]:
        """Slot names and the phrases an agent uses to ask for them (for the agenda policy)."""
        ...

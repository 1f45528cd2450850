"""Read-only views of a stored run: what metrics and reports consume (they never see a live run)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from vistasim.events import Event, Stop, StopReason
from vistasim.llm._meter import ModelCall
from vistasim.scenario import Scenario

EpisodeStatus = Literal["pending", "running", "done", "errored"]
"""`errored` episodes ended in an infra error: never counted as passed or failed."""


@dataclass(frozen=True, kw_only=True)
class StoredEvent:
    """An event as stored: its place in the tree and when it happened."""

    id: int
    parent_id: int | None
    episode_id: str | None
    """The episode that created the event (branches share their parent's prefix events)."""
    turn: int
    created_at: float
    """Unix time, seconds."""
    event: Event


@dataclass(frozen=True, kw_only=True)
class EpisodeView:
    """One episode: the path from its scenario's root to its leaf, plus its model calls."""

    episode_id: str
    run_id: str
    scenario_id: str
    rollout: int
    """Index among the scenario's linear rollouts (branches keep their origin's index)."""
    branch_of: str | None = None
    """The episode this one branched from; `None` for a linear rollout (only those enter pass^k)."""
    mode: str = "chat"
    status: EpisodeStatus = "done"
    events: tuple[StoredEvent, ...] = ()
    """Root-to-leaf path, oldest first, without the `scenario_start` root."""
    model_calls: tuple[ModelCall, ...] = ()
    started_at: float | None = None
    ended_at: float | None = None

    @property
    def stop(self) -> Stop | None:
        """The stop event, if the episode ended."""
        last = self.events[-1].event if self.events else None
        return last if isinstance(last, Stop) else None

    @property
    def stop_reason(self) -> StopReason | None:
        """Why the episode ended, if it did."""
        stop = self.stop
        return stop.reason if stop else None


@dataclass(frozen=True, kw_only=True)
class RunView:
    """A whole stored run."""

    run_id: str
    name: str | None
    status: str
    created_at: float
    config: dict[str, object]
    """The run config as stored (never holds an API key value)."""
    scenarios: dict[str, Scenario]
    episodes: tuple[EpisodeView, ...]
    agent_tools: tuple[str, ...] | None = None
    """Names of the tools the environment offers the agent (N of the entropy metrics), if known."""
    user_tools: tuple[str, ...] | None = None
    metadata: dict[str, object] = field(default_factory=dict)

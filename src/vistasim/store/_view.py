"""Read-only views of a stored run: what metrics and reports consume (they never see a live run)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from vistasim.errors import StoreError
from vistasim.events import Event, Stop, StopReason
from vistasim.llm import ModelCall
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
    fork_event_id: int | None = None
    """For a branch: the snapshot event it continues from (its prefix belongs to its parents)."""
    mode: str = "chat"
    status: EpisodeStatus = "done"
    events: tuple[StoredEvent, ...] = ()
    """Root-to-leaf path, oldest first, without the `scenario_start` root."""
    model_calls: tuple[ModelCall, ...] = ()
    started_at: float | None = None
    ended_at: float | None = None
    perturbations: tuple[dict[str, Any], ...] = ()
    """The behaviour operations `--perturb` drew for this rollout: `{subgoal, intent, operation,
    behaviour}` each (empty: none)."""

    @property
    def operations(self) -> tuple[str, ...]:
        """The operations `--perturb` drew for this rollout (`correct`, ...).

        A branch's own operation is its `BranchView.operation`.
        """
        return tuple(str(p["operation"]).split(":", 1)[0] for p in self.perturbations)

    @property
    def own_events(self) -> tuple[StoredEvent, ...]:
        """The events this episode wrote: all of a rollout's, a branch's after its fork.

        Counting metrics read these, so a branch never counts its parent's prefix again.
        """
        return tuple(e for e in self.events if e.episode_id == self.episode_id)

    def own(self, event_ids: Iterable[int]) -> bool:
        """Whether any of `event_ids` is an event of this episode's own (evidence after a fork)."""
        mine = {e.id for e in self.own_events}
        return any(i in mine for i in event_ids)

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


BranchStatus = Literal["queued", "playing", "done", "converged", "diverged", "abandoned"]
"""`converged`: the continuation equals the parent's; `diverged`: the restore was not exact
(a replayed agent answered differently); `abandoned`: no candidate could be played."""


@dataclass(frozen=True, kw_only=True)
class BranchCandidate:
    """One alternative user action generated at a junction."""

    action: dict[str, Any]
    """The action as JSON (`kind` and its fields)."""
    source: str
    """Where it came from: an agenda operation (`hesitate`, ...) or `llm`."""
    cosine: float | None = None
    """Cosine similarity to the original action; `None` when no embedder scored it."""


@dataclass(frozen=True, kw_only=True)
class BranchView:
    """How a branch came to be: its junction, the candidates, the one injected, its status."""

    episode_id: str
    parent_episode_id: str
    scenario_id: str
    fork_event_id: int
    turn: int
    """User actions taken before the junction."""
    chooser: str
    rationale: str
    original: dict[str, Any]
    candidates: tuple[BranchCandidate, ...]
    chosen: int
    injected: dict[str, Any]
    """`{"action": ..., "user_state": ...}`: what the branch plays first."""
    embedder: str | None
    overhead_tokens: int
    status: BranchStatus
    detail: str | None = None
    restores: int = 0
    """Restores it took: one to grow it (more if junctions offered nothing), one per resume."""

    @property
    def operation(self) -> str:
        """The operation the branch played: `hesitate`, `correct`, `llm`, `same`...

        `none` when it was abandoned before a candidate was chosen.
        """
        if not 0 <= self.chosen < len(self.candidates):
            return "none"
        return self.candidates[self.chosen].source.split(":", 1)[0]


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
    branches: tuple[BranchView, ...] = ()
    """DIVERT branches, in creation order (their episodes are in `episodes` too)."""

    def episode(self, episode_id: str) -> EpisodeView | None:
        """An episode by id."""
        return self._by_id.get(episode_id)

    def find_episode(self, wanted: str) -> EpisodeView:
        """An episode by its id, or by an end of id only it has (`scenario:0`, `scenario:0.b1`).

        Raises:
            StoreError: no episode, or several, match; a few ids are named to pick from.
        """
        found = self._by_id.get(wanted)
        matches = [found] if found else [e for e in self.episodes if e.episode_id.endswith(wanted)]
        if len(matches) != 1:
            prefix = f"{self.run_id}:"
            known = ", ".join(e.episode_id.removeprefix(prefix) for e in self.episodes[:8])
            raise StoreError(
                f"no single episode matches {wanted!r} in run {self.run_id}; e.g. {known}"
            )
        return matches[0]

    @cached_property
    def _by_id(self) -> dict[str, EpisodeView]:
        return {e.episode_id: e for e in self.episodes}

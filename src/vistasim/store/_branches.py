"""The store's exploration rows: DIVERT branches, extra rollouts, and the explorer's own state.

A branch is recorded with its queued episode, the model calls that made it and the perturbations
drawn for it in one transaction, so a run killed at any instant either has the branch whole (and
resumes it at its fork) or not. The explorer's state (which waves are
planned, which trajectories are used up, the verdicts and the novelty memory it read) is one JSON
document per run, so a resumed run explores exactly as an uninterrupted one.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from vistasim.errors import StoreError
from vistasim.llm import ModelCall
from vistasim.store._view import BranchCandidate, BranchStatus, BranchView

if TYPE_CHECKING:
    from vistasim.store._store import EpisodePlan, _Transaction

__all__ = ["BranchRecords", "NewBranch"]


@dataclass(frozen=True, kw_only=True)
class NewBranch:
    """What `Store.create_branch` records about a branch before it is played."""

    parent: EpisodePlan
    fork_event_id: int
    turn: int
    chooser: str
    rationale: str
    original: Mapping[str, Any]
    candidates: Sequence[BranchCandidate]
    chosen: int
    injected: Mapping[str, Any]
    """`{"action": ..., "user_state": ...}`."""
    embedder: str | None = None
    overhead_tokens: int = 0
    abandoned: str | None = None
    """Why no episode is played (no candidate differs from the original...): recorded only."""
    restores: int = 0
    """Restores of the parent's episode it took to grow the branch (one per junction tried)."""
    calls: Sequence[ModelCall] = ()
    """The chooser's and the generator's model calls that made it (its overhead)."""
    perturbations: Sequence[Mapping[str, Any]] = ()
    """What `user.perturb` drew again for its continuation (the episode's perturbations)."""


class BranchRecords:
    """Branch, rollout and explorer-state rows of a `Store` (its other half: `_store.Store`)."""

    db: sqlite3.Connection

    if TYPE_CHECKING:  # given by `Store`, the one class that mixes this in

        def _transaction(self) -> _Transaction: ...

        def _json(self, value: object) -> str: ...

        def _text(self, value: str) -> str: ...

        def episode(self, episode_id: str) -> EpisodePlan: ...

        def _insert_calls(
            self, run_id: str, episode_id: str | None, calls: Sequence[ModelCall], now: float
        ) -> None: ...

    def create_branch(self, run_id: str, branch: NewBranch) -> EpisodePlan | None:
        """Record a branch and its (pending) episode, which continues from `fork_event_id`.

        The episode's leaf starts at the fork, so a run killed before the branch plays resumes
        it there; the branch record holds the action it plays first. An `abandoned` branch is
        recorded without an episode (returns `None`).
        """
        parent, now = branch.parent, time.time()
        with self._transaction():
            number = self.db.execute(
                "SELECT COUNT(*) FROM branches WHERE run_id = ? AND scenario_id = ?",
                (run_id, parent.scenario_id),
            ).fetchone()[0]
            episode_id = f"{run_id}:{parent.scenario_id}:{parent.rollout}.b{number + 1}"
            self._insert_branch(run_id, episode_id, branch, now)
            if branch.abandoned is not None:
                self._insert_calls(run_id, None, branch.calls, now)
                return None
            drawn = self._json(list(branch.perturbations)) if branch.perturbations else None
            self.db.execute(
                "INSERT INTO episodes (id, run_id, scenario_id, rollout, branch_of, fork_event_id,"
                " mode, status, leaf_event_id, turns, perturbations_json)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)",
                (episode_id, run_id, parent.scenario_id, parent.rollout, parent.episode_id,
                 branch.fork_event_id, parent.mode, branch.fork_event_id, branch.turn, drawn),
            )  # fmt: skip
            self._insert_calls(run_id, episode_id, branch.calls, now)
        return self.episode(episode_id)

    def _insert_branch(self, run_id: str, episode_id: str, branch: NewBranch, now: float) -> None:
        status, detail = (
            ("queued", None) if branch.abandoned is None else ("abandoned", branch.abandoned)
        )
        self.db.execute(
            "INSERT INTO branches (episode_id, run_id, scenario_id, parent_episode_id,"
            " fork_event_id, turn, chooser, rationale, original_json, candidates_json, chosen,"
            " injected_json, embedder, overhead_tokens, status, detail, created_at, restores)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (episode_id, run_id, branch.parent.scenario_id, branch.parent.episode_id,
             branch.fork_event_id, branch.turn, branch.chooser, self._text(branch.rationale),
             self._json(branch.original), self._json([asdict(c) for c in branch.candidates]),
             branch.chosen, self._json(branch.injected), branch.embedder,
             branch.overhead_tokens, status, detail and self._text(detail), now,
             branch.restores),
        )  # fmt: skip

    def add_rollout(self, run_id: str, scenario_id: str) -> EpisodePlan:
        """Plan one more linear rollout of a scenario (pending), numbered after the last one."""
        with self._transaction():
            row = self.db.execute(
                "SELECT MAX(rollout), MAX(mode) FROM episodes WHERE run_id = ? AND scenario_id = ?",
                (run_id, scenario_id),
            ).fetchone()
            if row[0] is None:
                raise StoreError(f"run {run_id!r} has no scenario {scenario_id!r}")
            rollout = int(row[0]) + 1
            episode_id = f"{run_id}:{scenario_id}:{rollout}"
            self.db.execute(
                "INSERT INTO episodes (id, run_id, scenario_id, rollout, mode, status)"
                " VALUES (?, ?, ?, ?, ?, 'pending')",
                (episode_id, run_id, scenario_id, rollout, row[1]),
            )
        return self.episode(episode_id)

    def set_branch_status(
        self, episode_id: str, status: BranchStatus, *, detail: str | None = None
    ) -> None:
        """Move a branch to `status` (playing, done, converged, diverged, abandoned)."""
        with self._transaction():
            self.db.execute(
                "UPDATE branches SET status = ?, detail = ? WHERE episode_id = ?",
                (status, detail and self._text(detail), episode_id),
            )

    def count_restores(self, episode_id: str, restores: int) -> None:
        """Add `restores` to a branch's count (a branch resumed after a crash is restored again)."""
        with self._transaction():
            self.db.execute(
                "UPDATE branches SET restores = restores + ? WHERE episode_id = ?",
                (restores, episode_id),
            )

    def list_branches(self, run_id: str) -> list[BranchView]:
        """The run's branches in creation order."""
        rows = self.db.execute(
            "SELECT * FROM branches WHERE run_id = ? ORDER BY rowid",
            (run_id,),
        ).fetchall()
        return [branch_view(row) for row in rows]

    def branch(self, episode_id: str) -> BranchView:
        """The branch record of a branch episode."""
        row = self.db.execute(
            "SELECT * FROM branches WHERE episode_id = ?", (episode_id,)
        ).fetchone()
        if row is None:
            raise StoreError(f"episode {episode_id!r} is not a branch")
        return branch_view(row)

    def set_perturbations(self, episode_id: str, drawn: Sequence[Mapping[str, Any]]) -> None:
        """Record the behaviour operations `--perturb` drew for a rollout."""
        with self._transaction():
            self.db.execute(
                "UPDATE episodes SET perturbations_json = ? WHERE id = ?",
                (self._json(list(drawn)), episode_id),
            )

    def save_exploration(self, run_id: str, state: Mapping[str, Any]) -> None:
        """Store the explorer's state of a run (replacing the last one)."""
        with self._transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO explorations VALUES (?, ?, ?)",
                (run_id, self._json(state), time.time()),
            )

    def load_exploration(self, run_id: str) -> dict[str, Any] | None:
        """The explorer's last stored state of a run (`None`: it has not explored yet)."""
        row = self.db.execute(
            "SELECT state_json FROM explorations WHERE run_id = ?", (run_id,)
        ).fetchone()
        if row is None:
            return None
        state: dict[str, Any] = json.loads(row[0])
        return state


def branch_view(row: sqlite3.Row) -> BranchView:
    """Parse a `branches` row."""
    return BranchView(
        episode_id=row["episode_id"],
        parent_episode_id=row["parent_episode_id"],
        scenario_id=row["scenario_id"],
        fork_event_id=row["fork_event_id"],
        turn=row["turn"],
        chooser=row["chooser"],
        rationale=row["rationale"],
        original=json.loads(row["original_json"]),
        candidates=tuple(BranchCandidate(**c) for c in json.loads(row["candidates_json"])),
        chosen=row["chosen"],
        injected=json.loads(row["injected_json"]),
        embedder=row["embedder"],
        overhead_tokens=row["overhead_tokens"],
        status=row["status"],
        detail=row["detail"],
        restores=row["restores"],
    )

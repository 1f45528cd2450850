"""Which trajectory a DIVERT branch grows from: round-robin over the sound ones of a scenario."""

from __future__ import annotations

from typing import Any

from vistasim.events import StopReason
from vistasim.store import EpisodePlan, RunView, Store, read_run_view

__all__ = ["SoundParents", "next_parent"]


class SoundParents:
    """Which trajectories may be branched: never one whose verdict says nothing of the agent.

    A branch of an `invalid` episode (the simulated user failed) or an `errored` one inherits a
    prefix no verdict can stand on. Verdicts are computed once per finished episode.
    """

    def __init__(self, db: Store, run_id: str) -> None:
        self._db, self._run_id = db, run_id
        self._judged: dict[str, bool] = {}

    def unsound(self) -> set[str]:
        """Ids of finished episodes that must not be branched."""
        plans = self._db.list_episodes(self._run_id)
        done = [p.episode_id for p in plans if p.status in ("done", "errored")]
        if any(e not in self._judged for e in done):
            from vistasim.metrics import find_all

            view = read_run_view(self._db, self._run_id)
            verdicts = find_all(view, **_rules_of(view)).verdicts
            for episode_id in done:
                verdict = verdicts.get(episode_id)
                self._judged[episode_id] = verdict is not None and verdict.outcome in (
                    "passed", "failed"
                )  # fmt: skip
        return {e for e, ok in self._judged.items() if not ok}


def _rules_of(view: RunView) -> dict[str, Any]:
    from vistasim.metrics import rules_for_run

    rules = rules_for_run(view)
    return {"rules": rules.rules, "behaviour": rules.behaviour, "disclosure": rules.disclosure}


def next_parent(
    db: Store, run_id: str, scenario_id: str, made: int, exhausted: set[str]
) -> EpisodePlan | None:
    """The trajectory the next branch grows from: round-robin over the scenario's pool."""
    pool = [
        p for p in db.list_episodes(run_id)
        if p.scenario_id == scenario_id and p.status == "done"
        and p.stop_reason != StopReason.NOT_APPLICABLE.value
        and p.episode_id not in exhausted
    ]  # fmt: skip
    return pool[made % len(pool)] if pool else None

"""A running run's figures so far, in a few cheap queries, for a progress line.

The verdict of each episode needs the detectors (`vistasim.metrics`), far too much work to redo
after every episode of a large run; the tally counts what the store already says: episodes that
ended with an agent error or failed their criteria.
"""

from __future__ import annotations

from dataclasses import dataclass

from vistasim.store._store import Store

__all__ = ["RunTally", "read_tally"]


@dataclass(frozen=True, kw_only=True)
class RunTally:
    """Figures of a run so far."""

    done: int
    """Episodes ended (done or errored)."""
    failing: int
    """Ended episodes that stopped with an agent error or failed their criteria (the final
    outcome may add those the detectors find)."""
    tokens: int
    """Tokens spent: every model call, and the agent-token proxy of agents that make none."""
    cost_usd: float


def read_tally(store: Store, run_id: str) -> RunTally:
    """The run's figures so far."""
    done, failing = store.db.execute(
        "SELECT COUNT(*), COALESCE(SUM(ep.stop_reason = 'agent_error' OR EXISTS ("
        "  SELECT 1 FROM events e WHERE e.episode_id = ep.id AND e.kind = 'judgment'"
        "  AND json_extract(e.payload, '$.judge') = 'criteria'"
        "  AND json_extract(e.payload, '$.passed') = 0)), 0)"
        " FROM episodes ep WHERE ep.run_id = ? AND ep.status IN ('done', 'errored')",
        (run_id,),
    ).fetchone()
    cost = store.db.execute(
        "SELECT COALESCE(SUM(cost_usd), 0) FROM model_calls WHERE run_id = ?", (run_id,)
    ).fetchone()[0]
    return RunTally(
        done=int(done),
        failing=int(failing),
        tokens=store.spent_tokens(run_id),
        cost_usd=float(cost),
    )

"""Build the read-only `RunView` of a stored run in a few queries, for metrics and reports."""

from __future__ import annotations

import sqlite3
from collections import defaultdict

from vistasim.events import ScenarioStart
from vistasim.llm._meter import ModelCall
from vistasim.llm._usage import TokenUsage
from vistasim.store._store import Store, stored_event
from vistasim.store._view import EpisodeView, RunView, StoredEvent

__all__ = ["read_run_view"]


def read_run_view(store: Store, run_id: str) -> RunView:
    """Read a whole run: scenarios, and every episode as its root-to-leaf path with model calls."""
    run = store.read_run(run_id)
    rows = store.db.execute("SELECT * FROM events WHERE run_id = ? ORDER BY id", (run_id,))
    by_id = {row["id"]: stored_event(row) for row in rows}
    calls = _calls_by_episode(store.db, run_id)
    episodes = []
    for row in store.db.execute(
        "SELECT * FROM episodes WHERE run_id = ? ORDER BY rowid", (run_id,)
    ):
        path = _path(by_id, row["leaf_event_id"])
        episodes.append(
            EpisodeView(
                episode_id=row["id"],
                run_id=run_id,
                scenario_id=row["scenario_id"],
                rollout=row["rollout"],
                branch_of=row["branch_of"],
                fork_event_id=row["fork_event_id"],
                mode=row["mode"],
                status=row["status"],
                events=tuple(e for e in path if not isinstance(e.event, ScenarioStart)),
                model_calls=tuple(calls.get(row["id"], ())),
                started_at=row["started_at"],
                ended_at=row["ended_at"],
            )
        )
    scenarios = {
        e.event.scenario.id: e.event.scenario
        for e in by_id.values()
        if isinstance(e.event, ScenarioStart)
    }
    tools = run.metadata.get("agent_tools")
    user_tools = run.metadata.get("user_tools")
    return RunView(
        run_id=run_id,
        name=run.name,
        status=run.status,
        created_at=run.created_at,
        config=run.config,
        scenarios=scenarios,
        episodes=tuple(episodes),
        agent_tools=tuple(tools) if tools is not None else None,
        user_tools=tuple(user_tools) if user_tools is not None else None,
        metadata=run.metadata,
        branches=tuple(store.list_branches(run_id)),
    )


def _path(by_id: dict[int, StoredEvent], leaf: int | None) -> list[StoredEvent]:
    path: list[StoredEvent] = []
    while leaf is not None and leaf in by_id:
        event = by_id[leaf]
        path.append(event)
        leaf = event.parent_id
    path.reverse()
    return path


def _calls_by_episode(db: sqlite3.Connection, run_id: str) -> dict[str, list[ModelCall]]:
    calls: dict[str, list[ModelCall]] = defaultdict(list)
    for row in db.execute("SELECT * FROM model_calls WHERE run_id = ? ORDER BY id", (run_id,)):
        calls[row["episode_id"]].append(
            ModelCall(
                role=row["role"],
                model=row["model"],
                usage=TokenUsage(
                    input_tokens=row["input_tokens"],
                    output_tokens=row["output_tokens"],
                    cached_tokens=row["cached_tokens"],
                ),
                latency_s=row["latency_s"],
                cost_usd=row["cost_usd"],
                cache_hit=bool(row["cache_hit"]),
                attempts=row["attempts"],
                error=row["error"],
            )
        )
    return calls

"""Build the read-only `RunView` of a stored run in a few queries, for metrics and reports."""

from __future__ import annotations

import gc
import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

from vistasim.events import EVENT_ADAPTER, ScenarioStart
from vistasim.llm import ModelCall
from vistasim.llm._usage import TokenUsage
from vistasim.store._store import Store
from vistasim.store._view import EpisodeView, RunView, StoredEvent

__all__ = ["paused_gc", "read_run_view"]


def read_run_view(
    store: Store, run_id: str, *, snapshots: bool = True, calls: bool = True
) -> RunView:
    """Read a whole run: scenarios, and every episode as its root-to-leaf path with model calls.

    With `snapshots=False` the paths leave out `snapshot` events, whose payloads are never
    parsed: metrics and reports read none of them, and on a large run they are a third of the
    parsing. With `calls=False` the episodes' `model_calls` are left empty: verdicts read none
    of them, and building them was an eighth of reading a run for its verdicts.
    """
    with paused_gc():
        return _read(store, run_id, snapshots=snapshots, calls=calls)


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many acyclic objects.

    A large run is hundreds of thousands of parsed events; each collection of the oldest
    generation walks all of them again, which doubled the time to read a 10,000-episode run.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _read(store: Store, run_id: str, *, snapshots: bool, calls: bool) -> RunView:
    run = store.read_run(run_id)
    cursor = store.db.cursor()
    cursor.row_factory = None
    # One pass over the run's events: every event's parent, to walk paths, and the payloads of
    # the events kept (a payload is never NULL: NULL marks a snapshot left out, not parsed).
    payload = "payload" if snapshots else "CASE WHEN kind = 'snapshot' THEN NULL ELSE payload END"
    rows = cursor.execute(
        f"SELECT id, parent_id, episode_id, turn, created_at, {payload} FROM events"
        " WHERE run_id = ? ORDER BY id",
        (run_id,),
    ).fetchall()
    parents: dict[int, int | None] = {row[0]: row[1] for row in rows}
    # Plain tuples, not `sqlite3.Row`s: a large run has a few hundred thousand events.
    by_id = {
        event_id: StoredEvent(id=event_id, parent_id=parent, episode_id=episode, turn=turn,
                              created_at=created, event=EVENT_ADAPTER.validate_json(text))
        for event_id, parent, episode, turn, created, text in rows
        if text is not None
    }  # fmt: skip
    model_calls = _calls_by_episode(store.db, run_id) if calls else {}
    episodes = []
    for row in store.db.execute(
        "SELECT * FROM episodes WHERE run_id = ? ORDER BY rowid", (run_id,)
    ):
        path = _path(by_id, parents, row["leaf_event_id"])
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
                model_calls=tuple(model_calls.get(row["id"], ())),
                started_at=row["started_at"],
                ended_at=row["ended_at"],
                perturbations=tuple(json.loads(row["perturbations_json"] or "[]")),
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


def _path(
    by_id: dict[int, StoredEvent], parents: dict[int, int | None], leaf: int | None
) -> list[StoredEvent]:
    path: list[StoredEvent] = []
    while leaf is not None and leaf in parents:
        event = by_id.get(leaf)
        if event is not None:
            path.append(event)
        leaf = parents[leaf]
    path.reverse()
    return path


def _calls_by_episode(db: sqlite3.Connection, run_id: str) -> dict[str, list[ModelCall]]:
    calls: dict[str, list[ModelCall]] = defaultdict(list)
    cursor = db.cursor()
    cursor.row_factory = None  # plain tuples: a large run has a hundred thousand calls
    rows = cursor.execute(
        "SELECT episode_id, role, model, input_tokens, output_tokens, cached_tokens, latency_s,"
        " cost_usd, cache_hit, attempts, error FROM model_calls WHERE run_id = ? ORDER BY id",
        (run_id,),
    )
    for episode, role, model, tokens_in, tokens_out, cached, latency, usd, hit, tries, err in rows:
        calls[episode].append(
            ModelCall(
                role=role,
                model=model,
                # Integers written by the store itself: constructed, not validated again.
                usage=TokenUsage.model_construct(
                    input_tokens=tokens_in, output_tokens=tokens_out, cached_tokens=cached
                ),
                latency_s=latency,
                cost_usd=usd,
                cache_hit=bool(hit),
                attempts=tries,
                error=err,
            )
        )
    return calls

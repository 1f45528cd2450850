"""The run store: one SQLite file (WAL) that every part of vistasim reads and writes.

Writes are grouped per user turn: a turn's events, its model calls and its snapshot blobs are
written together, never split over transactions, so a run killed at any instant leaves whole turns
only, and `--resume` continues from the last snapshot without losing or duplicating an event. The
turns episodes finish in the same event-loop tick share one transaction (`_group`).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vistasim._secrets import mask_state, redact, redact_json, unmask_state
from vistasim.errors import StoreError
from vistasim.events import EVENT_ADAPTER, SCHEMA_VERSION, Event, ScenarioStart
from vistasim.llm import ModelCall
from vistasim.scenario import Scenario
from vistasim.store._branches import BranchRecords, NewBranch
from vistasim.store._group import INSERT_CALL, GroupCommit, blob_hash, call_row, insert_event
from vistasim.store._view import EpisodeStatus, StoredEvent
from vistasim.store.migrations import migrate

__all__ = ["EpisodePlan", "NewBranch", "RunRow", "Store", "blob_hash", "open_store"]


@dataclass(frozen=True, kw_only=True)
class EpisodePlan:
    """An episode as planned or stored: where it stands, and from which event it continues."""

    episode_id: str
    scenario_id: str
    rollout: int
    mode: str
    status: EpisodeStatus
    leaf_event_id: int | None
    turns: int
    branch_of: str | None = None
    fork_event_id: int | None = None
    """For a branch: the snapshot event it continues from."""
    stop_reason: str | None = None
    perturbations: tuple[dict[str, Any], ...] = ()
    """The behaviour operations `--perturb` drew for this rollout (empty: none)."""


@dataclass(frozen=True, kw_only=True)
class RunRow:
    """A run's header row."""

    run_id: str
    name: str | None
    created_at: float
    finished_at: float | None
    status: str
    """`running`, `done`, or `failed` (stopped early; resumable)."""
    config: dict[str, Any]
    metadata: dict[str, Any]
    failure: str | None = None
    """Why a `failed` run stopped."""
    episodes: int = 0
    """Number of episodes planned."""
    done: int = 0
    """Number of episodes ended (done or errored)."""


class Store(BranchRecords, GroupCommit):
    """A connection to a store file. Use from one thread (the event loop's)."""

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self.db = db
        self.path = path
        """The file, or `:memory:`."""
        self.secrets: tuple[str, ...] = ()
        """Values masked as `***` in everything written (see `add_secrets`)."""
        self._queued = []

    def add_secrets(self, values: Iterable[str]) -> None:
        """Mask these values (keys, tokens) in every event, call, reason and metric written."""
        self.secrets = tuple(sorted({*self.secrets, *values}, key=len, reverse=True))

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------------

    def create_run(
        self,
        run_id: str,
        *,
        config: Mapping[str, Any],
        scenarios: Sequence[Scenario],
        rollouts: int,
        mode: str,
        name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[EpisodePlan]:
        """Record a run, its scenarios (as root events) and its planned episodes, atomically."""
        from vistasim import __version__

        now = time.time()
        with self._transaction():
            self.db.execute(
                "INSERT INTO runs (id, name, created_at, finished_at, status, schema_version,"
                " vistasim_version, config_json, metadata_json)"
                " VALUES (?, ?, ?, NULL, 'running', ?, ?, ?, ?)",
                (run_id, name, now, SCHEMA_VERSION, __version__, _dumps(config), _dumps(metadata)),
            )
            for scenario in scenarios:
                self._insert_event(run_id, None, None, 0, ScenarioStart(scenario=scenario), now)
                for rollout in range(rollouts):
                    self.db.execute(
                        "INSERT INTO episodes (id, run_id, scenario_id, rollout, mode, status)"
                        " VALUES (?, ?, ?, ?, ?, 'pending')",
                        (f"{run_id}:{scenario.id}:{rollout}", run_id, scenario.id, rollout, mode),
                    )
        return self.list_episodes(run_id)

    def spent_tokens(self, run_id: str, episode_id: str | None = None) -> int:
        """Tokens the run (or one episode's own turns) has spent so far.

        What `explore.budget_tokens` bounds: model calls of every role (the chooser's and the
        generator's included: a branch's overhead is stored as model calls too) and the
        agent-token proxy of agents that make none (rule agents).
        """
        only = " AND e.episode_id = ?" if episode_id is not None else ""
        args = (run_id, episode_id) if episode_id is not None else (run_id,)
        proxy = self.db.execute(
            "SELECT COALESCE(SUM(json_extract(r.value, '$.input_tokens')"
            " + json_extract(r.value, '$.output_tokens')), 0)"
            " FROM events e, json_each(e.payload, '$.requests') r"
            " WHERE e.run_id = ? AND e.kind = 'agent_reply'"
            " AND json_extract(e.payload, '$.requests_source') = 'proxy'" + only,
            args,
        ).fetchone()[0]
        calls = self.db.execute(
            "SELECT COALESCE(SUM(input_tokens + output_tokens), 0) FROM model_calls e"
            " WHERE e.run_id = ?" + only,
            args,
        ).fetchone()[0]
        return int(calls) + int(proxy)

    def episode(self, episode_id: str) -> EpisodePlan:
        """One episode as stored."""
        row = self.db.execute("SELECT * FROM episodes WHERE id = ?", (episode_id,)).fetchone()
        if row is None:
            raise StoreError(f"no episode {episode_id!r} in {self.path}")
        return _episode_plan(row)

    def record_calls(self, run_id: str, episode_id: str | None, calls: Sequence[ModelCall]) -> None:
        """Record model calls that belong to no turn (judges, run-level work)."""
        with self._transaction():
            self._insert_calls(run_id, episode_id, calls, time.time())

    def finish_run(self, run_id: str, status: str, *, failure: str | None = None) -> None:
        """Mark a run `done`, or `failed` with why it stopped (a failed run can be resumed)."""
        finished = time.time() if status == "done" else None
        with self._transaction():
            self.db.execute(
                "UPDATE runs SET status = ?, finished_at = ?, failure = ? WHERE id = ?",
                (status, finished, failure and redact(failure, self.secrets), run_id),
            )

    def put_metrics(
        self, run_id: str, version: str, payload: Mapping[str, Any], *, fingerprint: str
    ) -> None:
        """Store a run's metrics as computed at `fingerprint` (see `run_fingerprint`)."""
        with self._transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO metric_results VALUES (?, ?, ?, ?, ?)",
                (run_id, version, time.time(), redact_json(_dumps(payload), self.secrets),
                 fingerprint),
            )  # fmt: skip

    # -- reading -----------------------------------------------------------------------------

    def read_run(self, run_id: str) -> RunRow:
        """The run's header; `StoreError` names the known runs when it does not exist."""
        row = self.db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            known = [r.run_id for r in self.list_runs()[:5]]
            raise StoreError(
                f"no run {run_id!r} in {self.path}; recent runs: {', '.join(known) or 'none'}"
            )
        return self._run_row(row)

    def list_runs(self) -> list[RunRow]:
        """All runs, newest first."""
        rows = self.db.execute("SELECT * FROM runs ORDER BY created_at DESC, id DESC").fetchall()
        return [self._run_row(row) for row in rows]

    def list_episodes(self, run_id: str) -> list[EpisodePlan]:
        """The run's episodes in plan order."""
        rows = self.db.execute(
            "SELECT * FROM episodes WHERE run_id = ? ORDER BY rowid", (run_id,)
        ).fetchall()
        return [_episode_plan(row) for row in rows]

    def scenario_roots(self, run_id: str) -> dict[str, tuple[int, Scenario]]:
        """Root event id and scenario, by scenario id, in the order the run lists them."""
        rows = self.db.execute(
            "SELECT id, payload FROM events WHERE run_id = ? AND kind = 'scenario_start'"
            " ORDER BY id",
            (run_id,),
        )
        roots = {}
        for event_id, payload in rows:
            event = EVENT_ADAPTER.validate_json(payload)
            assert isinstance(event, ScenarioStart)
            roots[event.scenario.id] = (event_id, event.scenario)
        return roots

    def read_path(self, leaf_event_id: int, *, exact: bool = False) -> list[StoredEvent]:
        """Events from the root to `leaf_event_id`, oldest first.

        With `exact`, events that held a secret come back as they were played, the secret's
        value filled in from the run's secret list: what a restored episode must see again.
        Every other reader gets `***`.
        """
        rows = self.db.execute(
            """WITH RECURSIVE path(id) AS (
                   SELECT ? UNION ALL
                   SELECT e.parent_id FROM events e JOIN path ON e.id = path.id
                   WHERE e.parent_id IS NOT NULL)
               SELECT e.* FROM events e JOIN path ON e.id = path.id ORDER BY e.id""",
            (leaf_event_id,),
        ).fetchall()
        if not exact:
            return [stored_event(row) for row in rows]
        return [stored_event(row, secrets=self.secrets) for row in rows]

    def get_blob(self, digest: str) -> bytes:
        """A blob by hash, as stored (a state's secrets masked)."""
        row = self.db.execute("SELECT data FROM blobs WHERE hash = ?", (digest,)).fetchone()
        if row is None:
            raise StoreError(f"blob {digest[:12]}… is missing from {self.path}")
        return bytes(row[0])

    def mask_state(self, data: bytes) -> bytes:
        """A state snapshot (agent, environment, page) as it may be stored: secrets masked.

        The masks are undone by `read_state`; a state without secrets is stored as it is.
        """
        return mask_state(data, self.secrets) if self.secrets else data

    def read_state(self, digest: str) -> bytes:
        """A state blob exactly as it was taken, for a restore.

        Its masked secrets are filled in from the run's secret list (`add_secrets`, held in
        memory), never from the store, which holds none.
        """
        data = self.get_blob(digest)
        return unmask_state(data, self.secrets) if self.secrets else data

    def get_metrics(self, run_id: str, version: str) -> dict[str, Any] | None:
        """Stored metrics of a run for a metrics version, if computed from the run as it is now.

        Metrics computed before the run last changed (it was resumed, say) are not returned.
        """
        row = self.db.execute(
            "SELECT payload, run_fingerprint FROM metric_results"
            " WHERE run_id = ? AND metrics_version = ?",
            (run_id, version),
        ).fetchone()
        if row is None or row[1] != self.run_fingerprint(run_id):
            return None
        metrics: dict[str, Any] = json.loads(row[0])
        return metrics

    def run_fingerprint(self, run_id: str) -> str:
        """What changes whenever the run does: its status and its last event."""
        status = self.db.execute("SELECT status FROM runs WHERE id = ?", (run_id,)).fetchone()
        last = self.db.execute(
            "SELECT MAX(id), COUNT(*) FROM events WHERE run_id = ?", (run_id,)
        ).fetchone()
        return f"{status[0] if status else 'missing'}:{last[0]}:{last[1]}"

    # -- internals ---------------------------------------------------------------------------

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)

    def _insert_event(
        self,
        run_id: str,
        episode_id: str | None,
        parent_id: int | None,
        turn: int,
        event: Event,
        now: float,
    ) -> int:
        payload, exact = self._payloads(event)
        row = (run_id, episode_id, parent_id, turn, event.kind, payload, now, exact)
        return insert_event(self.db, row)

    def _json(self, value: object) -> str:
        return redact_json(_dumps(value), self.secrets) if self.secrets else _dumps(value)

    def _text(self, value: str) -> str:
        return redact(value, self.secrets) if self.secrets else value

    def _payloads(self, event: Event) -> tuple[str, str | None]:
        """The payload as every view reads it (secrets cut out), and as a restore needs it.

        The second is `None` unless the event held a secret: then it is the payload with each
        secret replaced by a same-length placeholder (`mask_state`) that only the run's secret
        list, held in memory, turns back (`read_path(exact=True)`).
        """
        payload = event.model_dump_json()
        if not self.secrets:
            return payload, None
        redacted = redact_json(payload, self.secrets)
        if redacted == payload:
            return payload, None
        return redacted, mask_state(payload.encode(), self.secrets).decode()

    def _insert_calls(
        self, run_id: str, episode_id: str | None, calls: Sequence[ModelCall], now: float
    ) -> None:
        self.db.executemany(
            INSERT_CALL, [call_row(run_id, episode_id, c, now, self.secrets) for c in calls]
        )

    def _run_row(self, row: sqlite3.Row) -> RunRow:
        counts = self.db.execute(
            "SELECT COUNT(*), SUM(status IN ('done', 'errored')) FROM episodes WHERE run_id = ?",
            (row["id"],),
        ).fetchone()
        return RunRow(
            run_id=row["id"],
            name=row["name"],
            created_at=row["created_at"],
            finished_at=row["finished_at"],
            status=row["status"],
            config=json.loads(row["config_json"]),
            metadata=json.loads(row["metadata_json"]),
            failure=row["failure"],
            episodes=counts[0] or 0,
            done=counts[1] or 0,
        )


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")


def open_store(path: str | Path) -> Store:
    """Open (creating and migrating if needed) a store file; `:memory:` for tests."""
    path = str(path)
    if path != ":memory:":
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the folder of the store {path} ({exc.strerror}); pass another "
                "--store (or run.store), or make its folder writable"
            ) from None
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode = WAL")
        # NORMAL in WAL mode: a committed transaction survives the process being killed.
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA busy_timeout = 10000")
        migrate(db)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot open store {path}: {exc}; pass another --store") from None
    return Store(db, path)


def stored_event(row: sqlite3.Row, *, secrets: tuple[str, ...] | None = None) -> StoredEvent:
    """Parse an `events` row; with `secrets`, as played (its masked secrets filled back in)."""
    payload = row["payload"]
    if secrets is not None and row["exact_payload"] is not None:
        payload = unmask_state(row["exact_payload"].encode(), secrets).decode()
    return StoredEvent(
        id=row["id"],
        parent_id=row["parent_id"],
        episode_id=row["episode_id"],
        turn=row["turn"],
        created_at=row["created_at"],
        event=EVENT_ADAPTER.validate_json(payload),
    )


def _episode_plan(row: sqlite3.Row) -> EpisodePlan:
    return EpisodePlan(
        episode_id=row["id"],
        scenario_id=row["scenario_id"],
        rollout=row["rollout"],
        mode=row["mode"],
        status=row["status"],
        leaf_event_id=row["leaf_event_id"],
        turns=row["turns"],
        branch_of=row["branch_of"],
        fork_event_id=row["fork_event_id"],
        stop_reason=row["stop_reason"],
        perturbations=tuple(json.loads(row["perturbations_json"] or "[]")),
    )


def _dumps(value: object) -> str:
    return json.dumps(value or {}, sort_keys=True, default=str)

"""The whole store schema, as an ordered list of migrations.

Events are immutable rows with a `parent_id`, so the episodes of a scenario form a tree: rollouts
are siblings under the scenario's root event, and (later) branches fork from inner events.
`episodes` is the only table whose rows change after they are written (status, leaf).
Snapshots of big states (environment, agent, browser) are blobs referenced by content hash.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

__all__ = ["MIGRATIONS", "migrate"]


def m001_initial(db: sqlite3.Connection) -> None:
    """Create runs, episodes, events, blobs and model calls."""
    _run_script(
        db,
        """
        CREATE TABLE runs (
            id TEXT PRIMARY KEY,            -- run id, e.g. 20261130-021500-a1b2c3
            name TEXT,                      -- optional human name from the config
            created_at REAL NOT NULL,       -- unix seconds
            finished_at REAL,               -- unix seconds; NULL while running or interrupted
            status TEXT NOT NULL,           -- running | done | interrupted
            schema_version INTEGER NOT NULL,-- events.SCHEMA_VERSION the payloads follow
            vistasim_version TEXT NOT NULL, -- package version that created the run
            config_json TEXT NOT NULL,      -- the RunConfig (names of key env vars, never values)
            metadata_json TEXT NOT NULL     -- prompt hash, restore strategy, tool lists, ...
        );
        CREATE TABLE episodes (
            id TEXT PRIMARY KEY,            -- run_id:scenario_id:rollout (branches add a suffix)
            run_id TEXT NOT NULL REFERENCES runs(id), -- run the episode belongs to
            scenario_id TEXT NOT NULL,      -- the scenario the episode plays
            rollout INTEGER NOT NULL,       -- index among the scenario's linear rollouts
            branch_of TEXT,                 -- episode this one branched from; NULL for rollouts
            fork_event_id INTEGER,          -- event the branch continues from; NULL for rollouts
            mode TEXT NOT NULL,             -- chat | ui | api | hybrid
            status TEXT NOT NULL,           -- pending | running | done | errored
            leaf_event_id INTEGER,          -- last event of the episode so far
            turns INTEGER NOT NULL DEFAULT 0, -- user actions taken
            stop_reason TEXT,               -- events.StopReason once ended
            started_at REAL,                -- unix seconds
            ended_at REAL                   -- unix seconds
        );
        CREATE INDEX episodes_run ON episodes(run_id, status);
        CREATE TABLE events (
            id INTEGER PRIMARY KEY,         -- increasing: later events have larger ids
            run_id TEXT NOT NULL REFERENCES runs(id), -- run the event belongs to
            episode_id TEXT,                -- episode that wrote it; NULL for scenario roots
            parent_id INTEGER REFERENCES events(id), -- previous event on the path; NULL for roots
            turn INTEGER NOT NULL,          -- user actions taken before this event
            kind TEXT NOT NULL,             -- the event's `kind` tag
            payload TEXT NOT NULL,          -- the event as JSON (kind included)
            created_at REAL NOT NULL        -- unix seconds
        );
        CREATE INDEX events_run ON events(run_id, kind);
        CREATE INDEX events_episode ON events(episode_id);
        CREATE INDEX events_parent ON events(parent_id);
        CREATE TABLE blobs (
            hash TEXT PRIMARY KEY,          -- sha256 hex of data: identical states stored once
            size INTEGER NOT NULL,          -- bytes
            data BLOB NOT NULL              -- the serialized state
        );
        CREATE TABLE model_calls (
            id INTEGER PRIMARY KEY,         -- call number in the store
            run_id TEXT NOT NULL REFERENCES runs(id), -- run that made the call
            episode_id TEXT,                -- episode the call served; NULL for run-level calls
            role TEXT NOT NULL,             -- user | agent | judge | chooser | generator | embedder
            model TEXT NOT NULL,            -- model name
            input_tokens INTEGER NOT NULL,  -- prompt tokens, cached ones included
            output_tokens INTEGER NOT NULL, -- completion tokens
            cached_tokens INTEGER NOT NULL, -- prompt tokens served from the provider's cache
            latency_s REAL NOT NULL,        -- wall seconds of the call, retries included
            cost_usd REAL NOT NULL,         -- from the run's price table; 0 for cache hits
            cache_hit INTEGER NOT NULL,     -- 1 when served by the record/replay cache
            attempts INTEGER NOT NULL,      -- tries including the last
            error TEXT,                     -- set when the call failed after all retries
            created_at REAL NOT NULL        -- unix seconds
        );
        CREATE INDEX model_calls_run ON model_calls(run_id, episode_id);
        """,
    )


def m002_step_tree_view(db: sqlite3.Connection) -> None:
    """Add `step_tree`: every event with its depth, for looking at a run's tree in SQL."""
    _run_script(
        db,
        """
        CREATE VIEW step_tree AS
        WITH RECURSIVE tree(id, run_id, episode_id, parent_id, kind, depth) AS (
            SELECT id, run_id, episode_id, parent_id, kind, 0 FROM events WHERE parent_id IS NULL
            UNION ALL
            SELECT e.id, e.run_id, e.episode_id, e.parent_id, e.kind, tree.depth + 1
            FROM events e JOIN tree ON e.parent_id = tree.id
        )
        SELECT * FROM tree;
        """,
    )


def m003_metric_results(db: sqlite3.Connection) -> None:
    """Store computed metrics with the run, so reports do not recompute unless asked."""
    _run_script(
        db,
        """
        CREATE TABLE metric_results (
            run_id TEXT NOT NULL REFERENCES runs(id), -- run the metrics describe
            metrics_version TEXT NOT NULL,  -- version of the metric definitions used
            computed_at REAL NOT NULL,      -- unix seconds
            payload TEXT NOT NULL,          -- the metrics report as JSON
            PRIMARY KEY (run_id, metrics_version)
        );
        """,
    )


def m004_run_failure(db: sqlite3.Connection) -> None:
    """Say why a run stopped when it did not finish (`status = 'failed'`)."""
    # SQLite appends an added column's text inside the table's closing parenthesis, so its
    # comment must be a block comment (a `--` comment would swallow the parenthesis).
    db.execute(
        "ALTER TABLE runs ADD COLUMN failure TEXT"
        " /* -- why a failed run stopped: the error, in one line; NULL otherwise */"
    )


def m005_metrics_fingerprint(db: sqlite3.Connection) -> None:
    """Tie stored metrics to the state of the run they were computed from."""
    db.execute(
        "ALTER TABLE metric_results ADD COLUMN run_fingerprint TEXT"
        " /* -- the run's status and last event when computed; other values mean stale */"
    )


def m006_branches(db: sqlite3.Connection) -> None:
    """Record DIVERT branches: where each forks, how its junction and user action were chosen."""
    _run_script(
        db,
        """
        CREATE TABLE branches (
            episode_id TEXT PRIMARY KEY,    -- the branch episode (none when abandoned unplayed)
            run_id TEXT NOT NULL REFERENCES runs(id), -- run the branch belongs to
            scenario_id TEXT NOT NULL,      -- the scenario it plays
            parent_episode_id TEXT NOT NULL, -- the episode (rollout or branch) it forks from
            fork_event_id INTEGER NOT NULL REFERENCES events(id), -- the snapshot it continues from
            turn INTEGER NOT NULL,          -- user actions taken before the junction
            chooser TEXT NOT NULL,          -- heuristic | random | llm | every (tests, ablations)
            rationale TEXT NOT NULL,        -- why the chooser picked this junction
            original_json TEXT NOT NULL,    -- the user action the parent took at the junction
            candidates_json TEXT NOT NULL,  -- [{action, source, cosine}] every candidate made
            chosen INTEGER NOT NULL,        -- index of the injected candidate
            injected_json TEXT NOT NULL,    -- {action, user_state}: what the branch plays first
            embedder TEXT,                  -- embedder that scored the candidates; NULL if none
            overhead_tokens INTEGER NOT NULL DEFAULT 0, -- chooser + generator + embedder tokens
            status TEXT NOT NULL,           -- queued|playing|done|converged|diverged|abandoned
            detail TEXT,                    -- why converged / diverged / abandoned
            created_at REAL NOT NULL        -- unix seconds
        );
        CREATE INDEX branches_run ON branches(run_id, status);
        """,
    )


def m007_exploration(db: sqlite3.Connection) -> None:
    """Keep what makes exploration repeatable: perturbations, exact payloads, explorer state."""
    db.execute(
        "ALTER TABLE episodes ADD COLUMN perturbations_json TEXT"
        " /* -- behaviour operations drawn for this rollout (`--perturb`); NULL if none */"
    )
    db.execute(
        "ALTER TABLE events ADD COLUMN exact_payload TEXT"
        " /* -- the payload with its secrets masked reversibly, for restores; NULL if none */"
    )
    _run_script(
        db,
        """
        CREATE TABLE explorations (
            run_id TEXT PRIMARY KEY REFERENCES runs(id), -- the exploring run
            state_json TEXT NOT NULL,       -- queue, used-up trajectories, verdicts, memory
            updated_at REAL NOT NULL        -- unix seconds
        );
        """,
    )


def m008_branch_restores(db: sqlite3.Connection) -> None:
    """Count the restores each branch took: growing one restores its parent once."""
    db.execute(
        "ALTER TABLE branches ADD COLUMN restores INTEGER NOT NULL DEFAULT 0"
        " /* -- restores made to grow it (one per junction tried) and to resume it */"
    )


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    m001_initial,
    m002_step_tree_view,
    m003_metric_results,
    m004_run_failure,
    m005_metrics_fingerprint,
    m006_branches,
    m007_exploration,
    m008_branch_restores,
]
"""Applied in order; each runs once. Never edit one that has shipped: add a new one."""


def migrate(db: sqlite3.Connection) -> list[str]:
    """Apply the migrations `db` has not seen yet; return their names."""
    db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at REAL)")
    done = {row[0] for row in db.execute("SELECT name FROM _migrations")}
    applied = []
    for migration in MIGRATIONS:
        if migration.__name__ in done:
            continue
        db.execute("BEGIN")
        try:
            migration(db)
            db.execute("INSERT INTO _migrations VALUES (?, ?)", (migration.__name__, time.time()))
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        applied.append(migration.__name__)
    return applied


def _run_script(db: sqlite3.Connection, script: str) -> None:
    # executescript() would commit mid-migration; running statement by statement keeps each
    # migration in one transaction. A statement ends at a line whose code ends with `;`; the
    # column comments stay in the stored schema.
    statement: list[str] = []
    for line in script.splitlines():
        statement.append(line)
        if line.split("--", 1)[0].rstrip().endswith(";"):
            db.execute("\n".join(statement))
            statement = []

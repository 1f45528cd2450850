"""Group commit: the turns several episodes finish in the same event-loop tick, one transaction.

A run plays many episodes at once, and their model answers arrive together, so many episodes
finish a turn in the same tick of the event loop. Each commit rewrites the WAL pages it touched
(the events table's last page and its indexes, the episode rows, the model calls), so one
transaction per turn cost more than the inserts themselves. `Store.append_turn` queues a turn's
write and commits it, with every other turn queued in the same tick, from a callback the loop
runs once those episodes all wait.

Nothing gets less safe after `kill -9`: an episode waits in `append_turn` until its turn is
committed, so it takes no further step (no user action, no agent call) on a turn that is not on
disk; a kill before the commit loses whole turns that were never continued, and `--resume`
replays them from the last stored snapshot, as it does for a kill before a single-turn commit.

A group is written with one statement per table, not one per event: inside the transaction the
store holds SQLite's write lock, so the ids SQLite would give the events (the largest id plus
one, `id INTEGER PRIMARY KEY`) are known ahead, and each event can name its parent's id.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio

from vistasim._secrets import redact
from vistasim.events import Event
from vistasim.llm import ModelCall
from vistasim.store._view import EpisodeStatus

if TYPE_CHECKING:
    from vistasim.store._store import _Transaction

__all__ = ["INSERT_CALL", "Append", "GroupCommit", "blob_hash", "call_row", "insert_event"]


@dataclass(frozen=True, kw_only=True)
class Append:
    """One `Store.append_events` call: a chain of `(turn, event)` under `parent_id`."""

    run_id: str
    episode_id: str
    parent_id: int | None
    events: Sequence[tuple[int, Event]]
    calls: Sequence[ModelCall] = ()
    blobs: Sequence[bytes] = ()
    """A sequence, not any iterable: a write that failed in a group is written again alone."""
    status: EpisodeStatus = "running"
    stop_reason: str | None = None


class GroupCommit:
    """The grouped writes of a `Store` (its other half: `_store.Store`)."""

    if TYPE_CHECKING:  # given by `Store`, the one class that mixes this in
        db: sqlite3.Connection
        secrets: tuple[str, ...]

        def _transaction(self) -> _Transaction: ...

        def _payloads(self, event: Event) -> tuple[str, str | None]: ...

    _queued: list[tuple[Append, asyncio.Future[int | None]]]

    def append_events(
        self,
        run_id: str,
        episode_id: str,
        parent_id: int | None,
        events: Sequence[tuple[int, Event]],
        *,
        calls: Sequence[ModelCall] = (),
        blobs: Iterable[bytes] = (),
        status: EpisodeStatus = "running",
        stop_reason: str | None = None,
    ) -> int | None:
        """Append a chain of `(turn, event)` under `parent_id` with its calls and blobs, atomically.

        Returns the id of the last event (the episode's new leaf).
        """
        write = Append(
            run_id=run_id, episode_id=episode_id, parent_id=parent_id, events=events,
            calls=calls, blobs=tuple(blobs), status=status, stop_reason=stop_reason,
        )  # fmt: skip
        return self.append_many([write])[0]

    def append_many(self, writes: Sequence[Append]) -> list[int | None]:
        """Several `append_events` in one transaction (all or none); each write's new leaf."""
        now = time.time()
        with self._transaction():
            return self._write_all(writes, now)

    def _write_all(self, writes: Sequence[Append], now: float) -> list[int | None]:
        """The writes' rows, inside the caller's transaction; each write's new leaf.

        The ids are SQLite's own (the largest id plus one, in the order the rows are written),
        so a group stores exactly what writing its events one by one stored.
        """
        db = self.db
        last = None  # None: each event inserted alone, its id read back
        if len(writes) > 1:  # a lone write gains nothing to pay the look-up of the largest id
            (last,) = db.execute("SELECT MAX(id) FROM events").fetchone()
        if last is not None and last >= _LARGEST_ID - sum(len(w.events) for w in writes):
            last = None  # SQLite would pick free ids at random: let it, one event at a time
        blobs, events, calls, episodes, leaves = [], [], [], [], []
        for write in writes:
            blobs += [(blob_hash(data), len(data), data) for data in write.blobs]
            leaf, turns = write.parent_id, None
            for turn, event in write.events:
                payload, exact = self._payloads(event)
                row = (write.run_id, write.episode_id, leaf, turn, event.kind, payload, now, exact)
                if last is None:
                    leaf = insert_event(db, row)
                else:
                    leaf = last = last + 1
                    events.append((leaf, *row))
                turns = turn
            calls += [call_row(write.run_id, write.episode_id, c, now, self.secrets)
                      for c in write.calls]  # fmt: skip
            ended = now if write.status in ("done", "errored") else None
            episodes.append(
                (leaf, turns, write.status, write.stop_reason, ended, now, write.episode_id)
            )
            leaves.append(leaf)
        # An empty list still costs a statement look-up: a lone write often has no blobs or calls.
        for sql, rows in (("INSERT OR IGNORE INTO blobs VALUES (?, ?, ?)", blobs),
                          (_INSERT_EVENT_WITH_ID, events), (INSERT_CALL, calls),
                          (_UPDATE_EPISODE, episodes)):  # fmt: skip
            if rows:
                db.executemany(sql, rows)
        return leaves

    async def append_turn(self, write: Append) -> int | None:
        """`append_events`, committed with the other writes queued in this event-loop tick.

        Returns once the write is committed (or raises what writing it raised). Waiting is
        shielded from cancellation: a write that may be committed is always seen by its episode,
        which otherwise would continue from the leaf before it and store the turn twice.
        """
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not on asyncio (anyio on trio): a transaction of its own
            return self.append_many([write])[0]
        done: asyncio.Future[int | None] = loop.create_future()
        if not self._queued:
            loop.call_soon(self._commit_queued)
        self._queued.append((write, done))
        with anyio.CancelScope(shield=True):
            leaf = await done
        return leaf

    def _commit_queued(self) -> None:
        queued, self._queued = self._queued, []
        try:
            leaves = self.append_many([write for write, _ in queued])
        except Exception as exc:
            if len(queued) == 1:
                _fail(queued[0][1], exc)
                return
            # One bad write must not fail its neighbours: the transaction was rolled back, so
            # each is written again alone and gets its own error.
            for write, done in queued:
                try:
                    _settle(done, self.append_many([write])[0])
                except Exception as alone:
                    _fail(done, alone)
            return
        for (_, done), leaf in zip(queued, leaves, strict=True):
            _settle(done, leaf)


_LARGEST_ID = 2**63 - 1
"""SQLite's largest rowid: past it, SQLite picks an unused id at random."""
_EVENT_COLUMNS = "run_id, episode_id, parent_id, turn, kind, payload, created_at, exact_payload"
_INSERT_EVENT = f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
_INSERT_EVENT_WITH_ID = f"INSERT INTO events (id, {_EVENT_COLUMNS}) VALUES (?, {'?, ' * 7}?)"
INSERT_CALL = (
    "INSERT INTO model_calls (run_id, episode_id, role, model, input_tokens, output_tokens,"
    " cached_tokens, latency_s, cost_usd, cache_hit, attempts, error, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_UPDATE_EPISODE = (
    "UPDATE episodes SET leaf_event_id = ?, turns = COALESCE(?, turns), status = ?,"
    " stop_reason = ?, ended_at = ?, started_at = COALESCE(started_at, ?) WHERE id = ?"
)


def call_row(
    run_id: str, episode_id: str | None, call: ModelCall, now: float, secrets: Sequence[str]
) -> tuple[object, ...]:
    """A model call's `model_calls` row (`INSERT_CALL`, in order), its error redacted."""
    usage = call.usage
    return (run_id, episode_id, call.role, call.model, usage.input_tokens, usage.output_tokens,
            usage.cached_tokens, call.latency_s, call.cost_usd, int(call.cache_hit), call.attempts,
            call.error and redact(call.error, secrets), now)  # fmt: skip


def insert_event(db: sqlite3.Connection, row: tuple[object, ...]) -> int:
    """Insert one event row (`_EVENT_COLUMNS`, in order); its id."""
    cursor = db.execute(_INSERT_EVENT, row)
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def blob_hash(data: bytes) -> str:
    """Content address of a blob."""
    return hashlib.sha256(data).hexdigest()


def _settle(done: asyncio.Future[int | None], leaf: int | None) -> None:
    if not done.done():
        done.set_result(leaf)


def _fail(done: asyncio.Future[int | None], exc: Exception) -> None:
    if not done.done():
        done.set_exception(exc)

"""Export a run's events as JSON Lines or Parquet: one row per event, with its place in the tree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, BinaryIO, Literal

from vistasim.errors import MissingExtraError
from vistasim.store._store import Store

__all__ = ["export_run"]

ExportFormat = Literal["jsonl", "parquet"]


def export_run(
    store: Store, run_id: str, out: str | Path | BinaryIO, *, fmt: ExportFormat = "jsonl"
) -> int:
    """Write every event of a run to `out` (a path, or a binary stream such as stdout).

    Returns the number of rows written.
    """
    store.read_run(run_id)  # raises a clear StoreError for an unknown run
    if not isinstance(out, str | Path):
        return _write(store, run_id, out, fmt)
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        return _write(store, run_id, file, fmt)


def _write(store: Store, run_id: str, out: BinaryIO, fmt: ExportFormat) -> int:
    if fmt == "parquet":
        rows = list(_rows(store, run_id))
        _write_parquet(rows, out)
        return len(rows)
    count = 0
    for row in _rows(store, run_id):  # streamed: a large run never sits in memory whole
        out.write((json.dumps(row, sort_keys=True) + "\n").encode("utf-8"))
        count += 1
    out.flush()
    return count


def _rows(store: Store, run_id: str) -> Any:
    query = (
        "SELECT e.id, e.parent_id, e.episode_id, ep.scenario_id, ep.rollout, e.turn, e.kind,"
        " e.payload, e.created_at FROM events e LEFT JOIN episodes ep ON ep.id = e.episode_id"
        " WHERE e.run_id = ? ORDER BY e.id"
    )
    for row in store.db.execute(query, (run_id,)):
        yield {
            "run_id": run_id,
            "event_id": row["id"],
            "parent_id": row["parent_id"],
            "episode_id": row["episode_id"],
            "scenario_id": row["scenario_id"],
            "rollout": row["rollout"],
            "turn": row["turn"],
            "kind": row["kind"],
            "created_at": row["created_at"],
            "event": json.loads(row["payload"]),
        }


def _write_parquet(rows: list[dict[str, Any]], out: BinaryIO) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingExtraError("pyarrow", "parquet") from None
    # The event payload varies by kind, so it is kept as a JSON string column.
    columns = {key: [row[key] for row in rows] for key in rows[0]} if rows else {}
    if "event" in columns:
        columns["event"] = [json.dumps(e, sort_keys=True) for e in columns["event"]]
    pq.write_table(pa.table(columns), out)

"""What a call changed: the environment's state before and after, compared record by record.

A call is a write because it changed the state, not because its name sounds like one: a
`find_customer` that records a verification writes, a `cancel_order` refused by the policy does
not. `state_changes` asks the environment itself: its `diff_state(before, after)` when it has one
(`SqliteEnvironment` compares table by table, keyed by primary key), else whether its snapshots
differ at all (one `*` change).

>>> from vistasim.env import SqliteEnvironment
>>> class Notes(SqliteEnvironment):
...     SCHEMA_SQL = "CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT, seen INTEGER);"
>>> env = Notes()
>>> before = env.snapshot()
>>> _ = env.db.execute("INSERT INTO notes VALUES ('n1', 'hi', 0)")
>>> [(c.table, c.key, c.op) for c in state_changes(env, before, env.snapshot())]
[('notes', 'n1', 'insert')]
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

from vistasim.events import StateChange

__all__ = ["diff_sqlite", "state_changes"]


def state_changes(env: Any, before: bytes, after: bytes) -> list[StateChange]:
    """The records that differ between two snapshots of `env` (`[]`: none).

    Uses the environment's `diff_state` when it has one; an environment without it reports one
    change to `*` when the snapshots differ.
    """
    if before == after:
        return []
    diff = getattr(env, "diff_state", None)
    if callable(diff):
        found = diff(before, after)
        return [c if isinstance(c, StateChange) else StateChange.model_validate(c) for c in found]
    return [StateChange(table="*")]


def diff_sqlite(before: bytes, after: bytes) -> list[StateChange]:
    """Compare two serialized SQLite databases table by table, record by record."""
    old, new = _open(before), _open(after)
    try:
        tables = sorted(set(_tables(old)) | set(_tables(new)))
        return [change for table in tables for change in _diff_table(old, new, table)]
    finally:
        old.close()
        new.close()


def _open(image: bytes) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.deserialize(image)
    return db


def _tables(db: sqlite3.Connection) -> list[str]:
    rows = db.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
    )
    return [r[0] for r in rows]


def _diff_table(
    old: sqlite3.Connection, new: sqlite3.Connection, table: str
) -> Iterator[StateChange]:
    before, columns = _rows(old, table)
    after, after_columns = _rows(new, table)
    columns = columns or after_columns
    for key in sorted(before.keys() - after.keys()):
        yield StateChange(table=table, key=key, op="delete")
    for key in sorted(after.keys() - before.keys()):
        yield StateChange(table=table, key=key, op="insert")
    for key in sorted(before.keys() & after.keys()):
        if before[key] != after[key]:
            pairs = zip(columns, before[key], after[key], strict=False)
            fields = [column for column, old_value, new_value in pairs if old_value != new_value]
            yield StateChange(table=table, key=key, op="update", fields=fields)


def _rows(db: sqlite3.Connection, table: str) -> tuple[dict[str, tuple[Any, ...]], list[str]]:
    """The table's rows by key (primary key values, or the rowid), and its column names."""
    info = list(db.execute(f'PRAGMA table_info("{table}")'))
    if not info:
        return {}, []
    columns = [row[1] for row in info]
    pk = [row[1] for row in sorted(info, key=lambda r: r[5]) if row[5] > 0]
    if pk:
        key_sql = " || '/' || ".join(f'CAST("{c}" AS TEXT)' for c in pk)
    else:
        key_sql = "CAST(rowid AS TEXT)"
    names = ", ".join(f'"{c}"' for c in columns)
    rows = db.execute(f'SELECT {key_sql}, {names} FROM "{table}"')
    return {str(r[0]): tuple(r[1:]) for r in rows}, columns

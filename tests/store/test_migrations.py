import re
import sqlite3

from vistasim.store import open_store
from vistasim.store.migrations import MIGRATIONS, migrate


def test_migration_numbers_are_unique_and_increasing():
    numbers = [int(re.match(r"m(\d{3})_", m.__name__).group(1)) for m in MIGRATIONS]
    assert numbers == sorted(set(numbers))
    assert numbers[0] == 1


def test_migrate_builds_the_exact_schema():
    db = sqlite3.connect(":memory:", isolation_level=None)
    applied = migrate(db)
    assert applied == [m.__name__ for m in MIGRATIONS]
    objects = sorted(
        (row[0], row[1])
        for row in db.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    )
    assert objects == [
        ("index", "branches_run"),
        ("index", "episodes_run"),
        ("index", "events_episode"),
        ("index", "events_parent"),
        ("index", "events_run"),
        ("index", "model_calls_run"),
        ("table", "_migrations"),
        ("table", "blobs"),
        ("table", "branches"),
        ("table", "episodes"),
        ("table", "events"),
        ("table", "explorations"),
        ("table", "metric_results"),
        ("table", "model_calls"),
        ("table", "runs"),
        ("view", "step_tree"),
    ]
    columns = [row[1] for row in db.execute("PRAGMA table_info(events)")]
    assert columns == [
        "id",
        "run_id",
        "episode_id",
        "parent_id",
        "turn",
        "kind",
        "payload",
        "created_at",
        "exact_payload",
    ]


def test_migrate_twice_applies_nothing_new():
    db = sqlite3.connect(":memory:", isolation_level=None)
    migrate(db)
    assert migrate(db) == []


def test_every_column_has_a_comment():
    db = sqlite3.connect(":memory:", isolation_level=None)
    migrate(db)
    for (sql,) in db.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name != '_migrations'"
    ):
        column_lines = [
            line
            for line in sql.splitlines()[1:-1]
            if line.strip() and not line.strip().startswith(("PRIMARY KEY", ")"))
        ]
        assert all("--" in line for line in column_lines), sql


def test_open_store_uses_wal(tmp_path):
    store = open_store(tmp_path / "s.db")
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()

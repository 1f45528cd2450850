"""Builders shared by tests."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

from vistasim.config import RunConfig
from vistasim.events import AgentReply, Snapshot, Stop, UserMessage
from vistasim.scenario import Scenario, load_scenarios

REPO = Path(__file__).resolve().parents[1]


DESK_SECTIONS = """
[agent]
kind = "python"
target = "vistasim.demo:OrderDeskAgent"

[environment]
target = "vistasim.demo:OrderBook"

[cache]
mode = "off"
"""
"""The `vistasim.toml` sections of an offline order-desk run (vistasim.demo), for CLI tests."""

DESK_TOML = '[run]\nscenarios = "{scenarios}"\n' + DESK_SECTIONS
"""A `vistasim.toml` for the order desk, offline; format it with the scenario file's path."""


def desk_config(*, rollouts: int = 1, **sections: dict) -> RunConfig:
    """A run config for the tiny order-desk test domain (vistasim.demo), offline."""
    base: dict = {
        "run": {"rollouts": rollouts, "concurrency": 4},
        "user": {"policy": "agenda"},
        "agent": {"kind": "python", "target": "vistasim.demo:OrderDeskAgent"},
        "environment": {"target": "vistasim.demo:OrderBook"},
        "cache": {"mode": "off"},
    }
    for name, values in sections.items():
        base[name] = {**(base.get(name) or {}), **values}
    return RunConfig.model_validate(base)


def desk_scenarios() -> list[Scenario]:
    """The order desk's five scenarios."""
    with resources.as_file(resources.files("vistasim.demo") / "scenarios.yaml") as path:
        return load_scenarios(path)


def write_desk_config(tmp_path: Path, text: str) -> Path:
    """Write `text` as `vistasim.toml` next to a copy of the order desk's scenarios."""
    with resources.as_file(resources.files("vistasim.demo") / "scenarios.yaml") as src:
        shutil.copy(src, tmp_path / "scenarios.yaml")
    path = tmp_path / "vistasim.toml"
    path.write_text(text, encoding="utf-8")
    return path


def count_rows(db_path: Path, sql: str) -> int:
    """One number from a store another process is writing (0 while it does not exist yet)."""
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as db:
            return db.execute(sql).fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def start_and_kill(
    argv: list[str],
    db_path: Path,
    *,
    kind: str = "",
    at_least: int,
    then_wait_s: float = 0.0,
    count_sql: str | None = None,
) -> None:
    """Run `vistasim ARGV` in a subprocess and SIGKILL it once the store holds `at_least`
    events of `kind`, or rows counted by `count_sql` (and `then_wait_s` more seconds passed)."""
    sql = count_sql or f"SELECT COUNT(*) FROM events WHERE kind = '{kind}'"
    proc = subprocess.Popen(
        [sys.executable, "-m", "vistasim.cli", *argv],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 90
    while count_rows(db_path, sql) < at_least:
        assert proc.poll() is None, "the run ended before it could be killed"
        assert time.monotonic() < deadline, "the run made no progress"
        time.sleep(0.02)
    time.sleep(then_wait_s)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


def episode_paths(view) -> dict[str, list[tuple[str, str | None, int]]]:
    """Each episode's messages, replies, snapshots and stop, comparable across runs."""
    return {
        e.episode_id.split(":", 1)[1]: [
            (type(s.event).__name__, getattr(s.event, "text", None), s.turn)
            for s in e.events
            if isinstance(s.event, (UserMessage, AgentReply, Stop, Snapshot))
        ]
        for e in view.episodes
    }


KILLABLE_DESK_CONFIG = """
[run]
scenarios = "scenarios.yaml"
rollouts = 4
concurrency = 2
seed = 3

[agent]
kind = "python"
target = "tests.explore.agents:SlowDesk"

[environment]
target = "vistasim.demo:OrderBook"

[cache]
mode = "off"
"""
"""A chat-mode desk run slow enough to be killed mid-way (the kill -9 resume tests)."""


def store_two_desk_runs(store_path: Path) -> tuple[str, str]:
    """Store a run of `DeskBefore` and then one of `DeskAfter` (tests/desk_variants.py).

    Known differences: the two-items failures are fixed, the cancel of a shipped order is new,
    the wrong delivery date is still present.
    """
    from vistasim.explore import run_sync

    ids = []
    for target in ("tests.desk_variants:DeskBefore", "tests.desk_variants:DeskAfter"):
        config = desk_config(rollouts=2, agent={"kind": "python", "target": target})
        result = run_sync(config, scenarios=desk_scenarios(), store=store_path, preflight=False)
        ids.append(result.run_id)
    return ids[0], ids[1]

"""Defect 1: an agent's or environment's hook that breaks costs its episode, never the run."""

import sqlite3
from pathlib import Path

import anyio
import pytest

from tests.faults import agents
from tests.helpers import desk_config, desk_scenarios
from vistasim.events import Judgment, StopReason
from vistasim.explore import run
from vistasim.store import open_store, read_run_view

AGENTS = Path(__file__).with_name("agents.py")


def line_of(marker: str) -> str:
    """`agents.py:N` of the line carrying `# MARKER`."""
    lines = AGENTS.read_text(encoding="utf-8").splitlines()
    return f"agents.py:{next(i for i, line in enumerate(lines, 1) if f'# {marker}' in line)}"


async def _run(tmp_path, **sections):
    store = open_store(tmp_path / "store.db")
    result = await run(desk_config(**sections), scenarios=desk_scenarios(), store=store)
    return result, read_run_view(store, result.run_id)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("SnapshotRaises", ["snapshot store offline", line_of("SNAPSHOT-RAISES")]),
        ("SnapshotRaisesAtStart", ["no state yet", line_of("START-RAISES")]),
        ("SnapshotNotJson", ["not JSON"]),
        ("CloseRaises", ["socket already closed", line_of("CLOSE-RAISES")]),
    ],
)
async def test_a_broken_agent_hook_is_its_episodes_agent_error(tmp_path, target, expected):
    result, view = await _run(tmp_path, agent={"target": f"tests.faults.agents:{target}"})
    assert view.status == "done"
    assert result.stop_reasons == {"agent_error": 5}
    for episode in view.episodes:
        assert episode.status == "done"
        assert isinstance(episode.events[-2].event, Judgment)  # judged, counted as a failure
        for text in expected:
            assert text in episode.stop.detail, episode.stop.detail


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("BrokenBook", ["tracking service divided by zero", line_of("LEXICON-RAISES")]),
        ("book_factory_that_breaks", ["seed database unreachable", line_of("FACTORY-RAISES")]),
    ],
)
async def test_a_broken_environment_hook_errors_its_episode(tmp_path, target, expected):
    agents.BOOKS_MADE[0] = 0
    result, view = await _run(tmp_path, environment={"target": f"tests.faults.agents:{target}"})
    assert view.status == "done"
    assert result.errored == 5
    for episode in view.episodes:
        assert episode.status == "errored"
        assert episode.stop.reason is StopReason.INFRA_ERROR
        for text in expected:
            assert text in episode.stop.detail, episode.stop.detail


async def test_a_restore_that_raises_on_resume_is_that_episodes_agent_error(tmp_path):
    db_path = tmp_path / "store.db"
    agent = {"target": "tests.faults.agents:RestoreRaises"}
    config = desk_config(agent=agent, run={"concurrency": 2})
    async with anyio.create_task_group() as tg:
        tg.start_soon(_run_quietly, config, db_path)
        with anyio.fail_after(30):
            while _count(db_path, "SELECT COUNT(*) FROM events WHERE kind = 'agent_reply'") < 3:
                await anyio.sleep(0.01)
        tg.cancel_scope.cancel()

    with open_store(db_path) as store:
        [row] = store.list_runs()
        assert row.status != "running"  # an interrupted run is marked, never left running
        result = await run(resume=row.run_id, store=store)
        view = read_run_view(store, row.run_id)
    assert view.status == "done"
    broken = [e for e in view.episodes if e.stop.reason is StopReason.AGENT_ERROR]
    assert broken, result.stop_reasons
    assert all(line_of("RESTORE-RAISES") in e.stop.detail for e in broken)


async def _run_quietly(config, db_path):
    with open_store(db_path) as store:
        await run(config, scenarios=desk_scenarios(), store=store)


def _count(db_path: Path, sql: str) -> int:
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as db:
            return db.execute(sql).fetchone()[0]
    except sqlite3.OperationalError:
        return 0

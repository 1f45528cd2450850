"""`run.executor = "ray"` stores what the local executor stores; a killed driver resumes.

One local Ray instance serves the whole module (its start-up takes seconds); without Ray, or where
it cannot start, the module is skipped with the reason.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.helpers import (
    KILLABLE_DESK_CONFIG,
    REPO,
    count_rows,
    desk_config,
    desk_scenarios,
    episode_paths,
    write_desk_config,
)
from vistasim.config import load_config
from vistasim.explore import run
from vistasim.store import open_store, read_run_view

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'vistasim[ray]')")
pytestmark = pytest.mark.slow  # a Ray instance takes seconds to start


@pytest.fixture(scope="module", autouse=True)
def ray_session():
    try:
        ray.init(
            num_cpus=2, include_dashboard=False, object_store_memory=80 * 1024 * 1024,
            log_to_driver=False,
        )  # fmt: skip
    except Exception as exc:  # the reason is the skip's message
        pytest.skip(f"a local Ray instance cannot start here: {type(exc).__name__}: {exc}")
    yield
    ray.shutdown()


def _config(executor: str, branches: int = 0):
    return desk_config(
        rollouts=2,
        run={"executor": executor, "ray_workers": 2, "seed": 7, "concurrency": 2},
        user={"perturb": 0.5},  # drawn perturbations are recorded too
        explore={"branches": branches},
    )


def _stored(store, run_id: str) -> dict:
    """Everything a run stored per episode, but ids, timestamps and measured latencies."""
    view = read_run_view(store, run_id)
    plans = {p.episode_id: p for p in store.list_episodes(run_id)}
    return {
        e.episode_id.split(":", 1)[1]: (
            [(s.turn, s.event.model_dump(mode="json", exclude={"latency_s"})) for s in e.events],
            plans[e.episode_id].status,
            plans[e.episode_id].stop_reason,
            plans[e.episode_id].perturbations,
        )
        for e in view.episodes
    }


async def _local_reference(tmp_path, branches: int = 0) -> dict:
    with open_store(tmp_path / "local.db") as store:
        config = _config("local", branches)
        result = await run(config, scenarios=desk_scenarios(), store=store)
        return _stored(store, result.run_id)


async def test_ray_run_stores_exactly_what_the_local_run_stores(tmp_path):
    reference = await _local_reference(tmp_path)
    with open_store(tmp_path / "ray.db") as store:
        result = await run(_config("ray"), scenarios=desk_scenarios(), store=store)
        on_ray = _stored(store, result.run_id)
        events = store.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        blobs = store.db.execute("SELECT COUNT(*) FROM blobs").fetchone()[0]

    assert result.episodes == 10 and result.stop_reasons.get("unfinished") is None
    assert on_ray == reference
    assert any(perturbations for *_, perturbations in on_ray.values())
    assert blobs > 0  # the environment's snapshots reached the store through the driver
    # Exactly the roots plus every episode's path: no write was lost or committed twice.
    assert events == sum(len(path) for path, *_ in on_ray.values()) + len(desk_scenarios())


def _count(store, sql: str) -> int:
    return int(store.db.execute(sql).fetchone()[0])


async def test_explore_on_ray_plays_the_same_branches(tmp_path):
    reference = await _local_reference(tmp_path, branches=3)
    with open_store(tmp_path / "ray.db") as store:
        result = await run(_config("ray", branches=3), scenarios=desk_scenarios(), store=store)
        on_ray = _stored(store, result.run_id)

    assert sum(result.branches.values()) > len(desk_scenarios())  # branching happened
    assert on_ray == reference  # rollouts on the workers, branches in the driver: the same


async def test_a_killed_ray_driver_resumes_to_the_local_result(tmp_path):
    text = KILLABLE_DESK_CONFIG.replace("[run]\n", '[run]\nexecutor = "ray"\nray_workers = 2\n')
    config_path = write_desk_config(tmp_path, text)
    db_path = tmp_path / "killed.db"
    # Its own session: the kill takes the driver and the Ray instance it started, as a crash would.
    driver = subprocess.Popen(
        [sys.executable, "-m", "vistasim.cli", "run", str(config_path), "--store", str(db_path)],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while count_rows(db_path, "SELECT COUNT(*) FROM events WHERE kind = 'user_message'") < 25:
            assert driver.poll() is None, "the Ray run ended before it could be killed"
            assert time.monotonic() < deadline, "the Ray run made no progress"
            time.sleep(0.05)
    finally:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()
    with open_store(db_path) as store:
        [row] = store.list_runs()
        assert row.status == "running"
        # Episodes stopped between two turns: the workers restore them from the stored snapshot.
        midway = "SELECT COUNT(*) FROM episodes WHERE status = 'running' AND leaf_event_id > 0"
        assert _count(store, midway) > 0, "no episode was killed between two turns"

        await run(resume=row.run_id, store=store)  # on Ray again: the stored config says so

        resumed = read_run_view(store, row.run_id)
        events = _count(store, "SELECT COUNT(*) FROM events")
    local = load_config(config_path, environ={}, overrides={"run": {"executor": "local"}})
    with open_store(tmp_path / "local.db") as reference_store:
        result = await run(local, store=reference_store)
        reference = read_run_view(reference_store, result.run_id)

    assert resumed.status == "done"
    assert episode_paths(resumed) == episode_paths(reference)
    # No orphan or duplicated event: the roots plus every episode's path.
    assert events == sum(len(e.events) for e in resumed.episodes) + len(resumed.scenarios)

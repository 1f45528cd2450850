"""`run.executor = "ray"` stores what the local executor stores, and resumes from the store.

One local Ray instance serves the whole module (its start-up takes seconds); without Ray, or where
it cannot start, the module is skipped with the reason.
"""

from __future__ import annotations

import anyio
import pytest

from tests.helpers import REPO, desk_config, desk_scenarios
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


def _config(executor: str, agent: str = "vistasim.demo:OrderDeskAgent"):
    config = desk_config(
        rollouts=2,
        run={"executor": executor, "ray_workers": 2, "seed": 7, "concurrency": 2},
        user={"perturb": 0.5},  # drawn perturbations are recorded too
        agent={"target": agent},
    )
    return config.model_copy(update={"base_dir": str(REPO)})  # workers import tests.* too


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


async def _local_reference(tmp_path, **agent: str) -> dict:
    with open_store(tmp_path / "local.db") as store:
        result = await run(_config("local", **agent), scenarios=desk_scenarios(), store=store)
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


async def test_a_stopped_ray_run_resumes_to_the_local_result(tmp_path):
    slow = {"agent": "tests.explore.agents:SlowDesk"}  # turns slow enough to stop mid-episode
    reference = await _local_reference(tmp_path, **slow)
    with open_store(tmp_path / "stopped.db") as store:
        config = _config("ray", **slow)
        with anyio.move_on_after(60) as scope:  # the driver stops once a few turns are stored
            async with anyio.create_task_group() as tg:
                tg.start_soon(lambda: run(config, scenarios=desk_scenarios(), store=store))
                while _count(store, "SELECT COUNT(*) FROM events WHERE kind = 'snapshot'") < 8:
                    await anyio.sleep(0.05)
                tg.cancel_scope.cancel()
        assert not scope.cancelled_caught, "the Ray run stored nothing within a minute"
        [row] = store.list_runs()
        unfinished = "SELECT COUNT(*) FROM episodes WHERE status IN ('pending', 'running')"
        assert _count(store, unfinished) > 0, "the run finished before it could be stopped"
        midway = "SELECT COUNT(*) FROM episodes WHERE status = 'running' AND leaf_event_id > 0"
        assert _count(store, midway) > 0, "no episode was stopped between two turns"

        resumed = await run(resume=row.run_id, store=store)

        assert resumed.episodes == 10
        assert store.read_run(row.run_id).status == "done"
        assert _stored(store, row.run_id) == reference


def _count(store, sql: str) -> int:
    return int(store.db.execute(sql).fetchone()[0])

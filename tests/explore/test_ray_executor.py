"""`run.executor = "ray"` stores what the local executor stores; a killed driver resumes.

One local Ray instance serves the whole module (its start-up takes seconds); without Ray, or where
it cannot start, the module is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from tests.explore.agents import DESK_TOKEN
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
from vistasim.metrics import find_all
from vistasim.store import open_store, read_run_view
from vistasim.testing import FakeOpenAIServer

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'vistasim[ray]')")
pytestmark = pytest.mark.slow  # a Ray instance takes seconds to start


_TOKEN_ENV = "VISTASIM_TEST_DESK_TOKEN"
"""Holds `DESK_TOKEN` for driver and workers alike: a key the config names is a secret."""


@pytest.fixture(scope="module", autouse=True)
def ray_session():
    with pytest.MonkeyPatch.context() as env:
        env.setenv(_TOKEN_ENV, DESK_TOKEN)  # before Ray starts: its workers inherit it
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


def _branches(store, run_id: str) -> list[tuple]:
    """Each branch as stored, but ids: parent, junction, candidates, injected, status...

    By episode: a wave's slots record their branches concurrently, in no fixed order.
    """
    return [
        (b.parent_episode_id.split(":", 1)[1], b.episode_id.split(":", 1)[1], b.turn, b.chooser,
         b.rationale, b.original, b.candidates, b.chosen, b.injected, b.overhead_tokens, b.status,
         b.detail, b.restores)
        for b in sorted(store.list_branches(run_id),
                        key=lambda b: (b.episode_id or "", b.parent_episode_id, b.turn))
    ]  # fmt: skip


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


async def _local_reference(tmp_path, branches: int = 0) -> tuple[dict, list, dict]:
    with open_store(tmp_path / "local.db") as store:
        config = _config("local", branches)
        result = await run(config, scenarios=desk_scenarios(), store=store)
        return (
            _stored(store, result.run_id),
            _branches(store, result.run_id),
            _state(store, result.run_id),
        )


async def test_ray_run_stores_exactly_what_the_local_run_stores(tmp_path):
    reference, _, _ = await _local_reference(tmp_path)
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


async def test_model_users_reach_their_model_from_ray_workers(tmp_path):
    # Ray's async actors run on uvloop: the model client's connections must work there too
    # (every model request on a worker failed, and every episode ended `infra_error`).
    with FakeOpenAIServer().in_thread() as server, open_store(tmp_path / "llm.db") as store:
        config = desk_config(
            run={"executor": "ray", "ray_workers": 2, "max_turns": 2},
            user={"policy": "llm"},
            models={"user": {"model": "fake-user", "base_url": server.base_url}},
        )
        result = await run(config, scenarios=desk_scenarios()[:2], store=store, preflight=False)

    assert result.episodes == 2
    assert result.errored == 0 and "infra_error" not in result.stop_reasons
    assert server.count >= 2  # each worker's user asked the model


def _state(store, run_id: str) -> dict:
    """The explorer's stored state (verdicts, memory, waves), episode ids without the run's."""
    return json.loads(json.dumps(store.load_exploration(run_id)).replace(f"{run_id}:", ""))


def _outcomes(store, run_id: str) -> dict[str, str]:
    """Each episode's verdict (branches included), by episode id without the run's."""
    verdicts = find_all(read_run_view(store, run_id)).verdicts
    return {k.split(":", 1)[1]: v.outcome for k, v in verdicts.items()}


def _count(store, sql: str) -> int:
    return int(store.db.execute(sql).fetchone()[0])


async def test_explore_on_ray_plays_the_same_branches(tmp_path):
    reference, reference_branches, reference_state = await _local_reference(tmp_path, branches=3)
    with open_store(tmp_path / "ray.db") as store:
        result = await run(_config("ray", branches=3), scenarios=desk_scenarios(), store=store)
        on_ray, branches = _stored(store, result.run_id), _branches(store, result.run_id)
        state = _state(store, result.run_id)
        outcomes = _outcomes(store, result.run_id)
    with open_store(tmp_path / "local.db") as store:
        [row] = store.list_runs()
        reference_outcomes = _outcomes(store, row.run_id)

    assert sum(result.branches.values()) > len(desk_scenarios())  # branching happened
    # Branch for branch: the same parents, junctions, candidates, outcomes and restores.
    assert branches == reference_branches
    assert on_ray == reference
    assert outcomes == reference_outcomes and "failed" in outcomes.values()
    # What the explorer learnt and decided: verdicts, novelty memory, waves.
    assert state == reference_state


async def test_a_branch_is_restored_once_on_a_worker_with_the_secret_the_store_masks(
    tmp_path, monkeypatch
):
    config = desk_config(
        agent={"target": "tests.explore.agents:TellingStateDesk"},
        models={"judge": {"model": "unused", "base_url": "http://127.0.0.1:9/v1",
                          "api_key_env": _TOKEN_ENV}},
        run={"executor": "ray", "ray_workers": 2, "seed": 7},
        explore={"branches": 2},
    )  # fmt: skip
    with open_store(tmp_path / "ray.db") as store:
        result = await run(config, scenarios=desk_scenarios(), store=store, preflight=False)
        view = read_run_view(store, result.run_id)
        _assert_nothing_stored_holds(store, DESK_TOKEN)

    played = [b for b in view.branches if b.status != "abandoned"]
    assert len(played) >= len(desk_scenarios()) and {b.restores for b in played} == {1}
    for episode in view.episodes:
        told = [s.event.text for s in episode.own_events
                if s.event.kind == "agent_reply" and "(restored in " in s.event.text]  # fmt: skip
        if episode.branch_of is None:
            assert told == []
            continue
        # One restore, in a worker process, from the token whole; stored with the token masked.
        [text] = told
        assert f"(restored in {os.getpid()}," not in text
        assert "token whole: ***)" in text


def _assert_nothing_stored_holds(store, secret: str) -> None:
    rows = store.db.execute("SELECT payload, exact_payload FROM events").fetchall()
    assert rows and not any(secret in (text or "") for row in rows for text in row)
    blobs = store.db.execute("SELECT data FROM blobs").fetchall()
    assert blobs and not any(secret.encode() in bytes(row[0]) for row in blobs)


def _kill_ray_driver(config_path, db_path, count_sql: str, at_least: int) -> None:
    """Run the config on Ray in a subprocess; SIGKILL it once `count_sql` counts `at_least`."""
    # Its own session: the kill takes the driver and the Ray instance it started, as a crash would.
    driver = subprocess.Popen(
        [sys.executable, "-m", "vistasim.cli", "run", str(config_path), "--store", str(db_path)],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while count_rows(db_path, count_sql) < at_least:
            assert driver.poll() is None, "the Ray run ended before it could be killed"
            assert time.monotonic() < deadline, "the Ray run made no progress"
            time.sleep(0.05)
    finally:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()


def _ray_config(tmp_path, extra: str = "") -> object:
    text = KILLABLE_DESK_CONFIG.replace("[run]\n", '[run]\nexecutor = "ray"\nray_workers = 2\n')
    return write_desk_config(tmp_path, text + extra)


async def _local_run_of(config_path, tmp_path):
    local = load_config(config_path, environ={}, overrides={"run": {"executor": "local"}})
    with open_store(tmp_path / "local.db") as store:
        result = await run(local, store=store)
        view = read_run_view(store, result.run_id)
        return view, _branches(store, result.run_id), _state(store, result.run_id)


async def test_a_killed_ray_driver_resumes_to_the_local_result(tmp_path):
    config_path = _ray_config(tmp_path)
    db_path = tmp_path / "killed.db"
    messages = "SELECT COUNT(*) FROM events WHERE kind = 'user_message'"
    _kill_ray_driver(config_path, db_path, messages, 25)
    with open_store(db_path) as store:
        [row] = store.list_runs()
        assert row.status == "running"
        # Episodes stopped between two turns: the workers restore them from the stored snapshot.
        midway = "SELECT COUNT(*) FROM episodes WHERE status = 'running' AND leaf_event_id > 0"
        assert _count(store, midway) > 0, "no episode was killed between two turns"

        await run(resume=row.run_id, store=store)  # on Ray again: the stored config says so

        resumed = read_run_view(store, row.run_id)
        events = _count(store, "SELECT COUNT(*) FROM events")
    reference, _, _ = await _local_run_of(config_path, tmp_path)

    assert resumed.status == "done"
    assert episode_paths(resumed) == episode_paths(reference)
    # No orphan or duplicated event: the roots plus every episode's path.
    assert events == sum(len(e.events) for e in resumed.episodes) + len(resumed.scenarios)


async def test_a_ray_driver_killed_while_branching_resumes_to_the_local_branches(tmp_path):
    config_path = _ray_config(tmp_path, "\n[explore]\nbranches = 2\n")
    db_path = tmp_path / "killed.db"
    unfinished = (
        "SELECT COUNT(*) FROM episodes WHERE branch_of IS NOT NULL "
        "AND status IN ('pending', 'running')"
    )
    # Killed while a branch plays, once three were recorded (not merely once three exist: on a
    # busy machine all three can end between two looks).
    playing = f"SELECT (SELECT COUNT(*) FROM branches) >= 3 AND ({unfinished}) > 0"
    _kill_ray_driver(config_path, db_path, playing, 1)
    with open_store(db_path) as store:
        [row] = store.list_runs()
        assert row.status == "running"
        assert _count(store, unfinished) > 0, "no branch was killed while it played"
        await run(resume=row.run_id, store=store)  # the branches left go to the workers
        resumed = read_run_view(store, row.run_id)
        branches = _branches(store, row.run_id)
        state = _state(store, row.run_id)
    reference, reference_branches, reference_state = await _local_run_of(config_path, tmp_path)

    assert resumed.status == "done" and len(branches) > 3
    assert episode_paths(resumed) == episode_paths(reference)
    # The same branches; a branch the kill interrupted was restored once more to finish.
    assert [b[:-1] for b in branches] == [b[:-1] for b in reference_branches]
    # Explored as the uninterrupted run: the same verdicts, novelty memory and waves.
    assert state == reference_state


def _web_shape(store, run_id: str) -> dict:
    """Per episode: its events' kinds and channels, status and stop reason.

    Not the events whole: a web episode's site listens on a port of its own, in URLs and pages.
    """
    view = read_run_view(store, run_id)
    plans = {p.episode_id: p for p in store.list_episodes(run_id)}
    return {
        e.episode_id.split(":", 1)[1]: (
            [(s.turn, type(s.event).__name__, getattr(s.event, "channel", None)) for s in e.events],
            plans[e.episode_id].status,
            plans[e.episode_id].stop_reason,
        )
        for e in view.episodes
    }


async def test_web_episodes_and_branches_play_on_ray_workers_with_a_browser_each(tmp_path):
    from vistasim.browser import find_chromium
    from vistasim.config import RunConfig
    from vistasim.domains import get_domain
    from vistasim.errors import BrowserError
    from vistasim.events import WebAction

    try:
        find_chromium()
    except BrowserError as exc:
        pytest.skip(f"no Chromium: {exc}")
    by_id = {s.id: s for s in get_domain("shop").scenarios()}
    scenarios = [by_id["shop-hybrid-refund-coupon-status"], by_id["shop-cancel-processing-order"]]

    def config(executor: str) -> RunConfig:
        return RunConfig.model_validate({
            "run": {"mode": "hybrid", "rollouts": 1, "concurrency": 2, "seed": 3,
                    "executor": executor, "ray_workers": 2},
            "agent": {"kind": "python", "target": "vistasim.domains.shop:RuleShopAgent"},
            "environment": {"target": "shop"},
            "cache": {"mode": "off"},
            "explore": {"branches": 2},
        })  # fmt: skip

    shapes, branches = {}, {}
    for executor in ("local", "ray"):
        with open_store(tmp_path / f"{executor}.db") as store:
            result = await run(config(executor), scenarios=scenarios, store=store)
            shapes[executor] = _web_shape(store, result.run_id)
            branches[executor] = _branches(store, result.run_id)
            web = [
                s.event for e in read_run_view(store, result.run_id).episodes for s in e.events
                if isinstance(s.event, WebAction)
            ]  # fmt: skip
        assert result.stop_reasons.get("infra_error") is None, (executor, result.stop_reasons)
        assert web and all(w.url and w.url.startswith("http://127.0.0.1:") for w in web)
    assert len(branches["local"]) == 4 and all(b[-1] == 1 for b in branches["local"])  # restores
    assert shapes["ray"] == shapes["local"]
    assert _portless(branches["ray"]) == _portless(branches["local"])


def _portless(value: object) -> str:
    """`value` written out with each loopback site's port left out (each episode has its own)."""
    return re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:*", repr(value))

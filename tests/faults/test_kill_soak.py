"""kill -9 at random moments, three times, then resume: nothing lost, nothing duplicated.

The kill points are drawn from a seed printed on failure (set FAULTS_SOAK_SEED to replay one).
"""

import os
import random

import pytest

from tests.helpers import KILLABLE_DESK_CONFIG as CONFIG
from tests.helpers import count_rows, episode_paths, start_and_kill, write_desk_config
from vistasim.config import load_config
from vistasim.explore import run
from vistasim.store import open_store, read_run_view

KINDS = ("user_message", "agent_reply", "snapshot", "tool_call")


@pytest.mark.slow
async def test_three_kills_at_random_points_then_resume_equals_an_uninterrupted_run(tmp_path):
    seed = int(os.environ.get("FAULTS_SOAK_SEED") or random.SystemRandom().randrange(10**6))
    rng = random.Random(seed)
    config_path = write_desk_config(tmp_path, CONFIG)
    db = tmp_path / "killed.db"
    argv = ["run", str(config_path), "--store", str(db)]
    for kill in range(3):
        kind = rng.choice(KINDS)
        have = count_rows(db, f"SELECT COUNT(*) FROM events WHERE kind = '{kind}'")
        at_least = have + rng.randint(3, 9)
        start_and_kill(argv, db, kind=kind, at_least=at_least, then_wait_s=rng.uniform(0, 0.05))
        run_id = _only_run(db)
        argv = ["run", "--resume", run_id, "--store", str(db)]
        assert count_rows(db, "SELECT COUNT(*) FROM runs WHERE status = 'done'") == 0, (
            f"seed {seed}: the run finished before kill {kill + 1}"
        )

    with open_store(db) as store:
        await run(resume=run_id, store=store)
        resumed = read_run_view(store, run_id)
        in_table = store.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    reference_store = open_store(tmp_path / "reference.db")
    result = await run(load_config(config_path, environ={}), store=reference_store)
    reference = read_run_view(reference_store, result.run_id)

    assert resumed.status == "done", f"seed {seed}"
    assert episode_paths(resumed) == episode_paths(reference), f"seed {seed}"
    on_paths = sum(len(e.events) for e in resumed.episodes)
    assert in_table == on_paths + len(resumed.scenarios), f"seed {seed}: orphan events"


def _only_run(db) -> str:
    with open_store(db) as store:
        [row] = store.list_runs()
    return row.run_id

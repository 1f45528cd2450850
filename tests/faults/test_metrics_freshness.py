"""Defect 7: metrics computed while a run is still writing are never kept as its metrics."""

import anyio

from tests.helpers import desk_config, desk_scenarios
from vistasim.explore import run
from vistasim.metrics import metrics_for_run
from vistasim.store import open_store


async def test_metrics_of_an_unfinished_run_are_not_kept(tmp_path):
    db_path = tmp_path / "store.db"
    config = desk_config(rollouts=2, agent={"target": "tests.explore.agents:SlowDesk"},
                         run={"concurrency": 2})  # fmt: skip
    results = []

    async def play() -> None:
        with open_store(db_path) as store:
            results.append(await run(config, scenarios=desk_scenarios(), store=store))

    async with anyio.create_task_group() as tg:
        tg.start_soon(play)
        with open_store(db_path) as reader:
            with anyio.fail_after(60):
                while not any(row.done for row in reader.list_runs()):
                    await anyio.sleep(0.02)
            [row] = reader.list_runs()
            early = await metrics_for_run(reader, row.run_id)  # the run is still writing
    assert early.episodes == 10

    with open_store(db_path) as reader:
        later = await metrics_for_run(reader, row.run_id)
        fresh = await metrics_for_run(reader, row.run_id, recompute=True)
    assert later.success == fresh.success
    assert later.success_rate == results[0].passed / 10

"""Defect 4: an agent that hangs, or blocks the event loop, cannot hang the run or the process."""

import logging
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

from tests.helpers import desk_config, desk_scenarios
from vistasim.events import StopReason
from vistasim.explore import run
from vistasim.store import open_store, read_run_view

REPO = Path(__file__).resolve().parents[2]

CONFIG = """
[run]
scenarios = "scenarios.yaml"
concurrency = 5

[agent]
kind = "python"
target = "tests.faults.agents:hangs_forever"
timeout_s = 0.3

[environment]
target = "vistasim.demo:OrderBook"

[cache]
mode = "off"
"""


def test_a_sync_agent_that_never_answers_times_out_and_the_process_exits(tmp_path):
    with resources.as_file(resources.files("vistasim.demo") / "scenarios.yaml") as src:
        shutil.copy(src, tmp_path / "scenarios.yaml")
    (tmp_path / "vistasim.toml").write_text(CONFIG, encoding="utf-8")
    command = [sys.executable, "-m", "vistasim.cli", "run", str(tmp_path / "vistasim.toml"),
               "--store", str(tmp_path / "store.db")]  # fmt: skip
    proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError("the run finished its episodes but the process never exited") from None
    assert proc.returncode == 0, err.decode()
    with open_store(tmp_path / "store.db") as store:
        [row] = store.list_runs()
        view = read_run_view(store, row.run_id)
    assert view.status == "done"
    assert {e.stop.reason for e in view.episodes} == {StopReason.AGENT_ERROR}
    assert all("did not answer within 0.3 s" in e.stop.detail for e in view.episodes)


async def test_an_async_agent_that_blocks_the_loop_is_caught_and_its_late_reply_dropped(
    tmp_path, caplog
):
    config = desk_config(
        agent={"target": "tests.faults.agents:blocks_the_loop", "timeout_s": 0.2},
        run={"concurrency": 1},
    )
    store = open_store(tmp_path / "store.db")
    with caplog.at_level(logging.WARNING, logger="vistasim"):
        result = await run(config, scenarios=desk_scenarios()[:1], store=store)
    [episode] = read_run_view(store, result.run_id).episodes
    assert episode.stop.reason is StopReason.AGENT_ERROR
    assert "blocked the event loop" in episode.stop.detail
    replies = [e.event for e in episode.events if e.event.kind == "agent_reply"]
    assert replies == []  # the late reply is not stored as if it were on time
    assert any("event loop" in r.getMessage() and "blocked" in r.getMessage()
               for r in caplog.records)  # fmt: skip

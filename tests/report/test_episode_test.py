import subprocess
import sys
import tomllib

import anyio
import pytest

from tests.helpers import REPO, desk_config, desk_scenarios
from vistasim.config import load_config
from vistasim.explore import run_sync
from vistasim.metrics import metrics_for_run
from vistasim.report import export_episode_test, toml_text
from vistasim.store import open_store, read_run_view
from vistasim.testing import Simulator
from vistasim.user import actions_of_events

EPISODE = "desk-return-two-items:0"


def _export(desk_runs, out, episode=EPISODE):
    path, before, _ = desk_runs
    with open_store(path) as store:
        files = export_episode_test(store, before, episode, out)
        view = read_run_view(store, before)
        metrics = anyio.run(lambda: metrics_for_run(store, before))
    return files, view.find_episode(episode), metrics


def _user_turns(episode):
    return actions_of_events(s.event for s in episode.events)


def test_the_exported_files_replay_the_same_turns_and_reproduce_the_failure(desk_runs, tmp_path):
    files, original, metrics = _export(desk_runs, tmp_path / "replay")
    assert [f.name for f in files] == [
        "scenarios.yaml", "script.yaml", "vistasim.toml", "test_desk_return_two_items_0.py"
    ]  # fmt: skip
    simulator = Simulator(tmp_path / "replays.db", tmp_path)
    replay = anyio.run(lambda: simulator.run_config(files[2]))
    assert replay.outcomes == ["failed"]
    with open_store(tmp_path / "replays.db") as store:
        (replayed,) = read_run_view(store, replay.run_id).episodes
    assert _user_turns(replayed) == _user_turns(original)
    found = {u.id for u in metrics.failures.unique if original.episode_id in u.episodes}
    assert found and found <= {u.id for u in replay.failures}  # the same flaws, by identity


def test_the_replay_passes_once_the_agent_is_fixed(desk_runs, tmp_path):
    # DeskBefore gives a wrong delivery date; the demo desk gives the right one to the same turns.
    files, _, _ = _export(desk_runs, tmp_path / "replay", "desk-status-shipped:0")
    simulator = Simulator(tmp_path / "replays.db", tmp_path)
    assert anyio.run(lambda: simulator.run_config(files[2])).outcomes == ["failed"]
    fixed = {"kind": "python", "target": "vistasim.demo:OrderDeskAgent"}
    replay = anyio.run(lambda: simulator.run_config(files[2], agent=fixed))
    assert replay.passed, replay.explain()


def test_the_exported_pytest_file_fails_as_the_episode_did(desk_runs, tmp_path):
    files, _, _ = _export(desk_runs, tmp_path / "replay")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "/dev/null",
         "--rootdir", str(tmp_path), str(files[3])],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 failed" in result.stdout
    assert "check FAILED: required action return_item(order_id=W1010, sku=PAN-9)" in result.stdout


def test_the_config_keeps_the_agent_and_points_files_at_their_place(tmp_path):
    (tmp_path / "project").mkdir()
    policy = tmp_path / "project" / "policy.md"
    policy.write_text("Never cancel a shipped order.\n", encoding="utf-8")
    config = desk_config(judges={"policy": "policy.md"}, run={"seed": 4})
    config = config.model_copy(update={"base_dir": str(tmp_path / "project")})
    result = run_sync(config, scenarios=desk_scenarios()[:1], store=tmp_path / "v.db")
    out = tmp_path / "elsewhere" / "replay"
    with open_store(tmp_path / "v.db") as store:
        files = export_episode_test(store, result.run_id, "desk-status-shipped:0", out)
    replay = load_config(files[2], environ={})
    assert replay.resolve(replay.judges.policy or "").resolve() == policy
    assert replay.agent is not None and replay.agent.kind == "python"
    assert (replay.user.policy, replay.run.seed, replay.gates) == (
        "scripted", 4, {"success_rate": ">= 1"}
    )


def test_an_unknown_episode_names_some_that_exist(desk_runs, tmp_path):
    from vistasim.errors import StoreError

    path, before, _ = desk_runs
    with open_store(path) as store, pytest.raises(StoreError, match="e.g. desk-status-shipped:0"):
        export_episode_test(store, before, "no-such:9", tmp_path)


@pytest.mark.parametrize(
    "value", ['say "hi"\nthen \\ leave', "caf\u00e9 \U0001f600", "del\x7fete", "tab\tnul\x00"]
)
def test_toml_text_writes_what_tomllib_reads_back(value):
    data = {
        "run": {"name": value, "rollouts": 2, "ratio": 0.5, "on": True},
        "prices": {"gpt-4.1/mini": {"input": 1.5}},
        "web": {"origins": [value, "x"]},
    }
    assert tomllib.loads(toml_text(data)) == data

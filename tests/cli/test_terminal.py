"""What a run says on the terminal: progress, summary, exit code, show, runs, export, selection."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.helpers import REPO
from vistasim.cli import cli

LONG = "a-scenario-id-long-enough-that-an-80-column-table-would-have-to-cut-it-somewhere"

SCENARIOS = f"""
- id: status-one
  persona: {{name: A}}
  goal: Find out the status of order W1001.
  knowledge: {{order_id: W1001}}
  tags: [status]
  criteria: {{statements: [{{contains_any: [shipped]}}]}}
- id: {LONG}
  persona: {{name: B}}
  goal: Cancel order W1002.
  knowledge: {{order_id: W1002}}
  tags: [cancel]
- id: needs-a-model
  persona: {{name: C}}
  goal: Chat about the weather.
  tags: ["needs:llm-user"]
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / "bot.py").write_text(
        "def bot(turn):\n    return 'Your order W1001 has shipped. Order W1002 is cancelled.'\n",
        encoding="utf-8",
    )
    (tmp_path / "scenarios.yaml").write_text(SCENARIOS, encoding="utf-8")
    (tmp_path / "vistasim.toml").write_text(
        '[run]\nscenarios = "scenarios.yaml"\nstore = "v.db"\n[agent]\nkind = "python"\n'
        'target = "bot:bot"\n[cache]\nmode = "off"\n',
        encoding="utf-8",
    )
    return tmp_path


def _main(*args, cwd, columns=80):
    env = {"PATH": "", "COLUMNS": str(columns), "VISTASIM_HOME": str(cwd / "home")}
    return subprocess.run(
        [sys.executable, "-m", "vistasim.cli", *args],
        capture_output=True, text=True, cwd=cwd, env={**env, "PYTHONPATH": str(REPO / "src")},
    )  # fmt: skip


def _run_id(stdout):
    return stdout.split("run ", 1)[1].split(":", 1)[0]


def test_run_prints_progress_summary_and_report_and_selects_by_id_and_tag(project):
    result = _main("run", "vistasim.toml", "--scenario", "status-*", "--tag", "status",
                   cwd=project)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "1 episode in" in result.stdout  # only the selected scenario ran
    assert "success rate 1.000" in result.stdout
    report = Path(result.stdout.split("report:", 1)[1].split()[0])
    assert report == project / "reports" / f"{_run_id(result.stdout)}.html" and report.exists()
    assert "running: 1/1 episodes · 0 failing · " in result.stderr  # no TTY: plain lines


def test_a_selection_that_matches_nothing_is_exit_2_with_the_ids_that_exist(project):
    result = _main("run", "vistasim.toml", "--scenario", "status-on", cwd=project)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "--scenario 'status-on' matches no scenario" in result.stderr
    assert "did you mean status-one" in result.stderr
    bad_tag = _main("run", "vistasim.toml", "--tag", "refund", cwd=project)
    assert bad_tag.returncode == 2
    assert "the tags are: cancel, needs:llm-user, status" in bad_tag.stderr


def test_run_exits_1_when_no_episode_could_be_judged(project):
    result = _main("run", "vistasim.toml", "--tag", "needs:llm-user", cwd=project)
    assert result.returncode == 1
    assert "no episode could be judged (1 not applicable)" in result.stderr
    assert "report:" in result.stdout  # the report is written all the same


def test_run_names_failing_scenarios_and_show_says_why_with_whole_ids(project):
    (project / "bot.py").write_text(
        "def bot(turn):\n    return 'Order W1001 is being packed. Order W1002 is cancelled.'\n",
        encoding="utf-8",
    )
    result = _main("run", "vistasim.toml", "--scenario", "status-one", "--scenario", LONG,
                   cwd=project)  # fmt: skip
    assert result.returncode == 0, result.stderr  # failures are the agent's: still exit 0
    assert "failing scenarios (1): status-one" in result.stdout
    assert "rerun one:   vistasim run vistasim.toml --scenario status-one" in result.stdout
    run_id = _run_id(result.stdout)
    listing = _main("show", run_id, "--store", "v.db", cwd=project, columns=60).stdout
    assert f"{LONG}:0" in listing  # never cut, even at 60 columns
    assert "status-one:0" in listing and "why: criteria not met: statement any of" in listing
    shown = _main("show", run_id, "--store", "v.db", "--episode", f"{LONG}:0", cwd=project)
    assert shown.returncode == 0 and f"episode {run_id}:{LONG}:0" in shown.stdout


def test_runs_lists_name_agent_outcomes_and_pass_rate(project):
    run_id = _run_id(_main("run", "vistasim.toml", "--scenario", "status-one", cwd=project).stdout)
    listing = _main("runs", "--store", "v.db", cwd=project, columns=60).stdout
    assert f"{run_id}  done, 1/1 episodes  1 passed, 0 failed  pass rate 1.000" in listing
    assert "agent bot:bot" in listing


def test_export_writes_to_standard_output_unless_o_is_given(project):
    run_id = _run_id(_main("run", "vistasim.toml", "--scenario", "status-one", cwd=project).stdout)
    result = CliRunner().invoke(cli, ["export", run_id, "--store", str(project / "v.db")])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[0]["kind"] == "scenario_start" and rows[-1]["kind"] == "stop"
    assert f"wrote {len(rows)} events to standard output" in result.stderr
    assert not list(project.glob("*.jsonl"))  # nothing written to the working directory

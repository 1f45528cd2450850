import json
import subprocess
import sys

from click.testing import CliRunner

from vistasim.cli import cli


def _invoke(*args):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _demo(tmp_path):
    store = str(tmp_path / "v.db")
    output = _invoke("demo", "--store", store, "--rollouts", "1", "--mode", "chat")
    run_id = output.split("run ", 1)[1].split(":", 1)[0]
    return store, run_id, output


def test_demo_runs_offline_and_says_where_results_are(tmp_path):
    store, run_id, output = _demo(tmp_path)
    assert "9 episodes" in output
    assert f"stored in {store}" in output
    assert f"vistasim show {run_id}" in output


def test_runs_lists_the_demo_run(tmp_path):
    store, run_id, _ = _demo(tmp_path)
    output = _invoke("runs", "--store", store)
    assert run_id in output and "9/9" in output


def test_show_lists_episodes_and_prints_a_transcript(tmp_path):
    store, run_id, _ = _demo(tmp_path)
    listing = _invoke("show", run_id, "--store", store)
    assert "shop-return-cracked-toaster:0" in listing
    episode = "shop-return-cracked-toaster:0"
    transcript = _invoke("show", run_id, "--store", store, "--episode", episode)
    assert "user:" in transcript and "agent:" in transcript and "tool return_items" in transcript
    assert "stop: goal_met" in transcript


def test_export_writes_jsonl(tmp_path):
    store, run_id, _ = _demo(tmp_path)
    out = tmp_path / "events.jsonl"
    output = _invoke("export", run_id, "--store", store, "-o", str(out))
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert f"wrote {len(rows)} events" in output
    assert {r["kind"] for r in rows} >= {"scenario_start", "user_message", "agent_reply", "stop"}


def test_schema_prints_the_scenario_schema():
    schema = json.loads(_invoke("schema"))
    assert schema["type"] == "array"


def _main(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "vistasim.cli", *args], capture_output=True, text=True, cwd=cwd
    )


def test_a_bad_config_is_one_clear_line_and_exit_code_2(tmp_path):
    (tmp_path / "vistasim.toml").write_text("[run]\nrolouts = 2\n", encoding="utf-8")
    result = _main("run", "vistasim.toml", cwd=tmp_path)
    assert result.returncode == 2
    assert "vistasim.toml: run.rolouts" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unknown_run_is_exit_code_2(tmp_path):
    result = _main("show", "nope", "--store", str(tmp_path / "v.db"), cwd=tmp_path)
    assert result.returncode == 2
    assert "no run 'nope'" in result.stderr and "Traceback" not in result.stderr


def test_agent_next_to_the_config_is_importable(tmp_path):
    (tmp_path / "my_bot.py").write_text(
        "def bot(turn):\n    return 'Done - order W1001 has been cancelled.'\n", encoding="utf-8"
    )
    (tmp_path / "scenarios.yaml").write_text(
        "- id: s\n  persona: {name: A}\n  goal: Cancel order W1001.\n", encoding="utf-8"
    )
    (tmp_path / "vistasim.toml").write_text(
        '[run]\nscenarios = "scenarios.yaml"\nstore = "v.db"\n'
        '[agent]\nkind = "python"\ntarget = "my_bot:bot"\n',
        encoding="utf-8",
    )
    result = _main("run", "vistasim.toml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "1 episode in" in result.stdout


def test_show_prints_untrusted_text_literally(tmp_path):
    (tmp_path / "evil_bot.py").write_text(
        "def bot(turn):\n    return '[bold red]pwned[/bold red] \\x1b[2J cleared'\n",
        encoding="utf-8",
    )
    (tmp_path / "scenarios.yaml").write_text(
        "- id: s\n  persona: {name: A}\n  goal: Say hi.\n  limits: {max_turns: 1}\n",
        encoding="utf-8",
    )
    (tmp_path / "vistasim.toml").write_text(
        '[run]\nscenarios = "scenarios.yaml"\nstore = "v.db"\n'
        '[agent]\nkind = "python"\ntarget = "evil_bot:bot"\n',
        encoding="utf-8",
    )
    assert _main("run", "vistasim.toml", cwd=tmp_path).returncode == 0
    run_id = _main("runs", "--store", "v.db", cwd=tmp_path).stdout.split()[0]
    shown = _main("show", run_id, "--store", "v.db", "--episode", "s:0", cwd=tmp_path).stdout
    assert "[bold red]pwned[/bold red]" in shown
    assert "\x1b" not in shown and "\\x1b[2J" in shown


def test_demo_finds_the_shop_agents_documented_flaws(tmp_path):
    from vistasim.metrics import success
    from vistasim.store import open_store, read_run_view

    store, run_id, _ = _demo(tmp_path)
    with open_store(store) as db:
        view = read_run_view(db, run_id)
    outcomes = success(view).episodes
    verdicts = {e.scenario_id: outcomes[e.episode_id] == "passed" for e in view.episodes}
    assert verdicts["shop-cancel-pending-order"] is True
    failed = {s for s, ok in verdicts.items() if not ok}
    assert failed >= {
        "shop-flaw-correction-cancel",
        "shop-flaw-two-items-return",
        "shop-flaw-order-before-email",
    }
    assert not failed & {"shop-return-cracked-toaster", "shop-exchange-shirt-size"}


def test_resume_finds_the_store_named_by_the_config(tmp_path):
    (tmp_path / "bot.py").write_text("def bot(turn):\n    return 'Done.'\n", encoding="utf-8")
    (tmp_path / "s.yaml").write_text("- id: s\n  persona: {name: A}\n  goal: g\n", encoding="utf-8")
    (tmp_path / "vistasim.toml").write_text(
        '[run]\nscenarios = "s.yaml"\nstore = "runs/v.db"\n[agent]\nkind = "python"\n'
        'target = "bot:bot"\n',
        encoding="utf-8",
    )
    first = _main("run", "vistasim.toml", cwd=tmp_path)
    run_id = first.stdout.split("run ", 1)[1].split(":", 1)[0]
    again = _main("run", "vistasim.toml", "--resume", run_id, cwd=tmp_path)
    assert again.returncode == 2
    assert f"run {run_id!r} already finished" in again.stderr

"""CI's contract on the command line: exit 0 when the gates hold, 1 when one fails, 2 on a
mistake; JUnit files; compare with --check and --html."""

import xml.etree.ElementTree as ET

import pytest

from tests.helpers import DESK_SECTIONS, write_desk_config
from vistasim.cli import main
from vistasim.store import open_store

RUN = '[run]\nscenarios = "scenarios.yaml"\nstore = "v.db"\n'
GATED = RUN + DESK_SECTIONS + "[gates]\n{gates}\n"


def vistasim(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_metrics_check_exits_0_when_every_gate_holds(desk_runs, capsys):
    path, before, _ = desk_runs
    gates = ["--gate", "unique_failures<=5", "--gate", "success_rate >= 0.5"]
    code, out, _ = vistasim(capsys, "metrics", before, "--store", str(path), "--check", *gates)
    assert code == 0
    assert "gate unique_failures <= 5: ok (unique_failures = 5)" in out
    assert out.rstrip().endswith("gates: 2 of 2 hold")


def test_metrics_check_exits_1_and_prints_the_gate_that_failed(desk_runs, capsys, tmp_path):
    path, _, after = desk_runs
    junit = tmp_path / "junit.xml"
    code, out, _ = vistasim(capsys, "metrics", after, "--store", str(path), "--check",
                            "--gate", "failed<=0", "--junit", str(junit))  # fmt: skip
    assert code == 1
    assert "gate failed <= 0: FAILED (failed = 4)" in out and "gates: 0 of 1 hold" in out
    cases = {c.get("name"): c for c in ET.parse(junit).iter("testcase")}
    assert cases["desk-cancel-shipped"].find("failure") is not None
    assert cases["failed <= 0"].find("failure").get("type") == "gate"


def test_metrics_json_keeps_stdout_json_when_checking(desk_runs, capsys):
    import json

    path, before, _ = desk_runs
    code, out, err = vistasim(capsys, "metrics", before, "--store", str(path), "--json",
                              "--check", "--gate", "episodes>=10")  # fmt: skip
    assert code == 0 and json.loads(out)["episodes"] == 10 and "gates: 1 of 1 hold" in err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--check", "--gate", "sucess_rate>=1"], "error: --gate: unknown metric key 'sucess_rate' "
         "(did you mean 'success_rate'?)"),  # fmt: skip
        (["--check"], "error: --check: --check needs a gate to check: add a [gates] section"),
        (["--gate", "success_rate"], "error: --gate: 'success_rate' is not KEY OP NUMBER"),
    ],
)
def test_gate_mistakes_exit_2_with_one_line(desk_runs, capsys, flags, message):
    path, before, _ = desk_runs
    code, _, err = vistasim(capsys, "metrics", before, "--store", str(path), *flags)
    assert code == 2 and err.startswith(message) and len(err.strip().splitlines()) == 1


def test_run_check_uses_the_configs_gates(tmp_path, monkeypatch, capsys):
    write_desk_config(tmp_path, GATED.format(gates='success_rate = ">= 0.5"\nfailed = "<= 0"'))
    monkeypatch.chdir(tmp_path)
    code, out, _ = vistasim(capsys, "run", "vistasim.toml", "--check", "--junit", "out/j.xml")
    assert code == 1  # the demo desk fails its two-items scenario: one failed rollout
    assert "gate success_rate >= 0.5: ok (success_rate = 0.8)" in out
    assert "gate failed <= 0: FAILED (failed = 1)" in out and "gates: 1 of 2 hold" in out
    assert (tmp_path / "out" / "j.xml").exists()


def test_run_check_exits_0_when_the_gates_hold(tmp_path, monkeypatch, capsys):
    write_desk_config(tmp_path, GATED.format(gates='success_rate = ">= 0.5"'))
    monkeypatch.chdir(tmp_path)
    code, out, _ = vistasim(capsys, "run", "vistasim.toml", "--check")
    assert code == 0 and "gates: 1 of 1 hold" in out


def test_a_gate_typo_stops_the_run_before_anything_is_recorded(tmp_path, monkeypatch, capsys):
    write_desk_config(tmp_path, GATED.format(gates='unique_failure = "<= 3"'))
    monkeypatch.chdir(tmp_path)
    code, _, err = vistasim(capsys, "run", "vistasim.toml", "--check")
    assert code == 2
    assert "gates.unique_failure: unknown metric key 'unique_failure' (did you mean " in err
    assert not (tmp_path / "v.db").exists()


def test_run_check_without_gates_is_refused_before_the_run(tmp_path, monkeypatch, capsys):
    write_desk_config(tmp_path, GATED.format(gates=""))
    monkeypatch.chdir(tmp_path)
    code, _, err = vistasim(capsys, "run", "vistasim.toml", "--check")
    assert code == 2 and "--check needs a gate to check" in err
    if (tmp_path / "v.db").exists():
        with open_store(tmp_path / "v.db") as store:
            assert store.list_runs() == []


def test_compare_check_exits_1_on_a_regression_and_writes_html(desk_runs, capsys, tmp_path):
    path, before, after = desk_runs
    page = tmp_path / "compare.html"
    code, out, err = vistasim(capsys, "compare", before, after, "--store", str(path),
                              "--check", "--html", str(page))  # fmt: skip
    assert code == 1 and f"{after} regressed against {before}" in err
    assert "Failures fixed (only in the earlier run): 4" in out
    assert "New failures (only in the later run): 2" in out
    assert "Failures still present: 1" in out
    html = page.read_text(encoding="utf-8")
    assert "Content-Security-Policy" in html and "<script" not in html
    assert "desk-return-two-items" in html and 'class="fixed"' in html


def test_compare_check_exits_0_without_a_regression(desk_runs, capsys):
    path, before, after = desk_runs
    code, out, _ = vistasim(capsys, "compare", after, before, "--store", str(path), "--check")
    # Going back gains the two-items failures: that is a regression too.
    assert code == 1
    code, _, _ = vistasim(capsys, "compare", before, before, "--store", str(path), "--check")
    assert code == 0


def test_compare_with_a_baseline_in_another_store(desk_runs, capsys, tmp_path):
    import shutil

    path, before, after = desk_runs
    baseline = tmp_path / "baseline.db"
    shutil.copy(path, baseline)
    code, out, _ = vistasim(capsys, "compare", before, after, "--store", str(path),
                            "--base-store", str(baseline), "--json")  # fmt: skip
    import json

    assert code == 0 and json.loads(out)["before_run"] == before


def test_compare_an_unknown_run_exits_2(desk_runs, capsys):
    path, before, _ = desk_runs
    code, _, err = vistasim(capsys, "compare", before, "no-such-run", "--store", str(path))
    assert code == 2 and err.startswith("error:") and "no-such-run" in err


def test_an_exported_episode_reruns_as_a_failing_check(desk_runs, capsys, tmp_path):
    path, before, _ = desk_runs
    out = tmp_path / "replay"
    flags = ["--episode", "desk-return-two-items:1", "--as-test", "-o", str(out)]
    code, printed, _ = vistasim(capsys, "export", before, "--store", str(path), *flags)
    assert code == 0 and f"wrote {out / 'script.yaml'}" in printed
    code, printed, _ = vistasim(capsys, "run", str(out / "vistasim.toml"), "--check",
                                "--store", str(tmp_path / "replays.db"))  # fmt: skip
    assert code == 1 and "gate success_rate >= 1: FAILED (success_rate = 0)" in printed


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--as-test"], "error: --as-test: --as-test needs the episode: add --episode ID"),
        (["--episode", "x:0"], "error: --episode: --episode exports one episode as a test"),
        (["--episode", "nope:7", "--as-test"], "error: no single episode matches 'nope:7'"),
    ],
)
def test_export_as_test_mistakes_exit_2(desk_runs, capsys, tmp_path, flags, message):
    path, before, _ = desk_runs
    code, _, err = vistasim(capsys, "export", before, "--store", str(path), *flags,
                            "-o", str(tmp_path / "r"))  # fmt: skip
    assert code == 2 and err.startswith(message)

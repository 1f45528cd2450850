"""Defect 5: every mistake in a config, a file or the set-up is one line and exit 2, never a trace.

Unexpected bugs are exit 70, with a short request for a bug report and the traceback in a log.
"""

import shutil
from importlib import resources
from pathlib import Path

import pytest

from vistasim.cli import main
from vistasim.store import open_store

AGENT = '[agent]\nkind = "python"\ntarget = "vistasim.demo:OrderDeskAgent"\n'
ENV = '[environment]\ntarget = "vistasim.demo:OrderBook"\n'
RUN = '[run]\nscenarios = "scenarios.yaml"\n'
SHOP_UI = '[run]\nscenarios = "scenarios.yaml"\nmode = "ui"\n[environment]\ntarget = "shop"\n'


def _config(tmp_path: Path, text: str) -> Path:
    with resources.as_file(resources.files("vistasim.demo") / "scenarios.yaml") as src:
        shutil.copy(src, tmp_path / "scenarios.yaml")
    path = tmp_path / "vistasim.toml"
    path.write_text(text + '[cache]\nmode = "off"\n', encoding="utf-8")
    return path


def _main(argv: list[str], capsys) -> tuple[int, str]:
    try:
        main(argv)
    except SystemExit as exc:
        return exc.code, capsys.readouterr().err
    return 0, capsys.readouterr().err


def _assert_one_line(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err and err.startswith("error: "), err
    assert err.strip().count("\n") == 0, err
    assert len(err) < 1000, err
    for word in words:
        assert word in err, err


def _assert_no_run_left_running(db: Path) -> None:
    if db.exists():
        with open_store(db) as store:
            assert all(row.status != "running" for row in store.list_runs())


CASES = {
    "target-missing": (RUN + ENV + '[agent]\nkind = "python"\ntarget = "no_such_mod:Bot"\n',
                       ["agent.target", "no_such_mod"]),
    "target-malformed": (RUN + ENV + '[agent]\nkind = "python"\ntarget = "just_a_name"\n',
                         ["agent.target", "module:attr"]),
    "template-placeholder": (
        RUN + '[agent]\nkind = "http_json"\nurl = "http://127.0.0.1:9/chat"\n'
        'request_template = {q = "{{foo}}"}\n', ["request_template", "{{foo}}"]),
    "origin-javascript": (SHOP_UI + AGENT + '[web]\nallowed_origins = ["javascript:alert(1)"]\n',
                          ["web.allowed_origins", "javascript:alert(1)"]),
    "start-url-not-http": (SHOP_UI + AGENT + '[web]\nstart_url = "file:///etc/passwd"\n',
                           ["web.start_url", "file:///etc/passwd"]),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_a_config_mistake_is_one_line_and_no_run_is_left_running(tmp_path, capsys, case):
    text, words = CASES[case]
    db = tmp_path / "store.db"
    code, err = _main(["run", str(_config(tmp_path, text)), "--store", str(db)], capsys)
    _assert_one_line(code, err, *words)
    _assert_no_run_left_running(db)


def test_a_config_file_that_is_not_utf8_is_one_line(tmp_path, capsys):
    path = _config(tmp_path, RUN + AGENT)
    path.write_bytes(path.read_bytes() + b"\n# caf\xe9 \xff\xfe\n")
    code, err = _main(["run", str(path), "--store", str(tmp_path / "s.db")], capsys)
    _assert_one_line(code, err, "vistasim.toml", "UTF-8")


@pytest.mark.parametrize("name", ["scenarios.yaml", "scenarios.json"])
def test_a_scenario_file_that_is_not_utf8_is_one_line(tmp_path, capsys, name):
    path = _config(tmp_path, f'[run]\nscenarios = "{name}"\n' + AGENT + ENV)
    (tmp_path / name).write_bytes(b"- id: caf\xe9\n")
    code, err = _main(["run", str(path), "--store", str(tmp_path / "s.db")], capsys)
    _assert_one_line(code, err, name, "UTF-8")


@pytest.mark.parametrize("name", ["scenarios.json", "scenarios.yaml", "vistasim.toml"])
def test_deeply_nested_input_is_one_line(tmp_path, capsys, name):
    path = _config(tmp_path, RUN.replace("scenarios.yaml", name) + AGENT + ENV)
    nested = "[" * 50_000 + "]" * 50_000
    if name == "vistasim.toml":
        path.write_text(f"x = {nested}\n", encoding="utf-8")
    else:
        (tmp_path / name).write_text(nested, encoding="utf-8")
    code, err = _main(["run", str(path), "--store", str(tmp_path / "s.db")], capsys)
    _assert_one_line(code, err, name, "nest")


def test_a_store_whose_folder_cannot_be_made_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    store = blocker / "sub" / "store.db"
    code, err = _main(["runs", "--store", str(store)], capsys)
    assert code == 0  # `runs` on a missing store just says there is none
    code, err = _main(["run", str(_config(tmp_path, RUN + AGENT + ENV)), "--store", str(store)],
                      capsys)  # fmt: skip
    _assert_one_line(code, err, str(store), "--store")


def test_an_error_inside_the_run_stops_it_as_failed_with_one_line(tmp_path, capsys):
    db = tmp_path / "store.db"
    agent = '[agent]\nkind = "python"\ntarget = "tests.faults.agents:NeedsOption"\n'
    # The preflight would catch this before the run exists; past it, the run records why it stopped.
    code, err = _main(["run", str(_config(tmp_path, RUN + agent + ENV)), "--store", str(db),
                       "--no-preflight"], capsys)  # fmt: skip
    _assert_one_line(code, err, "agent.options", "greeting")
    with open_store(db) as store:
        [row] = store.list_runs()
    assert row.status == "failed"
    assert "greeting" in row.failure


def test_an_unexpected_bug_asks_for_a_report_and_logs_the_traceback(
    tmp_path, capsys, monkeypatch, isolated_home
):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug in vistasim")

    monkeypatch.setattr("vistasim.store.open_store", broken)
    (tmp_path / "s.db").write_bytes(b"")
    code, err = _main(["runs", "--store", str(tmp_path / "s.db")], capsys)
    assert code == 70, err
    assert "Traceback" not in err and "bug" in err
    [log] = (isolated_home / "logs").glob("*.log")
    assert str(log) in err
    text = log.read_text(encoding="utf-8")
    assert "Traceback" in text and "RuntimeError: a bug in vistasim" in text

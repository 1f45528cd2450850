"""Every malformed input in `bad_inputs/` stops `vistasim run` with one line and exit 2.

Each file is one mistake a user can make, by kind:

- `NAME.toml`: a whole config (next to a good `scenarios.yaml`);
- `NAME.yaml`, `NAME.json`: a scenario file, run with a good config;
- `NAME.env`: `VAR=value` lines set in the environment of a good config's run;
- `NAME.args`: flags (one word a line) added to `vistasim run` of a good config.

A first line `# expect: TEXT` says what the error line must name (the key, flag, variable or
value to fix); a JSON file, which has no comments, must be named by the error itself. The run
goes through the real entry point in this process (`vistasim.cli.main`), so the cases are fast.
"""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from tests.helpers import DESK_TOML
from vistasim.cli import main
from vistasim.store import open_store

CORPUS = Path(__file__).parent / "bad_inputs"
KINDS = (".toml", ".yaml", ".json", ".env", ".args")
CASES = sorted(p for p in CORPUS.iterdir() if p.suffix in KINDS)


def test_the_corpus_holds_at_least_80_mistakes():
    assert len(CASES) >= 80


@pytest.mark.parametrize("case", CASES, ids=lambda path: path.name)
def test_a_bad_input_is_one_line_and_exit_2_before_anything_is_recorded(
    case, tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    argv = ["run", *_arguments(case, tmp_path, monkeypatch)]
    if "--store" not in argv:
        argv += ["--store", str(tmp_path / "v.db")]
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and err.startswith("error: "), err
    assert err.count("\n") == 1 and len(err) < 1000, err
    assert _expected(case) in err, err
    if (tmp_path / "v.db").exists():
        with open_store(tmp_path / "v.db") as store:
            assert store.list_runs() == []


def _arguments(case: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Lay out the case in `folder`; return what `vistasim run` is given (but the store)."""
    with resources.as_file(resources.files("vistasim.demo") / "scenarios.yaml") as scenarios:
        shutil.copy(scenarios, folder / "scenarios.yaml")
    if case.suffix == ".toml":
        shutil.copy(case, folder / case.name)
        return [case.name]
    scenarios = case if case.suffix in (".yaml", ".json") else folder / "scenarios.yaml"
    config = folder / "vistasim.toml"
    config.write_text(DESK_TOML.format(scenarios=scenarios.as_posix()), encoding="utf-8")
    lines = _lines(case) if case.suffix in (".env", ".args") else []
    for line in lines if case.suffix == ".env" else []:
        name, _, value = line.partition("=")
        monkeypatch.setenv(name, value)
    return [config.name, *(lines if case.suffix == ".args" else [])]


def _lines(case: Path) -> list[str]:
    text = case.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def _expected(case: Path) -> str:
    first = case.read_bytes().split(b"\n", 1)[0].decode("utf-8", errors="replace")
    return first.removeprefix("# expect: ") if first.startswith("# expect: ") else case.name

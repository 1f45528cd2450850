"""The Ray executor's checks, without a Ray instance.

`--executor ray` that cannot play says why in one line, exit 2, before anything is recorded; the
events workers send keep the run's secrets out of Ray.
"""

import sys

from tests.helpers import DESK_TOML, write_desk_config
from vistasim.cli import main
from vistasim.events import AgentReply
from vistasim.explore._ray_worker import seal, unseal
from vistasim.store import open_store


def _run(argv: list[str], capsys) -> tuple[int, str]:
    try:
        main(argv)
    except SystemExit as exc:
        return int(exc.code or 0), capsys.readouterr().err
    return 0, capsys.readouterr().err


def _assert_refused(code: int, err: str, store, *words: str) -> None:
    assert code == 2, err
    assert err.startswith("error: ") and err.strip().count("\n") == 0, err
    assert "Traceback" not in err and all(word in err for word in words), err
    if store.exists():
        with open_store(store) as db:
            assert db.list_runs() == [], "a refused run was recorded"


def test_without_ray_the_flag_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails, find_spec says None
    config = write_desk_config(tmp_path, DESK_TOML.format(scenarios="scenarios.yaml"))
    store = tmp_path / "runs.db"
    argv = ["run", str(config), "--executor", "ray", "--store", str(store), "--no-preflight"]
    _assert_refused(*_run(argv, capsys), store, "vistasim[ray]", "pip install")


def test_a_key_an_agent_echoes_crosses_ray_masked_and_comes_back_whole():
    key = "sk-test-0123456789abcdefghij"
    event = AgentReply(text=f"your key is {key}, and again: {key}")

    sealed = seal(event, [key])

    assert key.encode() not in sealed and b"0123456789abcdefghij" not in sealed
    assert unseal(sealed, [key]) == event  # the driver holds the key: the event as played
    assert key not in unseal(sealed, []).text  # a side without it never sees it

"""Defect 6: a secret vistasim knows never reaches a file, an export or the terminal.

vistasim knows two kinds of secret: the values of the variables `api_key_env` names, and the
values filled into `${VAR}` headers. Agents echo them in successful replies and tool results.
"""

from pathlib import Path

from tests.agent.conftest import server  # noqa: F401 - the loopback HTTP server fixture
from tests.helpers import desk_scenarios
from vistasim.cli import main
from vistasim.config import RunConfig
from vistasim.explore import run_sync
from vistasim.store import open_store

MODEL_KEY = "sk-faults-model-key-0123456789"
HEADER_TOKEN = "tok-faults-header-9876543210"


def _leaks(folder: Path, secret: str) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]


def _cli(argv: list[str], capsys) -> str:
    try:
        main(argv)
    except SystemExit as exc:
        assert exc.code in (0, None), capsys.readouterr().err
    captured = capsys.readouterr()
    return captured.out + captured.err


def test_secrets_echoed_by_agents_are_redacted_everywhere(
    tmp_path,
    monkeypatch,
    capsys,
    server,  # noqa: F811
):
    monkeypatch.setenv("FAULTS_SECRET_KEY", MODEL_KEY)
    monkeypatch.setenv("FAULTS_TOKEN", HEADER_TOKEN)

    def echo(request):
        token = request.headers["authorization"].removeprefix("Bearer ")
        calls = [{"name": "whoami", "args": {}, "result": {"token": token, "key": MODEL_KEY}}]
        return 200, {"reply": f"Your token is {token} and the key {MODEL_KEY}.", "calls": calls}

    server.handler = echo
    config = RunConfig.model_validate(
        {
            "agent": {
                "kind": "http_json",
                "url": f"{server.url}/chat",
                "headers": {"Authorization": "Bearer ${FAULTS_TOKEN}"},
                "tool_calls_path": "calls",
            },
            # A model the run could call: its key is a secret even if the agent leaks it.
            "models": {"judge": {"model": "j", "base_url": "http://127.0.0.1:9/v1",
                                 "api_key_env": "FAULTS_SECRET_KEY"}},
            "run": {"max_turns": 2},
            "environment": {"target": "vistasim.demo:OrderBook"},  # the scenarios check its state
            "cache": {"mode": "off"},
        }
    )  # fmt: skip
    db = tmp_path / "store.db"
    with open_store(db) as store:
        # No preflight: the judge's endpoint is only named, for its key, never called.
        result = run_sync(config, scenarios=desk_scenarios()[:2], store=store, preflight=False)
    episode = f"{result.run_id}:desk-status-shipped:0"
    printed = _cli(["show", result.run_id, "--episode", episode, "--store", str(db)], capsys)
    assert "***" in printed  # the reply was stored, with the secrets cut out
    out = tmp_path / "out"
    printed += _cli(["export", result.run_id, "-o", str(out / "run.jsonl"), "--store", str(db)],
                    capsys)  # fmt: skip
    printed += _cli(["report", result.run_id, "-o", str(out / "run.html"), "--store", str(db)],
                    capsys)  # fmt: skip
    for secret in (MODEL_KEY, HEADER_TOKEN):
        assert secret not in printed
        assert _leaks(tmp_path, secret) == []

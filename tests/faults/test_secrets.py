"""Defect 6: a secret vistasim knows never reaches a file, an export or the terminal.

vistasim knows two kinds of secret: the values of the variables `api_key_env` names, and the
values filled into `${VAR}` headers. Agents echo them in successful replies and tool results.
"""

import json
import re
from pathlib import Path

from tests.agent.conftest import server  # noqa: F401 - the loopback HTTP server fixture
from tests.helpers import desk_config, desk_scenarios
from vistasim.cli import main
from vistasim.config import RunConfig
from vistasim.explore import run_sync
from vistasim.store import open_store, read_run_view
from vistasim.testing import FunctionLLM

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


def _last_turn(request) -> str:
    # The numbered turns the chooser was sent, less those it may not pick.
    text = "\n".join(str(m.content) for m in request.messages)
    turns = re.findall(r"\[turn (\d+)\](?! \(already)", text)
    return json.dumps({"turn_index": int(turns[-1]), "rationale": "the last turn"})


def _spelled(secret: str) -> list[bytes]:
    """Byte strings any of which in a file means the secret leaked (as is, cased, base64)."""
    from vistasim._secrets import secret_forms

    return sorted({form.encode() for form in secret_forms(secret)}, key=len)


def _store_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def test_secrets_in_agent_and_environment_state_are_masked_and_restored_exactly(
    tmp_path, monkeypatch
):
    from tests.faults.agents import RESTORED, STATE_KEY, spellings

    monkeypatch.setenv("FAULTS_STATE_KEY", STATE_KEY)
    RESTORED.clear()
    config = desk_config(
        agent={"target": "tests.faults.agents:KeyedDesk"},
        environment={"target": "tests.faults.agents:KeyedBook"},
        # The key is a secret because a model of the run reads it; the model is never called.
        models={"judge": {"model": "j", "base_url": "http://127.0.0.1:9/v1",
                          "api_key_env": "FAULTS_STATE_KEY"}},
        explore={"branches": 2, "k": 2},
    )  # fmt: skip
    db = tmp_path / "store.db"
    with open_store(db) as store:
        result = run_sync(config, scenarios=desk_scenarios()[:2], store=store, preflight=False)
        states = store.db.execute("SELECT COUNT(*) FROM blobs").fetchone()[0]
    assert result.branches and states > 4
    stored = _store_bytes(db)
    assert b"*~" in stored  # the states were stored, masked
    assert [form for form in _spelled(STATE_KEY) if form in stored] == []
    # Each branch restored agent and environment with the real key, in every spelling.
    assert {kind for kind, _ in RESTORED} == {"agent", "env"}
    assert all(value == spellings(STATE_KEY) for _, value in RESTORED)


async def test_an_openai_chat_agent_restored_from_a_masked_snapshot_sends_the_real_key(
    tmp_path, monkeypatch
):
    from vistasim.explore import run
    from vistasim.testing import FakeOpenAIServer

    monkeypatch.setenv("FAULTS_AGENT_KEY", MODEL_KEY)
    # A careless gateway: it answers with the key it was sent, so the agent's own messages
    # (its snapshot state) hold it in clear.
    async with FakeOpenAIServer(responder=lambda request: f"Using key {MODEL_KEY}.") as fake:
        config = RunConfig.model_validate({
            "agent": {"kind": "openai_chat", "base_url": fake.base_url, "model": "m",
                      "api_key_env": "FAULTS_AGENT_KEY"},
            "environment": {"target": "vistasim.demo:OrderBook"},
            "run": {"max_turns": 3},
            "explore": {"branches": 1, "k": 2, "chooser": "llm"},
            "models": {"chooser": {"model": "last-turn"}},
            "cache": {"mode": "off"},
        })  # fmt: skip
        db = tmp_path / "store.db"
        with open_store(db) as store:
            result = await run(config, scenarios=desk_scenarios()[:1], store=store,
                               models={"chooser": FunctionLLM(_last_turn)})  # fmt: skip
    [branch] = read_run_view(open_store(db), result.run_id).branches
    assert branch.turn == 1 and branch.status in ("done", "converged")
    assert [form for form in _spelled(MODEL_KEY) if form in _store_bytes(db)] == []
    # The branch's agent continues the restored conversation: what it sends holds the real key.
    histories = [r["messages"] for r in fake.requests if len(r["messages"]) > 2]
    replies = [m["content"] for ms in histories for m in ms if m["role"] == "assistant"]
    assert replies and all(reply == f"Using key {MODEL_KEY}." for reply in replies)

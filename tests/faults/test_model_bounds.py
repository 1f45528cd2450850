"""Defect 11: every model call is bounded in output and in time, and long work shows progress."""

import asyncio
import json
import time

import anyio
import pytest
from click.testing import CliRunner

from vistasim.cli import cli, main
from vistasim.config import RunConfig
from vistasim.errors import ModelError
from vistasim.llm import (
    ChatMessage,
    ChatRequest,
    ChatResponse,
    InvalidOutputError,
    build_models,
    complete_json,
)
from vistasim.testing import FakeOpenAIServer, ScriptedLLM

REQUEST = ChatRequest(messages=[ChatMessage(role="user", content="hi")])


async def test_every_role_sends_an_output_bound_and_a_config_can_change_it():
    async with FakeOpenAIServer() as server:
        roles = {role: {"model": role, "base_url": server.base_url}
                 for role in ("user", "agent", "judge", "chooser", "generator")}  # fmt: skip
        roles["judge"]["max_tokens"] = 77
        models = build_models(RunConfig.model_validate({"models": roles}), cache=None)
        for model in models.values():
            await model.complete(REQUEST)
            await model.aclose()
        sent = {r["model"]: r.get("max_tokens") for r in server.requests}
    assert sent["judge"] == 77
    assert all(isinstance(bound, int) and 0 < bound <= 8192 for bound in sent.values()), sent
    assert sent["user"] < sent["generator"]  # sized for the role


async def _trickle(reader, writer) -> None:
    """A server that answers, one byte every 0.2 s, forever (a degenerate model)."""
    await reader.readuntil(b"\r\n\r\n")
    writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                 b"content-length: 1000000\r\n\r\n")  # fmt: skip
    try:
        while True:
            writer.write(b" ")
            await writer.drain()
            await asyncio.sleep(0.2)
    except (ConnectionError, asyncio.CancelledError):
        writer.close()


async def test_a_model_that_never_finishes_is_cut_off_at_its_wall_clock_bound():
    server = await asyncio.start_server(_trickle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    spec = {"model": "slow", "base_url": f"http://127.0.0.1:{port}/v1", "timeout_s": 1.0,
            "max_retries": 0}  # fmt: skip
    [model] = build_models(
        RunConfig.model_validate({"models": {"user": spec}}), cache=None
    ).values()
    started = time.monotonic()
    with pytest.raises(ModelError, match="timeout_s"), anyio.fail_after(20):
        await model.complete(REQUEST)
    assert time.monotonic() - started < 3
    await model.aclose()
    server.close()


async def test_a_reply_cut_by_the_bound_is_repaired_then_invalid_never_a_hang():
    cut = ChatResponse(text='{"answer": "a very long', finish_reason="length")
    model = ScriptedLLM([cut, cut, cut])
    from pydantic import BaseModel

    class Answer(BaseModel):
        answer: str

    with pytest.raises(InvalidOutputError, match="max_tokens"):
        await complete_json(model, REQUEST, Answer, max_repairs=2)
    repair = model.requests[1].messages[-1].content
    assert "max_tokens" in repair and "shorter" in repair


def _demo(tmp_path) -> tuple[str, str]:
    store = str(tmp_path / "v.db")
    result = CliRunner().invoke(cli, ["demo", "--store", store, "--mode", "chat"])
    assert result.exit_code == 0, result.output
    return store, result.stdout.split("run ", 1)[1].split(":", 1)[0]


def test_judging_a_run_shows_progress(tmp_path):
    store, run_id = _demo(tmp_path)

    def judge(request: dict) -> str:
        rubric = {"score": 3, "reason": "fine"}
        return json.dumps({"human_likeness": rubric, "coherence": rubric,
                           "goal_consistency": rubric})  # fmt: skip

    with FakeOpenAIServer(responder=judge).in_thread() as server:
        result = CliRunner().invoke(
            cli,
            [
                "metrics",
                run_id,
                "--store",
                store,
                "--json",
                "--judge",
                "j",
                "--judge-base-url",
                server.base_url,
            ],
        )
    assert result.exit_code == 0, result.output
    assert "judge: 9/9" in result.stderr
    assert json.loads(result.stdout)["realism"]["computed"] is True


def test_a_judge_without_a_key_or_endpoint_is_one_line(tmp_path, capsys):
    store, run_id = _demo(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["metrics", run_id, "--store", store, "--judge", "openai/gpt-4.1-mini"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1 and "OPENAI_API_KEY" in err

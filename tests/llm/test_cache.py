import sqlite3
import subprocess
import sys

import anyio
import pytest

from vistasim.errors import ConfigError
from vistasim.llm import (
    ChatMessage,
    ChatRequest,
    ChatResponse,
    ModelCallFailed,
    RequestCache,
    RoleModel,
    TokenUsage,
    collect_calls,
)
from vistasim.testing import FunctionLLM


def ask(text: str, **fields: object) -> ChatRequest:
    return ChatRequest(messages=[ChatMessage(role="user", content=text)], **fields)


ANSWER = ChatResponse(text="answer", usage=TokenUsage(input_tokens=3, output_tokens=1), model="m")


def test_put_then_get_returns_the_same_response(tmp_path):
    with RequestCache(tmp_path / "c.db") as cache:
        cache.put("m", ask("q"), ANSWER)
        assert cache.get("m", ask("q")) == ANSWER


def test_a_different_request_or_model_misses(tmp_path):
    with RequestCache(tmp_path / "c.db") as cache:
        cache.put("m", ask("q"), ANSWER)
        assert cache.get("m", ask("other")) is None
        assert cache.get("m", ask("q", temperature=0.5)) is None
        assert cache.get("other-model", ask("q")) is None


def test_responses_survive_reopening_the_file(tmp_path):
    with RequestCache(tmp_path / "c.db") as cache:
        cache.put("m", ask("q"), ANSWER)
    with RequestCache(tmp_path / "c.db", mode="replay") as cache:
        assert cache.get("m", ask("q")) == ANSWER


def test_replay_mode_miss_raises_a_non_retryable_failure(tmp_path):
    with RequestCache(tmp_path / "c.db", mode="replay") as cache:
        with pytest.raises(ModelCallFailed, match="not in the cache") as info:
            cache.get("m", ask("q"))
    assert info.value.retryable is False


def test_replay_mode_records_nothing(tmp_path):
    with RequestCache(tmp_path / "c.db", mode="replay") as cache:
        cache.put("m", ask("q"), ANSWER)
        with pytest.raises(ModelCallFailed):
            cache.get("m", ask("q"))


def test_off_mode_stores_nothing_and_creates_no_file(tmp_path):
    with RequestCache(tmp_path / "c.db", mode="off") as cache:
        cache.put("m", ask("q"), ANSWER)
        assert cache.get("m", ask("q")) is None
    assert not (tmp_path / "c.db").exists()


def test_unknown_mode_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="'sometimes'"):
        RequestCache(tmp_path / "c.db", mode="sometimes")  # type: ignore[arg-type]


def test_file_uses_write_ahead_logging(tmp_path):
    RequestCache(tmp_path / "c.db").close()
    with sqlite3.connect(tmp_path / "c.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_many_concurrent_tasks_share_one_cache(tmp_path):
    async def echo(request: ChatRequest) -> str:
        await anyio.sleep(0.001)  # let the tasks interleave inside calls
        return request.messages[0].content or ""

    cache = RequestCache(tmp_path / "c.db")
    model = RoleModel(FunctionLLM(echo), role="user", cache=cache)

    async def two_calls(i: int) -> None:
        assert (await model.complete(ask(str(i)))).text == str(i)
        assert (await model.complete(ask(str(i)))).text == str(i)

    with collect_calls() as calls:
        async with anyio.create_task_group() as tg:
            for i in range(100):
                tg.start_soon(two_calls, i)
    cache.close()
    assert len(model.model.requests) == 100
    assert sum(c.cache_hit for c in calls) == 100


WRITER = """
import sys
from vistasim.llm import ChatMessage, ChatRequest, ChatResponse, RequestCache
cache = RequestCache(sys.argv[1])
for i in range(100):
    req = ChatRequest(messages=[ChatMessage(role="user", content=f"{sys.argv[2]}-{i}")])
    cache.put("m", req, ChatResponse(text=f"{sys.argv[2]}-{i}"))
cache.close()
"""


def test_several_processes_can_write_one_file(tmp_path):
    path = tmp_path / "c.db"
    RequestCache(path).close()
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), name]) for name in ("a", "b")
    ]
    assert [p.wait(timeout=30) for p in procs] == [0, 0]
    with RequestCache(path, mode="replay") as cache:
        for name in ("a", "b"):
            for i in (0, 50, 99):
                assert cache.get("m", ask(f"{name}-{i}")).text == f"{name}-{i}"

import base64
import struct

import httpx2
import numpy as np
import pytest

from vistasim.config import ModelSpec, Price
from vistasim.divert import AsyncEmbedder, OpenAIEmbedder, select_most_diverse
from vistasim.errors import ConfigError, ModelError
from vistasim.llm import HttpClients, collect_calls
from vistasim.testing import FakeOpenAIServer
from vistasim.testing._fake_server import EMBEDDING_DIM, hashed_embedding


def embedder_for(srv: FakeOpenAIServer, **options) -> OpenAIEmbedder:
    spec = ModelSpec(model="fake-embed", base_url=srv.base_url, max_retries=0)
    return OpenAIEmbedder(spec, environ={}, **options)


async def test_fake_server_embeddings_route_is_deterministic_in_both_encodings():
    body = {"model": "m", "input": ["red apple", "Red  APPLE", "blue sky"]}
    async with FakeOpenAIServer() as srv, httpx2.AsyncClient() as client:
        floats = (await client.post(f"{srv.base_url}/embeddings", json=body)).json()
        packed = (
            await client.post(
                f"{srv.base_url}/embeddings", json={**body, "encoding_format": "base64"}
            )
        ).json()
        single = (await client.post(f"{srv.base_url}/embeddings", json={"input": "x"})).json()
        bad = await client.post(f"{srv.base_url}/embeddings", json={"input": [1, 2]})
    vectors = [row["embedding"] for row in floats["data"]]
    assert [row["index"] for row in floats["data"]] == [0, 1, 2]
    assert len(vectors[0]) == EMBEDDING_DIM
    assert vectors[0] == vectors[1] != vectors[2]
    assert vectors[0] == hashed_embedding("red apple")
    assert np.linalg.norm(vectors[2]) == pytest.approx(1.0)
    decoded = struct.unpack(f"<{EMBEDDING_DIM}f", base64.b64decode(packed["data"][0]["embedding"]))
    assert decoded == pytest.approx(vectors[0])
    assert floats["usage"]["prompt_tokens"] > 0
    assert len(single["data"]) == 1
    assert bad.status_code == 400
    assert srv.count == 0  # embeddings are not chat completions
    assert len(srv.embedding_requests) == 3  # the rejected one is not recorded


async def test_openai_embedder_returns_unit_rows_and_is_metered():
    async with FakeOpenAIServer() as srv:
        async with embedder_for(srv, price=Price(input=1_000_000.0)) as embedder:
            assert isinstance(embedder, AsyncEmbedder)
            with collect_calls() as calls:
                vectors = await embedder.aembed(["red apple", "red apple pie", "blue sky"])
    assert vectors.shape == (3, EMBEDDING_DIM)
    assert np.linalg.norm(vectors, axis=1) == pytest.approx([1.0, 1.0, 1.0])
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    assert srv.embedding_requests[0]["model"] == "fake-embed"
    assert srv.embedding_requests[0]["encoding_format"] == "float"
    [call] = calls
    assert call.role == "embedder" and call.model == "fake-embed"
    assert call.usage.input_tokens > 0
    assert call.cost_usd == pytest.approx(call.usage.input_tokens)
    assert call.error is None


async def test_openai_embedder_asks_for_dimensions_and_drives_selection():
    async with FakeOpenAIServer() as srv, embedder_for(srv, dimensions=16) as embedder:
        assert (await embedder.aembed(["a b"])).shape == (1, 16)
        selection = await select_most_diverse(
            "cancel my booking", ["please cancel my booking", "what time is breakfast"], embedder
        )
    assert srv.embedding_requests[0]["dimensions"] == 16
    assert selection.index == 1
    assert selection.embedder == "fake-embed"


async def test_openai_embedder_reports_failures_as_metered_model_errors():
    async with FakeOpenAIServer() as srv:
        wrong_path = ModelSpec(model="m", base_url=f"http://127.0.0.1:{srv.port}/v9", max_retries=0)
        with collect_calls() as calls, pytest.raises(ModelError, match="404"):
            await OpenAIEmbedder(wrong_path, environ={}).aembed(["x"])
        assert calls[0].error is not None and calls[0].role == "embedder"
        gone = ModelSpec(model="m", base_url=srv.base_url, max_retries=0)
    with collect_calls() as calls, pytest.raises(ModelError, match="embedder"):
        await OpenAIEmbedder(gone, environ={}).aembed(["the server has stopped"])
    assert len(calls) == 1


async def test_nothing_to_embed_makes_no_request():
    async with FakeOpenAIServer() as srv, embedder_for(srv, dimensions=8) as embedder:
        assert (await embedder.aembed([])).shape == (0, 8)
    assert srv.embedding_requests == []


async def test_openai_embedder_needs_a_key_off_loopback_and_respects_allow_requests(
    monkeypatch,
):
    spec = ModelSpec(model="m", base_url="https://embeddings.invalid/v1", api_key_env="EMB_KEY")
    with pytest.raises(ModelError, match="ALLOW_REQUESTS"):
        await OpenAIEmbedder(spec, environ={}).aembed(["x"])
    import vistasim.llm

    monkeypatch.setattr(vistasim.llm, "ALLOW_REQUESTS", True)
    with pytest.raises(ConfigError, match="EMB_KEY"):
        await OpenAIEmbedder(spec, environ={}).aembed(["x"])


def embeddings_answer(texts: list[str]) -> dict:
    rows = [{"index": i, "embedding": [1.0, float(i)]} for i in range(len(texts))]
    return {"data": list(reversed(rows)), "usage": {"prompt_tokens": 3}}


async def test_openai_embedder_retries_honouring_retry_after_then_gives_up():
    answers = [
        httpx2.Response(
            429, json={"error": {"message": "slow down"}}, headers={"retry-after": "2"}
        ),
        httpx2.Response(503, text="busy"),
        httpx2.Response(200, json=embeddings_answer(["a", "b"])),
    ]
    transport = httpx2.MockTransport(lambda request: answers.pop(0))
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    spec = ModelSpec(model="m", base_url="http://127.0.0.1:9/v1", max_retries=2)
    embedder = OpenAIEmbedder(
        spec, environ={}, clients=HttpClients(transport=transport), sleep=sleep
    )
    with collect_calls() as calls:
        vectors = await embedder.aembed(["a", "b"])
    assert vectors.shape == (2, 2) and vectors[0] @ [1.0, 0.0] == pytest.approx(1.0)
    assert len(waits) == 2 and 2 <= waits[0] < 2.5
    assert [c.error for c in calls] == [None] and calls[0].usage.input_tokens == 3

    answers[:] = [httpx2.Response(503, text="busy")] * 3
    with collect_calls() as calls, pytest.raises(ModelError, match="HTTP 503"):
        await embedder.aembed(["a"])
    assert answers == [] and calls[0].error is not None  # 1 try + 2 retries, metered once
    answers[:] = [httpx2.Response(400, json={"error": {"message": "bad input"}})] * 2
    with pytest.raises(ModelError, match="bad input"):
        await embedder.aembed(["a"])
    assert len(answers) == 1  # a client error is not retried

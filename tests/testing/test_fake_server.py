import json
import socket
import subprocess
import sys
import time

import anyio
import httpx2
import pytest

from vistasim.testing._fake_server import FakeOpenAIServer

CHAT = {"model": "fake", "messages": [{"role": "user", "content": "hi"}]}


async def post(client: httpx2.AsyncClient, srv: FakeOpenAIServer, body: dict) -> httpx2.Response:
    return await client.post(f"{srv.base_url}/chat/completions", json=body)


async def test_chat_completion_has_openai_shape_and_usage():
    async with FakeOpenAIServer() as srv, httpx2.AsyncClient() as client:
        data = (await post(client, srv, CHAT)).json()
    assert data["object"] == "chat.completion"
    assert data["choices"][0]["message"] == {"role": "assistant", "content": "ok"}
    usage = data["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    assert usage["prompt_tokens_details"] == {"cached_tokens": 0}


async def test_requests_and_count_are_recorded():
    async with FakeOpenAIServer() as srv, httpx2.AsyncClient() as client:
        await post(client, srv, CHAT)
        await post(client, srv, {**CHAT, "seed": 3})
    assert srv.count == 2
    assert srv.requests[1]["seed"] == 3


async def test_models_endpoint_lists_a_model():
    async with FakeOpenAIServer() as srv, httpx2.AsyncClient() as client:
        data = (await client.get(f"{srv.base_url}/models")).json()
    assert data["object"] == "list" and data["data"][0]["id"] == "fake"


async def test_unknown_route_is_404():
    async with FakeOpenAIServer() as srv, httpx2.AsyncClient() as client:
        response = await client.get(f"{srv.base_url}/nothing")
    assert response.status_code == 404


async def test_fail_next_answers_the_next_n_requests_with_the_status_and_body():
    async with FakeOpenAIServer() as srv, httpx2.AsyncClient() as client:
        srv.fail_next(2, status=503, body="maintenance")
        statuses = [(await post(client, srv, CHAT)).status_code for _ in range(3)]
        srv.fail_next(1, status=429, body="slow down")
        limited = await post(client, srv, CHAT)
    assert statuses == [503, 503, 200]
    assert limited.status_code == 429
    assert limited.json()["error"]["message"] == "slow down"


async def test_garbage_next_answers_200_with_a_body_that_is_not_json():
    async with FakeOpenAIServer() as srv, httpx2.AsyncClient() as client:
        srv.garbage_next(1)
        response = await post(client, srv, CHAT)
        after = await post(client, srv, CHAT)
    assert response.status_code == 200
    with pytest.raises(ValueError):
        json.loads(response.content)
    assert after.json()["choices"][0]["message"]["content"] == "ok"


async def test_responder_text_message_and_error_answers():
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}

    def responder(request: dict) -> str | dict:
        text = request["messages"][-1]["content"]
        if text == "tool":
            return {"tool_calls": [call]}
        if text == "fail":
            return {"error_status": 502, "body": "bad gateway"}
        return text.upper()

    def chat(text: str) -> dict:
        return {"model": "m", "messages": [{"role": "user", "content": text}]}

    async with FakeOpenAIServer(responder=responder) as srv, httpx2.AsyncClient() as client:
        echo = (await post(client, srv, chat("hey"))).json()["choices"][0]
        tool = (await post(client, srv, chat("tool"))).json()["choices"][0]
        failed = await post(client, srv, chat("fail"))
    assert echo["message"]["content"] == "HEY"
    assert tool["message"]["tool_calls"] == [call] and tool["finish_reason"] == "tool_calls"
    assert failed.status_code == 502 and "bad gateway" in failed.text


async def test_default_responder_answers_json_when_asked():
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}, "tags": {"type": "array", "items": {}}},
    }
    fmt = {"type": "json_schema", "json_schema": {"name": "X", "schema": schema}}
    async with FakeOpenAIServer() as srv, httpx2.AsyncClient() as client:
        schema_reply = await post(client, srv, {**CHAT, "response_format": fmt})
        object_reply = await post(client, srv, {**CHAT, "response_format": {"type": "json_object"}})
    content = schema_reply.json()["choices"][0]["message"]["content"]
    assert json.loads(content) == {"n": 1, "tags": []}
    assert isinstance(json.loads(object_reply.json()["choices"][0]["message"]["content"]), dict)


async def test_repeated_message_prefix_reports_cached_tokens():
    system = {"role": "system", "content": "rules " * 200}
    first = {"model": "m", "messages": [system, {"role": "user", "content": "a"}]}
    second = {"model": "m", "messages": [system, {"role": "user", "content": "b"}]}
    async with FakeOpenAIServer() as srv, httpx2.AsyncClient() as client:
        await post(client, srv, first)
        usage = (await post(client, srv, second)).json()["usage"]
    assert 250 < usage["prompt_tokens_details"]["cached_tokens"] < usage["prompt_tokens"]


async def test_one_connection_serves_several_requests():
    async with FakeOpenAIServer() as srv:
        body = json.dumps(CHAT).encode()
        request = (
            f"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n\r\n"
        ).encode() + body
        stream = await anyio.connect_tcp("127.0.0.1", srv.port)
        async with stream:
            for _ in range(3):
                await stream.send(request)
                reply = b""
                while b'"usage"' not in reply or not reply.endswith(b"}"):
                    reply += await stream.receive()
                assert reply.startswith(b"HTTP/1.1 200")
    assert srv.count == 3


async def test_many_concurrent_calls_complete_with_latency_honoured():
    limits = httpx2.Limits(max_connections=300, max_keepalive_connections=300)
    async with FakeOpenAIServer(latency_s=0.2) as srv:
        async with httpx2.AsyncClient(limits=limits, timeout=10) as client:
            statuses: list[int] = []

            async def one() -> None:
                statuses.append((await post(client, srv, CHAT)).status_code)

            started = time.perf_counter()
            async with anyio.create_task_group() as tg:
                for _ in range(200):
                    tg.start_soon(one)
            elapsed = time.perf_counter() - started
    assert statuses == [200] * 200
    assert srv.count == 200
    assert 0.2 <= elapsed < 10.0  # concurrent: one at a time would take 200 x 0.2 s = 40 s


def test_in_thread_server_serves_sync_clients():
    with FakeOpenAIServer(responder=lambda req: "threaded").in_thread() as srv:
        srv.fail_next(1, status=500)
        with httpx2.Client() as client:
            first = client.post(f"{srv.base_url}/chat/completions", json=CHAT)
            second = client.post(f"{srv.base_url}/chat/completions", json=CHAT)
        base_url = srv.base_url
    assert first.status_code == 500
    assert second.json()["choices"][0]["message"]["content"] == "threaded"
    with pytest.raises(httpx2.ConnectError), httpx2.Client() as client:
        client.post(f"{base_url}/chat/completions", json=CHAT)


def test_base_url_is_loopback_with_the_bound_port():
    with FakeOpenAIServer().in_thread() as srv:
        assert srv.base_url == f"http://127.0.0.1:{srv.port}/v1"
        with socket.create_connection(("127.0.0.1", srv.port), timeout=2):
            pass


def test_cli_prints_the_url_and_serves_until_killed():
    proc = subprocess.Popen(
        [sys.executable, "-m", "vistasim.testing.fake_server", "--port", "0", "--latency-ms", "5"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:") and line.endswith("/v1")
        base_url = line.removeprefix("listening on ")
        with httpx2.Client() as client:
            response = client.post(f"{base_url}/chat/completions", json=CHAT)
        assert response.json()["choices"][0]["message"]["content"] == "ok"
        assert proc.poll() is None
    finally:
        proc.kill()
        proc.wait(timeout=10)
        proc.stdout.close()


def test_cli_loads_a_responder_by_module_and_attribute():
    proc = subprocess.Popen(
        [sys.executable, "-m", "vistasim.testing.fake_server", "--responder", "json:dumps"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        base_url = proc.stdout.readline().strip().removeprefix("listening on ")
        with httpx2.Client() as client:
            response = client.post(f"{base_url}/chat/completions", json=CHAT)
        assert json.loads(response.json()["choices"][0]["message"]["content"])["model"] == "fake"
    finally:
        proc.kill()
        proc.wait(timeout=10)
        proc.stdout.close()

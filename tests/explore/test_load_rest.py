"""The background load of a chat run starts once a model request is written, or soon anyway."""

import anyio
import pytest

import vistasim.explore._imports as imports
import vistasim.llm._transport as transport
from vistasim.config import ModelSpec, RunConfig
from vistasim.llm import ChatMessage, ChatRequest, HttpClients, OpenAIChatModel
from vistasim.testing import FakeOpenAIServer

CHAT = RunConfig.model_validate({"user": {"policy": "llm"}})


@pytest.fixture
def started(monkeypatch):
    calls: list[RunConfig] = []
    monkeypatch.setattr(imports, "_warm_up", None)
    monkeypatch.setattr(imports, "load_rest", calls.append)
    return calls


def test_it_starts_as_the_first_request_is_written_not_before(started):
    request = ChatRequest(messages=[ChatMessage(role="user", content="Hello.")])

    async def main() -> None:
        with FakeOpenAIServer(responder=lambda request: "Hi").in_thread() as server:
            clients = HttpClients(concurrency=1)
            spec = ModelSpec(model="m", base_url=server.base_url, api_key_env="")
            model = OpenAIChatModel(spec, environ={}, clients=clients)
            forget = imports.load_rest_after_first_request(CHAT)
            await anyio.sleep(0.05)
            assert started == []  # nothing written yet
            await model.complete(request)
            assert started == [CHAT]
            await model.complete(request)
            forget()
            await clients.aclose()

    anyio.run(main)
    assert started == [CHAT]  # once


def test_a_run_without_model_requests_starts_it_soon_anyway(started, monkeypatch):
    monkeypatch.setattr(imports, "_AT_THE_LATEST", 0.01)

    async def main() -> None:
        forget = imports.load_rest_after_first_request(CHAT)
        await anyio.sleep(0.1)
        forget()

    anyio.run(main)
    assert started == [CHAT]


def test_a_run_that_ends_first_forgets_it(started, monkeypatch):
    monkeypatch.setattr(imports, "_AT_THE_LATEST", 0.05)

    async def main() -> None:
        imports.load_rest_after_first_request(CHAT)()
        await anyio.sleep(0.1)

    anyio.run(main)
    assert started == [] and transport._after_send == []


def test_a_web_run_loads_everything_ahead_and_starts_nothing(started):
    web = RunConfig.model_validate({"run": {"mode": "hybrid"}, "web": {"start_url": "http://x"}})

    async def main() -> None:
        imports.load_rest_after_first_request(web)()

    anyio.run(main)
    assert started == []


def test_a_failing_callback_does_not_fail_the_request():
    request = ChatRequest(messages=[ChatMessage(role="user", content="Hello.")])
    called: list[int] = []

    def broken() -> None:
        called.append(1)
        raise RuntimeError("can't start new thread")

    async def main() -> str:
        with FakeOpenAIServer(responder=lambda request: "Hi").in_thread() as server:
            clients = HttpClients(concurrency=1)
            spec = ModelSpec(model="m", base_url=server.base_url, api_key_env="")
            model = OpenAIChatModel(spec, environ={}, clients=clients)
            transport.after_next_request(broken)
            try:
                return (await model.complete(request)).text
            finally:
                await clients.aclose()

    assert anyio.run(main) == "Hi" and called == [1]

import socket

import httpx2
import pytest

import vistasim.llm
from vistasim.config import ModelSpec
from vistasim.errors import ConfigError
from vistasim.llm import (
    ChatMessage,
    ChatModel,
    ChatRequest,
    ModelCallFailed,
    ModelToolCall,
    OpenAIChatModel,
    ToolSpec,
)
from vistasim.testing._fake_server import FakeOpenAIServer


def hello(text: str = "hello") -> ChatRequest:
    return ChatRequest(messages=[ChatMessage(role="user", content=text)])


def model_for(srv: FakeOpenAIServer, **spec: object) -> OpenAIChatModel:
    return OpenAIChatModel(ModelSpec(model="fake-model", base_url=srv.base_url, **spec), environ={})


async def test_text_reply_comes_back_with_model_and_finish_reason():
    async with FakeOpenAIServer(responder=lambda req: "hi there") as srv, model_for(srv) as model:
        response = await model.complete(hello())
    assert response.text == "hi there"
    assert response.model == "fake-model"
    assert response.finish_reason == "stop"


def test_model_implements_chat_model_protocol():
    assert isinstance(OpenAIChatModel(ModelSpec(model="m"), environ={}), ChatModel)


async def test_tool_calls_are_mapped_from_the_reply():
    call = {"id": "c1", "type": "function", "function": {"name": "find", "arguments": '{"q":1}'}}
    async with FakeOpenAIServer(responder=lambda req: {"tool_calls": [call]}) as srv:
        async with model_for(srv) as model:
            response = await model.complete(hello())
    assert response.tool_calls == [ModelToolCall(id="c1", name="find", arguments='{"q":1}')]
    assert response.finish_reason == "tool_calls"
    assert response.text == ""


async def test_tools_and_history_are_sent_in_openai_shape_without_none_fields():
    call = ModelToolCall(id="c1", name="find", arguments="{}")
    request = ChatRequest(
        messages=[
            ChatMessage(role="user", content="find it"),
            ChatMessage(role="assistant", tool_calls=[call]),
            ChatMessage(role="tool", content="found", tool_call_id="c1"),
        ],
        tools=[ToolSpec(name="find", description="Find a thing")],
    )
    async with FakeOpenAIServer() as srv, model_for(srv) as model:
        await model.complete(request)
    sent = srv.requests[0]
    assert sent["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "find",
                "description": "Find a thing",
                "parameters": {"type": "object", "properties": {}},
            },
        }
    ]
    assert sent["messages"][1] == {
        "role": "assistant",
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "find", "arguments": "{}"}}
        ],
    }
    assert sent["messages"][2] == {"role": "tool", "content": "found", "tool_call_id": "c1"}
    assert not {"temperature", "seed", "max_tokens", "response_format"} & set(sent)


async def test_spec_sampling_defaults_fill_fields_the_request_leaves_empty():
    async with FakeOpenAIServer() as srv:
        async with model_for(srv, temperature=0.3, seed=7, max_tokens=50) as model:
            await model.complete(hello().model_copy(update={"temperature": 0.9}))
    sent = srv.requests[0]
    assert (sent["temperature"], sent["seed"], sent["max_tokens"]) == (0.9, 7, 50)


async def test_json_mode_is_forwarded_and_answered_with_json():
    request = hello().model_copy(update={"response_format": {"type": "json_object"}})
    async with FakeOpenAIServer() as srv, model_for(srv) as model:
        response = await model.complete(request)
    assert srv.requests[0]["response_format"] == {"type": "json_object"}
    assert response.text.startswith("{")


async def test_usage_includes_cached_tokens_of_a_repeated_prefix():
    long_prefix = ChatMessage(role="system", content="You are a careful assistant. " * 40)
    first = ChatRequest(messages=[long_prefix, ChatMessage(role="user", content="one")])
    second = ChatRequest(messages=[long_prefix, ChatMessage(role="user", content="two")])
    async with FakeOpenAIServer() as srv, model_for(srv) as model:
        a = await model.complete(first)
        b = await model.complete(second)
    assert a.usage.input_tokens > 250 and a.usage.output_tokens > 0
    assert a.usage.cached_tokens == 0
    assert 250 < b.usage.cached_tokens < b.usage.input_tokens


async def test_base_url_defaults_to_openai_base_url_from_environ():
    async with FakeOpenAIServer() as srv:
        environ = {"OPENAI_BASE_URL": srv.base_url}
        async with OpenAIChatModel(ModelSpec(model="m"), environ=environ) as model:
            assert (await model.complete(hello())).text == "ok"


@pytest.mark.parametrize(("status", "retryable"), [(429, True), (500, True), (503, True)])
async def test_overload_and_server_errors_are_retryable(status, retryable):
    async with FakeOpenAIServer() as srv:
        srv.fail_next(1, status=status, body="busy")
        async with model_for(srv) as model:
            with pytest.raises(ModelCallFailed) as info:
                await model.complete(hello())
    assert info.value.retryable is retryable
    assert info.value.status == status


@pytest.mark.parametrize("status", [400, 401, 404, 422])
async def test_client_errors_are_not_retryable(status):
    async with FakeOpenAIServer() as srv:
        srv.fail_next(1, status=status, body="bad request")
        async with model_for(srv) as model:
            with pytest.raises(ModelCallFailed) as info:
                await model.complete(hello())
    assert info.value.retryable is False
    assert "bad request" in str(info.value)


async def test_garbage_body_is_a_retryable_failure():
    async with FakeOpenAIServer() as srv:
        srv.garbage_next(1)
        async with model_for(srv) as model:
            with pytest.raises(ModelCallFailed) as info:
                await model.complete(hello())
    assert info.value.retryable is True


async def test_refused_connection_is_retryable():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    model = OpenAIChatModel(
        ModelSpec(model="m", base_url=f"http://127.0.0.1:{port}/v1", timeout_s=2), environ={}
    )
    async with model:
        with pytest.raises(ModelCallFailed) as info:
            await model.complete(hello())
    assert info.value.retryable is True


async def test_timeout_is_retryable():
    async with FakeOpenAIServer(latency_s=1.0) as srv:
        async with model_for(srv, timeout_s=0.1) as model:
            with pytest.raises(ModelCallFailed) as info:
                await model.complete(hello())
    assert info.value.retryable is True


async def test_disallowed_requests_to_a_remote_url_fail_without_network(monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("network was touched")

    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    assert vistasim.llm.ALLOW_REQUESTS is False
    spec = ModelSpec(model="gpt-x", base_url="https://api.example.invalid/v1")
    model = OpenAIChatModel(spec, environ={"OPENAI_API_KEY": "sk-test"})
    with pytest.raises(ModelCallFailed, match="ALLOW_REQUESTS") as info:
        await model.complete(hello())
    assert info.value.retryable is False


async def test_missing_key_for_a_remote_url_names_the_env_var(monkeypatch):
    monkeypatch.setattr(vistasim.llm, "ALLOW_REQUESTS", True)
    spec = ModelSpec(model="m", base_url="https://api.example.invalid/v1", api_key_env="MY_KEY")
    with pytest.raises(ConfigError, match="MY_KEY"):
        await OpenAIChatModel(spec, environ={}).complete(hello())


async def test_key_is_read_at_call_time_and_sent_as_bearer():
    environ = {"OPENAI_API_KEY": "sk-first"}
    async with FakeOpenAIServer() as srv:
        async with OpenAIChatModel(
            ModelSpec(model="m", base_url=srv.base_url), environ=environ
        ) as model:
            await model.complete(hello())
            environ["OPENAI_API_KEY"] = "sk-second"
            await model.complete(hello())
        seen = srv.headers
    assert [h["authorization"] for h in seen] == ["Bearer sk-first", "Bearer sk-second"]


async def test_key_value_is_redacted_from_error_messages():
    environ = {"OPENAI_API_KEY": "sk-secret-123"}
    async with FakeOpenAIServer() as srv:
        srv.fail_next(1, status=401, body="Incorrect API key provided: sk-secret-123")
        spec = ModelSpec(model="m", base_url=srv.base_url)
        async with OpenAIChatModel(spec, environ=environ) as model:
            with pytest.raises(ModelCallFailed) as info:
                await model.complete(hello())
    assert "sk-secret-123" not in str(info.value)
    assert "Incorrect API key" in str(info.value)


_OPENAI_DEFAULTS = {"temperature": 1e-7, "seed": 5, "max_tokens": 9}


@pytest.mark.parametrize(
    "defaults", [{}, {**_OPENAI_DEFAULTS, "tokens_field": "max_completion_tokens"}]
)
def test_the_encoded_body_is_the_body_httpx2_would_encode(defaults):
    from vistasim.llm._wire import chat_body, chat_body_json, json_text

    call = ModelToolCall(id="c1", name="find", arguments='{"a": 1}')
    messages = [
        ChatMessage(role="system", content='rules: "quote" \\ \n\t é ✓ \u2028 \x01'),
        ChatMessage(role="assistant"),
        ChatMessage(role="assistant", tool_calls=[call]),
        ChatMessage(role="tool", content="found", tool_call_id="c1"),
        ChatMessage(role="user", content=""),
    ]
    requests = [
        ChatRequest(messages=[]),
        ChatRequest(messages=messages),
        ChatRequest(
            messages=messages,
            tools=[ToolSpec(name="find", description="Find")],
            response_format={"type": "json_object"},
            temperature=0.25,
            seed=3,
            max_tokens=9,
        ),
    ]
    for request in requests * 2:  # the second time, the messages come from the cache
        body = chat_body("módel", request, **defaults)
        text = chat_body_json("módel", request, **defaults)
        assert text == json_text(body)
        built = httpx2.Request("POST", "http://127.0.0.1/x", json=body)
        assert text.encode("utf-8") == built.content

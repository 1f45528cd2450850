from __future__ import annotations

import json
import time
from contextlib import aclosing

import httpx2
import pytest

from vistasim.agent import HttpJsonAgent, Turn, Utterance
from vistasim.config import HttpJsonAgentSpec
from vistasim.errors import AgentError, ConfigError
from vistasim.events import ToolCall

HISTORY = (
    Utterance(role="user", text="hi"),
    Utterance(role="agent", text="hello, how can I help?"),
)


def turn(message: str = "where is W1007?", history=()) -> Turn:
    return Turn(episode_id="ep-42", message=message, history=history)


def spec(server, **kwargs) -> HttpJsonAgentSpec:
    return HttpJsonAgentSpec(url=f"{server.url}/chat", **kwargs)


async def test_default_template_sends_message_and_session_and_reads_reply(server):
    server.handler = lambda request: (200, {"reply": "It ships tomorrow."})
    async with aclosing(HttpJsonAgent(spec(server))) as agent:
        reply = await agent.respond(turn())
    assert reply.text == "It ships tomorrow."
    assert server.received[0].method == "POST"
    assert server.received[0].path == "/chat"
    assert server.received[0].json == {"message": "where is W1007?", "session_id": "ep-42"}
    assert agent.restore_strategy == "replay"


async def test_template_substitutes_nested_strings_and_history_list(server):
    template = {
        "input": {"text": "{{message}}", "meta": ["sess-{{ session_id }}", 3, None]},
        "history": "{{history}}",
        "context": "Earlier:\n{{history}}",
    }
    async with aclosing(HttpJsonAgent(spec(server, request_template=template))) as agent:
        await agent.respond(turn(history=HISTORY))
    assert server.received[0].json == {
        "input": {"text": "where is W1007?", "meta": ["sess-ep-42", 3, None]},
        "history": [
            {"role": "user", "text": "hi"},
            {"role": "agent", "text": "hello, how can I help?"},
        ],
        "context": "Earlier:\nuser: hi\nagent: hello, how can I help?",
    }
    assert agent.restore_strategy == "stateless"


async def test_placeholders_typed_in_the_message_stay_literal(server):
    async with aclosing(HttpJsonAgent(spec(server))) as agent:
        await agent.respond(turn("my id is {{session_id}}"))
    assert server.received[0].json["message"] == "my id is {{session_id}}"


def test_unknown_placeholder_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown placeholder") as info:
        HttpJsonAgent(
            HttpJsonAgentSpec(url="http://127.0.0.1:9", request_template={"q": "{{msg}}"})
        )
    assert info.value.key == "agent.request_template"


async def test_put_method_and_dotted_response_path_with_list_index(server):
    server.handler = lambda request: (
        200,
        {"data": {"choices": [{"text": "first"}, {"text": "x"}]}},
    )
    agent_spec = spec(server, method="PUT", response_path="data.choices.0.text")
    async with aclosing(HttpJsonAgent(agent_spec)) as agent:
        reply = await agent.respond(turn())
    assert reply.text == "first"
    assert server.received[0].method == "PUT"


async def test_tool_calls_at_tool_calls_path_become_tool_call_events(server):
    calls = [
        {"name": "find_order", "args": {"order_id": "W1007"}, "result": {"status": "shipped"}},
        {"name": "refund", "arguments": '{"amount": 30}', "error": "over limit", "id": "c2"},
    ]
    server.handler = lambda request: (200, {"reply": "Found it.", "trace": {"calls": calls}})
    agent_spec = spec(server, tool_calls_path="trace.calls")
    async with aclosing(HttpJsonAgent(agent_spec)) as agent:
        reply = await agent.respond(turn())
    assert reply.tool_calls == (
        ToolCall(name="find_order", args={"order_id": "W1007"}, result={"status": "shipped"}),
        ToolCall(name="refund", args={"amount": 30}, error="over limit", call_id="c2"),
    )


async def test_missing_tool_calls_path_means_no_tool_calls(server):
    async with aclosing(HttpJsonAgent(spec(server, tool_calls_path="trace.calls"))) as agent:
        reply = await agent.respond(turn())
    assert reply.tool_calls == ()


async def test_tool_calls_that_are_not_a_list_are_an_agent_error(server):
    server.handler = lambda request: (200, {"reply": "ok", "calls": "find_order"})
    async with aclosing(HttpJsonAgent(spec(server, tool_calls_path="calls"))) as agent:
        with pytest.raises(AgentError, match="not a list") as info:
            await agent.respond(turn())
    assert info.value.status == 200


async def test_header_values_are_filled_from_environment_variables(server):
    headers = {"Authorization": "Bearer ${SHOP_TOKEN}", "X-Tenant": "acme"}
    environ = {"SHOP_TOKEN": "tok-123456"}
    async with aclosing(HttpJsonAgent(spec(server, headers=headers), environ=environ)) as agent:
        await agent.respond(turn())
    assert server.received[0].headers["authorization"] == "Bearer tok-123456"
    assert server.received[0].headers["x-tenant"] == "acme"


async def test_missing_header_variable_is_a_config_error_and_sends_nothing(server):
    headers = {"Authorization": "Bearer ${SHOP_TOKEN}"}
    async with aclosing(HttpJsonAgent(spec(server, headers=headers), environ={})) as agent:
        with pytest.raises(ConfigError, match="'SHOP_TOKEN' is not set") as info:
            await agent.respond(turn())
    assert info.value.key == "agent.headers.Authorization"
    assert server.received == []


async def test_http_500_is_an_agent_error_with_status_and_body(server):
    server.handler = lambda request: (500, "Internal Server Error: db down")
    async with aclosing(HttpJsonAgent(spec(server))) as agent:
        with pytest.raises(AgentError, match="answered HTTP 500") as info:
            await agent.respond(turn())
    assert info.value.status == 500
    assert info.value.body == "Internal Server Error: db down"


async def test_secret_header_values_never_appear_in_errors(server):
    server.handler = lambda request: (500, {"echo": request.headers["authorization"]})
    headers = {"Authorization": "Bearer ${SHOP_TOKEN}"}
    environ = {"SHOP_TOKEN": "tok-very-secret"}
    async with aclosing(HttpJsonAgent(spec(server, headers=headers), environ=environ)) as agent:
        with pytest.raises(AgentError) as info:
            await agent.respond(turn())
    assert "tok-very-secret" not in str(info.value) + info.value.body
    assert json.loads(info.value.body) == {"echo": "***"}


async def test_body_excerpt_is_at_most_2000_characters(server):
    server.handler = lambda request: (502, "x" * 5000)
    async with aclosing(HttpJsonAgent(spec(server))) as agent:
        with pytest.raises(AgentError) as info:
            await agent.respond(turn())
    assert len(info.value.body) == 2000


async def test_slow_server_is_an_agent_timeout(server):
    def slow(request):
        time.sleep(0.3)
        return 200, {"reply": "too late"}

    server.handler = slow
    start = time.monotonic()
    async with aclosing(HttpJsonAgent(spec(server, timeout_s=0.1))) as agent:
        with pytest.raises(AgentError, match="did not answer within 0.1 s"):
            await agent.respond(turn())
    assert time.monotonic() - start < 0.3


async def test_non_json_body_is_an_agent_error(server):
    server.handler = lambda request: (200, "<html>Sorry, we are down</html>")
    async with aclosing(HttpJsonAgent(spec(server))) as agent:
        with pytest.raises(AgentError, match="not JSON") as info:
            await agent.respond(turn())
    assert info.value.status == 200
    assert info.value.body == "<html>Sorry, we are down</html>"


async def test_missing_response_path_is_an_agent_error_with_body(server):
    server.handler = lambda request: (200, {"answer": "hi"})
    async with aclosing(HttpJsonAgent(spec(server, response_path="data.text"))) as agent:
        with pytest.raises(AgentError, match="has no 'data.text'") as info:
            await agent.respond(turn())
    assert json.loads(info.value.body) == {"answer": "hi"}


@pytest.mark.parametrize("value", [None, 7, {"text": "hi"}])
async def test_reply_that_is_not_a_string_is_an_agent_error(server, value):
    server.handler = lambda request: (200, {"reply": value})
    async with aclosing(HttpJsonAgent(spec(server))) as agent:
        with pytest.raises(AgentError, match="not a string"):
            await agent.respond(turn())


async def test_empty_reply_without_tool_calls_is_an_agent_error(server):
    server.handler = lambda request: (200, {"reply": ""})
    async with aclosing(HttpJsonAgent(spec(server))) as agent:
        with pytest.raises(AgentError, match="empty"):
            await agent.respond(turn())


async def test_unreachable_agent_is_an_agent_error():
    agent = HttpJsonAgent(HttpJsonAgentSpec(url="http://127.0.0.1:9/chat", timeout_s=2))
    async with aclosing(agent):
        with pytest.raises(AgentError, match="cannot reach agent"):
            await agent.respond(turn())


async def test_non_loopback_url_is_refused_while_requests_are_disabled():
    agent = HttpJsonAgent(HttpJsonAgentSpec(url="https://agent.example.invalid/chat"))
    async with aclosing(agent):
        with pytest.raises(ConfigError, match="ALLOW_REQUESTS"):
            await agent.respond(turn())


async def test_mock_transport_receives_the_rendered_request():
    seen: list[httpx2.Request] = []

    def handle(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        return httpx2.Response(200, json={"out": {"text": "mocked"}})

    agent_spec = HttpJsonAgentSpec(
        url="https://agent.example.invalid/v1/chat", response_path="out.text"
    )
    async with aclosing(HttpJsonAgent(agent_spec, transport=httpx2.MockTransport(handle))) as agent:
        reply = await agent.respond(turn())
    assert reply.text == "mocked"
    assert json.loads(seen[0].content) == {"message": "where is W1007?", "session_id": "ep-42"}

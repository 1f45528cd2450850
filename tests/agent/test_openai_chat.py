from __future__ import annotations

import json
import time
from contextlib import aclosing

import httpx2
import pytest

from vistasim.agent import OpenAIChatAgent, Turn, Utterance
from vistasim.config import OpenAIChatAgentSpec
from vistasim.errors import AgentError, ConfigError
from vistasim.events import ToolCall
from vistasim.llm import TokenUsage


def completion(content="Your order ships tomorrow.", tool_calls=None, usage=None) -> dict:
    message = {"role": "assistant", "content": content}
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    body = {
        "id": "chatcmpl-1",
        "model": "shop-bot-1",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
    }
    if usage is not None:
        body["usage"] = usage
    return body


def spec(server, **kwargs) -> OpenAIChatAgentSpec:
    return OpenAIChatAgentSpec(base_url=f"{server.url}/v1/", model="shop-bot-1", **kwargs)


def turn(message: str = "where is W1007?", history=()) -> Turn:
    return Turn(episode_id="ep-7", message=message, history=history)


async def test_request_carries_system_prompt_history_and_new_message(server):
    server.handler = lambda request: (200, completion())
    history = (Utterance(role="user", text="hi"), Utterance(role="agent", text="hello!"))
    agent = OpenAIChatAgent(spec(server, system_prompt="You are ShopBot."))
    async with aclosing(agent):
        await agent.respond(turn(history=history))
    assert server.received[0].path == "/v1/chat/completions"
    assert server.received[0].json == {
        "model": "shop-bot-1",
        "messages": [
            {"role": "system", "content": "You are ShopBot."},
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello!"},
            {"role": "user", "content": "where is W1007?"},
        ],
    }
    assert agent.restore_strategy == "state"  # the agent keeps the conversation, tool calls too


async def test_reply_text_usage_and_metadata_come_from_the_completion(server):
    usage = {
        "prompt_tokens": 120,
        "completion_tokens": 9,
        "prompt_tokens_details": {"cached_tokens": 64},
    }
    server.handler = lambda request: (200, completion(usage=usage))
    async with aclosing(OpenAIChatAgent(spec(server))) as agent:
        reply = await agent.respond(turn())
    assert reply.text == "Your order ships tomorrow."
    assert reply.usage == TokenUsage(input_tokens=120, output_tokens=9, cached_tokens=64)
    assert reply.metadata == {"model": "shop-bot-1", "finish_reason": "stop"}


async def test_reply_without_usage_has_none(server):
    server.handler = lambda request: (200, completion())
    async with aclosing(OpenAIChatAgent(spec(server))) as agent:
        reply = await agent.respond(turn())
    assert reply.usage is None


async def test_reported_tool_calls_without_tools_are_the_agents_trace(server):
    calls = [
        {
            "id": "c1",
            "type": "function",
            "function": {"name": "find_order", "arguments": '{"order_id": "W1007"}'},
        },
        {"id": "c2", "type": "function", "function": {"name": "refund", "arguments": "{oops"}},
    ]
    server.handler = lambda request: (200, completion(content="Refunded.", tool_calls=calls))
    async with aclosing(OpenAIChatAgent(spec(server))) as agent:
        reply = await agent.respond(turn())
    assert reply.text == "Refunded."
    assert reply.tool_calls == (
        ToolCall(name="find_order", args={"order_id": "W1007"}, call_id="c1"),
        ToolCall(name="refund", args={"_raw": "{oops"}, call_id="c2"),
    )


async def test_tool_calls_nothing_runs_are_an_empty_reply_naming_the_fix(server):
    calls = [{"id": "c1", "type": "function", "function": {"name": "get_order", "arguments": "{}"}}]
    server.handler = lambda request: (200, completion(content=None, tool_calls=calls))
    async with aclosing(OpenAIChatAgent(spec(server))) as agent:
        with pytest.raises(AgentError, match="empty reply") as info:
            await agent.respond(turn())
    assert "get_order" in str(info.value) and "agent.tools = 'environment'" in str(info.value)
    assert [c.name for c in info.value.tool_calls] == ["get_order"]


async def test_tool_call_without_function_name_is_an_agent_error(server):
    server.handler = lambda request: (200, completion(tool_calls=[{"id": "c1", "function": {}}]))
    async with aclosing(OpenAIChatAgent(spec(server))) as agent:
        with pytest.raises(AgentError, match="no function name"):
            await agent.respond(turn())


async def test_api_key_env_and_header_templates_are_read_from_environ(server):
    server.handler = lambda request: (200, completion())
    environ = {"SHOPBOT_KEY": "sk-abcdef", "TENANT": "acme"}
    agent_spec = spec(server, api_key_env="SHOPBOT_KEY", headers={"X-Tenant": "${TENANT}"})
    async with aclosing(OpenAIChatAgent(agent_spec, environ=environ)) as agent:
        await agent.respond(turn())
    assert server.received[0].headers["authorization"] == "Bearer sk-abcdef"
    assert server.received[0].headers["x-tenant"] == "acme"


async def test_missing_api_key_variable_is_a_config_error(server):
    agent = OpenAIChatAgent(spec(server, api_key_env="SHOPBOT_KEY"), environ={})
    async with aclosing(agent):
        with pytest.raises(ConfigError, match="'SHOPBOT_KEY' is not set") as info:
            await agent.respond(turn())
    assert info.value.key == "agent.api_key_env"


async def test_http_error_is_an_agent_error_without_the_key(server):
    def reject(request):
        key = request.headers["authorization"].removeprefix("Bearer ")
        return 401, {"error": f"invalid key {key}", "header": request.headers["authorization"]}

    server.handler = reject
    agent = OpenAIChatAgent(spec(server, api_key_env="K"), environ={"K": "sk-secret-1"})
    async with aclosing(agent):
        with pytest.raises(AgentError, match="HTTP 401") as info:
            await agent.respond(turn())
    assert info.value.status == 401
    assert "sk-secret-1" not in str(info.value) + info.value.body
    assert json.loads(info.value.body) == {"error": "invalid key ***", "header": "***"}


async def test_slow_endpoint_is_an_agent_timeout(server):
    def slow(request):
        time.sleep(0.3)
        return 200, completion()

    server.handler = slow
    async with aclosing(OpenAIChatAgent(spec(server, timeout_s=0.1))) as agent:
        with pytest.raises(AgentError, match="did not answer within 0.1 s"):
            await agent.respond(turn())


async def test_non_json_body_is_an_agent_error(server):
    server.handler = lambda request: (200, "data: [DONE]")
    async with aclosing(OpenAIChatAgent(spec(server))) as agent:
        with pytest.raises(AgentError, match="not JSON") as info:
            await agent.respond(turn())
    assert info.value.body == "data: [DONE]"


@pytest.mark.parametrize("body", [{}, {"choices": []}, {"choices": [{"text": "hi"}]}, [1, 2]])
async def test_answer_without_a_choice_message_is_an_agent_error(server, body):
    server.handler = lambda request: (200, body)
    async with aclosing(OpenAIChatAgent(spec(server))) as agent:
        with pytest.raises(AgentError, match="no choices|no message") as info:
            await agent.respond(turn())
    assert json.loads(info.value.body) == body


async def test_empty_content_without_tool_calls_is_an_agent_error(server):
    server.handler = lambda request: (200, completion(content=""))
    async with aclosing(OpenAIChatAgent(spec(server))) as agent:
        with pytest.raises(AgentError, match="empty reply"):
            await agent.respond(turn())


async def test_content_parts_are_joined_into_the_reply_text():
    def handle(request: httpx2.Request) -> httpx2.Response:
        parts = [{"type": "text", "text": "Ships "}, {"type": "text", "text": "tomorrow."}]
        return httpx2.Response(200, json=completion(content=parts))

    agent_spec = OpenAIChatAgentSpec(base_url="https://llm.example.invalid/v1", model="m")
    agent = OpenAIChatAgent(agent_spec, transport=httpx2.MockTransport(handle))
    async with aclosing(agent):
        reply = await agent.respond(turn())
    assert reply.text == "Ships tomorrow."


async def test_http_500_is_an_agent_error_with_status_and_body(server):
    server.handler = lambda request: (500, {"error": {"message": "model overloaded"}})
    async with aclosing(OpenAIChatAgent(spec(server))) as agent:
        with pytest.raises(AgentError, match="answered HTTP 500") as info:
            await agent.respond(turn())
    assert info.value.status == 500
    assert "model overloaded" in info.value.body


def get_order_call(call_id="call_1", order_id="W1006") -> dict:
    arguments = json.dumps({"order_id": order_id})
    function = {"name": "get_order", "arguments": arguments}
    return {"id": call_id, "type": "function", "function": function}


async def test_with_environment_tools_the_calls_run_and_results_go_back(server):
    from vistasim.domains.shop import ShopEnvironment

    def model(request):
        last = request.json["messages"][-1]
        if last["role"] == "tool":
            status = json.loads(last["content"])["result"]["status"]
            return 200, completion(content=f"W1006 is {status}.")
        return 200, completion(content=None, tool_calls=[get_order_call()])

    server.handler = model
    env = ShopEnvironment()
    agent_spec = spec(server, tools="environment", temperature=0.2, seed=4, extra_body={"top_k": 5})
    async with aclosing(OpenAIChatAgent(agent_spec, env=env)) as agent:
        reply = await agent.respond(turn("where is W1006?"))
    assert reply.text == "W1006 is shipped."
    assert reply.tool_calls[0].result["id"] == "W1006" and reply.tool_calls[0].call_id == "call_1"
    first, second = (r.json for r in server.received)
    assert {t["function"]["name"] for t in first["tools"]} == {t.name for t in env.agent_tools()}
    assert (first["temperature"], first["seed"], first["top_k"]) == (0.2, 4, 5)
    assert second["messages"][-2]["tool_calls"][0]["id"] == "call_1"
    assert second["messages"][-1]["tool_call_id"] == "call_1"


async def test_tools_from_a_yaml_file_and_a_system_prompt_file(server, tmp_path):
    from vistasim.agent._openai_chat import prepare_chat_agent

    (tmp_path / "tools.yaml").write_text(
        "- type: function\n  function:\n    name: lookup\n    description: Find an order.\n"
        "    parameters: {type: object, properties: {id: {type: string}}}\n",
        encoding="utf-8",
    )
    (tmp_path / "prompt.md").write_text("You are ShopBot.\n", encoding="utf-8")
    server.handler = lambda request: (200, completion())
    agent_spec = spec(server, tools="tools.yaml", system_prompt_file="prompt.md")
    setup = prepare_chat_agent(agent_spec, base_dir=tmp_path, model=_own_model(agent_spec))
    async with aclosing(OpenAIChatAgent(agent_spec, setup=setup)) as agent:
        await agent.respond(turn())
        await setup.model.aclose()
    body = server.received[0].json
    assert body["messages"][0] == {"role": "system", "content": "You are ShopBot.\n"}
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "lookup",
                "description": "Find an order.",
                "parameters": {"type": "object", "properties": {"id": {"type": "string"}}},
            },
        }
    ]


def _own_model(agent_spec):
    from vistasim.agent._chat_endpoint import EndpointChatModel

    return EndpointChatModel(agent_spec)


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ('{"name": "x"}', "holds a dict"),
        ('[{"type": "function", "function": {"description": "no name"}}]', "has no function name"),
        ("[oops", "not valid JSON/YAML"),
    ],
)
def test_malformed_tool_files_are_config_errors(tmp_path, content, error):
    from vistasim.agent._openai_chat import load_tool_schemas

    path = tmp_path / "tools.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=error) as info:
        load_tool_schemas(path)
    assert info.value.key == "agent.tools"


def test_a_missing_tools_file_names_the_key_and_where_paths_start(tmp_path):
    from vistasim.agent._openai_chat import prepare_chat_agent

    agent_spec = OpenAIChatAgentSpec(base_url="http://127.0.0.1:9/v1", model="m", tools="t.json")
    with pytest.raises(ConfigError, match="relative to the config file") as info:
        prepare_chat_agent(agent_spec, base_dir=tmp_path, model=_own_model(agent_spec))
    assert info.value.key == "agent.tools"


def test_environment_tools_without_an_environment_is_a_config_error():
    agent_spec = OpenAIChatAgentSpec(
        base_url="http://127.0.0.1:9/v1", model="m", tools="environment"
    )
    with pytest.raises(ConfigError, match="needs an environment") as info:
        OpenAIChatAgent(agent_spec)
    assert info.value.key == "agent.tools"


def test_system_prompt_and_its_file_together_are_refused():
    with pytest.raises(ValueError, match="not both"):
        OpenAIChatAgentSpec(
            base_url="http://127.0.0.1:9/v1", model="m", system_prompt="a", system_prompt_file="b"
        )

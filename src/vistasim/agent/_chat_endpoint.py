"""A chat model over plain HTTP, for an agent under test served as an OpenAI-compatible model.

The simulated user's and the judge's models go through the `openai` SDK with retries: a provider
hiccup there is infrastructure. The agent under test is different: a failing endpoint is the
finding, so it gets no retries, every failure is an `AgentError` with the status and a redacted
body excerpt, and it needs no optional dependency. This model speaks the same chat-completions
wire format as the SDK client (`llm._wire`) and plugs into the same `ChatModel` protocol, so the
tool loop of `ModelAgent` and the metering of `RoleModel` apply to it unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import httpx2

from vistasim.agent._http import MAX_BODY_BYTES, JsonAnswer, JsonEndpoint
from vistasim.config import OpenAIChatAgentSpec
from vistasim.llm import ChatRequest, ChatResponse, ModelToolCall, TokenUsage
from vistasim.llm._clients import HttpClients
from vistasim.llm._wire import message_param, tool_param

__all__ = ["EndpointChatModel"]


class EndpointChatModel:
    """`POST {base_url}/chat/completions` of an `openai_chat` agent, as a `ChatModel`.

    Request fields left `None` fall back to the spec's `temperature` and `seed`; the spec's
    `extra_body` is merged into every body.

    Args:
        spec: The `[agent]` section.
        environ: Where `${NAME}` header values and `api_key_env` are read (default: `os.environ`).
        transport: An httpx2 transport (tests), when `clients` is not given.
        clients: The run's shared HTTP clients.
        max_body_bytes: The most of an answer's body that is read (`body_cap`).
    """

    def __init__(
        self,
        spec: OpenAIChatAgentSpec,
        *,
        environ: Mapping[str, str] | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
        clients: HttpClients | None = None,
        max_body_bytes: int = MAX_BODY_BYTES,
    ) -> None:
        self.spec = spec
        self.name = spec.model
        self._endpoint = JsonEndpoint(
            spec.base_url.rstrip("/") + "/chat/completions",
            headers=spec.headers,
            auth_env=spec.api_key_env,
            timeout_s=spec.timeout_s,
            environ=environ,
            transport=transport,
            clients=clients,
            max_body_bytes=max_body_bytes,
        )

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """Send one request and read the first choice.

        Raises:
            AgentError: the endpoint failed, or its answer has no usable first choice.
        """
        return await self.complete_body(self.request_body(request))

    async def complete_body(self, body: dict[str, Any]) -> ChatResponse:
        """Send a body built by `request_body` and read the first choice.

        The body may hold fields `ChatRequest` has no name for (the preflight's `tool_choice`).

        Raises:
            AgentError: the endpoint failed, or its answer has no usable first choice.
        """
        answer = await self._endpoint.send(body)
        message = self._first_message(answer)
        raw_calls = message.get("tool_calls") or []
        calls = [self._tool_call(item, i, answer) for i, item in enumerate(raw_calls)]
        data = answer.data
        return ChatResponse(
            text=content_text(message.get("content")),
            tool_calls=calls,
            usage=read_usage(data.get("usage")),
            model=data.get("model") if isinstance(data.get("model"), str) else "",
            finish_reason=_string(data["choices"][0].get("finish_reason")),
        )

    def request_body(self, request: ChatRequest) -> dict[str, Any]:
        """Build the JSON body of one request (what is sent, minus headers)."""
        body: dict[str, Any] = {
            "model": self.spec.model,
            "messages": [message_param(m) for m in request.messages],
        }
        if request.tools:
            body["tools"] = [tool_param(t) for t in request.tools]
        optional = {
            "response_format": request.response_format,
            "temperature": _first(request.temperature, self.spec.temperature),
            "seed": _first(request.seed, self.spec.seed),
            "max_tokens": request.max_tokens,
        }
        body.update({k: v for k, v in optional.items() if v is not None})
        body.update(self.spec.extra_body)
        return body

    async def aclose(self) -> None:
        """Close the HTTP client, unless it is the run's shared one."""
        await self._endpoint.aclose()

    def _first_message(self, answer: JsonAnswer) -> dict[str, Any]:
        data = answer.data
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise self._endpoint.fail("the answer has no choices", answer)
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise self._endpoint.fail("choices[0] has no message", answer)
        return message

    def _tool_call(self, item: Any, index: int, answer: JsonAnswer) -> ModelToolCall:
        function = item.get("function") if isinstance(item, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise self._endpoint.fail(f"tool call {item!r:.200} has no function name", answer)
        arguments = function.get("arguments")
        if isinstance(arguments, dict):  # some servers send an object, not JSON text
            arguments = json.dumps(arguments)
        call_id = item.get("id")
        return ModelToolCall(
            id=call_id if isinstance(call_id, str) and call_id else f"call_{index + 1}",
            name=function["name"],
            arguments=arguments if isinstance(arguments, str) else "",
        )


def content_text(content: Any) -> str:
    """Read message content: a string, or a list of `{type: text, text}` parts.

    >>> content_text([{"type": "text", "text": "Ships "}, {"type": "text", "text": "today."}])
    'Ships today.'
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""


def read_usage(raw: Any) -> TokenUsage:
    """Read an OpenAI `usage` block; missing or malformed counts are 0."""
    if not isinstance(raw, dict):
        return TokenUsage()
    details = raw.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    return TokenUsage(
        input_tokens=_count(raw.get("prompt_tokens")),
        output_tokens=_count(raw.get("completion_tokens")),
        cached_tokens=_count(cached),
    )


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _first(*values: Any) -> Any:
    return next((v for v in values if v is not None), None)

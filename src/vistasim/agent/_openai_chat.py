"""Reach an agent under test that speaks the OpenAI chat-completions protocol.

Many products put their assistant behind an OpenAI-compatible endpoint (vLLM, Ollama, a gateway,
or a wrapper around their own tool loop). This adapter sends the whole conversation each turn, so
the agent keeps no hidden state and branching needs no agent snapshot. It calls the endpoint with
plain HTTP and no retries: an agent that fails is the finding, not something to paper over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx2
from pydantic import JsonValue

from vistasim.agent._http import JsonAnswer, JsonEndpoint
from vistasim.agent._python import parse_tool_args
from vistasim.agent._types import Reply, RestoreStrategy, Turn
from vistasim.config import OpenAIChatAgentSpec
from vistasim.events import ToolCall
from vistasim.llm._usage import TokenUsage

_ROLES = {"user": "user", "agent": "assistant"}


class OpenAIChatAgent:
    """The agent under test behind `POST {base_url}/chat/completions` (`kind = "openai_chat"`).

    Each turn sends the optional system prompt, the history (user -> `user`, agent ->
    `assistant`) and the new message. The reply is `choices[0].message.content`; its `tool_calls`
    become `ToolCall` events and `usage` becomes `TokenUsage`.
    """

    restore_strategy: RestoreStrategy = "stateless"

    def __init__(
        self,
        spec: OpenAIChatAgentSpec,
        *,
        environ: Mapping[str, str] | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        self._spec = spec
        self._endpoint = JsonEndpoint(
            spec.base_url.rstrip("/") + "/chat/completions",
            headers=spec.headers,
            auth_env=spec.api_key_env,
            timeout_s=spec.timeout_s,
            environ=environ,
            transport=transport,
        )

    async def respond(self, turn: Turn) -> Reply:
        """Send the conversation and return the first choice as a reply.

        Raises:
            AgentError: the endpoint failed, or its answer has no choice, or neither content
                nor tool calls.
        """
        answer = await self._endpoint.send(self.request_body(turn))
        message = self._first_message(answer)
        text = _content_text(message.get("content"))
        tool_calls = tuple(
            self._tool_call(item, answer) for item in message.get("tool_calls") or []
        )
        if not text.strip() and not tool_calls:
            raise self._endpoint.fail("choices[0].message has no content and no tool calls", answer)
        metadata: dict[str, JsonValue] = {
            key: value
            for key, value in (
                ("model", answer.data.get("model")),
                ("finish_reason", answer.data["choices"][0].get("finish_reason")),
            )
            if isinstance(value, str)
        }
        return Reply(
            text=text,
            tool_calls=tool_calls,
            usage=_usage(answer.data.get("usage")),
            metadata=metadata,
        )

    def request_body(self, turn: Turn) -> dict[str, Any]:
        """Build the chat-completions request for one turn (what is sent, minus headers)."""
        messages: list[dict[str, str]] = []
        if self._spec.system_prompt:
            messages.append({"role": "system", "content": self._spec.system_prompt})
        messages.extend({"role": _ROLES[u.role], "content": u.text} for u in turn.history)
        messages.append({"role": "user", "content": turn.message})
        return {"model": self._spec.model, "messages": messages}

    async def aclose(self) -> None:
        """Close the HTTP client."""
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

    def _tool_call(self, item: Any, answer: JsonAnswer) -> ToolCall:
        function = item.get("function") if isinstance(item, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise self._endpoint.fail(f"tool call {item!r:.200} has no function name", answer)
        call_id = item.get("id")
        return ToolCall(
            name=function["name"],
            args=parse_tool_args(function.get("arguments")),
            call_id=call_id if isinstance(call_id, str) else None,
        )


def _content_text(content: Any) -> str:
    """Read message content: a string, or a list of `{type: text, text}` parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""


def _usage(raw: Any) -> TokenUsage | None:
    if not isinstance(raw, dict):
        return None
    details = raw.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    return TokenUsage(
        input_tokens=_count(raw.get("prompt_tokens")),
        output_tokens=_count(raw.get("completion_tokens")),
        cached_tokens=_count(cached),
    )


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0

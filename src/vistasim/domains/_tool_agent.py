"""The tool-calling loop of the built-in LLM support agents, written once for every domain.

A domain's LLM agent is a chat model with the domain's written policy as its system prompt and the
environment's agent tools. Each user turn runs a bounded loop: ask the model, run the tool calls it
requests (malformed arguments are fed back as errors, never run), send the results back as `tool`
messages, until it answers in text. The agent's state is the message list, so a snapshot is plain
JSON and a branch restores it.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import JsonValue, TypeAdapter

from vistasim.agent._types import Reply, RestoreStrategy, Turn
from vistasim.env._types import Environment
from vistasim.errors import AgentError
from vistasim.events import ToolCall
from vistasim.llm._types import ChatMessage, ChatModel, ChatRequest, ModelCallFailed, ModelToolCall
from vistasim.llm._usage import TokenUsage

__all__ = ["ToolCallingAgent"]

_MESSAGES = TypeAdapter(list[ChatMessage])


class ToolCallingAgent(ABC):
    """An LLM agent that calls an environment's tools; one instance per episode.

    A domain subclasses it and sets `give_up`, `give_up_metadata`, maybe `temperature`,
    and `instructions()`, its written policy.

    Args:
        env: The environment whose agent tools it calls.
        model: The chat model that decides what to say and which tools to call.
        max_tool_rounds: Model calls per user turn before the agent gives up on the turn.
    """

    restore_strategy: RestoreStrategy = "state"
    give_up: ClassVar[str]
    """What the agent says when a turn runs out of tool rounds."""
    give_up_metadata: ClassVar[Mapping[str, JsonValue]]
    """The reply's metadata when it gives up."""
    temperature: ClassVar[float | None] = None
    """Sampling temperature of the model calls (None: the model's default)."""

    def __init__(self, env: Environment, model: ChatModel, *, max_tool_rounds: int = 6) -> None:
        self.env = env
        self.model = model
        self.max_tool_rounds = max_tool_rounds
        self._messages = [ChatMessage(role="system", content=self.instructions())]

    @abstractmethod
    def instructions(self) -> str:
        """Return the system prompt: the domain's role and written policy."""

    async def respond(self, turn: Turn) -> Reply:
        """Answer one user message, running the tools the model asks for.

        Raises:
            AgentError: the model call failed.
        """
        self._messages.append(ChatMessage(role="user", content=turn.message))
        calls: list[ToolCall] = []
        usage = TokenUsage()
        tools = self.env.agent_tools()
        for _ in range(self.max_tool_rounds):
            request = ChatRequest(
                messages=list(self._messages), tools=tools, temperature=self.temperature
            )
            try:
                response = await self.model.complete(request)
            except ModelCallFailed as exc:
                raise AgentError(f"the agent's model failed: {exc}", status=exc.status) from exc
            usage = usage + response.usage
            self._messages.append(
                ChatMessage(
                    role="assistant", content=response.text or None, tool_calls=response.tool_calls
                )
            )
            if not response.tool_calls:
                return Reply(text=response.text, tool_calls=tuple(calls), usage=usage)
            for model_call in response.tool_calls:
                calls.append(await self._run(model_call))
        self._messages.append(ChatMessage(role="assistant", content=self.give_up))
        return Reply(
            text=self.give_up,
            tool_calls=tuple(calls),
            usage=usage,
            metadata=dict(self.give_up_metadata),
        )

    def snapshot(self) -> JsonValue:
        """Return the conversation so far, as plain JSON."""
        state: JsonValue = _MESSAGES.dump_python(self._messages, mode="json")
        return state

    def restore(self, state: JsonValue) -> None:
        """Go back to a conversation from `snapshot()`."""
        self._messages = _MESSAGES.validate_python(state)

    async def aclose(self) -> None:
        """Release nothing: the model and the environment belong to the caller."""
        return

    async def _run(self, model_call: ModelToolCall) -> ToolCall:
        args, error = _parse_arguments(model_call.arguments)
        result: JsonValue = None
        if error is None:
            outcome = await self.env.call_tool(model_call.name, args)
            result, error = outcome.result, outcome.error
        payload = {"error": error} if error else {"result": result}
        self._messages.append(
            ChatMessage(role="tool", content=json.dumps(payload), tool_call_id=model_call.id)
        )
        return ToolCall(
            name=model_call.name, args=args, result=result, error=error, call_id=model_call.id
        )


def _parse_arguments(raw: str) -> tuple[dict[str, Any], str | None]:
    """Read a tool call's JSON arguments; return them, or `{}` and an error for the model."""
    try:
        args = json.loads(raw or "{}")
    except json.JSONDecodeError as exc:
        return {}, f"arguments are not valid JSON ({exc.msg}); send a JSON object"
    if not isinstance(args, dict):
        return {}, "arguments must be a JSON object"
    return args, None

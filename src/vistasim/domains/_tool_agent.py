"""The tool-calling loop of the built-in LLM support agents, written once for every domain.

A domain's LLM agent is a chat model with the domain's written policy as its system prompt and the
environment's agent tools. Each user turn runs a bounded loop: ask the model, run the tool calls it
requests (malformed arguments are fed back as errors, never run), send the results back as `tool`
messages, until it answers in text. The agent's state is the message list, so a snapshot is plain
JSON and a branch restores it.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import JsonValue, TypeAdapter

from vistasim.agent._types import Reply, RestoreStrategy, Turn
from vistasim.env._types import Environment
from vistasim.errors import AgentError
from vistasim.events import ToolCall
from vistasim.llm._types import ChatMessage, ChatModel, ChatRequest, ModelCallFailed, ModelToolCall
from vistasim.llm._usage import TokenUsage

__all__ = ["ToolCallingAgent"]

_MESSAGES = TypeAdapter(list[ChatMessage])


class ToolCallingAgent:
    """An LLM agent that calls an environment's tools; one instance per episode.

    Domains subclass it to supply their system prompt and their words for giving up.

    Args:
        env: The environment whose agent tools it calls.
        model: The chat model that decides what to say and which tools to call.
        system_prompt: The agent's instructions (the domain's policy).
        give_up: What the agent says when a turn runs out of tool rounds.
        give_up_metadata: The reply's metadata when it gives up.
        max_tool_rounds: Model calls per user turn before the agent gives up on the turn.
        temperature: Sampling temperature of the model calls (None: the model's default).
    """

    restore_strategy: RestoreStrategy = "state"

    def __init__(
        self,
        env: Environment,
        model: ChatModel,
        *,
        system_prompt: str,
        give_up: str,
        give_up_metadata: dict[str, JsonValue],
        max_tool_rounds: int = 6,
        temperature: float | None = None,
    ) -> None:
        self.env = env
        self.model = model
        self.max_tool_rounds = max_tool_rounds
        self._give_up = give_up
        self._give_up_metadata = give_up_metadata
        self._temperature = temperature
        self._messages = [ChatMessage(role="system", content=system_prompt)]

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
                messages=list(self._messages), tools=tools, temperature=self._temperature
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
        self._messages.append(ChatMessage(role="assistant", content=self._give_up))
        return Reply(
            text=self._give_up,
            tool_calls=tuple(calls),
            usage=usage,
            metadata=dict(self._give_up_metadata),
        )

    def snapshot(self) -> JsonValue:
        """Return the conversation so far, as plain JSON."""
        return _MESSAGES.dump_python(self._messages, mode="json")

    def restore(self, state: JsonValue) -> None:
        """Go back to a conversation from `snapshot()`."""
        self._messages = _MESSAGES.validate_python(state)

    async def aclose(self) -> None:
        """Release nothing: the model and the environment belong to the caller."""

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

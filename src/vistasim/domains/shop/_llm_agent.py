"""The shop's LLM support agent: OpenAI-style tool calling with the written policy as its prompt.

Works with any `ChatModel` (an OpenAI-compatible endpoint or a scripted fake). Each user turn runs a
bounded loop: ask the model, execute the tool calls it requests against the shop, feed the results
back, until it answers in text. Its state is the message list, so it can be snapshotted as JSON.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Literal

from pydantic import JsonValue, TypeAdapter

from vistasim.agent._types import Reply, Turn
from vistasim.env import SqliteEnvironment
from vistasim.events import ToolCall
from vistasim.llm._types import ChatMessage, ChatModel, ChatRequest, ModelToolCall
from vistasim.llm._usage import TokenUsage

__all__ = ["LLMShopAgent", "system_prompt"]

_MESSAGES = TypeAdapter(list[ChatMessage])
GAVE_UP = "I'm sorry, I couldn't finish that just now. Could you say again what you need?"


def system_prompt() -> str:
    """The agent's instructions: the shop's policy plus how to use the tools."""
    policy = resources.files("vistasim.domains.shop").joinpath("policy.md").read_text("utf-8")
    return (
        f"{policy}\n\n## Working with tools\n"
        "- Call tools to look things up and to make changes; report their errors honestly.\n"
        "- Amounts are in cents in tool results; tell customers dollars.\n"
        "- Ask for one missing detail at a time."
    )


class LLMShopAgent:
    """A tool-calling LLM agent for the shop; one instance per episode.

    Args:
        env: The shop environment whose tools it calls.
        model: The chat model that decides what to say and which tools to call.
        max_tool_rounds: Model calls per user turn before the agent gives up on the turn.
    """

    restore_strategy: Literal["state"] = "state"

    def __init__(
        self, env: SqliteEnvironment, model: ChatModel, *, max_tool_rounds: int = 6
    ) -> None:
        self.env = env
        self.model = model
        self.max_tool_rounds = max_tool_rounds
        self._messages: list[ChatMessage] = [ChatMessage(role="system", content=system_prompt())]

    async def respond(self, turn: Turn) -> Reply:
        """Answer one user message, running the tools the model asks for."""
        self._messages.append(ChatMessage(role="user", content=turn.message))
        calls: list[ToolCall] = []
        usage = TokenUsage()
        tools = self.env.agent_tools()
        for _ in range(self.max_tool_rounds):
            response = await self.model.complete(ChatRequest(messages=self._messages, tools=tools))
            usage = usage + response.usage
            self._messages.append(
                ChatMessage(
                    role="assistant",
                    content=response.text or None,
                    tool_calls=response.tool_calls,
                )
            )
            if not response.tool_calls:
                return Reply(text=response.text, tool_calls=tuple(calls), usage=usage)
            for request in response.tool_calls:
                calls.append(self._run(request))
        self._messages.append(ChatMessage(role="assistant", content=GAVE_UP))
        return Reply(
            text=GAVE_UP,
            tool_calls=tuple(calls),
            usage=usage,
            metadata={"gave_up": "max_tool_rounds"},
        )

    def _run(self, request: ModelToolCall) -> ToolCall:
        try:
            args = json.loads(request.arguments or "{}")
        except json.JSONDecodeError as exc:
            args, error = {}, f"arguments are not valid JSON ({exc.msg}); send a JSON object"
            result = None
        else:
            outcome = self.env.run_tool(
                "agent", request.name, args if isinstance(args, dict) else {"_": args}
            )
            result, error = outcome.result, outcome.error
        content = json.dumps({"error": error} if error else {"result": result})
        self._messages.append(ChatMessage(role="tool", content=content, tool_call_id=request.id))
        return ToolCall(
            name=request.name,
            args=args if isinstance(args, dict) else {},
            result=result,
            error=error,
            call_id=request.id,
        )

    def snapshot(self) -> JsonValue:
        """The conversation so far, as JSON."""
        return _MESSAGES.dump_python(self._messages, mode="json")

    def restore(self, state: JsonValue) -> None:
        """Go back to a conversation from `snapshot()`."""
        self._messages = _MESSAGES.validate_python(state)

    async def aclose(self) -> None:
        """Nothing to release: the model and the environment belong to the caller."""

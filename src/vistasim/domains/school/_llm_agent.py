"""An LLM student-services agent: OpenAI-style tool calling with the written policy as prompt.

It keeps the whole chat (system, user, assistant, tool messages) as its state, so a snapshot is
just that list; each student message starts a bounded loop of model calls and tool runs.
"""

from __future__ import annotations

import json
from importlib import resources

from pydantic import JsonValue, TypeAdapter

from vistasim.agent._types import Reply, RestoreStrategy, Turn
from vistasim.env._types import Environment
from vistasim.errors import AgentError
from vistasim.events import ToolCall
from vistasim.llm._types import ChatMessage, ChatModel, ChatRequest, ModelCallFailed, ModelToolCall
from vistasim.llm._usage import TokenUsage

_MESSAGES = TypeAdapter(list[ChatMessage])
GIVE_UP = (
    "Sorry — I couldn't finish that request. Please try again, or ask me to pass you to an advisor."
)


def system_prompt() -> str:
    """The agent's instructions: the role and the school's written policy."""
    policy = resources.files(__package__).joinpath("policy.md").read_text(encoding="utf-8")
    return (
        "You are the Student Services support agent of Northgate University, chatting with a "
        "student. Use the tools to read and change records; never invent ids, dates or amounts. "
        "Follow this policy exactly.\n\n" + policy
    )


class LLMSchoolAgent:
    """The school's support agent driven by a chat model with tool calling."""

    restore_strategy: RestoreStrategy = "state"

    def __init__(self, env: Environment, model: ChatModel, *, max_tool_rounds: int = 6) -> None:
        self.env = env
        self.model = model
        self.max_tool_rounds = max_tool_rounds
        self._messages = [ChatMessage(role="system", content=system_prompt())]

    async def respond(self, turn: Turn) -> Reply:
        """Answer one student message, running the tools the model asks for."""
        self._messages.append(ChatMessage(role="user", content=turn.message))
        calls: list[ToolCall] = []
        usage = TokenUsage()
        tools = self.env.agent_tools()
        for _ in range(self.max_tool_rounds):
            request = ChatRequest(messages=list(self._messages), tools=tools, temperature=0.0)
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
        self._messages.append(ChatMessage(role="assistant", content=GIVE_UP))
        return Reply(
            text=GIVE_UP,
            tool_calls=tuple(calls),
            usage=usage,
            metadata={"stopped": "max_tool_rounds"},
        )

    async def _run(self, model_call: ModelToolCall) -> ToolCall:
        try:
            args = json.loads(model_call.arguments or "{}")
        except json.JSONDecodeError as exc:
            args, error = {}, f"arguments are not valid JSON ({exc.msg}); send a JSON object"
        else:
            error = None if isinstance(args, dict) else "arguments must be a JSON object"
        if error is None:
            outcome = await self.env.call_tool(model_call.name, args)
            result, error = outcome.result, outcome.error
        else:
            args, result = {}, None
        payload = {"error": error} if error else {"result": result}
        self._messages.append(
            ChatMessage(role="tool", content=json.dumps(payload), tool_call_id=model_call.id)
        )
        return ToolCall(
            name=model_call.name, args=args, result=result, error=error, call_id=model_call.id
        )

    def snapshot(self) -> JsonValue:
        """The chat so far, as plain JSON."""
        return _MESSAGES.dump_python(self._messages, mode="json")

    def restore(self, state: JsonValue) -> None:
        """Resume from a `snapshot()`."""
        self._messages = _MESSAGES.validate_python(state)

    async def aclose(self) -> None:
        """Nothing to release: the model and environment belong to the caller."""

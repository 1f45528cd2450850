"""Turn any chat model plus an environment into an agent under test: the tool-calling loop.

Most support agents are a model, a system prompt and tools. Given those, vistasim can play the
agent itself: each user turn asks the model, runs every tool call it requests against the
episode's environment (malformed arguments are fed back as errors, never run), sends the results
back as `tool` messages and asks again until the model answers in text. The same loop serves a
bare model behind an OpenAI-compatible endpoint (`kind = "openai_chat"` with `tools`) and the
built-in LLM agents of the domains. Its state is the message list, so a snapshot is plain JSON and
a branch restores it.

Without an environment nothing can run the tools: tool calls the model reports are recorded as the
agent's own trace (a gateway that runs its tools itself), and a reply with no text is an error.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import JsonValue, TypeAdapter

from vistasim.agent._replies import parse_tool_args
from vistasim.agent._requests import digest_request
from vistasim.agent._types import Reply, RestoreStrategy, Turn, Utterance
from vistasim.env import Environment
from vistasim.errors import AgentError, MissingExtraError
from vistasim.events import RequestDigest, ToolCall
from vistasim.llm import TokenUsage
from vistasim.llm._types import (
    ChatMessage,
    ChatModel,
    ChatRequest,
    ChatResponse,
    ModelCallFailed,
    ModelToolCall,
    ToolSpec,
)

__all__ = ["ModelAgent"]

_MESSAGES = TypeAdapter(list[ChatMessage])


class ModelAgent:
    """A chat model with tools, played as the agent under test; one instance per episode.

    Args:
        model: Any `ChatModel`: `vistasim.llm.OpenAIChatModel` for an OpenAI-compatible
            endpoint, a run's metered model, or a test fake.
        env: The episode's environment; the model's tool calls run against it.
        system_prompt: The system message, sent first in every request.
        tools: Tool schemas to offer; `None`: the environment's agent tools (none without one).
        temperature: Sampling temperature of every call (`None`: the model's default).
        seed: Sampling seed of every call, for models that honour it.
        max_tool_rounds: Model calls per user turn that may ask for tools.
        give_up: The reply when a turn runs out of tool rounds; `None`: an `AgentError`.
    """

    restore_strategy: RestoreStrategy = "state"

    def __init__(
        self,
        model: ChatModel,
        *,
        env: Environment | None = None,
        system_prompt: str | None = None,
        tools: Sequence[ToolSpec] | None = None,
        temperature: float | None = None,
        seed: int | None = None,
        max_tool_rounds: int = 8,
        give_up: Reply | None = None,
    ) -> None:
        self.env = env
        self.model = model
        self.max_tool_rounds = max_tool_rounds
        self.tools: tuple[ToolSpec, ...] = (
            tuple(tools) if tools is not None else tuple(env.agent_tools() if env else ())
        )
        """The tool schemas sent with every request."""
        self._temperature = temperature
        self._seed = seed
        self._give_up = give_up
        self._messages: list[ChatMessage] = []
        self._digests: list[RequestDigest] = []
        """Digests of this turn's requests so far (empty when the bundled tokenizer is missing)."""
        self._digesting = True
        if system_prompt:
            self._messages.append(ChatMessage(role="system", content=system_prompt))

    @property
    def runs_tools(self) -> bool:
        """Tell whether tool calls are executed (tools offered and an environment to run them)."""
        return self.env is not None and bool(self.tools)

    async def respond(self, turn: Turn) -> Reply:
        """Answer one user message, running the tools the model asks for.

        Raises:
            AgentError: the model failed, gave an empty reply, or needed more tool rounds than
                `max_tool_rounds` (unless `give_up` is set).
        """
        self._catch_up(turn.history)
        self._messages.append(ChatMessage(role="user", content=turn.message))
        calls: list[ToolCall] = []
        usage = TokenUsage()
        self._digests = []
        for _ in range(self.max_tool_rounds):
            response = await self._complete()
            usage = usage + response.usage
            if not response.tool_calls or not self.runs_tools:
                return self._final(response, calls, usage)
            self._messages.append(
                ChatMessage(
                    role="assistant", content=response.text or None, tool_calls=response.tool_calls
                )
            )
            for model_call in response.tool_calls:
                calls.append(await self._run(model_call))
        return self._out_of_rounds(calls, usage)

    def snapshot(self) -> JsonValue:
        """Return the conversation so far (tool calls and results included), as plain JSON."""
        state: JsonValue = _MESSAGES.dump_python(self._messages, mode="json")
        return state

    def restore(self, state: JsonValue) -> None:
        """Go back to a conversation from `snapshot()`."""
        self._messages = _MESSAGES.validate_python(state)

    async def aclose(self) -> None:
        """Release nothing: the model and the environment belong to the caller."""
        return

    def _catch_up(self, history: Sequence[Utterance]) -> None:
        # A fresh agent handed a conversation in progress (an old run resumed) starts from its
        # text; normally the agent's own messages already hold it, tool results included.
        if history and not any(m.role == "user" for m in self._messages):
            self._messages += [
                ChatMessage(role="user" if u.role == "user" else "assistant", content=u.text)
                for u in history
            ]

    async def _complete(self) -> ChatResponse:
        request = ChatRequest(
            messages=list(self._messages),
            tools=list(self.tools),
            temperature=self._temperature,
            seed=self._seed,
        )
        try:
            response = await self.model.complete(request)
        except ModelCallFailed as exc:
            raise AgentError(f"the agent's model failed: {exc}", status=exc.status) from exc
        self._digest(request, response)
        return response

    def _digest(self, request: ChatRequest, response: ChatResponse) -> None:
        # The digests only feed DIVERT's efficiency metrics: without the `embed` extra (the
        # bundled tokenizer) the agent still plays, its replies just carry none.
        if not self._digesting:
            return
        try:
            digest = digest_request(
                request.messages, request.tools, response.text, response.tool_calls
            )
        except MissingExtraError:
            self._digesting = False
            return
        self._digests.append(digest)

    def _final(self, response: ChatResponse, calls: list[ToolCall], usage: TokenUsage) -> Reply:
        trace = () if self.runs_tools else tuple(_traced(c) for c in response.tool_calls)
        if not response.text.strip() and not calls:
            raise AgentError(_empty_reply(response, trace, self.env is not None), tool_calls=trace)
        self._messages.append(ChatMessage(role="assistant", content=response.text))
        return Reply(
            text=response.text,
            tool_calls=(*calls, *trace),
            usage=usage if usage != TokenUsage() else None,
            metadata=_metadata(response),
            requests=tuple(self._digests),
        )

    def _out_of_rounds(self, calls: list[ToolCall], usage: TokenUsage) -> Reply:
        if self._give_up is None:
            raise AgentError(
                f"the model still asked for tools after {self.max_tool_rounds} rounds in one turn "
                f"({len(calls)} tool calls); raise agent.max_tool_rounds if that many are expected",
                tool_calls=tuple(calls),
            )
        self._messages.append(ChatMessage(role="assistant", content=self._give_up.text))
        return Reply(
            text=self._give_up.text,
            tool_calls=tuple(calls),
            usage=usage,
            metadata=dict(self._give_up.metadata),
            requests=tuple(self._digests),
        )

    async def _run(self, model_call: ModelToolCall) -> ToolCall:
        assert self.env is not None
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


def _traced(call: ModelToolCall) -> ToolCall:
    return ToolCall(name=call.name, args=parse_tool_args(call.arguments), call_id=call.id)


def _empty_reply(response: ChatResponse, trace: tuple[ToolCall, ...], has_env: bool) -> str:
    reason = response.finish_reason
    message = f"empty reply: the model answered with no text (finish_reason {reason!r})"
    if not trace:
        return message
    names = ", ".join(sorted({c.name for c in trace}))
    fix = (
        "set agent.tools = 'environment' so vistasim runs them"
        if has_env
        else "add an [environment] and set agent.tools = 'environment' so vistasim runs them"
    )
    return f"{message} and asked for tools ({names}) that nothing runs; {fix}"


def _metadata(response: ChatResponse) -> dict[str, JsonValue]:
    fields = {"model": response.model, "finish_reason": response.finish_reason}
    return {key: value for key, value in fields.items() if value}


def _parse_arguments(raw: str) -> tuple[dict[str, Any], str | None]:
    """Read a tool call's JSON arguments; return them, or the raw text and an error for the model.

    Malformed arguments are recorded as sent (`{"_raw": text}`, as `parse_tool_args` keeps
    them): a model that writes broken JSON is a finding, and `{}` would hide what it wrote.

    >>> _parse_arguments('{"order_id": "W1')
    ({'_raw': '{"order_id": "W1'}, 'arguments are not valid JSON (Unterminated string starting at); send a JSON object')
    """  # noqa: E501
    try:
        args = json.loads(raw or "{}")
    except json.JSONDecodeError as exc:
        return {"_raw": raw}, f"arguments are not valid JSON ({exc.msg}); send a JSON object"
    if not isinstance(args, dict):
        return {"_raw": raw}, "arguments must be a JSON object"
    return args, None

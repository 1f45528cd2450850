"""Play a Python agent as a tool-calling model behind the fake OpenAI-compatible server.

To test the model-as-agent path against a known agent, the fake server must answer the way a real
tool-using model does: `content: null` with `tool_calls`, then, once the client sends the results
back as `tool` messages, the next call or the text reply. `tool_calling_responder` does that for
any agent written against an environment (the built-in rule agents): each request replays the
whole conversation to a fresh agent whose "environment" only hands back the tool results already
in the request. The first tool call without a result becomes the answer; a turn that needs no
more tools answers with the agent's text. The same agent as a Python class and as this "model"
must therefore earn the same verdicts.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

from pydantic import JsonValue

from vistasim.agent import Turn, Utterance
from vistasim.env import ToolOutcome

__all__ = ["ReplayedTools", "tool_calling_responder"]


class _NeedsTool(Exception):
    def __init__(self, name: str, args: dict[str, JsonValue]) -> None:
        super().__init__(name)
        self.name = name
        self.arguments = args  # not `args`: BaseException owns that name


class ReplayedTools:
    """A stand-in environment that returns recorded tool results, in order.

    It offers `run_tool(side, name, args)` (as `SqliteEnvironment` does) and `call_tool(name,
    args)`; a call past the recorded ones interrupts the agent so the responder can ask for it.
    """

    def __init__(self, recorded: list[tuple[str, ToolOutcome]]) -> None:
        self._recorded = recorded
        self.used = 0
        """Recorded results handed out so far."""

    def run_tool(self, side: str, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Return the next recorded result, or interrupt the agent to ask for this call."""
        if self.used == len(self._recorded):
            raise _NeedsTool(name, args)
        recorded_name, outcome = self._recorded[self.used]
        if recorded_name != name:
            raise RuntimeError(
                f"replay diverged: the agent called {name!r} where the conversation has "
                f"{recorded_name!r}; is the agent deterministic?"
            )
        self.used += 1
        return outcome

    async def call_tool(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Async form of `run_tool`, for agents that await their tools."""
        return self.run_tool("agent", name, args)


def tool_calling_responder(make_agent: Callable[[ReplayedTools], Any]) -> Any:
    """Return a `FakeOpenAIServer` responder playing `make_agent(tools)` as a tool-calling model.

    `make_agent` builds the agent on the stand-in environment, e.g.
    `lambda tools: RuleShopAgent(env=tools)`; its `respond(turn)` may be sync or async.
    """

    async def respond(request: dict[str, Any]) -> str | dict[str, Any]:
        messages = request.get("messages") or []
        tools = ReplayedTools(_recorded_results(messages))
        agent = make_agent(tools)
        turns = _user_turns(messages)
        for index, turn in enumerate(turns):
            before = tools.used
            try:
                reply = agent.respond(turn)
                reply = await reply if inspect.isawaitable(reply) else reply
            except _NeedsTool as need:
                if index != len(turns) - 1:
                    return {"error_status": 500, "body": "replay diverged in an earlier turn"}
                return _tool_call_message(need, tools.used - before + 1)
        return reply.text if turns else "Hello! How can I help?"

    return respond


def _recorded_results(messages: list[dict[str, Any]]) -> list[tuple[str, ToolOutcome]]:
    names: dict[str, str] = {}
    recorded: list[tuple[str, ToolOutcome]] = []
    for message in messages:
        for call in message.get("tool_calls") or []:
            names[call.get("id", "")] = call["function"]["name"]
        if message.get("role") == "tool":
            name = names.get(message.get("tool_call_id") or "", "")
            recorded.append((name, _outcome(message.get("content"))))
    return recorded


def _outcome(content: Any) -> ToolOutcome:
    try:
        data = json.loads(content or "null")
    except (TypeError, ValueError):
        return ToolOutcome(result=content)
    if isinstance(data, dict) and set(data) == {"error"}:
        return ToolOutcome(error=str(data["error"]))
    if isinstance(data, dict) and set(data) == {"result"}:
        return ToolOutcome(result=data["result"])
    return ToolOutcome(result=data)


def _user_turns(messages: list[dict[str, Any]]) -> list[Turn]:
    turns: list[Turn] = []
    history: list[Utterance] = []
    for message in messages:
        role, content = message.get("role"), message.get("content")
        if role == "user":
            turns.append(Turn(episode_id="replay", message=content or "", history=tuple(history)))
            history.append(Utterance(role="user", text=content or ""))
        elif role == "assistant" and content and not message.get("tool_calls"):
            history.append(Utterance(role="agent", text=content))
    return turns


def _tool_call_message(need: _NeedsTool, number: int) -> dict[str, Any]:
    call = {
        "id": f"call_{number}",
        "type": "function",
        "function": {"name": need.name, "arguments": json.dumps(need.arguments)},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}

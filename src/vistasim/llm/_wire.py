"""The OpenAI chat-completions wire format of our request types, written once for every client.

Both HTTP clients speak it: the `openai`-SDK model of the roles (user, judge, ...) and the plain
HTTP client of an agent under test served as an OpenAI-compatible model.
"""

from __future__ import annotations

from typing import Any

from vistasim.llm._types import ChatMessage, ToolSpec

__all__ = ["message_param", "tool_param"]


def message_param(message: ChatMessage) -> dict[str, Any]:
    """Return one message as the endpoint expects it, without `None` fields.

    >>> message_param(ChatMessage(role="tool", content="ok", tool_call_id="c1"))
    {'role': 'tool', 'content': 'ok', 'tool_call_id': 'c1'}
    """
    param: dict[str, Any] = {"role": message.role}
    if message.content is not None:
        param["content"] = message.content
    elif message.role != "assistant":
        param["content"] = ""  # only assistant messages may omit content
    if message.tool_calls:
        param["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in message.tool_calls
        ]
    if message.tool_call_id is not None:
        param["tool_call_id"] = message.tool_call_id
    return param


def tool_param(tool: ToolSpec) -> dict[str, Any]:
    """Return a tool as an OpenAI `{"type": "function", "function": {...}}` entry."""
    function: dict[str, Any] = {"name": tool.name, "parameters": tool.parameters}
    if tool.description:
        function["description"] = tool.description
    return {"type": "function", "function": function}

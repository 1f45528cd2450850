"""Honour `tool_choice` in the fake server the way OpenAI-compatible servers do.

A request with `tool_choice = "required"` (or naming one function) must come back as a tool call:
that is what the preflight asks of an agent served as a model, to tell a server that honours
`tools` from one that silently drops them. A responder written for conversations seldom answers
such a request with a call, so the fake server makes one itself, to the named (else the first)
tool, with arguments built from its JSON schema.
"""

from __future__ import annotations

import json
from typing import Any

from vistasim.testing._schema_example import example_for_schema

__all__ = ["forced_tool_call", "requires_tool_call"]


def requires_tool_call(request: dict[str, Any]) -> bool:
    """Tell whether the request offers tools and demands that one be called."""
    choice = request.get("tool_choice")
    demanded = choice == "required" or (isinstance(choice, dict) and "function" in choice)
    return demanded and bool(request.get("tools"))


def forced_tool_call(request: dict[str, Any]) -> dict[str, Any]:
    """An answer that calls the named tool (else the first), with arguments from its schema."""
    choice = request.get("tool_choice")
    named = choice.get("function", {}).get("name") if isinstance(choice, dict) else None
    functions = [t.get("function", {}) for t in request["tools"] if isinstance(t, dict)]
    function = next((f for f in functions if f.get("name") == named), functions[0])
    schema = function.get("parameters") or {"type": "object"}
    call = {
        "id": "call_required",
        "type": "function",
        "function": {
            "name": function.get("name", "tool"),
            "arguments": json.dumps(example_for_schema(schema, schema)),
        },
    }
    return {"content": None, "tool_calls": [call]}

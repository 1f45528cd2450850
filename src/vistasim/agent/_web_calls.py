"""Read the tool calls a chat widget's agent made, from the widget's network answers or its DOM.

The built-in domains' widgets answer `{reply, tool_calls}` from their chat request; other widgets
may put the calls on the agent message as a JSON attribute. Both are read here; a `TraceSource`
covers widgets that show neither.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import anyio

from vistasim.agent._python import coerce_tool_call
from vistasim.errors import AgentError
from vistasim.events import ToolCall

if TYPE_CHECKING:
    from playwright.async_api import Response


def glob_to_regex(glob: str) -> re.Pattern[str]:
    """Compile a Playwright-style URL glob: `**` any text, `*` any text without `/`.

    >>> bool(glob_to_regex("**/api/chat").fullmatch("http://127.0.0.1:8000/api/chat"))
    True
    >>> bool(glob_to_regex("**/api/*").fullmatch("http://h/api/chat/extra"))
    False
    """
    parts = re.split(r"(\*\*|\*)", glob)
    tokens = {"**": ".*", "*": "[^/]*"}
    return re.compile("".join(tokens.get(part, re.escape(part)) for part in parts))


async def network_tool_calls(
    responses: Sequence[Response], deadline: float
) -> tuple[bool, tuple[ToolCall, ...]]:
    """Read `tool_calls` from the widget's answers this turn; (False, ()) if none has them."""
    found, calls = False, []
    for response in list(responses):
        body = None
        # A streamed answer (SSE) may never finish: read what finishes within the turn.
        with anyio.move_on_after(max(0.0, deadline - time.monotonic())):
            body = await response.text()
        try:
            data = json.loads(body or "")
        except ValueError:
            continue  # not JSON: this widget reports its tool calls elsewhere, if at all
        if isinstance(data, dict) and "tool_calls" in data:
            found = True
            calls += coerce_calls(data["tool_calls"], f"the answer of {response.url}")
    return found, tuple(calls)


def attribute_tool_calls(attrs: Sequence[str | None]) -> tuple[ToolCall, ...]:
    """Read the tool calls agent messages carry as JSON attributes (empty ones are skipped)."""
    return tuple(c for raw in attrs if raw for c in _parse_calls(raw, "the agent message"))


def _parse_calls(raw: str, where: str) -> list[ToolCall]:
    try:
        items = json.loads(raw)
    except ValueError:
        raise AgentError(f"{where} reports tool calls that are not JSON: {raw[:80]!r}") from None
    return coerce_calls(items, where)


def coerce_calls(items: Any, where: str) -> list[ToolCall]:
    """Turn a reported list of `{name, args, result, error}` into `ToolCall` values.

    Raises:
        AgentError: The report is not a list.
    """
    if items is None:
        return []
    if not isinstance(items, list):
        raise AgentError(
            f"{where} reports tool_calls as {type(items).__name__}, not a list of "
            "{name, args, result, error}"
        )
    return [coerce_tool_call(item) for item in items]

"""Turn what an agent reports (a reply, tool calls) into events, or an `AgentError`.

Agents report in many shapes: a `Reply`, a plain string, a dict with `text` and `tool_calls`, tool
calls as dicts with `args` or `arguments`, arguments as a mapping or as JSON text. The adapters
(Python, HTTP JSON, the web widget's trace) all normalize through these functions, so a shape is
accepted or refused the same way everywhere, with an error that names the fix.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from vistasim.agent._types import Reply
from vistasim.errors import AgentError
from vistasim.events import ToolCall
from vistasim.llm import TokenUsage

__all__ = ["coerce_tool_call", "normalize_reply", "parse_tool_args"]

_REPLY_KEYS = ("text", "tool_calls", "usage", "metadata")


def coerce_tool_call(item: Any) -> ToolCall:
    """Turn a reported tool call (`ToolCall` or `{name, args, result, error}`) into an event.

    `args` may be a mapping or JSON text (unparsable text is kept as `{"_raw": text}`); `arguments`
    and `id` are accepted as aliases of `args` and `call_id`. Unknown keys are ignored.

    Raises:
        AgentError: the item has no string `name` or holds values that are not JSON.
    """
    if isinstance(item, ToolCall):
        return item
    if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
        raise AgentError(
            f"tool call {_short(item)} is not a mapping with a string 'name'; report tool calls "
            "as {name, args, result, error}"
        )
    raw_args = item.get("args", item.get("arguments"))
    call_id = item.get("call_id", item.get("id"))
    try:
        return ToolCall(
            name=item["name"],
            args=_arrays(parse_tool_args(raw_args)),
            result=_arrays(item.get("result")),
            error=None if item.get("error") is None else str(item["error"]),
            call_id=None if call_id is None else str(call_id),
        )
    except ValidationError as exc:
        raise AgentError(f"tool call {item['name']!r} is not valid JSON data: {exc}") from None


def _arrays(value: Any) -> Any:
    """The value with its tuples as lists: JSON arrays, as `json.dumps` writes them.

    A tool that returns `("09:00", "13:00")` returned JSON in every sense its author meant; a
    set or an object is still refused (JSON has no reading of it).
    """
    if isinstance(value, tuple | list):
        return [_arrays(item) for item in value]
    if isinstance(value, dict):
        return {key: _arrays(item) for key, item in value.items()}
    return value


def parse_tool_args(raw: Any) -> dict[str, Any]:
    """Parse tool arguments given as a mapping, JSON text or nothing; keep bad text as `_raw`."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, Mapping):
        return dict(raw)
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw)
        except ValueError:
            return {"_raw": raw}
        return parsed if isinstance(parsed, dict) else {"_raw": raw}
    return {"_raw": _short(raw)}


def normalize_reply(raw: Any, *, agent: str = "agent") -> Reply:
    """Turn what a Python agent returned into a `Reply`.

    Accepts a `Reply` (its tool calls as `ToolCall`s or as dicts), a non-empty `str`, or a
    mapping with a `text` string and optional `tool_calls`, `usage` and `metadata`.

    Raises:
        AgentError: anything else (None, numbers, empty text, unknown keys).
    """
    if isinstance(raw, Reply):
        # A Reply's tool calls may be reported as dicts too: the same shapes as everywhere.
        if all(isinstance(call, ToolCall) for call in raw.tool_calls):
            return raw
        if not isinstance(raw.tool_calls, list | tuple):
            raise AgentError(f"{agent} returned tool_calls as {type(raw.tool_calls).__name__}")
        calls = tuple(coerce_tool_call(item) for item in raw.tool_calls)
        return replace(raw, tool_calls=calls)
    if isinstance(raw, str):
        if not raw.strip():
            raise AgentError(
                f"{agent} returned an empty str; return a non-empty str or vistasim.agent.Reply"
            )
        return Reply(text=raw)
    if isinstance(raw, Mapping) and isinstance(raw.get("text"), str):
        return _reply_from_mapping(raw, agent)
    raise AgentError(
        f"{agent} returned {type(raw).__name__} ({_short(raw)}); "
        "return a str or vistasim.agent.Reply",
        body=_short(raw, 2000),
    )


def _reply_from_mapping(raw: Mapping[str, Any], agent: str) -> Reply:
    unknown = sorted(str(key) for key in raw if key not in _REPLY_KEYS)
    if unknown:
        raise AgentError(
            f"{agent} returned a dict with unknown keys {unknown!r}; allowed: {list(_REPLY_KEYS)}"
        )
    calls = raw.get("tool_calls") or []
    if not isinstance(calls, list | tuple):
        raise AgentError(f"{agent} returned tool_calls as {type(calls).__name__}; use a list")
    tool_calls = tuple(coerce_tool_call(item) for item in calls)
    if not raw["text"].strip() and not tool_calls:
        raise AgentError(f"{agent} returned empty text and no tool calls; return a reply text")
    try:
        usage = None if raw.get("usage") is None else TokenUsage.model_validate(raw["usage"])
    except ValidationError as exc:
        raise AgentError(f"{agent} returned usage that is not token counts: {exc}") from None
    metadata = raw.get("metadata") or {}
    if not isinstance(metadata, Mapping):
        raise AgentError(f"{agent} returned metadata as {type(metadata).__name__}; use a dict")
    return Reply(text=raw["text"], tool_calls=tool_calls, usage=usage, metadata=dict(metadata))


def _short(value: Any, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."

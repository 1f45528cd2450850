"""Request digests: the model requests of an agent, reduced to token counts and prefix hashes.

DIVERT's efficiency (docs/architecture.md, Metrics) counts the agent's tokens and how much of
each request it shares, byte for byte, with an earlier request of another episode. A
`RequestDigest` keeps just that: the request's input and output tokens, the tokens of its
fixed head (system prompt and tool schemas), and at each message boundary a chained hash of
everything up to there with the cumulative tokens. Two requests share a prefix up to a
boundary exactly when their hashes there are equal.

`digest_request` digests a real request (what `ModelAgent` sends); `proxy_requests` builds the
requests an LLM agent would have received to play one turn of a rule agent that made no model
call. Both serialize messages in the OpenAI chat format as sorted-key JSON, so the same
conversation always gives the same bytes and the same hashes, and count tokens with the bundled
tokenizer (`count_tokens`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vistasim.agent._tokens import count_tokens
from vistasim.events import AgentReply, Event, RequestDigest, ToolCall, UserMessage
from vistasim.llm import ChatMessage, ModelToolCall, ToolSpec
from vistasim.llm._wire import message_param, tool_param

__all__ = ["PastTurn", "RequestDigest", "digest_request", "past_turns", "proxy_requests"]

MessageLike = ChatMessage | Mapping[str, Any]
"""A chat message: a `ChatMessage`, or a dict already in the OpenAI chat format."""


@dataclass(frozen=True)
class PastTurn:
    """One earlier turn of a conversation: the user's message, the agent's tool calls, its reply."""

    user: str
    tool_calls: tuple[ToolCall, ...] = ()
    reply: str = ""


def digest_request(
    messages: Sequence[MessageLike],
    tools: Sequence[ToolSpec],
    output_text: str = "",
    output_tool_calls: Sequence[ModelToolCall | ToolCall] = (),
) -> RequestDigest:
    """Digest one model request and the output it got.

    The head is the leading system message(s) and the tools' JSON schemas; every later message
    adds one prefix boundary.

    Args:
        messages: The request's messages, oldest first.
        tools: The tool schemas sent with it.
        output_text: The text the model answered.
        output_tool_calls: The tool calls the model asked for (raw `ModelToolCall`s, or recorded
            `ToolCall`s whose arguments are then serialized as sorted-key JSON).
    """
    params = [_param(m) for m in messages]
    split = next((i for i, p in enumerate(params) if p.get("role") != "system"), len(params))
    head = [_canonical(p) for p in params[:split]]
    head.append(_canonical([tool_param(t) for t in tools]))
    hash_ = ""
    for part in head:
        hash_ = _chain(hash_, part)
    head_tokens = sum(_message_tokens(p) for p in params[:split]) + sum(
        count_tokens(_canonical(tool_param(t))) for t in tools
    )
    total = head_tokens
    prefix = [(hash_, total)]
    for param in params[split:]:
        hash_ = _chain(hash_, _canonical(param))
        total += _message_tokens(param)
        prefix.append((hash_, total))
    output = count_tokens(output_text) + sum(_call_tokens(c) for c in output_tool_calls)
    return RequestDigest(
        input_tokens=total, output_tokens=output, head_tokens=head_tokens, prefix=prefix
    )


def proxy_requests(
    *,
    policy: str,
    tools: Sequence[ToolSpec],
    past: Sequence[PastTurn],
    message: str,
    tool_calls: Sequence[ToolCall],
    reply: str,
) -> list[RequestDigest]:
    """Return the requests an LLM agent would have received to play one turn, digested.

    For an agent that made no model call (a rule agent): request 1 holds the system prompt
    (`policy`), the tools and the conversation so far (each past turn as its user message, an
    assistant tool-call message and a tool-result message per tool call, then the reply) and the
    new user `message`; after each of this turn's tool calls one more request follows, extended by
    that call and its result. Each request's output is the next tool call, the last's the reply:
    `1 + len(tool_calls)` requests in all.
    """
    messages: list[MessageLike] = [{"role": "system", "content": policy}] if policy else []
    for index, turn in enumerate(past):
        messages.append({"role": "user", "content": turn.user})
        messages += _call_messages(turn.tool_calls, index)
        messages.append({"role": "assistant", "content": turn.reply})
    messages.append({"role": "user", "content": message})
    calls = _call_messages(tool_calls, len(past))
    digests = []
    for step in range(len(tool_calls) + 1):
        sent = messages + calls[: 2 * step]
        last = step == len(tool_calls)
        digests.append(
            digest_request(
                sent,
                tools,
                output_text=reply if last else "",
                output_tool_calls=() if last else (tool_calls[step],),
            )
        )
    return digests


def past_turns(events: Iterable[Event]) -> tuple[PastTurn, ...]:
    """Return the turns of a conversation from its events (user message, tool calls, reply).

    A user message the agent never answered (the agent failed) ends the turns read.
    """
    turns: list[PastTurn] = []
    user: str | None = None
    calls: list[ToolCall] = []
    for event in events:
        if isinstance(event, UserMessage):
            user, calls = event.text, []
        elif isinstance(event, ToolCall) and user is not None:
            calls.append(event)
        elif isinstance(event, AgentReply) and user is not None:
            turns.append(PastTurn(user=user, tool_calls=tuple(calls), reply=event.text))
            user, calls = None, []
    return tuple(turns)


def _call_messages(calls: Sequence[ToolCall], turn: int) -> list[MessageLike]:
    # Positional ids, not the agent's: the same conversation gives the same bytes in every episode.
    messages: list[MessageLike] = []
    for index, call in enumerate(calls):
        call_id = f"call_{turn}_{index}"
        function = {"name": call.name, "arguments": _json(call.args)}
        messages.append(
            {
                "role": "assistant",
                "tool_calls": [{"id": call_id, "type": "function", "function": function}],
            }
        )
        payload = {"error": call.error} if call.error else {"result": call.result}
        messages.append({"role": "tool", "content": _json(payload), "tool_call_id": call_id})
    return messages


def _param(message: MessageLike) -> Mapping[str, Any]:
    return message_param(message) if isinstance(message, ChatMessage) else message


def _message_tokens(param: Mapping[str, Any]) -> int:
    # What a chat template renders: the role, the text, each call's name and arguments.
    tokens = count_tokens(str(param.get("role", ""))) + count_tokens(param.get("content") or "")
    for call in param.get("tool_calls") or ():
        function = call.get("function", {})
        tokens += count_tokens(function.get("name", "")) + count_tokens(
            function.get("arguments", "")
        )
    return tokens


def _call_tokens(call: ModelToolCall | ToolCall) -> int:
    arguments = call.arguments if isinstance(call, ModelToolCall) else _json(call.args)
    return count_tokens(call.name) + count_tokens(arguments)


def _chain(previous: str, part: str) -> str:
    return hashlib.sha256((previous + part).encode()).hexdigest()[:16]


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)

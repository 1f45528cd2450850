"""The OpenAI chat-completions and embeddings wire format, written once for every caller.

Every role's model (user, judge, generator, chooser), the embedder and the `openai_chat` agent
under test build their bodies and read their answers here, so the typed shapes below are the one
statement of what vistasim sends and accepts. Reading is lenient where servers differ (content
as a list of parts, arguments as an object, a missing call id) and strict where an answer is
unusable: a `WireError` then says what is missing, and each caller turns it into its own error.
"""

from __future__ import annotations

import json
from typing import Any, Literal, NotRequired, TypedDict, cast

from vistasim.llm._types import ChatMessage, ChatRequest, ChatResponse, ModelToolCall, ToolSpec
from vistasim.llm._usage import TokenUsage

__all__ = [
    "ChatCompletionBody",
    "EmbeddingsBody",
    "MessageParam",
    "ToolParam",
    "WireError",
    "chat_body",
    "chat_body_json",
    "content_text",
    "json_text",
    "message_param",
    "read_completion",
    "read_embeddings",
    "read_usage",
    "tool_param",
]


class WireError(ValueError):
    """An answer that parsed as JSON but cannot be read as the endpoint's answer."""


class _FunctionCall(TypedDict):
    name: str
    arguments: str


class ToolCallParam(TypedDict):
    """One tool call of an assistant message."""

    id: str
    type: Literal["function"]
    function: _FunctionCall


class MessageParam(TypedDict):
    """One message of a request."""

    role: str
    content: NotRequired[str]
    tool_calls: NotRequired[list[ToolCallParam]]
    tool_call_id: NotRequired[str]


class _FunctionParam(TypedDict):
    name: str
    parameters: Any
    description: NotRequired[str]


class ToolParam(TypedDict):
    """A tool offered to the model."""

    type: Literal["function"]
    function: _FunctionParam


class ChatCompletionBody(TypedDict, total=False):
    """`POST /chat/completions`; `model` and `messages` are always set."""

    model: str
    messages: list[MessageParam]
    tools: list[ToolParam]
    response_format: Any
    temperature: float
    seed: int
    max_tokens: int
    max_completion_tokens: int


class EmbeddingsBody(TypedDict):
    """`POST /embeddings`."""

    model: str
    input: list[str]
    encoding_format: Literal["float"]
    dimensions: NotRequired[int]


def message_param(message: ChatMessage) -> MessageParam:
    """Return one message as the endpoint expects it, without `None` fields.

    >>> message_param(ChatMessage(role="tool", content="ok", tool_call_id="c1"))
    {'role': 'tool', 'content': 'ok', 'tool_call_id': 'c1'}
    """
    param: MessageParam = {"role": message.role}
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


def tool_param(tool: ToolSpec) -> ToolParam:
    """Return a tool as an OpenAI `{"type": "function", "function": {...}}` entry."""
    function: _FunctionParam = {"name": tool.name, "parameters": tool.parameters}
    if tool.description:
        function["description"] = tool.description
    return {"type": "function", "function": function}


def chat_body(
    model: str,
    request: ChatRequest,
    *,
    temperature: float | None = None,
    seed: int | None = None,
    max_tokens: int | None = None,
    tokens_field: Literal["max_tokens", "max_completion_tokens"] = "max_tokens",
) -> ChatCompletionBody:
    """Build a request body; the request's own sampling fields win over the defaults given.

    >>> chat_body("m", ChatRequest(messages=[]), seed=7, max_tokens=50)
    {'model': 'm', 'messages': [], 'seed': 7, 'max_tokens': 50}
    """
    body: dict[str, Any] = {
        "model": model,
        "messages": [message_param(m) for m in request.messages],
    }
    body.update(_options(request, temperature, seed, max_tokens, tokens_field))
    return cast(ChatCompletionBody, body)


def chat_body_json(
    model: str,
    request: ChatRequest,
    *,
    temperature: float | None = None,
    seed: int | None = None,
    max_tokens: int | None = None,
    tokens_field: Literal["max_tokens", "max_completion_tokens"] = "max_tokens",
) -> str:
    """`chat_body(...)` as the JSON text `httpx2` sends for it (`json=`), messages from a cache.

    Every turn resends the whole chat, and escaping its text again (`json.dumps` with
    `ensure_ascii=False`, ~6 ns a character: the system prompt alone is a kilobyte) was about a
    tenth of a model call's CPU. A message without tool calls is encoded once per role and text;
    the text is the same as `json_text(chat_body(...))`: with compact separators an object's JSON
    is its members' JSON joined by commas, in order.

    >>> chat_body_json("m", ChatRequest(messages=[ChatMessage(role="user", content="hé")]), seed=7)
    '{"model":"m","messages":[{"role":"user","content":"hé"}],"seed":7}'
    """
    options = _options(request, temperature, seed, max_tokens, tokens_field)
    messages = ",".join([_message_json(m) for m in request.messages])
    rest = "," + json_text(options)[1:] if options else "}"
    return '{"model":' + json_text(model) + ',"messages":[' + messages + "]" + rest


def json_text(value: object) -> str:
    """`value` as `httpx2` encodes a `json=` body (before UTF-8): compact, no ASCII escapes.

    >>> json_text({"a": [1, "é"]})
    '{"a":[1,"é"]}'
    """
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


_MESSAGE_JSON: dict[tuple[str, str | None], str] = {}
"""Each plain message's JSON by role and text (the one chat grows by a message or two a turn)."""
_MESSAGE_JSON_CHARS = [0]
_MESSAGE_JSON_MAX_CHARS = 1 << 23
"""Emptied when its texts pass this (~8 M characters): huge agent replies must not pile up."""


def _message_json(message: ChatMessage) -> str:
    if message.tool_calls or message.tool_call_id is not None:
        return json_text(message_param(message))
    key = (message.role, message.content)
    text = _MESSAGE_JSON.get(key)
    if text is None:
        text = json_text(message_param(message))
        if _MESSAGE_JSON_CHARS[0] + len(text) > _MESSAGE_JSON_MAX_CHARS:
            _MESSAGE_JSON.clear()
            _MESSAGE_JSON_CHARS[0] = 0
        _MESSAGE_JSON[key] = text
        _MESSAGE_JSON_CHARS[0] += len(text)
    return text


def _options(
    request: ChatRequest,
    temperature: float | None,
    seed: int | None,
    max_tokens: int | None,
    tokens_field: str,
) -> dict[str, Any]:
    """The body's members after `messages`, in order: the request's own sampling fields win."""
    options: dict[str, Any] = {}
    if request.tools:
        options["tools"] = [tool_param(t) for t in request.tools]
    if request.response_format is not None:
        options["response_format"] = request.response_format
    temperature = _first(request.temperature, temperature)
    if temperature is not None:
        options["temperature"] = temperature
    seed = _first(request.seed, seed)
    if seed is not None:
        options["seed"] = seed
    max_tokens = _first(request.max_tokens, max_tokens)
    if max_tokens is not None:
        options[tokens_field] = max_tokens
    return options


def read_completion(data: Any) -> ChatResponse:
    """Read the first choice of a chat-completions answer.

    Raises:
        WireError: the answer has no choices, no message, or a tool call without a name.
    """
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise WireError("the answer has no choices")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise WireError("choices[0] has no message")
    raw_calls = message.get("tool_calls") or []
    model = data.get("model")
    return ChatResponse(
        text=content_text(message.get("content")),
        tool_calls=[_tool_call(item, i) for i, item in enumerate(raw_calls)],
        usage=read_usage(data.get("usage")),
        model=model if isinstance(model, str) else "",
        finish_reason=_string(choices[0].get("finish_reason")),
    )


def read_embeddings(data: Any, expected: int) -> tuple[list[list[float]], TokenUsage]:
    """Read an embeddings answer: the vectors in input order, and the usage.

    Raises:
        WireError: the answer has no `data` list, a row has no vector, or the count is wrong.
    """
    rows = data.get("data") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not all(
        isinstance(r, dict) and isinstance(r.get("embedding"), list) for r in rows
    ):
        raise WireError("the answer has no data list of embeddings")
    if len(rows) != expected:
        raise WireError(f"returned {len(rows)} embeddings for {expected} texts")
    ordered = sorted(rows, key=lambda row: _count(row.get("index")))
    usage = read_usage(data.get("usage"))
    return [row["embedding"] for row in ordered], usage


def content_text(content: Any) -> str:
    """Read message content: a string, or a list of `{type: text, text}` parts.

    >>> content_text([{"type": "text", "text": "Ships "}, {"type": "text", "text": "today."}])
    'Ships today.'
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""


def read_usage(raw: Any) -> TokenUsage:
    """Read an OpenAI `usage` block; missing or malformed counts are 0."""
    if not isinstance(raw, dict):
        return TokenUsage()
    details = raw.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    return TokenUsage(
        input_tokens=_count(raw.get("prompt_tokens")),
        output_tokens=_count(raw.get("completion_tokens")),
        cached_tokens=_count(cached),
    )


def error_message(text: str) -> str:
    """The provider's own words from an error body: `error.message` when it is JSON.

    >>> error_message('{"error": {"message": "Rate limit reached", "type": "requests"}}')
    'Rate limit reached'
    >>> error_message("Bad Gateway")
    'Bad Gateway'
    """
    try:
        data = json.loads(text)
    except ValueError:
        return text
    error = data.get("error") if isinstance(data, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    return message if isinstance(message, str) and message else text


def _tool_call(item: Any, index: int) -> ModelToolCall:
    function = item.get("function") if isinstance(item, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        raise WireError(f"tool call {item!r:.200} has no function name")
    arguments = function.get("arguments")
    if isinstance(arguments, dict):  # some servers send an object, not JSON text
        arguments = json.dumps(arguments)
    call_id = item.get("id")
    return ModelToolCall(
        id=call_id if isinstance(call_id, str) and call_id else f"call_{index + 1}",
        name=function["name"],
        arguments=arguments if isinstance(arguments, str) else "",
    )


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _first(value: Any, default: Any) -> Any:
    return default if value is None else value

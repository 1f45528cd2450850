"""The model-facing data types and the one protocol every chat model implements."""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from vistasim.llm._usage import TokenUsage


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolSpec(_Frozen):
    """A function a model may call: name, description and JSON schema of its arguments."""

    name: str
    description: str = ""
    parameters: dict[str, JsonValue] = {"type": "object", "properties": {}}
    """JSON schema of the arguments object."""


class ModelToolCall(_Frozen):
    """A tool call requested by a model, arguments still as the raw JSON text it produced."""

    id: str
    name: str
    arguments: str
    """Raw JSON text; parse and validate before use."""


class ChatMessage(_Frozen):
    """One message of an OpenAI-style chat."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = None
    tool_calls: list[ModelToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    """For `tool` messages: the id of the call this answers."""


class ChatRequest(_Frozen):
    """Everything that defines a model call; its canonical JSON is the cache key."""

    messages: list[ChatMessage]
    tools: list[ToolSpec] = Field(default_factory=list)
    response_format: dict[str, JsonValue] | None = None
    """OpenAI `response_format`, e.g. `{"type": "json_object"}` or a `json_schema` block."""
    temperature: float | None = None
    seed: int | None = None
    max_tokens: int | None = None


class ChatResponse(_Frozen):
    """A model's answer."""

    text: str = ""
    tool_calls: list[ModelToolCall] = Field(default_factory=list)
    usage: TokenUsage = TokenUsage()
    model: str = ""
    """The model that answered, as the provider names it."""
    finish_reason: str | None = None


@runtime_checkable
class ChatModel(Protocol):
    """Anything that answers chat requests: an OpenAI-compatible endpoint or a test fake."""

    name: str
    """Model name, used in usage records and the price table."""

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """Answer one request. Raise `ModelCallFailed` for provider failures."""
        ...


class ModelCallFailed(Exception):
    """A single model call failed; `retryable` says whether backoff and retry may help."""

    def __init__(
        self,
        message: str,
        *,
        retryable: bool,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after
        """Seconds the provider asked to wait before retrying (`Retry-After`), if it said."""
        super().__init__(message)

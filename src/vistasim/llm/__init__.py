"""Model access: one `ChatModel` protocol, an OpenAI-compatible client, metering and caching."""

from vistasim.llm._meter import ModelCall, collect_calls, record_call
from vistasim.llm._types import (
    ChatMessage,
    ChatModel,
    ChatRequest,
    ChatResponse,
    ModelCallFailed,
    ModelToolCall,
    ToolSpec,
)
from vistasim.llm._usage import TokenUsage

ALLOW_REQUESTS = True
"""When False, the OpenAI-compatible client refuses any base URL that is not loopback (tests)."""

__all__ = [
    "ALLOW_REQUESTS",
    "ChatMessage",
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "ModelCall",
    "ModelCallFailed",
    "ModelToolCall",
    "TokenUsage",
    "ToolSpec",
    "collect_calls",
    "record_call",
]

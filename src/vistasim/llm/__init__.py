"""Model access: one `ChatModel` protocol, an OpenAI-compatible client, metering and caching."""

from vistasim.llm._cache import RequestCache
from vistasim.llm._embed import Embedder, WordLlamaEmbedder
from vistasim.llm._meter import ModelCall, collect_calls, record_call
from vistasim.llm._openai import DEFAULT_BASE_URL, OpenAIChatModel, is_loopback, read_api_key
from vistasim.llm._role import RoleModel, build_models, cost_usd
from vistasim.llm._structured import InvalidOutputError, complete_json
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
    "DEFAULT_BASE_URL",
    "Embedder",
    "InvalidOutputError",
    "ModelCall",
    "ModelCallFailed",
    "ModelToolCall",
    "OpenAIChatModel",
    "RequestCache",
    "RoleModel",
    "TokenUsage",
    "ToolSpec",
    "WordLlamaEmbedder",
    "build_models",
    "collect_calls",
    "complete_json",
    "cost_usd",
    "is_loopback",
    "read_api_key",
    "record_call",
]

"""Model access: one `ChatModel` protocol, one OpenAI-compatible client, metering and caching."""

from vistasim.llm._cache import RequestCache
from vistasim.llm._clients import HttpClients
from vistasim.llm._embed import Embedder, WordLlamaEmbedder
from vistasim.llm._endpoint import DEFAULT_BASE_URL, OpenAIEndpoint, is_loopback, read_api_key
from vistasim.llm._http import (
    BodyTooBig,
    EndpointTimeout,
    EndpointUnreachable,
    HttpAnswer,
    TransportError,
    exchange,
)
from vistasim.llm._meter import ModelCall, collect_calls, record_call
from vistasim.llm._openai import OpenAIChatModel
from vistasim.llm._role import RoleModel, backoff_delay, build_models, cost_usd
from vistasim.llm._structured import InvalidOutputError, complete_json
from vistasim.llm._transport import after_next_request
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
from vistasim.llm._wire import (
    ChatCompletionBody,
    EmbeddingsBody,
    WireError,
    chat_body,
    read_completion,
    read_embeddings,
)

ALLOW_REQUESTS = True
"""When False, the OpenAI-compatible client refuses any base URL that is not loopback (tests)."""

__all__ = [
    "ALLOW_REQUESTS",
    "BodyTooBig",
    "ChatCompletionBody",
    "ChatMessage",
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "DEFAULT_BASE_URL",
    "Embedder",
    "EmbeddingsBody",
    "EndpointTimeout",
    "EndpointUnreachable",
    "HttpAnswer",
    "HttpClients",
    "InvalidOutputError",
    "ModelCall",
    "ModelCallFailed",
    "ModelToolCall",
    "OpenAIChatModel",
    "OpenAIEndpoint",
    "RequestCache",
    "RoleModel",
    "TokenUsage",
    "ToolSpec",
    "TransportError",
    "WireError",
    "WordLlamaEmbedder",
    "after_next_request",
    "backoff_delay",
    "build_models",
    "chat_body",
    "collect_calls",
    "complete_json",
    "cost_usd",
    "exchange",
    "is_loopback",
    "read_api_key",
    "read_completion",
    "read_embeddings",
    "record_call",
]

"""Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint, through the async `openai` SDK.

The key is handled as `OpenAIChatModel` handles it: read from `environ[spec.api_key_env]` at each
call, never stored on the instance or put in an error message; loopback servers need none. Every
call is metered with `record_call` under the `embedder` role, like the chat roles' calls.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import anyio.lowlevel

from vistasim.config import ModelSpec, Price
from vistasim.errors import MissingExtraError, ModelError
from vistasim.llm import (
    DEFAULT_BASE_URL,
    ModelCall,
    TokenUsage,
    cost_usd,
    is_loopback,
    read_api_key,
    record_call,
)

if TYPE_CHECKING:
    import numpy as np
    import openai

__all__ = ["OpenAIEmbedder"]

_ROLE = "embedder"
"""Stand-in key for local servers that ignore it (the SDK refuses to run without one)."""


class OpenAIEmbedder:
    """An async embedder (`aembed`) on an OpenAI-compatible endpoint; rows come back unit length.

    Args:
        spec: Model name, `base_url`, `api_key_env`, `timeout_s` and `max_retries` (the SDK
            retries 429, 5xx and timeouts itself, with backoff).
        environ: Where the key is read at call time (default: `os.environ`).
        price: Price of the model, for the metered cost (default: free).
        dimensions: Ask the endpoint for shorter vectors (`text-embedding-3-*` support it).
    """

    def __init__(
        self,
        spec: ModelSpec,
        *,
        environ: Mapping[str, str] | None = None,
        price: Price | None = None,
        dimensions: int | None = None,
    ) -> None:
        if dimensions is not None and dimensions < 1:
            raise ValueError(f"dimensions must be 1 or more, got {dimensions}")
        self.spec = spec
        self.name = spec.model
        self.price = price
        self.dimensions = dimensions
        self._environ = os.environ if environ is None else environ
        self.base_url = spec.base_url or self._environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        """The endpoint this embedder calls."""
        self._client: openai.AsyncOpenAI | None = None
        self._client_loop: object = None

    async def aembed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts` in one request into unit rows of shape `(len(texts), dim)`.

        Raises:
            ConfigError: the endpoint needs a key and `spec.api_key_env` is not set.
            ModelError: the endpoint failed (after the SDK's retries) or answered wrongly.
        """
        import numpy as np

        if not texts:
            return np.zeros((0, self.dimensions or 0), dtype=np.float32)
        self._check_allowed()
        self._read_key()  # a missing key is a ConfigError before any network work
        sdk = _import_openai()
        client = self._get_client(sdk)
        extra: dict[str, Any] = {} if self.dimensions is None else {"dimensions": self.dimensions}
        started = time.perf_counter()
        try:
            response = await client.embeddings.create(
                model=self.spec.model, input=list(texts), encoding_format="float", **extra
            )
        except sdk.APIError as exc:
            self._record(TokenUsage(), started, error=self._redact(str(exc)))
            raise ModelError(self._redact(str(exc))[:500], role=_ROLE, model=self.name) from None
        usage = TokenUsage(input_tokens=getattr(response.usage, "prompt_tokens", 0) or 0)
        self._record(usage, started)
        rows = sorted(response.data, key=lambda item: item.index)
        if len(rows) != len(texts):
            raise ModelError(
                f"{self.base_url!r} returned {len(rows)} embeddings for {len(texts)} texts",
                role=_ROLE,
                model=self.name,
            )
        vectors = np.asarray([row.embedding for row in rows], dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        # An empty text may embed to zeros; leave it at zero rather than dividing by zero.
        return vectors / np.where(norms == 0, 1.0, norms)

    async def aclose(self) -> None:
        """Close the HTTP connections (the embedder stays usable; a new client is made)."""
        client, self._client = self._client, None
        if client is not None and self._client_loop == anyio.lowlevel.current_token():
            await client.close()

    async def __aenter__(self) -> OpenAIEmbedder:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def _check_allowed(self) -> None:
        import vistasim.llm

        if not vistasim.llm.ALLOW_REQUESTS and not is_loopback(self.base_url):
            raise ModelError(
                f"request to {self.base_url!r} refused: vistasim.llm.ALLOW_REQUESTS is False "
                "(tests allow loopback endpoints only; use vistasim.testing.FakeOpenAIServer)",
                role=_ROLE,
                model=self.name,
            )

    def _read_key(self) -> str:
        return read_api_key(
            self._environ, self.spec.api_key_env, self.base_url, key="models.embedder.api_key_env"
        )

    def _get_client(self, sdk: Any) -> openai.AsyncOpenAI:
        # A client's connection pool belongs to one event loop; a new loop needs a new client.
        loop = anyio.lowlevel.current_token()
        if self._client is None or self._client_loop != loop:
            self._client_loop = loop
            self._client = self._new_client(sdk)
        return self._client

    def _new_client(self, sdk: Any) -> openai.AsyncOpenAI:
        async def api_key() -> str:
            return self._read_key()

        client: openai.AsyncOpenAI = sdk.AsyncOpenAI(
            api_key=api_key,
            base_url=self.base_url,
            max_retries=self.spec.max_retries,
            timeout=self.spec.timeout_s,
            # The SDK's default client closes itself from __del__ on whatever loop runs then.
            http_client=sdk.DefaultAsyncHttpxClient(timeout=self.spec.timeout_s),
        )
        return client

    def _record(self, usage: TokenUsage, started: float, *, error: str | None = None) -> None:
        record_call(
            ModelCall(
                role=_ROLE,
                model=self.name,
                usage=usage,
                latency_s=time.perf_counter() - started,
                cost_usd=cost_usd(usage, self.price),
                error=error,
            )
        )

    def _redact(self, text: str) -> str:
        key = self._environ.get(self.spec.api_key_env)
        return text.replace(key, "***") if key else text


def _import_openai() -> Any:
    try:
        import openai
    except ImportError:
        raise MissingExtraError("openai", "openai") from None
    return openai

"""Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint, on the one model client.

The endpoint is reached as the chat roles reach theirs (`OpenAIEndpoint`: the key read at each
call and never put in an error, loopback servers need none, pooled connections). Retryable
failures (429, 5xx, timeouts, refused connections) are retried up to `spec.max_retries` times
with the roles' backoff, honouring `Retry-After`. Every call is metered with `record_call` under
the `embedder` role, like the chat roles' calls.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import anyio

from vistasim.config import ModelSpec, Price
from vistasim.errors import ModelError
from vistasim.llm import (
    EmbeddingsBody,
    HttpClients,
    ModelCall,
    ModelCallFailed,
    OpenAIEndpoint,
    TokenUsage,
    WireError,
    backoff_delay,
    cost_usd,
    read_embeddings,
    record_call,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = ["OpenAIEmbedder"]

_ROLE = "embedder"


class OpenAIEmbedder:
    """An async embedder (`aembed`) on an OpenAI-compatible endpoint; rows come back unit length.

    Args:
        spec: Model name, `base_url`, `api_key_env`, `timeout_s` and `max_retries` (429, 5xx
            and timeouts are retried with backoff, honouring `Retry-After`).
        environ: Where the key is read at call time (default: `os.environ`).
        price: Price of the model, for the metered cost (default: free).
        dimensions: Ask the endpoint for shorter vectors (`text-embedding-3-*` support it).
        clients: The run's pooled HTTP clients (default: the embedder's own).
        sleep: How retries wait (tests pass a recorder).
    """

    def __init__(
        self,
        spec: ModelSpec,
        *,
        environ: Mapping[str, str] | None = None,
        price: Price | None = None,
        dimensions: int | None = None,
        clients: HttpClients | None = None,
        sleep: Callable[[float], Awaitable[object]] = anyio.sleep,
    ) -> None:
        if dimensions is not None and dimensions < 1:
            raise ValueError(f"dimensions must be 1 or more, got {dimensions}")
        self.spec = spec
        self.name = spec.model
        self.price = price
        self.dimensions = dimensions
        self._endpoint = OpenAIEndpoint(
            spec, environ=environ, clients=clients, key_setting="models.embedder.api_key_env"
        )
        self.base_url = self._endpoint.base_url
        """The endpoint this embedder calls."""
        self._sleep = sleep
        self._rng = random.Random(secrets.randbits(64))

    async def aembed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts` in one request into unit rows of shape `(len(texts), dim)`.

        Raises:
            ConfigError: the endpoint needs a key and `spec.api_key_env` is not set.
            ModelError: the endpoint failed (after the retries) or answered wrongly.
        """
        import numpy as np

        if not texts:
            return np.zeros((0, self.dimensions or 0), dtype=np.float32)
        body: EmbeddingsBody = {
            "model": self.spec.model,
            "input": list(texts),
            "encoding_format": "float",
        }
        if self.dimensions is not None:
            body["dimensions"] = self.dimensions
        started = time.perf_counter()
        try:
            rows, usage = await self._with_retries(body, len(texts))
        except ModelCallFailed as exc:
            self._record(TokenUsage(), started, error=str(exc))
            raise ModelError(str(exc)[:500], role=_ROLE, model=self.name) from None
        self._record(usage, started)
        vectors = np.asarray(rows, dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        # An empty text may embed to zeros; leave it at zero rather than dividing by zero.
        return vectors / np.where(norms == 0, 1.0, norms)

    async def _with_retries(
        self, body: EmbeddingsBody, expected: int
    ) -> tuple[list[list[float]], TokenUsage]:
        attempt = 0
        while True:
            attempt += 1
            try:
                return await self._attempt(body, expected)
            except ModelCallFailed as exc:
                if not exc.retryable or attempt > self.spec.max_retries:
                    raise
                await self._sleep(backoff_delay(attempt, self._rng, retry_after=exc.retry_after))

    async def _attempt(
        self, body: EmbeddingsBody, expected: int
    ) -> tuple[list[list[float]], TokenUsage]:
        endpoint = self._endpoint
        answer = await endpoint.post(endpoint.url("/embeddings"), body)
        if answer.status >= 400:
            raise endpoint.status_failure(answer)
        try:
            return read_embeddings(json.loads(answer.text), expected)
        except ValueError as exc:  # WireError is one: a 200 that is not an embeddings answer
            what = str(exc) if isinstance(exc, WireError) else "a body that is not JSON"
            raise ModelCallFailed(f"{self.base_url!r} answered {what}", retryable=False) from None

    async def aclose(self) -> None:
        """Close the HTTP connections (the embedder stays usable; new ones are made)."""
        await self._endpoint.aclose()

    async def __aenter__(self) -> OpenAIEmbedder:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

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

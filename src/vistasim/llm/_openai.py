"""The roles' chat model: any OpenAI-compatible `/chat/completions` endpoint over plain `httpx2`.

It turns a `ChatRequest` into the wire body (`_wire`), sends it through `OpenAIEndpoint` on the
run's pooled connections, and turns the answer into a `ChatResponse`, or a `ModelCallFailed` that
says whether a retry may help. Retrying, metering and caching live in `RoleModel`; this class
makes exactly one HTTP call per `complete()`.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Literal, TypedDict

import httpx2

from vistasim.llm._endpoint import OpenAIEndpoint
from vistasim.llm._http import HttpAnswer, JsonText
from vistasim.llm._types import ChatRequest, ChatResponse, ModelCallFailed
from vistasim.llm._wire import (
    ChatCompletionBody,
    WireError,
    chat_body,
    chat_body_json,
    read_completion,
)

__all__ = ["OpenAIChatModel"]


class _Defaults(TypedDict):
    """The spec's fields a request leaves unset fall back to, and the name of the token cap."""

    temperature: float | None
    seed: int | None
    max_tokens: int | None
    tokens_field: Literal["max_tokens", "max_completion_tokens"]


class OpenAIChatModel(OpenAIEndpoint):
    """A `ChatModel` on an OpenAI-compatible `/chat/completions` endpoint.

    Request fields left `None` fall back to the spec's `temperature`, `seed` and `max_tokens`.
    The key is read at each call (see `OpenAIEndpoint`).
    """

    @cached_property
    def _completions(self) -> httpx2.URL:
        return self.url("/chat/completions")

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """Send one chat completion request; raise `ModelCallFailed` on any provider failure."""
        answer = await self.post(self._completions, JsonText(self.body_json(request)))
        if answer.status >= 400:
            raise self.status_failure(answer)
        return self._response(answer)

    def body(self, request: ChatRequest) -> ChatCompletionBody:
        """The body `complete()` sends for `request` (without the key, which is a header)."""
        return chat_body(self.spec.model, request, **self._defaults())

    def body_json(self, request: ChatRequest) -> str:
        """`body(request)` as the JSON text `complete()` sends (each chat message encoded once)."""
        return chat_body_json(self.spec.model, request, **self._defaults())

    def _defaults(self) -> _Defaults:
        spec = self.spec
        return {
            "temperature": spec.temperature,
            "seed": spec.seed,
            "max_tokens": spec.max_tokens,
            # api.openai.com rejects `max_tokens` for newer models; most compatible servers
            # know only `max_tokens`.
            "tokens_field": "max_completion_tokens" if self.is_openai else "max_tokens",
        }

    def check_key(self) -> None:
        """Fail now, not at the first call, when the endpoint needs a key that is not set.

        Raises:
            ConfigError: naming the variable to export.
        """
        self.read_key()

    async def __aenter__(self) -> OpenAIChatModel:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def _response(self, answer: HttpAnswer) -> ChatResponse:
        try:
            return read_completion(json.loads(answer.text))
        except WireError as exc:
            raise ModelCallFailed(
                f"{self.base_url!r} answered HTTP {answer.status} but {exc}: "
                f"{self.redact(answer.text)[:300]!r}",
                retryable=True,
            ) from None
        except ValueError as exc:  # a 200 whose body is not JSON (proxy pages, truncation)
            raise ModelCallFailed(
                f"{self.base_url!r} answered with a body that is not JSON: {exc}", retryable=True
            ) from None

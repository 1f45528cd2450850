"""Scripted and function-backed chat models: deterministic stand-ins for a provider in tests."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence

from vistasim.llm._types import ChatRequest, ChatResponse, ModelCallFailed
from vistasim.llm._usage import TokenUsage

Scripted = str | ChatResponse | Exception


class ScriptedLLM:
    """Answer each call with the next scripted item.

    An item is a text, a full `ChatResponse`, or an exception to raise (e.g.
    `ModelCallFailed("overloaded", retryable=True, status=429)`).

    >>> import anyio
    >>> llm = ScriptedLLM(["hi", "bye"])
    >>> anyio.run(llm.complete, ChatRequest(messages=[])).text
    'hi'
    >>> len(llm.requests)
    1
    """

    def __init__(self, script: Sequence[Scripted], *, name: str = "scripted") -> None:
        self.name = name
        self._script = list(script)
        self.requests: list[ChatRequest] = []
        """Every request received, in order (for assertions)."""

    async def complete(self, request: ChatRequest) -> ChatResponse:
        self.requests.append(request)
        if len(self.requests) > len(self._script):
            raise ModelCallFailed(
                f"script exhausted after {len(self._script)} responses", retryable=False
            )
        return _as_response(self._script[len(self.requests) - 1], self.name, request)


class FunctionLLM:
    """Answer each call with `fn(request)`, sync or async, returning a text or a `ChatResponse`."""

    def __init__(
        self,
        fn: Callable[[ChatRequest], Scripted | Awaitable[Scripted]],
        *,
        name: str = "function",
    ) -> None:
        self.name = name
        self._fn = fn
        self.requests: list[ChatRequest] = []

    async def complete(self, request: ChatRequest) -> ChatResponse:
        self.requests.append(request)
        answer = self._fn(request)
        if inspect.isawaitable(answer):
            answer = await answer
        return _as_response(answer, self.name, request)


def _as_response(item: Scripted, name: str, request: ChatRequest) -> ChatResponse:
    if isinstance(item, Exception):
        raise item
    if isinstance(item, ChatResponse):
        return item
    prompt_chars = sum(len(m.content or "") for m in request.messages)
    # Rough token counts (4 characters a token) so cost metrics see non-zero usage in tests.
    usage = TokenUsage(input_tokens=prompt_chars // 4 + 1, output_tokens=len(item) // 4 + 1)
    return ChatResponse(text=item, usage=usage, model=name, finish_reason="stop")

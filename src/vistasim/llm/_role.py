"""A model as one role uses it: cached, retried with backoff, limited, metered and priced.

Every component that needs a model (user, judge, chooser, ...) holds a `RoleModel`, so retry
policy, concurrency limits and cost accounting are decided once, here, and every call leaves a
`ModelCall` record in the episode's `collect_calls()`.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping

import anyio

from vistasim._deadline import fail_after
from vistasim.config import Price, RunConfig, bounded
from vistasim.errors import ModelError, VistasimError
from vistasim.llm._cache import RequestCache
from vistasim.llm._clients import HttpClients
from vistasim.llm._meter import ModelCall, record_call
from vistasim.llm._openai import OpenAIChatModel
from vistasim.llm._types import ChatModel, ChatRequest, ChatResponse, ModelCallFailed
from vistasim.llm._usage import TokenUsage

BACKOFF_BASE_S = 0.5
BACKOFF_CAP_S = 20.0
RETRY_AFTER_CAP_S = 60.0
"""Longest wait a provider's `Retry-After` can impose before a retry."""


def cost_usd(usage: TokenUsage, price: Price | None) -> float:
    """Price a call in dollars: prices are per million tokens, cached input at `price.cached`.

    >>> cost_usd(TokenUsage(input_tokens=1_000_000, cached_tokens=500_000, output_tokens=0),
    ...          Price(input=2.0, output=8.0, cached=0.5))
    1.25
    """
    if price is None:
        return 0.0
    cached = min(usage.cached_tokens, usage.input_tokens)
    cached_price = price.input if price.cached is None else price.cached
    dollars = (
        (usage.input_tokens - cached) * price.input
        + cached * cached_price
        + usage.output_tokens * price.output
    )
    return dollars / 1_000_000


def backoff_delay(attempt: int, rng: random.Random, *, retry_after: float | None = None) -> float:
    """Return the wait before retry number `attempt` (1-based).

    Without a `Retry-After`, full jitter over a capped exponential. With one, the wait it asks
    for (capped at `RETRY_AFTER_CAP_S`) plus a little jitter, so clients told the same wait do
    not all come back in the same instant.
    """
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP_S) + rng.uniform(0.0, BACKOFF_BASE_S)
    return rng.uniform(0.0, min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2 ** (attempt - 1)))


class RoleModel:
    """Wrap a `ChatModel` for one role; itself a `ChatModel`.

    `complete()` answers from the cache when it can; otherwise it calls the model (inside the
    limiter, if any), retrying retryable failures up to `max_retries` times. Failures that remain
    raise `ModelError`; every outcome is recorded with `record_call`.
    """

    def __init__(
        self,
        model: ChatModel,
        *,
        role: str,
        price: Price | None = None,
        cache: RequestCache | None = None,
        max_retries: int = 4,
        limiter: anyio.CapacityLimiter | None = None,
        endpoint_limiter: anyio.CapacityLimiter | None = None,
        sleep: Callable[[float], Awaitable[object]] = anyio.sleep,
        rng: random.Random | None = None,
        timeout_s: float | None = None,
    ) -> None:
        self.model = model
        """The wrapped model."""
        self.name = model.name
        self.role = role
        self.price = price
        self.cache = cache
        self.max_retries = max_retries
        self.limiter = limiter
        self.endpoint_limiter = endpoint_limiter
        """Shared by every role on the same endpoint (`[endpoints."URL"] concurrency`)."""
        self.timeout_s = timeout_s
        """Wall-clock bound of one attempt (`models.ROLE.timeout_s`); None: the model's own."""
        self._sleep = sleep
        # Not the run seed: runs with one seed must not retry in lockstep against one provider.
        self._rng = rng or random.Random(secrets.randbits(64))

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """Answer a request from the cache or the model; raise `ModelError` when it cannot."""
        try:
            cached = self.cache.get(self.name, request) if self.cache is not None else None
        except ModelCallFailed as exc:  # a replay-mode miss
            self._record_failure(exc, attempts=0, latency_s=0.0)
            raise ModelError(str(exc), role=self.role, model=self.name) from exc
        if cached is not None:
            record_call(
                ModelCall(
                    role=self.role,
                    model=self.name,
                    usage=cached.usage,
                    latency_s=0.0,
                    cost_usd=0.0,
                    cache_hit=True,
                    attempts=0,  # the model was not asked
                )
            )
            return cached
        return await self._call_with_retries(request)

    async def _call_with_retries(self, request: ChatRequest) -> ChatResponse:
        started = time.perf_counter()
        attempt = 0
        while True:
            attempt += 1
            try:
                response = await self._limited_attempt(request)
                break
            except VistasimError as exc:
                # Not a provider hiccup (an agent under test failing, a missing key): metered,
                # never retried, raised as it is.
                self._record_failure(exc, attempts=attempt, latency_s=time.perf_counter() - started)
                raise
            except ModelCallFailed as exc:
                if not exc.retryable or attempt > self.max_retries:
                    latency = time.perf_counter() - started
                    self._record_failure(exc, attempts=attempt, latency_s=latency)
                    raise ModelError(
                        f"{exc} (after {attempt} attempt{'s' if attempt > 1 else ''})",
                        role=self.role,
                        model=self.name,
                    ) from exc
                await self._sleep(self.retry_delay(attempt, retry_after=exc.retry_after))
        self._record_success(response, attempts=attempt, latency_s=time.perf_counter() - started)
        if self.cache is not None:
            self.cache.put(self.name, request, response)
        return response

    async def _attempt(self, request: ChatRequest) -> ChatResponse:
        # An endpoint that trickles bytes defeats the HTTP client's per-read timeouts.
        if self.timeout_s is None:
            return await self.model.complete(request)
        try:
            with fail_after(self.timeout_s):
                return await self.model.complete(request)
        except TimeoutError:
            raise ModelCallFailed(
                f"no complete answer within {self.timeout_s:g} s (models.{self.role}.timeout_s)",
                retryable=True,
            ) from None

    def retry_delay(self, attempt: int, *, retry_after: float | None = None) -> float:
        """The wait before retry number `attempt`, honouring the provider's `Retry-After`."""
        return backoff_delay(attempt, self._rng, retry_after=retry_after)

    async def aclose(self) -> None:
        """Close the wrapped model's connections, if it holds any."""
        aclose = getattr(self.model, "aclose", None)
        if aclose is not None:
            await aclose()

    async def _limited_attempt(self, request: ChatRequest) -> ChatResponse:
        # Role limit first, then the endpoint's: one fixed order, so two roles never deadlock.
        # A free token is taken without `acquire()`'s extra trip through the event loop (a
        # checkpoint on every model call); the call itself awaits the network right after.
        held: list[anyio.CapacityLimiter] = []
        try:
            for limiter in (self.limiter, self.endpoint_limiter):
                if limiter is None:
                    continue
                try:
                    limiter.acquire_nowait()
                except anyio.WouldBlock:
                    await limiter.acquire()
                held.append(limiter)
            return await self._attempt(request)
        finally:
            for limiter in reversed(held):
                limiter.release()

    def _record_success(self, response: ChatResponse, *, attempts: int, latency_s: float) -> None:
        record_call(
            ModelCall(
                role=self.role,
                model=self.name,
                usage=response.usage,
                latency_s=latency_s,
                cost_usd=cost_usd(response.usage, self.price),
                attempts=attempts,
            )
        )

    def _record_failure(self, exc: Exception, *, attempts: int, latency_s: float) -> None:
        record_call(
            ModelCall(
                role=self.role,
                model=self.name,
                usage=TokenUsage(),
                latency_s=latency_s,
                cost_usd=0.0,
                attempts=attempts,
                error=str(exc),
            )
        )


def build_models(
    config: RunConfig,
    *,
    cache: RequestCache | None,
    environ: Mapping[str, str] | None = None,
    clients: HttpClients | None = None,
    limiters: dict[str, anyio.CapacityLimiter] | None = None,
) -> dict[str, RoleModel]:
    """Build one `RoleModel` per role in `config.models`, each with its own concurrency limit.

    Args:
        config: The run config; `models` names the roles, `prices` prices them by model name.
        cache: The record/replay cache shared by all roles, or None for no caching.
        environ: Where API keys are read at call time (default: `os.environ`).
        clients: The run's HTTP clients, shared by every role on one endpoint (default: each
            model opens its own).
        limiters: The run's `[endpoints]` limiters by base URL (see `endpoint_limiters`); made
            here when not given.
    """
    models: dict[str, RoleModel] = {}
    limiters = endpoint_limiters(config) if limiters is None else limiters
    for role, spec in config.models.items():
        model = OpenAIChatModel(bounded(spec, role), environ=environ, clients=clients)
        models[role] = RoleModel(
            model,
            role=role,
            price=config.prices.get(spec.model),
            cache=cache,
            max_retries=spec.max_retries,
            limiter=anyio.CapacityLimiter(spec.concurrency),
            endpoint_limiter=limiters.get(model.base_url.rstrip("/")),
            timeout_s=spec.timeout_s,
        )
    return models


def endpoint_limiters(config: RunConfig) -> dict[str, anyio.CapacityLimiter]:
    """Return one limiter per `[endpoints."BASE_URL"]`, keyed by the URL without a final `/`."""
    return {
        url.rstrip("/"): anyio.CapacityLimiter(spec.concurrency)
        for url, spec in config.endpoints.items()
    }

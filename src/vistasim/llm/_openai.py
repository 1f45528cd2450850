"""The one real model client: any OpenAI-compatible chat endpoint through the async `openai` SDK.

It turns a `ChatRequest` into SDK arguments and the SDK's answer or error back into a
`ChatResponse` or a `ModelCallFailed` that says whether a retry may help. Retrying, metering and
caching live in `RoleModel`; this class makes exactly one HTTP call per `complete()`.
"""

from __future__ import annotations

import email.utils
import ipaddress
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import anyio.lowlevel

from vistasim.config import ModelSpec
from vistasim.errors import ConfigError, MissingExtraError
from vistasim.llm._clients import CONNECTIONS_PER_CLIENT, HttpClients
from vistasim.llm._types import ChatRequest, ChatResponse, ModelCallFailed, ModelToolCall
from vistasim.llm._usage import TokenUsage
from vistasim.llm._wire import message_param, tool_param

if TYPE_CHECKING:
    import openai

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_LOOPBACK_KEY = "vistasim-loopback"
"""Stand-in key for local servers (vLLM, Ollama, the fake server) that ignore it."""


def is_loopback(url: str) -> bool:
    """Tell whether a URL points at this machine (127.0.0.0/8, ::1 or `localhost`).

    >>> is_loopback("http://127.0.0.1:8000/v1"), is_loopback("https://api.openai.com/v1")
    (True, False)
    """
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class OpenAIChatModel:
    """A `ChatModel` on an OpenAI-compatible `/chat/completions` endpoint.

    The key is read from `environ[spec.api_key_env]` at each call, so it is never stored on the
    instance, in a request, or in a cache row. Request fields left `None` fall back to the spec's
    `temperature`, `seed` and `max_tokens`.
    """

    def __init__(
        self,
        spec: ModelSpec,
        *,
        environ: Mapping[str, str] | None = None,
        clients: HttpClients | None = None,
    ) -> None:
        self.spec = spec
        self.name = spec.model
        self._environ = os.environ if environ is None else environ
        self.base_url = spec.base_url or self._environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        """The endpoint this model calls."""
        self._shared = clients
        """The run's clients (shared with other roles on this endpoint); None: own clients."""
        self._clients: list[openai.AsyncOpenAI] = []
        self._client_loop: object = None
        self._shards = max(1, -(-spec.concurrency // CONNECTIONS_PER_CLIENT))
        self._next = 0

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """Send one chat completion request; raise `ModelCallFailed` on any provider failure."""
        self._check_allowed()
        self._read_key()  # fail with a ConfigError before any network work
        openai = _import_openai()
        client = self._get_client(openai)
        try:
            # `post` sends our already wire-shaped body as is: the SDK's `create` re-walks every
            # message through its TypedDict transforms, ~5 ms of CPU per call at these sizes.
            completion = await client.post(
                "/chat/completions",
                body=self._arguments(request),
                cast_to=openai.types.chat.ChatCompletion,
            )
        except openai.APIStatusError as exc:
            raise self._status_failure(exc) from None
        except openai.APIConnectionError as exc:  # includes APITimeoutError
            raise ModelCallFailed(
                f"cannot reach {self.base_url!r}: {self._redact(str(exc))}", retryable=True
            ) from None
        except ValueError as exc:  # a 200 whose body is not JSON (proxy pages, truncation)
            raise ModelCallFailed(
                f"{self.base_url!r} answered with a body that is not JSON: {exc}", retryable=True
            ) from None
        return _to_response(completion, self.base_url)

    def _check_allowed(self) -> None:
        import vistasim.llm

        if not vistasim.llm.ALLOW_REQUESTS and not is_loopback(self.base_url):
            raise ModelCallFailed(
                f"request to {self.base_url!r} refused: vistasim.llm.ALLOW_REQUESTS is False "
                "(tests allow loopback endpoints only; use vistasim.testing.FakeOpenAIServer)",
                retryable=False,
            )

    def check_key(self) -> None:
        """Fail now, not at the first call, when the endpoint needs a key that is not set.

        Raises:
            ConfigError: naming the variable to export.
        """
        self._read_key()

    def _read_key(self) -> str:
        return read_api_key(self._environ, self.spec.api_key_env, self.base_url)

    def _get_client(self, sdk: Any) -> openai.AsyncOpenAI:
        # A client's connection pool belongs to one event loop; a new loop needs new clients.
        loop = anyio.lowlevel.current_token()
        if not self._clients or self._client_loop != loop:
            self._client_loop = loop
            self._clients = [self._new_client(sdk) for _ in range(self._shards)]
        # httpcore scans its whole pool on every request, so one pool of a hundred connections
        # costs milliseconds a call; small pools taken in turn keep each scan short.
        self._next = (self._next + 1) % len(self._clients)
        return self._clients[self._next]

    def _new_client(self, sdk: Any) -> openai.AsyncOpenAI:
        async def api_key() -> str:
            return self._read_key()

        if self._shared is not None:
            http_client = self._shared.client(self.base_url, concurrency=self.spec.concurrency)
        else:
            # The SDK's default client closes itself from __del__ by scheduling a task on
            # whatever loop runs then, which breaks when that is not the loop it was made on.
            http_client = sdk.DefaultAsyncHttpxClient(timeout=self.spec.timeout_s)
        client: openai.AsyncOpenAI = sdk.AsyncOpenAI(
            api_key=api_key,
            base_url=self.base_url,
            max_retries=0,  # RoleModel retries, with its own backoff and metering
            timeout=self.spec.timeout_s,
            http_client=http_client,
        )
        return client

    async def aclose(self) -> None:
        """Close the HTTP connections (the model stays usable; new clients are made on demand)."""
        clients, self._clients = self._clients, []
        # Shared clients belong to the run, which closes them once.
        if self._shared is None and self._client_loop == anyio.lowlevel.current_token():
            for client in clients:
                await client.close()

    async def __aenter__(self) -> OpenAIChatModel:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def _arguments(self, request: ChatRequest) -> dict[str, Any]:
        spec = self.spec
        args: dict[str, Any] = {
            "model": spec.model,
            "messages": [message_param(m) for m in request.messages],
        }
        if request.tools:
            args["tools"] = [tool_param(t) for t in request.tools]
        max_tokens = _first(request.max_tokens, spec.max_tokens)
        # api.openai.com rejects `max_tokens` for newer models; most compatible servers know
        # only `max_tokens`.
        tokens_field = "max_completion_tokens" if _is_openai(self.base_url) else "max_tokens"
        optional = {
            "response_format": request.response_format,
            "temperature": _first(request.temperature, spec.temperature),
            "seed": _first(request.seed, spec.seed),
            tokens_field: max_tokens,
        }
        args.update({k: v for k, v in optional.items() if v is not None})
        return args

    def _status_failure(self, exc: openai.APIStatusError) -> ModelCallFailed:
        status = exc.status_code
        retryable = status in (408, 429) or status >= 500
        message = self._redact(getattr(exc, "message", str(exc)))
        return ModelCallFailed(
            f"{self.base_url!r} answered HTTP {status}: {message[:500]}",
            retryable=retryable,
            status=status,
            retry_after=retry_after(exc.response.headers),
        )

    def _redact(self, text: str) -> str:
        key = self._environ.get(self.spec.api_key_env)
        return text.replace(key, "***") if key else text


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds a provider asks to wait: `retry-after-ms`, or `Retry-After` (seconds or a date).

    >>> retry_after({"retry-after": "2"}), retry_after({"retry-after-ms": "1500"})
    (2.0, 1.5)
    """
    try:
        if "retry-after-ms" in headers:
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        value = headers.get("retry-after")
        if value is None:
            return None
        if value.strip().replace(".", "", 1).isdigit():
            return float(value)
        when = email.utils.parsedate_to_datetime(value)
    except (ValueError, TypeError):
        return None  # a header we cannot read is no header
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _import_openai() -> Any:
    try:
        import openai
    except ImportError:
        raise MissingExtraError("openai", "openai") from None
    return openai


def _first(*values: Any) -> Any:
    return next((v for v in values if v is not None), None)


def _is_openai(url: str) -> bool:
    return urlsplit(url).hostname == "api.openai.com"


def _to_response(completion: Any, base_url: str) -> ChatResponse:
    choices = getattr(completion, "choices", None)
    if not choices:
        raise ModelCallFailed(
            f"{base_url!r} answered without choices: {str(completion)[:300]!r}", retryable=True
        )
    choice = choices[0]
    message = choice.message
    calls = [
        ModelToolCall(id=c.id, name=c.function.name, arguments=c.function.arguments or "")
        for c in message.tool_calls or []
        if getattr(c, "function", None) is not None
    ]
    return ChatResponse(
        text=message.content or "",
        tool_calls=calls,
        usage=_to_usage(completion.usage),
        model=completion.model or "",
        finish_reason=choice.finish_reason,
    )


def _to_usage(usage: Any) -> TokenUsage:
    if usage is None:
        return TokenUsage()
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) if details is not None else None
    return TokenUsage(
        input_tokens=usage.prompt_tokens or 0,
        output_tokens=usage.completion_tokens or 0,
        cached_tokens=cached or 0,
    )


def read_api_key(
    environ: Mapping[str, str], variable: str, base_url: str, *, key: str = "models.api_key_env"
) -> str:
    """The API key from `variable`; `variable = ""` says the endpoint takes none.

    A loopback endpoint whose variable is unset gets a placeholder key (the preflight has said
    the variable is unset; a run without it goes on, for servers that check no key).

    Raises:
        ConfigError: naming the variable to export.
    """
    value = environ.get(variable) if variable else None
    if value:
        return value
    if not variable or is_loopback(base_url):
        return _LOOPBACK_KEY
    raise ConfigError(
        f"no API key for {base_url!r}: environment variable {variable!r} "
        f"is not set; export {variable}=... or set api_key_env for this model",
        key=key,
    )

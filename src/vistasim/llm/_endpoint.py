"""An OpenAI-compatible endpoint as every model client reaches it, over plain `httpx2`.

The roles' chat models and the embedder send their bodies through `OpenAIEndpoint`: it refuses
non-loopback hosts while tests forbid requests, reads the key at each call (so it is never stored
on an instance, in a request or in a cache row), borrows a pooled client for the endpoint's origin
from the run's `HttpClients` (shared with the agent under test), and turns every failure into our
own typed `ModelCallFailed`, which says whether a retry may help and how long the provider asked
to wait (`Retry-After`).

No SDK: the `openai` package cost ~2 ms of CPU a call and half a second to import, more than the
rest of a user turn; what it did for us is this module.
"""

from __future__ import annotations

import email.utils
import ipaddress
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import lru_cache
from urllib.parse import urlsplit

import httpx2

from vistasim.config import ModelSpec
from vistasim.errors import ConfigError
from vistasim.llm._clients import HttpClients
from vistasim.llm._http import (
    BodyTooBig,
    EndpointTimeout,
    EndpointUnreachable,
    HttpAnswer,
    JsonText,
    exchange,
)
from vistasim.llm._types import ModelCallFailed
from vistasim.llm._wire import error_message

__all__ = [
    "DEFAULT_BASE_URL",
    "OpenAIEndpoint",
    "check_allowed",
    "is_loopback",
    "read_api_key",
    "retry_after",
]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
MAX_ANSWER_BYTES = 32_000_000
"""The most of a model's answer that is read: far above any completion, far below a runaway."""
_LOOPBACK_KEY = "vistasim-loopback"
"""Stand-in key for local servers (vLLM, Ollama, the fake server) that ignore it."""


class OpenAIEndpoint:
    """One model's endpoint: `base_url`, its key and its pooled connections.

    Args:
        spec: The model: `base_url`, `api_key_env`, `timeout_s` and `concurrency` are used.
        environ: Where the key (and `OPENAI_BASE_URL`) are read (default: `os.environ`).
        clients: The run's pooled HTTP clients, shared with other callers of the endpoint;
            without them the endpoint keeps its own, closed by `aclose()`.
        transport: An httpx2 transport for the endpoint's own clients (tests).
        key_setting: The setting a missing key's error names.
    """

    def __init__(
        self,
        spec: ModelSpec,
        *,
        environ: Mapping[str, str] | None = None,
        clients: HttpClients | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
        key_setting: str = "models.api_key_env",
    ) -> None:
        self.spec = spec
        self.name = spec.model
        """The model's name, as the endpoint knows it."""
        self._environ = os.environ if environ is None else environ
        self.base_url = spec.base_url or self._environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        """The endpoint this model calls."""
        self._own = clients is None
        self._clients = HttpClients(transport=transport) if clients is None else clients
        self._key_setting = key_setting

    def url(self, path: str) -> httpx2.URL:
        """The URL of `path` (e.g. `/chat/completions`) under the base URL, parsed once."""
        return httpx2.URL(self.base_url.rstrip("/") + path)

    async def post(self, url: httpx2.URL, body: Mapping[str, object] | JsonText) -> HttpAnswer:
        """POST `body` to `url` (on this endpoint) with the key; an answer of any status returns.

        Raises:
            ConfigError: the endpoint needs a key that is not set (before any network work).
            ModelCallFailed: requests are not allowed, or no answer came (timeout, connection).
        """
        check_allowed(self.base_url)
        headers = {"Authorization": f"Bearer {self.read_key()}"}
        client = self._clients.client(self.base_url, concurrency=self.spec.concurrency)
        try:
            return await exchange(
                client,
                "POST",
                url,
                json=body,
                headers=headers,
                timeout_s=self.spec.timeout_s,
                max_body_bytes=MAX_ANSWER_BYTES,
            )
        except (EndpointTimeout, EndpointUnreachable) as exc:
            raise ModelCallFailed(
                f"cannot reach {self.base_url!r}: {self.redact(str(exc))}", retryable=True
            ) from None
        except BodyTooBig as exc:
            raise ModelCallFailed(
                f"{self.base_url!r} {exc}", retryable=False, status=exc.status
            ) from None

    def status_failure(self, answer: HttpAnswer) -> ModelCallFailed:
        """The failure an HTTP error status means: 408, 429 and 5xx may pass on a retry."""
        status = answer.status
        message = self.redact(error_message(answer.text))
        return ModelCallFailed(
            f"{self.base_url!r} answered HTTP {status}: {message[:500]}",
            retryable=status in (408, 429) or status >= 500,
            status=status,
            retry_after=retry_after(answer.headers),
        )

    def read_key(self) -> str:
        """The key to send now.

        Raises:
            ConfigError: the endpoint needs a key that is not set, naming the variable.
        """
        return read_api_key(
            self._environ, self.spec.api_key_env, self.base_url, key=self._key_setting
        )

    def redact(self, text: str) -> str:
        """`text` without the key's value (servers echo keys in their errors)."""
        key = self._environ.get(self.spec.api_key_env) if self.spec.api_key_env else None
        return text.replace(key, "***") if key else text

    @property
    def is_openai(self) -> bool:
        """Whether this is api.openai.com (which wants `max_completion_tokens`)."""
        return _host(self.base_url) == "api.openai.com"

    async def aclose(self) -> None:
        """Close the endpoint's own connections (it stays usable); the run's are the run's."""
        if self._own:
            await self._clients.aclose()


@lru_cache(maxsize=256)
def _host(url: str) -> str | None:
    # Asked on every model call (the key, the token field, requests allowed) of a handful of
    # base URLs: `urlsplit` and `ip_address` each time were ~5 µs a call.
    return urlsplit(url).hostname


def is_loopback(url: str) -> bool:
    """Tell whether a URL points at this machine (127.0.0.0/8, ::1 or `localhost`).

    >>> is_loopback("http://127.0.0.1:8000/v1"), is_loopback("https://api.openai.com/v1")
    (True, False)
    """
    return _is_loopback(url)


@lru_cache(maxsize=256)
def _is_loopback(url: str) -> bool:
    host = _host(url) or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_allowed(base_url: str) -> None:
    """Refuse a request off this machine while `vistasim.llm.ALLOW_REQUESTS` is off (tests).

    Raises:
        ModelCallFailed: not retryable.
    """
    import vistasim.llm

    if not vistasim.llm.ALLOW_REQUESTS and not is_loopback(base_url):
        raise ModelCallFailed(
            f"request to {base_url!r} refused: vistasim.llm.ALLOW_REQUESTS is False "
            "(tests allow loopback endpoints only; use vistasim.testing.FakeOpenAIServer)",
            retryable=False,
        )


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

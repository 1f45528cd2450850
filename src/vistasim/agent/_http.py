"""Call a JSON endpoint of the product under test, turning every failure into a clear error.

Several adapters talk HTTP to the product: the generic JSON agent, the OpenAI-compatible agent and
the trace endpoint of a web widget. They all fill header values like `Bearer ${NAME}` from the
environment, must never leak those values in errors (servers echo keys back), refuse non-loopback
hosts in tests, and report timeouts, HTTP errors and non-JSON bodies as `AgentError` with the
status and a body excerpt. `JsonEndpoint` does that once for all of them.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx2

import vistasim.llm
from vistasim._secrets import ENV_REF, redact
from vistasim.errors import AgentError, ConfigError
from vistasim.llm import BodyTooBig, EndpointTimeout, EndpointUnreachable, HttpClients, exchange

__all__ = [
    "AGENT",
    "MAX_BODY_BYTES",
    "EndpointNames",
    "JsonAnswer",
    "JsonEndpoint",
    "body_cap",
    "redact",
]

_BODY_LIMIT = 2000
BODY_CAP_FACTOR = 8
"""An answer's body may be this many times `run.max_reply_bytes`: a reply the run stores whole
fits, with its JSON wrapping and escapes."""
MAX_BODY_BYTES = BODY_CAP_FACTOR * 1_000_000
"""The body cap at the default `run.max_reply_bytes` (1 MB)."""
_SHORTEST_SECRET = 4  # shorter header values would redact ordinary words from bodies


@dataclass(frozen=True, kw_only=True)
class JsonAnswer:
    """A successful (status < 400) JSON answer from an endpoint."""

    status: int
    data: Any
    """The parsed JSON body."""
    body: str
    """The body text with header secrets redacted, at most 2,000 characters."""


@dataclass(frozen=True, kw_only=True)
class EndpointNames:
    """How errors name an endpoint and the settings that fix it."""

    what: str = "agent"
    """What the endpoint is; messages say `<what> at <url>`."""
    url_key: str = "agent.url"
    """The setting that holds the URL."""
    headers_key: str = "agent.headers"
    """The setting that holds the headers (`<headers_key>.<name>` in errors)."""
    timeout_key: str = "agent.timeout_s"
    """The setting that bounds one request."""


AGENT = EndpointNames()
"""The names for the agent under test, whose settings live in the `agent` section."""


class JsonEndpoint:
    """One endpoint: sends JSON, returns parsed JSON, turns every failure into `AgentError`.

    Header values like `Bearer ${NAME}` are filled from `environ` (default: `os.environ`) at each
    call; header values never appear in errors (they are redacted from echoed bodies too).

    Args:
        url: The endpoint.
        method: The HTTP method.
        headers: Headers to send; values may hold `${NAME}` references.
        auth_env: A variable whose value is sent as `Authorization: Bearer <value>` unless the
            headers already carry an Authorization header.
        timeout_s: Bound on one request.
        environ: Where `${NAME}` references are read.
        transport: An httpx2 transport (tests); without one, non-loopback hosts are refused while
            `vistasim.llm.ALLOW_REQUESTS` is off.
        names: How errors name the endpoint and its settings.
        clients: The run's shared HTTP clients; without them the endpoint opens (and closes)
            its own client.
        max_body_bytes: The most of an answer's body that is read; a bigger one is an
            `AgentError` (see `body_cap`).
    """

    def __init__(
        self,
        url: str,
        *,
        method: str = "POST",
        headers: Mapping[str, str] | None = None,
        auth_env: str | None = None,
        timeout_s: float = 60.0,
        environ: Mapping[str, str] | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
        names: EndpointNames = AGENT,
        clients: HttpClients | None = None,
        max_body_bytes: int = MAX_BODY_BYTES,
    ) -> None:
        self.url = url
        self._max_body_bytes = max_body_bytes
        self._method = method
        self._headers = dict(headers or {})
        self._auth_env = auth_env
        self._timeout_s = timeout_s
        self._environ = environ
        self._names = names
        self._who = f"{names.what} at {url}"
        self._guard = transport is None and (clients is None or clients.transport is None)
        # Without the run's clients, clients of its own on the same stack (sharing its TLS
        # context), closed by `aclose()`.
        self._own = clients is None
        self._clients = HttpClients(transport=transport) if clients is None else clients

    async def send(
        self, payload: Any = None, *, params: Mapping[str, str] | None = None
    ) -> JsonAnswer:
        """Send `payload` as JSON (none when it is None) and parse the JSON answer.

        Raises:
            AgentError: timeout, connection failure, HTTP status >= 400 or a body that is not JSON.
            ConfigError: a header names an unset environment variable, or the host is not loopback
                while `vistasim.llm.ALLOW_REQUESTS` is off (tests).
        """
        headers, filled = self._render_headers()
        # Redact both whole header values and the variables inside them: servers often echo
        # just the key ("invalid key sk-...").
        secrets = [s for s in (*headers.values(), *filled) if len(s) >= _SHORTEST_SECRET]
        self._check_allowed()
        client = self._clients.client(self.url)
        try:
            answer = await exchange(
                client,
                self._method,
                self.url,
                json=payload,
                params=params,
                headers=headers,
                timeout_s=self._timeout_s,
                max_body_bytes=self._max_body_bytes,
            )
        except EndpointTimeout:
            raise AgentError(
                f"{self._who} did not answer within {self._timeout_s:g} s "
                f"({self._names.timeout_key})"
            ) from None
        except BodyTooBig as exc:
            raise AgentError(
                f"{self._who} {exc}: an answer this big is the agent's failure (the cap is "
                "8 x run.max_reply_bytes)",
                status=exc.status,
            ) from None
        except EndpointUnreachable as exc:
            raise AgentError(f"cannot reach {self._who}: {redact(str(exc), secrets)}") from None
        text = answer.text
        return self._parse(answer.status, text, redact(text, secrets)[:_BODY_LIMIT])

    def fail(self, message: str, answer: JsonAnswer) -> AgentError:
        """Build an `AgentError` about an unusable answer, keeping its status and body excerpt."""
        return AgentError(f"{self._who}: {message}", status=answer.status, body=answer.body)

    async def aclose(self) -> None:
        """Close the HTTP client, unless it is the run's shared one."""
        if self._own:
            await self._clients.aclose()

    def _parse(self, status: int, text: str, body: str) -> JsonAnswer:
        if status >= 400:
            raise AgentError(f"{self._who} answered HTTP {status}", status=status, body=body)
        try:
            data = json.loads(text)
        except ValueError:
            raise AgentError(
                f"{self._who} answered HTTP {status} with a body that is not JSON: {body[:80]!r}",
                status=status,
                body=body,
            ) from None
        return JsonAnswer(status=status, data=data, body=body)

    def _render_headers(self) -> tuple[dict[str, str], list[str]]:
        """Return the headers to send and the environment values filled into them."""
        environ = os.environ if self._environ is None else self._environ
        filled: list[str] = []
        rendered = {
            name: _fill_env(value, environ, filled, key=f"{self._names.headers_key}.{name}")
            for name, value in self._headers.items()
        }
        if self._auth_env and not any(name.lower() == "authorization" for name in rendered):
            key = _fill_env(f"${{{self._auth_env}}}", environ, filled, key="agent.api_key_env")
            rendered["Authorization"] = f"Bearer {key}"
        return rendered, filled

    def _check_allowed(self) -> None:
        if not self._guard or vistasim.llm.ALLOW_REQUESTS:
            return
        host = httpx2.URL(self.url).host
        if host == "localhost" or _is_loopback_ip(host):
            return
        raise ConfigError(
            f"requests to {host!r} are disabled because vistasim.llm.ALLOW_REQUESTS is False "
            f"(as in tests); point the {self._names.what} at 127.0.0.1 or pass a transport",
            key=self._names.url_key,
        )


def body_cap(max_reply_bytes: int) -> int:
    """The most of an agent's answer body read, for a run's `run.max_reply_bytes`.

    >>> body_cap(1_000_000)
    8000000
    """
    return BODY_CAP_FACTOR * max_reply_bytes


def _fill_env(value: str, environ: Mapping[str, str], filled: list[str], *, key: str) -> str:
    def lookup(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in environ:
            raise ConfigError(
                f"environment variable {name!r} is not set; export it before the run",
                key=key,
            )
        filled.append(environ[name])
        return environ[name]

    return ENV_REF.sub(lookup, value)


def _is_loopback_ip(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False

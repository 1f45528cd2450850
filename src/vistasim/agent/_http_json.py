"""Reach an agent under test behind any HTTP JSON endpoint.

Products expose their chatbots in many shapes. Instead of one adapter per product, the user
describes the endpoint: a JSON request template with `{{message}}`, `{{session_id}}` and
`{{history}}` placeholders, and dotted paths to the reply text and tool calls in the answer. Every
way the endpoint can fail (HTTP error, timeout, garbage body, missing field) becomes an `AgentError`
with the status and a body excerpt, so it is recorded as the agent's failure. `JsonEndpoint`, the
HTTP part, is shared with the OpenAI-compatible adapter.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import httpx2

import vistasim.llm
from vistasim.agent._python import coerce_tool_call
from vistasim.agent._types import Reply, RestoreStrategy, Turn
from vistasim.config import HttpJsonAgentSpec
from vistasim.errors import AgentError, ConfigError

_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_PLACEHOLDERS = ("message", "session_id", "history")
_BODY_LIMIT = 2000
_SHORTEST_SECRET = 4  # shorter header values would redact ordinary words from bodies


@dataclass(frozen=True, kw_only=True)
class JsonAnswer:
    """A successful (status < 400) JSON answer from the agent's endpoint."""

    status: int
    data: Any
    """The parsed JSON body."""
    body: str
    """The body text with header secrets redacted, at most 2,000 characters."""


class JsonEndpoint:
    """One agent endpoint: sends JSON, returns parsed JSON, turns every failure into `AgentError`.

    Header values like `Bearer ${NAME}` are filled from `environ` at each call; header values never
    appear in errors (they are redacted from echoed bodies too).
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
    ) -> None:
        self.url = url
        self._method = method
        self._headers = dict(headers or {})
        self._auth_env = auth_env
        self._timeout_s = timeout_s
        self._environ = environ
        self._guard = transport is None
        self._client = httpx2.AsyncClient(
            transport=transport, timeout=timeout_s, follow_redirects=True
        )

    async def send(self, payload: Any) -> JsonAnswer:
        """Send `payload` as JSON and parse the JSON answer.

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
        try:
            with anyio.fail_after(self._timeout_s):
                response = await self._client.request(
                    self._method, self.url, json=payload, headers=headers
                )
        except (TimeoutError, httpx2.TimeoutException):
            raise AgentError(
                f"agent at {self.url} did not answer within {self._timeout_s:g} s (agent.timeout_s)"
            ) from None
        except httpx2.HTTPError as exc:
            detail = redact(f"{type(exc).__name__}: {exc}", secrets)
            raise AgentError(f"cannot reach agent at {self.url}: {detail}") from None
        body = redact(response.text, secrets)[:_BODY_LIMIT]
        if response.status_code >= 400:
            raise AgentError(
                f"agent at {self.url} answered HTTP {response.status_code}",
                status=response.status_code,
                body=body,
            )
        try:
            data = json.loads(response.text)
        except ValueError:
            raise AgentError(
                f"agent at {self.url} answered HTTP {response.status_code} with a body that is "
                f"not JSON: {body[:80]!r}",
                status=response.status_code,
                body=body,
            ) from None
        return JsonAnswer(status=response.status_code, data=data, body=body)

    def fail(self, message: str, answer: JsonAnswer) -> AgentError:
        """Build an `AgentError` about an unusable answer, keeping its status and body excerpt."""
        return AgentError(f"agent at {self.url}: {message}", status=answer.status, body=answer.body)

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._client.aclose()

    def _render_headers(self) -> tuple[dict[str, str], list[str]]:
        """Return the headers to send and the environment values filled into them."""
        environ = os.environ if self._environ is None else self._environ
        filled: list[str] = []
        rendered = {
            name: _fill_env(value, environ, filled, key=f"agent.headers.{name}")
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
            "(as in tests); point the agent at 127.0.0.1 or pass a transport",
            key="agent.url",
        )


class HttpJsonAgent:
    """The agent under test behind a generic HTTP JSON endpoint (`kind = "http_json"`).

    Every string in `request_template` is rendered each turn: `{{message}}` and `{{session_id}}`
    (the episode id) are substituted, and a string that is exactly `{{history}}` becomes the
    earlier messages as a list of `{role, text}` (inside a longer string: `role: text` lines).
    The restore strategy is `stateless` when the template sends the history, else `replay`.
    """

    def __init__(
        self,
        spec: HttpJsonAgentSpec,
        *,
        environ: Mapping[str, str] | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        used = _check_placeholders(spec.request_template)
        self.restore_strategy: RestoreStrategy = "stateless" if "history" in used else "replay"
        self._spec = spec
        self._endpoint = JsonEndpoint(
            spec.url,
            method=spec.method,
            headers=spec.headers,
            timeout_s=spec.timeout_s,
            environ=environ,
            transport=transport,
        )

    async def respond(self, turn: Turn) -> Reply:
        """Send one turn through the template and read the reply from `response_path`.

        Raises:
            AgentError: the endpoint failed, or its answer lacks a usable reply.
        """
        answer = await self._endpoint.send(render_template(self._spec.request_template, turn))
        found, text = dig(answer.data, self._spec.response_path)
        if not found:
            raise self._endpoint.fail(
                f"the answer has no {self._spec.response_path!r} (agent.response_path)", answer
            )
        if not isinstance(text, str):
            raise self._endpoint.fail(
                f"{self._spec.response_path!r} is {type(text).__name__}, not a string", answer
            )
        tool_calls = self._tool_calls(answer)
        if not text.strip() and not tool_calls:
            raise self._endpoint.fail("the reply text is empty and there are no tool calls", answer)
        return Reply(text=text, tool_calls=tool_calls)

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._endpoint.aclose()

    def _tool_calls(self, answer: JsonAnswer) -> tuple[Any, ...]:
        path = self._spec.tool_calls_path
        if path is None:
            return ()
        # Endpoints often omit an empty list, so a missing or null path means no tool calls.
        _found, items = dig(answer.data, path)
        if items is None:
            return ()
        if not isinstance(items, list):
            raise self._endpoint.fail(
                f"{path!r} is {type(items).__name__}, not a list (agent.tool_calls_path)", answer
            )
        try:
            return tuple(coerce_tool_call(item) for item in items)
        except AgentError as exc:
            raise self._endpoint.fail(str(exc), answer) from None


def render_template(template: Any, turn: Turn) -> Any:
    """Fill a request template with one turn (see `HttpJsonAgent`).

    >>> render_template({"q": "{{message}}", "sid": "s-{{session_id}}", "h": "{{history}}"},
    ...                 Turn(episode_id="e1", message="hi"))
    {'q': 'hi', 'sid': 's-e1', 'h': []}
    """
    if isinstance(template, dict):
        return {key: render_template(value, turn) for key, value in template.items()}
    if isinstance(template, list):
        return [render_template(value, turn) for value in template]
    if not isinstance(template, str):
        return template
    match = _PLACEHOLDER.fullmatch(template)
    if match and match.group(1) == "history":
        return [{"role": u.role, "text": u.text} for u in turn.history]
    transcript = "\n".join(f"{u.role}: {u.text}" for u in turn.history)
    values = {"message": turn.message, "session_id": turn.episode_id, "history": transcript}
    # One pass, so placeholders typed by the user inside the message stay literal text.
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def dig(data: Any, path: str) -> tuple[bool, Any]:
    """Follow a dotted path of dict keys and list indices; return (found, value).

    >>> dig({"data": {"choices": [{"text": "hi"}]}}, "data.choices.0.text")
    (True, 'hi')
    >>> dig({"data": {}}, "data.choices.0.text")
    (False, None)
    """
    node = data
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and _is_index(part, len(node)):
            node = node[int(part)]
        else:
            return False, None
    return True, node


def redact(text: str, secrets: list[str]) -> str:
    """Replace every occurrence of a secret in `text` with `***`."""
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


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

    return _ENV_REF.sub(lookup, value)


def _check_placeholders(template: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(template, dict):
        for value in template.values():
            found |= _check_placeholders(value)
    elif isinstance(template, list):
        for value in template:
            found |= _check_placeholders(value)
    elif isinstance(template, str):
        for name in _PLACEHOLDER.findall(template):
            if name not in _PLACEHOLDERS:
                raise ConfigError(
                    f"unknown placeholder {{{{{name}}}}} in {template!r}; "
                    f"use {', '.join('{{' + p + '}}' for p in _PLACEHOLDERS)}",
                    key="agent.request_template",
                )
            found.add(name)
    return found


def _is_index(part: str, length: int) -> bool:
    return part.lstrip("-").isdigit() and -length <= int(part) < length


def _is_loopback_ip(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False

"""Reach an agent under test behind any HTTP JSON endpoint.

Products expose their chatbots in many shapes. Instead of one adapter per product, the user
describes the endpoint: a JSON request template with `{{message}}`, `{{session_id}}` and
`{{history}}` placeholders, and dotted paths to the reply text and tool calls in the answer. Every
way the endpoint can fail (HTTP error, timeout, garbage body, missing field) becomes an `AgentError`
with the status and a body excerpt, so it is recorded as the agent's failure. The HTTP part is
`JsonEndpoint` (`_http.py`), shared with the other HTTP adapters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import httpx2

from vistasim.agent._http import MAX_BODY_BYTES, JsonAnswer, JsonEndpoint
from vistasim.agent._replies import coerce_tool_call
from vistasim.agent._types import Reply, RestoreStrategy, Turn
from vistasim.config import HttpJsonAgentSpec
from vistasim.errors import AgentError, ConfigError
from vistasim.llm._clients import HttpClients

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_PLACEHOLDERS = ("message", "session_id", "history")


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
        clients: HttpClients | None = None,
        max_body_bytes: int = MAX_BODY_BYTES,
    ) -> None:
        used = check_placeholders(spec.request_template)
        self.restore_strategy: RestoreStrategy = "stateless" if "history" in used else "replay"
        self._spec = spec
        self._endpoint = JsonEndpoint(
            spec.url,
            method=spec.method,
            headers=spec.headers,
            timeout_s=spec.timeout_s,
            environ=environ,
            transport=transport,
            clients=clients,
            max_body_bytes=max_body_bytes,
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
        """Close the HTTP client, unless it is the run's shared one."""
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


def check_placeholders(template: Any) -> set[str]:
    """Return the placeholders a request template uses.

    Raises:
        ConfigError: the template uses an unknown placeholder.
    """
    found: set[str] = set()
    if isinstance(template, dict):
        for value in template.values():
            found |= check_placeholders(value)
    elif isinstance(template, list):
        for value in template:
            found |= check_placeholders(value)
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

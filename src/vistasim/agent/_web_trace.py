"""Read an agent's tool calls from a trace endpoint, for widgets that do not report them.

A chat widget shows text; what the agent did behind it (tool calls, their arguments and results)
usually goes to the product's tracing. `HttpTraceSource` GETs a user-configured endpoint after each
turn and reads either a plain JSON list of `{name, args, result, error}` or OpenTelemetry spans in
OTLP/JSON form (`{"resourceSpans": ...}`) that follow the GenAI conventions (`gen_ai.tool.name`,
`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`, `gen_ai.tool.call.id`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import httpx2

from vistasim.agent._http import EndpointNames, JsonEndpoint
from vistasim.agent._replies import coerce_tool_call
from vistasim.errors import AgentError
from vistasim.events import ToolCall

_TRACE = EndpointNames(
    what="trace endpoint",
    url_key="web.trace_url",
    headers_key="HttpTraceSource.headers",
    timeout_key="HttpTraceSource.timeout_s",
)
_STATUS_ERROR = (2, "STATUS_CODE_ERROR")
_VALUE_KINDS = ("stringValue", "boolValue", "intValue", "doubleValue", "bytesValue")


@runtime_checkable
class TraceSource(Protocol):
    """Where the agent's tool calls can be read after a turn. May also offer `aclose()`."""

    async def fetch(self, since: float) -> list[ToolCall]:
        """Return the tool calls that started at or after `since` (Unix seconds), in order."""
        ...


class HttpTraceSource:
    """A trace endpoint over HTTP: `GET <url>?since=<unix seconds>` answering JSON.

    The answer is a list of tool calls (`{name, args, result, error, call_id, time}`; `time` in
    Unix seconds, optional), an object with such a list under `tool_calls`, or an OTLP/JSON
    export (`{"resourceSpans": [...]}`) whose tool spans carry `gen_ai.tool.name`. Items with a
    time before `since` are dropped, so endpoints that ignore the parameter work too.

    Args:
        url: The endpoint.
        headers: Extra request headers (e.g. an API key); values may hold `${NAME}` references,
            filled from `environ` and redacted from errors.
        timeout_s: Bound on one request.
        environ: Where `${NAME}` references are read (default: `os.environ`).
        transport: An httpx2 transport (tests); without one, non-loopback hosts are refused while
            `vistasim.llm.ALLOW_REQUESTS` is off.
    """

    def __init__(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        timeout_s: float = 10.0,
        environ: Mapping[str, str] | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        self.url = url
        self._endpoint = JsonEndpoint(
            url,
            method="GET",
            headers=headers,
            timeout_s=timeout_s,
            environ=environ,
            transport=transport,
            names=_TRACE,
        )

    async def fetch(self, since: float) -> list[ToolCall]:
        """GET the endpoint and return the tool calls since `since`, oldest first.

        Raises:
            AgentError: the endpoint is unreachable, answers HTTP >= 400 or not the shapes above.
            ConfigError: a header names an unset environment variable, or the host is not
                loopback while requests are disabled (tests).
        """
        answer = await self._endpoint.send(params={"since": f"{since:.6f}"})
        return parse_trace(answer.data, since)

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._endpoint.aclose()


def parse_trace(data: Any, since: float) -> list[ToolCall]:
    """Read tool calls from a trace answer (see `HttpTraceSource`), keeping those since `since`.

    >>> parse_trace([{"name": "get_order", "args": {"id": "W1"}, "time": 5.0}], since=1.0)[0].name
    'get_order'
    >>> parse_trace({"tool_calls": [{"name": "old", "time": 0.5}]}, since=1.0)
    []

    Raises:
        AgentError: the answer has none of the accepted shapes.
    """
    if isinstance(data, dict) and "resourceSpans" in data:
        return _from_otlp(data, since)
    items = data.get("tool_calls") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise AgentError(
            f"trace answer is {type(data).__name__}, not a list of tool calls, "
            "{'tool_calls': [...]} or an OTLP/JSON export with 'resourceSpans'"
        )
    kept = [item for item in items if _at_or_after(item, since)]
    return [coerce_tool_call(item) for item in kept]


def _at_or_after(item: Any, since: float) -> bool:
    at = item.get("time") if isinstance(item, dict) else None
    return not isinstance(at, int | float) or at >= since


def _from_otlp(data: dict[str, Any], since: float) -> list[ToolCall]:
    spans = [
        span
        for resource in data.get("resourceSpans") or []
        for scope in resource.get("scopeSpans") or []
        for span in scope.get("spans") or []
    ]
    found = []
    for span in spans:
        attrs = {a.get("key"): _otlp_value(a.get("value")) for a in span.get("attributes") or []}
        start = int(span.get("startTimeUnixNano") or 0)
        if "gen_ai.tool.name" in attrs and start >= since * 1e9:
            found.append((start, _span_call(span, attrs)))
    return [call for _, call in sorted(found, key=lambda pair: pair[0])]


def _span_call(span: dict[str, Any], attrs: dict[str, Any]) -> ToolCall:
    status = span.get("status") or {}
    error = None
    if status.get("code") in _STATUS_ERROR:
        error = status.get("message") or attrs.get("error.type") or "error"
    return coerce_tool_call(
        {
            "name": attrs["gen_ai.tool.name"],
            "args": attrs.get("gen_ai.tool.call.arguments"),
            "result": _maybe_json(attrs.get("gen_ai.tool.call.result")),
            "error": error,
            "call_id": attrs.get("gen_ai.tool.call.id"),
        }
    )


def _otlp_value(value: Any) -> Any:
    """Unwrap an OTLP/JSON `AnyValue` (`{"stringValue": "x"}` -> "x")."""
    if not isinstance(value, dict):
        return None
    for kind in _VALUE_KINDS:
        if kind in value:
            return int(value[kind]) if kind == "intValue" else value[kind]
    if "arrayValue" in value:
        return [_otlp_value(v) for v in value["arrayValue"].get("values") or []]
    if "kvlistValue" in value:
        pairs = value["kvlistValue"].get("values") or []
        return {p.get("key"): _otlp_value(p.get("value")) for p in pairs}
    return None


def _maybe_json(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value

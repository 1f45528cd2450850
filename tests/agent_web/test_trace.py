"""HttpTraceSource: tool calls read from a trace endpoint (plain JSON list or OTLP/JSON)."""

from __future__ import annotations

import json

import httpx2
import pytest

from vistasim.agent import HttpTraceSource, TraceSource
from vistasim.errors import AgentError, ConfigError


def source(answer, status: int = 200, seen: list | None = None) -> HttpTraceSource:
    def handle(request: httpx2.Request) -> httpx2.Response:
        if seen is not None:
            seen.append(request)
        body = answer if isinstance(answer, str) else json.dumps(answer)
        return httpx2.Response(status, text=body)

    return HttpTraceSource("http://trace.example/spans", transport=httpx2.MockTransport(handle))


def span(name: str, start_s: float, **extra) -> dict:
    attrs = [{"key": "gen_ai.tool.name", "value": {"stringValue": name}}]
    for key, value in extra.items():
        attrs.append({"key": key, "value": value})
    return {
        "name": f"execute_tool {name}",
        "startTimeUnixNano": str(int(start_s * 1e9)),
        "attributes": attrs,
    }


def otlp(*spans: dict) -> dict:
    return {"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}


async def test_fetch_sends_since_as_a_query_parameter():
    seen: list = []
    await source([], seen=seen).fetch(1700000000.5)
    assert seen[0].url.params["since"] == "1700000000.500000"


async def test_plain_list_items_before_since_are_dropped():
    calls = await source(
        [{"name": "old", "time": 10.0}, {"name": "new", "args": {"a": 1}, "time": 20.0}]
    ).fetch(15.0)
    assert [(c.name, c.args) for c in calls] == [("new", {"a": 1})]


async def test_plain_list_items_without_time_are_kept():
    calls = await source({"tool_calls": [{"name": "lookup", "error": "boom"}]}).fetch(15.0)
    assert [(c.name, c.error) for c in calls] == [("lookup", "boom")]


async def test_otlp_tool_spans_become_tool_calls_in_start_order():
    answer = otlp(
        span("second", 30.0),
        span(
            "first",
            20.0,
            **{
                "gen_ai.tool.call.arguments": {"stringValue": '{"order_id": "W1"}'},
                "gen_ai.tool.call.result": {"stringValue": '{"status": "pending"}'},
                "gen_ai.tool.call.id": {"stringValue": "call-7"},
            },
        ),
    )
    calls = await source(answer).fetch(15.0)
    assert [c.name for c in calls] == ["first", "second"]
    assert (calls[0].args, calls[0].result, calls[0].call_id) == (
        {"order_id": "W1"},
        {"status": "pending"},
        "call-7",
    )


async def test_otlp_spans_without_a_tool_name_or_before_since_are_ignored():
    llm_span = {"name": "chat", "startTimeUnixNano": str(int(40 * 1e9)), "attributes": []}
    calls = await source(otlp(span("early", 5.0), llm_span, span("late", 40.0))).fetch(15.0)
    assert [c.name for c in calls] == ["late"]


async def test_otlp_error_status_becomes_the_tool_error():
    failed = span("refund", 20.0) | {"status": {"code": 2, "message": "card expired"}}
    [call] = await source(otlp(failed)).fetch(15.0)
    assert call.error == "card expired"


async def test_http_error_from_trace_endpoint_raises_agent_error():
    with pytest.raises(AgentError, match="HTTP 500") as caught:
        await source("oops", status=500).fetch(0.0)
    assert caught.value.status == 500


async def test_non_json_trace_answer_raises_agent_error():
    with pytest.raises(AgentError, match="not JSON"):
        await source("<html>").fetch(0.0)


async def test_trace_answer_of_unknown_shape_raises_agent_error():
    with pytest.raises(AgentError, match="resourceSpans"):
        await source({"spans": []}).fetch(0.0)


async def test_non_loopback_trace_host_is_refused_while_requests_are_disabled():
    trace = HttpTraceSource("http://trace.example/spans")
    with pytest.raises(ConfigError, match="trace.example"):
        await trace.fetch(0.0)
    await trace.aclose()


def test_http_trace_source_satisfies_the_protocol():
    assert isinstance(source([]), TraceSource)

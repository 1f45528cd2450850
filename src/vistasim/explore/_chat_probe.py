"""Before a run, ask an OpenAI-compatible agent one tiny question, and one with tools.

Part of the preflight (`_preflight.py`). An endpoint that answers `GET /models` may still be the
wrong one for every episode: a `base_url` without `/v1` (every chat call a 404), a key the server
refuses, a model it does not serve, or a server that drops `tools` from the request (llama.cpp
without `--jinja`) so the agent "never calls a tool". The first question is cheap (no tools, a few
output tokens); the second, sent only when the agent has tools, must come back as a tool call
(`tool_choice = "required"`), or the run is warned that the server ignored them. An agent that
fails with a 5xx is left to the run: that is a finding, not a config mistake.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import httpx2

from vistasim.agent import EndpointChatModel
from vistasim.config import OpenAIChatAgentSpec
from vistasim.errors import AgentError, ConfigError
from vistasim.llm import ChatMessage, ChatRequest, ChatResponse, ToolSpec

__all__ = ["ProbeFindings", "probe_chat_agent"]

PROBE_MAX_TOKENS = 16
"""Output bound of the probe questions: an answer is all they need, not a good one."""


@dataclass(kw_only=True)
class ProbeFindings:
    """What the probe found: mistakes (one line each) and warnings the run goes on with."""

    problems: list[ConfigError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


async def probe_chat_agent(
    spec: OpenAIChatAgentSpec,
    *,
    tools: Sequence[ToolSpec] | None,
    environ: Mapping[str, str],
    transport: httpx2.AsyncBaseTransport | None = None,
) -> ProbeFindings:
    """Ask the agent "Hello", then (with `tools`) for a tool call; say what went wrong.

    Args:
        spec: The `[agent]` section.
        tools: The tools the agent will be offered (`None` or empty: none).
        environ: Where `api_key_env` and `${VAR}` headers are read.
        transport: An httpx2 transport (tests).
    """
    findings = ProbeFindings()
    model = EndpointChatModel(spec, environ=environ, transport=transport)
    try:
        hello = ChatRequest(
            messages=[ChatMessage(role="user", content="Hello")], max_tokens=PROBE_MAX_TOKENS
        )
        if not await _ask(model, model.request_body(hello), spec, findings, with_tools=False):
            return findings
        if tools:
            await _ask_for_a_tool(model, spec, tools, findings)
    finally:
        await model.aclose()
    return findings


async def _ask_for_a_tool(
    model: EndpointChatModel,
    spec: OpenAIChatAgentSpec,
    tools: Sequence[ToolSpec],
    findings: ProbeFindings,
) -> None:
    ask = f"Call the tool {tools[0].name} now; this is a test of tool calling."
    request = ChatRequest(
        messages=[ChatMessage(role="user", content=ask)],
        tools=list(tools),
        max_tokens=8 * PROBE_MAX_TOKENS,  # room for the arguments of one call
    )
    body = {**model.request_body(request), "tool_choice": "required"}
    response = await _ask(model, body, spec, findings, with_tools=True)
    if response is not None and not response.tool_calls:
        findings.warnings.append(
            f"the agent at {spec.base_url} ignored `tools`: asked to call {tools[0].name!r} with "
            f"tool_choice = 'required', model {spec.model!r} answered in text, so it may never "
            "call a tool in the run (llama.cpp: start llama-server with --jinja; vLLM: "
            "--enable-auto-tool-choice and a --tool-call-parser)"
        )


async def _ask(
    model: EndpointChatModel,
    body: dict[str, object],
    spec: OpenAIChatAgentSpec,
    findings: ProbeFindings,
    *,
    with_tools: bool,
) -> ChatResponse | None:
    """Send one probe; return its response, or `None` after noting what went wrong."""
    try:
        return await model.complete_body(dict(body))
    except AgentError as exc:
        problem = _problem(spec, exc, with_tools=with_tools)
        if isinstance(problem, ConfigError):
            findings.problems.append(problem)
        elif problem is not None:
            findings.warnings.append(problem)
        return None


def _problem(
    spec: OpenAIChatAgentSpec, exc: AgentError, *, with_tools: bool
) -> ConfigError | str | None:
    """The config mistake (or, when unsure, the warning) an agent error during a probe means."""
    url = spec.base_url.rstrip("/") + "/chat/completions"
    status, body = exc.status, " ".join((exc.body or "").split())[:160]
    if status is None:
        # Too slow, or not a chat completion: the run would fail the same way in every episode,
        # unless the model was only loading (a local server loads it at the first call).
        return f"the probe message to the agent at {url} failed ({exc}); the run may fail too"
    if status >= 500:
        return None  # the agent failing is a finding for the run to record
    if status in (401, 403):
        return ConfigError(
            f"POST {url} answered HTTP {status} ({body!r}): the server refused the key; set "
            "agent.api_key_env to the variable holding it (or the headers it expects)",
            key="agent.api_key_env" if spec.api_key_env else "agent.headers",
        )
    if with_tools:
        return ConfigError(
            f"POST {url} refused a request with tools (HTTP {status}, {body!r}); enable tool "
            "calling on the server, or remove agent.tools",
            key="agent.tools",
        )
    if status == 404:
        return _not_found(spec, url, body)
    return ConfigError(
        f"POST {url} refused the probe message (HTTP {status}, {body!r}); check agent.model "
        "and agent.extra_body",
        key="agent",
    )


def _not_found(spec: OpenAIChatAgentSpec, url: str, body: str) -> ConfigError:
    if "model" in body.lower():  # "The model `x` does not exist" (vLLM, OpenAI, Ollama)
        return ConfigError(
            f"POST {url} answered HTTP 404 ({body!r}): the server does not serve model "
            f"{spec.model!r}; set agent.model to one it lists at GET /models",
            key="agent.model",
        )
    base = spec.base_url.rstrip("/")
    if not base.endswith("/v1"):
        return ConfigError(
            f"POST {url} answered HTTP 404: no chat completions there; OpenAI-compatible "
            f"servers serve them under /v1: set agent.base_url = '{base}/v1'",
            key="agent.base_url",
        )
    return ConfigError(
        f"POST {url} answered HTTP 404: no chat completions there; set agent.base_url to the "
        "URL before /chat/completions",
        key="agent.base_url",
    )

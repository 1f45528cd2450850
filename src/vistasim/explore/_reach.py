"""Before a run, check that every endpoint answers and that a probe reply has the configured shape.

Part of the preflight (`_preflight.py`). Each endpoint is asked once, all at the same time, with a
short timeout: the agent (`GET {base_url}/models` for an OpenAI-compatible one), each role's
model, the web start page and trace URL. Any HTTP answer counts as reachable; only a failed
connection is a problem, or a timeout from an address that takes no connection at all (one that
takes it and then stays silent is a busy server: a warning). A generic HTTP JSON agent also gets
one probe message, so a wrong `response_path` shows up now, with the paths that do hold text,
rather than as an agent failure in every episode.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import httpx2

import vistasim.llm
from vistasim._urls import check_http_url
from vistasim.agent import Turn
from vistasim.agent._http import JsonEndpoint
from vistasim.agent._http_json import dig, render_template
from vistasim.config import HttpJsonAgentSpec, ModelSpec, OpenAIChatAgentSpec, RunConfig
from vistasim.errors import AgentError, ConfigError
from vistasim.explore._settings import widget_only
from vistasim.llm import (
    DEFAULT_BASE_URL,
    BodyTooBig,
    EndpointTimeout,
    HttpClients,
    TransportError,
    exchange,
    is_loopback,
)

__all__ = ["PROBE_MESSAGE", "PROBE_SESSION", "check_endpoints", "may_request", "model_base_url"]

TIMEOUT_S = 5.0
"""Bound on each check: a reachable endpoint answers a cheap request well within it."""
PROBE_MESSAGE = "Hello"
PROBE_SESSION = "vistasim-preflight"
"""The session id of the probe message, so the product can tell it from the run's episodes."""
_SHOWN_PATHS = 6
_REACH_BODY_BYTES = 1_000_000
"""The most of an answer a reachability check reads (the answer itself does not matter)."""


@dataclass(frozen=True, kw_only=True)
class _Endpoint:
    key: str
    """The setting that holds the URL."""
    value: str
    """The URL as configured."""
    url: str
    """What is requested (`GET`)."""


def model_base_url(spec: ModelSpec, environ: Mapping[str, str]) -> str:
    """The base URL a role's model calls, as `OpenAIChatModel` decides it."""
    return spec.base_url or environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL


async def check_endpoints(
    config: RunConfig,
    environ: Mapping[str, str],
    roles: list[str],
    *,
    transport: httpx2.AsyncBaseTransport | None = None,
    warnings: list[str] | None = None,
) -> list[ConfigError]:
    """Return one problem per endpoint that does not answer, plus the probe's findings.

    An endpoint that takes the connection but sends no answer in time is busy, not missing: it
    is added to `warnings` (when given) instead.
    """
    bad = list(_bad_urls(config, environ, roles))
    if bad:
        return bad
    endpoints = [e for e in _endpoints(config, environ, roles) if may_request(e.url)]
    failures: dict[str, str | None] = {}
    busy: set[str] = set()
    # On the run's client stack: pools share one TLS context (a client of its own would load the
    # CA bundle, ~0.05 s of CPU, before the run's first model call).
    clients = HttpClients(transport=transport)
    try:
        async with anyio.create_task_group() as tg:
            for url in {e.url for e in endpoints}:
                tg.start_soon(_connect, clients, url, failures, busy)
    finally:
        await clients.aclose()
    if warnings is not None:
        warnings += [
            f"{e.value!r} ({e.key}) accepts connections but answered nothing within "
            f"{TIMEOUT_S:g} s: the server is busy or slow (a local model server serves one "
            "request at a time); the run goes on, its calls wait and retry"
            for e in endpoints
            if e.url in busy
        ]
    problems = [
        ConfigError(
            f"cannot reach {e.value!r} ({failures[e.url]}); start the server or fix the URL",
            key=e.key,
        )
        for e in endpoints
        if failures[e.url] is not None
    ]
    agent = None if widget_only(config) else config.agent
    if isinstance(agent, HttpJsonAgentSpec) and agent.probe and may_request(agent.url):
        problems += await _probe(agent, environ, transport)
    return problems


def _endpoints(
    config: RunConfig, environ: Mapping[str, str], roles: list[str]
) -> Iterator[_Endpoint]:
    agent = None if widget_only(config) else config.agent
    if isinstance(agent, OpenAIChatAgentSpec):
        yield _Endpoint(key="agent.base_url", value=agent.base_url, url=_models_url(agent.base_url))
    elif isinstance(agent, HttpJsonAgentSpec) and not agent.probe:
        yield _Endpoint(key="agent.url", value=agent.url, url=agent.url)
    for role in roles:
        base_url = model_base_url(config.models[role], environ)
        yield _Endpoint(key=_base_url_key(config, role), value=base_url, url=_models_url(base_url))
    if config.run.mode in ("ui", "hybrid") and config.web.start_url:
        yield _Endpoint(key="web.start_url", value=config.web.start_url, url=config.web.start_url)
    if config.web.trace_url:
        yield _Endpoint(key="web.trace_url", value=config.web.trace_url, url=config.web.trace_url)


def _base_url_key(config: RunConfig, role: str) -> str:
    """Where a role's base URL was set: its key, or `OPENAI_BASE_URL` when it was not."""
    return f"models.{role}.base_url" if config.models[role].base_url else "OPENAI_BASE_URL"


def _bad_urls(
    config: RunConfig, environ: Mapping[str, str], roles: list[str]
) -> Iterator[ConfigError]:
    """Base URLs read from `OPENAI_BASE_URL` (the config's own are checked when it is read)."""
    for role in roles:
        if config.models[role].base_url is None and environ.get("OPENAI_BASE_URL"):
            try:
                check_http_url(environ["OPENAI_BASE_URL"])
            except ValueError as exc:
                yield ConfigError(
                    f"{environ['OPENAI_BASE_URL'][:200]!r} (the base URL of models.{role}) is "
                    f"{exc}",
                    key="OPENAI_BASE_URL",
                )


def _models_url(base_url: str) -> str:
    return base_url.rstrip("/") + "/models"


def may_request(url: str) -> bool:
    """Tell whether the preflight may ask `url`.

    With requests disabled (as in tests), only loopback endpoints are asked.
    """
    return vistasim.llm.ALLOW_REQUESTS or is_loopback(url)


async def _connect(
    clients: HttpClients, url: str, failures: dict[str, str | None], busy: set[str]
) -> None:
    # Any HTTP answer counts, so a redirect is not followed and a big body is not read.
    try:
        await exchange(
            clients.client(url),
            "GET",
            url,
            timeout_s=TIMEOUT_S,
            max_body_bytes=_REACH_BODY_BYTES,
            follow_redirects=False,
        )
    except BodyTooBig:
        failures[url] = None
    except EndpointTimeout as exc:  # no answer in time: busy, or nothing there at all
        if await _accepts_connections(url):
            failures[url] = None
            busy.add(url)
        else:
            failures[url] = str(exc)
    except TransportError as exc:  # no connection
        failures[url] = str(exc)
    else:
        failures[url] = None


async def _accepts_connections(url: str) -> bool:
    """Whether the URL's host takes a TCP connection (a server busy with another request does)."""
    parsed = httpx2.URL(url)
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    with anyio.move_on_after(TIMEOUT_S / 2):
        try:
            stream = await anyio.connect_tcp(parsed.host, port)
        except OSError:
            return False
        await stream.aclose()
        return True
    return False


async def _probe(
    spec: HttpJsonAgentSpec, environ: Mapping[str, str], transport: httpx2.AsyncBaseTransport | None
) -> list[ConfigError]:
    endpoint = JsonEndpoint(
        spec.url,
        method=spec.method,
        headers=spec.headers,
        timeout_s=min(spec.timeout_s, 2 * TIMEOUT_S),
        environ=environ,
        transport=transport,
    )
    turn = Turn(episode_id=PROBE_SESSION, message=PROBE_MESSAGE)
    try:
        answer = await endpoint.send(render_template(spec.request_template, turn))
    except AgentError as exc:
        return _probe_failed(spec, exc)
    finally:
        await endpoint.aclose()
    return list(_check_reply(spec, answer.data))


def _probe_failed(spec: HttpJsonAgentSpec, exc: AgentError) -> list[ConfigError]:
    if exc.status is not None and exc.status >= 500:
        return []  # the agent failing is a finding for the run to record, not a config mistake
    if exc.status is None:
        detail = str(exc)
    else:
        detail = f"HTTP {exc.status}, body {(exc.body or '')[:120]!r}"
    return [
        ConfigError(
            f"the probe message {PROBE_MESSAGE!r} to {spec.url!r} failed ({detail}); check "
            "agent.url, agent.method, agent.headers and agent.request_template, or set "
            "agent.probe = false",
            key="agent.url",
        )
    ]


def _check_reply(spec: HttpJsonAgentSpec, data: Any) -> Iterator[ConfigError]:
    found, text = dig(data, spec.response_path)
    if not found or not isinstance(text, str):
        what = "is not in" if not found else f"is a {type(text).__name__}, not text, in"
        paths = list(_text_paths(data))[:_SHOWN_PATHS]
        hint = f"text is at: {', '.join(paths)}" if paths else "the reply holds no text at all"
        yield ConfigError(
            f"{spec.response_path!r} {what} the probe reply ({hint}); set agent.response_path "
            "to the path of the reply text",
            key="agent.response_path",
        )
    if spec.tool_calls_path is not None:
        _found, calls = dig(data, spec.tool_calls_path)
        if calls is not None and not isinstance(calls, list):
            yield ConfigError(
                f"{spec.tool_calls_path!r} is a {type(calls).__name__} in the probe reply, not a "
                "list of {name, args, result}; fix agent.tool_calls_path or remove it",
                key="agent.tool_calls_path",
            )


def _text_paths(data: Any, prefix: str = "", depth: int = 0) -> Iterator[str]:
    """Dotted paths to the strings of a JSON value, breadth of the first levels first.

    >>> list(_text_paths({"data": {"text": "hi", "n": 1}, "items": [{"t": "x"}]}))
    ['data.text', 'items.0.t']
    """
    if isinstance(data, str) and prefix:
        yield prefix
    elif depth < 6 and isinstance(data, dict):
        for key, value in data.items():
            yield from _text_paths(value, f"{prefix}.{key}" if prefix else str(key), depth + 1)
    elif depth < 6 and isinstance(data, list):
        for index, value in enumerate(data[:3]):
            yield from _text_paths(value, f"{prefix}.{index}" if prefix else str(index), depth + 1)

"""Build the adapter for the agent under test from its config, once per episode.

The runner knows only an `AgentSpec`; this factory picks the adapter for its `kind` and hands it
what it may need from the outside world (the episode's environment, the environment variables that
fill secret headers, and an HTTP transport tests can replace), so nothing is read from globals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import assert_never

import httpx2

from vistasim.agent._http import MAX_BODY_BYTES
from vistasim.agent._http_json import HttpJsonAgent, check_placeholders
from vistasim.agent._openai_chat import ChatAgentSetup, OpenAIChatAgent
from vistasim.agent._python import PythonAgent, resolve_target
from vistasim.agent._types import AgentAdapter
from vistasim.config import AgentSpec, HttpJsonAgentSpec, OpenAIChatAgentSpec, PythonAgentSpec
from vistasim.env._types import Environment
from vistasim.llm._clients import HttpClients
from vistasim.llm._types import ChatModel


def open_agent(
    spec: AgentSpec,
    *,
    env: Environment | None = None,
    model: ChatModel | None = None,
    environ: Mapping[str, str] | None = None,
    transport: httpx2.AsyncBaseTransport | None = None,
    chat_setup: ChatAgentSetup | None = None,
    clients: HttpClients | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
) -> AgentAdapter:
    """Create a fresh adapter for one episode.

    Args:
        spec: The `[agent]` section of the run config.
        env: The episode's environment, passed to Python agent classes that take `env`.
        model: The run's `agent` model, passed to Python agent classes that take `model`.
        environ: Environment variables for `${NAME}` header values (default: `os.environ`,
            read at call time).
        transport: HTTP transport for the HTTP adapters, e.g. `httpx2.MockTransport` in tests.
        chat_setup: What the run's `openai_chat` agents share (its metered model on the run's
            HTTP client, prompt and tools); default: the adapter makes its own.
        clients: The run's shared HTTP clients, for the `http_json` adapter.
        max_body_bytes: The most of an `http_json` answer's body read (`body_cap`); an
            `openai_chat` agent's is set in `chat_setup`.

    Raises:
        ConfigError: the Python target cannot be imported or does not fit its options.
    """
    if isinstance(spec, PythonAgentSpec):
        return PythonAgent(
            resolve_target(spec.target),
            options=spec.options,
            env=env,
            model=model,
            timeout_s=spec.timeout_s,
        )
    if isinstance(spec, OpenAIChatAgentSpec):
        return OpenAIChatAgent(
            spec, env=env, setup=chat_setup, environ=environ, transport=transport
        )
    if isinstance(spec, HttpJsonAgentSpec):
        return HttpJsonAgent(
            spec,
            environ=environ,
            transport=transport,
            clients=clients,
            max_body_bytes=max_body_bytes,
        )
    assert_never(spec)


def check_agent_spec(spec: AgentSpec) -> None:
    """Check what can be checked before a run starts, so a typo fails once and early.

    A Python target must import; an HTTP request template may use only known placeholders.

    Raises:
        ConfigError: naming the key and the fix.
    """
    if isinstance(spec, PythonAgentSpec):
        resolve_target(spec.target)
    elif isinstance(spec, HttpJsonAgentSpec):
        check_placeholders(spec.request_template)

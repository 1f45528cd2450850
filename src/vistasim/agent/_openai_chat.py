"""Reach an agent under test that speaks the OpenAI chat-completions protocol.

Two kinds of product sit behind such an endpoint. A deployed assistant (a gateway around its own
tool loop) gets the conversation and answers in text; tool calls it reports are its trace. A bare
model (vLLM, Ollama, llama.cpp serving a tool-using model) answers `content: null` with
`tool_calls` and waits for results: with `tools` set, vistasim runs that loop against the
episode's environment (`ModelAgent`). Either way the endpoint is reached over plain HTTP without
retries, because an agent that fails is the finding, not something to paper over.

What every episode shares (the run's metered model on one HTTP client, the system prompt, the
tool schemas) is read once per run into a `ChatAgentSetup`, so a bad file is one config error
before the run, not one per episode.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import yaml
from pydantic import ValidationError

from vistasim.agent._chat_endpoint import EndpointChatModel
from vistasim.agent._model_agent import ModelAgent
from vistasim.config import OpenAIChatAgentSpec
from vistasim.env import Environment
from vistasim.errors import ConfigError
from vistasim.llm import ChatModel, ToolSpec

__all__ = [
    "ENVIRONMENT_TOOLS",
    "ChatAgentSetup",
    "OpenAIChatAgent",
    "load_tool_schemas",
    "prepare_chat_agent",
    "read_agent_files",
]

ENVIRONMENT_TOOLS = "environment"
"""The `agent.tools` value that offers the environment's agent tools."""


@dataclass(frozen=True, kw_only=True)
class ChatAgentSetup:
    """What every episode's `openai_chat` agent of a run shares."""

    model: ChatModel
    """The endpoint as a chat model (in a run: metered as role `agent`, on the shared client)."""
    system_prompt: str | None
    """From `system_prompt` or `system_prompt_file`."""
    tools: tuple[ToolSpec, ...] | None
    """Schemas from the tools file; `None` with `tools = "environment"` (the episode's own)."""


def prepare_chat_agent(
    spec: OpenAIChatAgentSpec, *, base_dir: str | Path, model: ChatModel
) -> ChatAgentSetup:
    """Read the spec's files (relative to `base_dir`) once for a run.

    Raises:
        ConfigError: a file is missing or unreadable, or the tool schemas are malformed.
    """
    prompt, tools = read_agent_files(spec, base_dir=base_dir)
    return ChatAgentSetup(model=model, system_prompt=prompt, tools=tools)


def read_agent_files(
    spec: OpenAIChatAgentSpec, *, base_dir: str | Path
) -> tuple[str | None, tuple[ToolSpec, ...] | None]:
    """Return the system prompt and the tool schemas (`None`: the environment's) of a spec.

    Raises:
        ConfigError: a file is missing or unreadable, or the tool schemas are malformed.
    """
    prompt = spec.system_prompt
    if spec.system_prompt_file is not None:
        path = _resolve(base_dir, spec.system_prompt_file)
        prompt = _read(path, key="agent.system_prompt_file")
    if spec.tools == ENVIRONMENT_TOOLS:
        return prompt, None
    if spec.tools is None:
        return prompt, ()
    return prompt, load_tool_schemas(_resolve(base_dir, spec.tools))


class OpenAIChatAgent(ModelAgent):
    """The agent under test behind `POST {base_url}/chat/completions` (`kind = "openai_chat"`).

    Each turn sends the system prompt, the conversation so far (with earlier tool calls and
    results) and the new message, plus `tools`, `temperature`, `seed` and `extra_body` when set.
    A reply's `usage` becomes the turn's `TokenUsage`, its model and finish reason the metadata.

    Args:
        spec: The `[agent]` section.
        env: The episode's environment: tool calls run against it when `spec.tools` is set.
        setup: The run's shared model, prompt and tools; default: made from `spec` with an
            HTTP client of the adapter's own (files relative to the working directory).
        environ: Where `${NAME}` header values are read, when `setup` is not given.
        transport: An httpx2 transport (tests), when `setup` is not given.
    """

    def __init__(
        self,
        spec: OpenAIChatAgentSpec,
        *,
        env: Environment | None = None,
        setup: ChatAgentSetup | None = None,
        environ: Mapping[str, str] | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        self._own: EndpointChatModel | None = None
        if setup is None:
            self._own = EndpointChatModel(spec, environ=environ, transport=transport)
            setup = prepare_chat_agent(spec, base_dir=".", model=self._own)
        if setup.tools is None and env is None:
            raise ConfigError(
                "agent.tools = 'environment' needs an environment: add [environment] target "
                "(a built-in domain such as 'shop', or a module:factory), or list the tool "
                "schemas in a file",
                key="agent.tools",
            )
        super().__init__(
            setup.model,
            env=env,
            system_prompt=setup.system_prompt or _written_policy(env),
            tools=setup.tools,
            temperature=spec.temperature,
            seed=spec.seed,
            max_tool_rounds=spec.max_tool_rounds,
        )

    async def aclose(self) -> None:
        """Close the HTTP client, unless it is the run's shared one."""
        if self._own is not None:
            await self._own.aclose()


def _written_policy(env: Environment | None) -> str | None:
    """The environment's written policy, when it has one (a tau2 domain's).

    Without a system prompt of its own, the model-as-agent is briefed with it, as tau2 briefs
    its agent.
    """
    policy = getattr(env, "policy", None)
    text = policy() if callable(policy) else None
    return text if isinstance(text, str) and text else None


def load_tool_schemas(path: Path) -> tuple[ToolSpec, ...]:
    """Read a JSON or YAML list of OpenAI tool schemas (`{type: function, function: {...}}`).

    A bare `{name, description, parameters}` entry is accepted too, as is `{"tools": [...]}`.

    Raises:
        ConfigError: the file is unreadable, not a list, or an entry has no `name`.
    """
    text = _read(path, key="agent.tools")
    try:
        data: Any = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        raise ConfigError(
            f"{str(path)!r} is not valid JSON/YAML: {exc}", key="agent.tools"
        ) from None
    if isinstance(data, dict) and "tools" in data:
        data = data["tools"]
    if not isinstance(data, list):
        raise ConfigError(
            f"{str(path)!r} holds a {type(data).__name__}; write a list of tool schemas, "
            'e.g. [{"type": "function", "function": {"name": "get_order", "parameters": {...}}}]',
            key="agent.tools",
        )
    return tuple(_tool_spec(item, index, path) for index, item in enumerate(data))


def _tool_spec(item: Any, index: int, path: Path) -> ToolSpec:
    function = item.get("function", item) if isinstance(item, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        raise ConfigError(
            f"{str(path)!r}: tool #{index} ({item!r:.120}) has no function name; write each as "
            '{"type": "function", "function": {"name": ..., "description": ..., "parameters": {}}}',
            key="agent.tools",
        )
    fields = {k: function[k] for k in ("name", "description", "parameters") if k in function}
    try:
        return ToolSpec.model_validate(fields)
    except ValidationError as exc:
        raise ConfigError(
            f"{str(path)!r}: tool {function['name']!r}: {exc.errors()[0]['msg']}", key="agent.tools"
        ) from None


def _resolve(base_dir: str | Path, name: str) -> Path:
    path = Path(name).expanduser()
    return path if path.is_absolute() else Path(base_dir) / path


def _read(path: Path, *, key: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            f"cannot read {str(path)!r} ({exc.strerror}); paths are relative to the config file",
            key=key,
        ) from None

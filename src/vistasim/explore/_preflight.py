"""Find the mistakes a user can fix before a run starts, and report them all at once.

An unset `${VAR}` header, a missing API key, an agent module with a typo, a missing extra, an
unreachable URL or a wrong `response_path` would otherwise run the whole suite and count every
episode as an agent failure. `preflight()` checks each of them before the first
episode (nothing is recorded) and raises one `PreflightError` holding one line per problem: the
key (or the flag or `VISTASIM_*` variable that set it), the bad value and the fix. The CLI prints
those lines and exits with code 2; `--no-preflight` skips the checks. What is worth knowing but
not a mistake (a server that ignores `tools`) comes back as warnings.

The checks that need the network (endpoints answer, the probe reply) live in `_reach.py` and
`_chat_probe.py`.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import re
from collections.abc import Collection, Iterator, Mapping
from typing import Any

import httpx2

from vistasim.agent import resolve_target
from vistasim.agent._http_json import check_placeholders
from vistasim.agent._openai_chat import ENVIRONMENT_TOOLS, read_agent_files
from vistasim.config import (
    HttpJsonAgentSpec,
    OpenAIChatAgentSpec,
    PythonAgentSpec,
    RunConfig,
)
from vistasim.errors import ConfigError, PreflightError, VistasimError
from vistasim.explore._chat_probe import probe_chat_agent
from vistasim.explore._guard import not_an_environment
from vistasim.explore._reach import check_endpoints, may_request, model_base_url
from vistasim.explore._settings import is_tau2_target, widget_only
from vistasim.explore._setup import env_factory, make_importable
from vistasim.llm import ToolSpec

__all__ = ["preflight"]

_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_EXTRAS = {"playwright": "browser", "fastapi": "web", "uvicorn": "web"}
"""Import name -> the vistasim extra that installs it."""


async def preflight(
    config: RunConfig,
    *,
    environ: Mapping[str, str] | None = None,
    given_roles: Collection[str] = (),
    transport: httpx2.AsyncBaseTransport | None = None,
) -> list[str]:
    """Check a config before its first episode.

    Args:
        config: The run config.
        environ: Where `${VAR}` and `api_key_env` are looked up (default: `os.environ`).
        given_roles: Roles whose models the caller passes in (not built from the config).
        transport: An httpx2 transport for the endpoint checks (tests).

    Returns:
        Warnings: what the run goes on with but the user should know.

    Raises:
        PreflightError: one line per problem found.
    """
    environ = os.environ if environ is None else environ
    make_importable(config)
    roles = [role for role in config.models if role not in given_roles]
    # In ui mode with a start page the agent is the page's widget: `[agent]` is never called.
    agent = None if widget_only(config) else config.agent
    warnings = [] if agent is config.agent else [_UNUSED_AGENT]
    problems = [
        *_unset_variables(config, agent, environ, roles),
        *_targets(config, agent, "agent" in given_roles),
        *_extras(config),
    ]
    if not problems:  # an endpoint is only worth asking once its key and headers are known
        problems += await check_endpoints(
            config, environ, roles, transport=transport, warnings=warnings
        )
    if not problems and isinstance(agent, OpenAIChatAgentSpec) and may_request(agent.base_url):
        tools = _probe_tools(config, agent)
        found = await probe_chat_agent(agent, tools=tools, environ=environ, transport=transport)
        problems += found.problems
        warnings += found.warnings
    if problems:
        raise PreflightError([_attributed(config, problem) for problem in problems])
    return warnings


_UNUSED_AGENT = (
    "the [agent] section is not used: with web.start_url in ui and hybrid modes the agent is "
    "reached through the page's chat widget; remove [agent] to silence this"
)


def _attributed(config: RunConfig, problem: ConfigError) -> ConfigError:
    """The problem, blamed on the flag or variable that set its key (when one did)."""
    if problem.key is None or problem.path is not None or config.source_of(problem.key) is None:
        return problem
    return config.setting_error(problem.key, problem.message)


def _probe_tools(config: RunConfig, spec: OpenAIChatAgentSpec) -> list[ToolSpec] | None:
    """Return the tools the agent will be offered, for the probe.

    `None` when they cannot be read: the checks above, or the run, report why.
    """
    try:
        _prompt, tools = read_agent_files(spec, base_dir=config.base_dir)
        if tools is not None:
            return list(tools)
        factory = env_factory(config)
        return None if factory is None else factory().agent_tools()
    except VistasimError:
        return None


def _unset_variables(
    config: RunConfig, agent: object, environ: Mapping[str, str], roles: list[str]
) -> Iterator[ConfigError]:
    if isinstance(agent, OpenAIChatAgentSpec | HttpJsonAgentSpec):
        for name, value in agent.headers.items():
            yield from _unset_refs(f"agent.headers.{name}", value, environ)
    if isinstance(agent, OpenAIChatAgentSpec) and agent.api_key_env:
        if agent.api_key_env not in environ:
            what = f"the key for {agent.base_url}"
            yield _unset("agent.api_key_env", agent.api_key_env, what, no_key="remove it")
    for role in roles:
        spec = config.models[role]
        # A local server too: a server started with a key refuses every call without it.
        if spec.api_key_env and spec.api_key_env not in environ:
            what = f"the key for {model_base_url(spec, environ)}"
            no_key = f'set models.{role}.api_key_env = ""'
            yield _unset(f"models.{role}.api_key_env", spec.api_key_env, what, no_key=no_key)


def _unset_refs(key: str, value: str, environ: Mapping[str, str]) -> Iterator[ConfigError]:
    for name in _ENV_REF.findall(value):
        if name not in environ:
            yield _unset(key, name, f"used in {value!r}")


def _unset(key: str, name: str, what: str, *, no_key: str | None = None) -> ConfigError:
    fix = f"export {name}=... before the run"
    if no_key is not None:
        fix += f", or, if the server takes no key, {no_key}"
    return ConfigError(f"environment variable {name!r} ({what}) is not set; {fix}", key=key)


def _targets(config: RunConfig, agent: object, model_given: bool) -> Iterator[ConfigError]:
    try:
        if isinstance(agent, PythonAgentSpec):
            _check_python_target(agent, config, model_given)
        elif isinstance(agent, OpenAIChatAgentSpec):
            _check_chat_files(agent, config)
        elif isinstance(agent, HttpJsonAgentSpec):
            check_placeholders(agent.request_template)
    except ConfigError as exc:
        yield exc
    environment = config.environment
    if environment is not None and is_tau2_target(environment.target):
        yield from _tau2_domain(environment.target)
    elif environment is not None and ":" in environment.target:
        try:
            target = resolve_target(environment.target, key="environment.target")
        except ConfigError as exc:
            yield exc
            return
        # A factory is only known by what it makes (checked when it first makes one).
        if inspect.isclass(target) and (found := not_an_environment(target, environment.target)):
            yield found
    elif environment is not None:
        yield from _builtin_domain(environment.target)


def _tau2_domain(target: str) -> Iterator[ConfigError]:
    from vistasim.tau2 import tasks

    try:
        tasks(target.removeprefix("tau2:"))  # imports tau2: a missing install is named here
    except ConfigError as exc:
        yield exc


def _builtin_domain(name: str) -> Iterator[ConfigError]:
    from vistasim.domains import DOMAINS

    if name not in DOMAINS:
        yield ConfigError(
            f"{name!r} is neither a built-in domain ({', '.join(sorted(DOMAINS))}) nor a "
            "'module:factory'; name one of those",
            key="environment.target",
        )


def _check_python_target(spec: PythonAgentSpec, config: RunConfig, model_given: bool) -> None:
    target = resolve_target(spec.target)
    if not inspect.isclass(target):
        if not callable(target):
            raise ConfigError(
                f"{spec.target!r} is a {type(target).__name__}, not a class or function; point "
                "agent.target at a class with respond(turn) or a function fn(turn)",
                key="agent.target",
            )
        if spec.options:
            raise ConfigError(
                f"options {sorted(spec.options)!r} were given but {spec.target!r} is a function; "
                "options are keyword arguments for a class target, so remove them",
                key="agent.options",
            )
        return
    _check_class_parameters(spec, target, config, model_given)


def _check_class_parameters(
    spec: PythonAgentSpec, cls: type, config: RunConfig, model_given: bool
) -> None:
    try:
        parameters = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return  # no introspectable signature: the first episode will tell
    supplied: dict[str, Any] = dict(spec.options)
    for name, available, fix in (
        ("env", config.environment is not None, "set [environment] target in the config"),
        ("model", "agent" in config.models or model_given, "add [models.agent] (model, base_url)"),
    ):
        param = parameters.get(name)
        if param is None:
            continue
        if available:
            supplied[name] = None
        elif param.default is inspect.Parameter.empty:
            raise ConfigError(
                f"{spec.target!r} takes {name!r} but the run gives it none; {fix}",
                key="environment" if name == "env" else "models.agent",
            )
    try:
        inspect.signature(cls).bind(**supplied)
    except TypeError as exc:
        raise ConfigError(
            f"{spec.target!r} does not accept options {sorted(spec.options)!r} ({exc}); "
            "match agent.options to its __init__ parameters",
            key="agent.options",
        ) from None


def _check_chat_files(spec: OpenAIChatAgentSpec, config: RunConfig) -> None:
    if spec.tools == ENVIRONMENT_TOOLS and config.environment is None:
        raise ConfigError(
            "agent.tools = 'environment' needs an environment: add [environment] target "
            "(a built-in domain such as 'shop', or a module:factory), or list the tool schemas "
            "in a file",
            key="agent.tools",
        )
    read_agent_files(spec, base_dir=config.base_dir)


def _extras(config: RunConfig) -> Iterator[ConfigError]:
    # Models need no extra: every role reaches its endpoint on the core `httpx2` client.
    needs: dict[str, tuple[str, ...]] = {}
    if config.run.mode in ("ui", "hybrid"):
        needs["run.mode"] = ("playwright",)
        if not config.web.start_url:  # the built-in domain's site is served per episode
            needs["environment.target"] = ("fastapi", "uvicorn")
    for key, packages in needs.items():
        missing = next((p for p in packages if importlib.util.find_spec(p) is None), None)
        if missing is not None:
            yield ConfigError(
                f"{_value_of(config, key)!r} needs the {missing!r} package, which is not "
                f"installed; install it with: pip install 'vistasim[{_EXTRAS[missing]}]'",
                key=key,
            )


def _value_of(config: RunConfig, key: str) -> str:
    if key == "run.mode":
        return config.run.mode
    return config.environment.target if config.environment else ""

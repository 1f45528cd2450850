"""Turn a run config into the live parts of a run: user policy, models, environment, agent."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

from vistasim._secrets import known_secrets
from vistasim.agent import Reply, RestoreStrategy, Turn, body_cap
from vistasim.agent._openai_chat import ChatAgentSetup
from vistasim.agent._python import resolve_target
from vistasim.config import OpenAIChatAgentSpec, PythonAgentSpec, RunConfig, default_home
from vistasim.env._types import Environment
from vistasim.errors import AgentError, ConfigError, user_frame
from vistasim.explore._guard import GuardedAgent, guard_env_factory
from vistasim.explore._settings import builtin_domain, is_tau2_target, widget_only
from vistasim.llm import RequestCache
from vistasim.llm._clients import HttpClients
from vistasim.llm._types import ChatModel
from vistasim.user._types import UserPolicy

if TYPE_CHECKING:
    from vistasim.domains import Domain

EnvFactory = Callable[[], Environment]
AgentFactory = Callable[[Environment | None], GuardedAgent]


@dataclass(frozen=True, kw_only=True)
class Parts:
    """Everything a run needs besides the store and the scenarios."""

    policy: UserPolicy
    models: Mapping[str, ChatModel]
    """Models by role, already metered (and cached when the config says so)."""
    make_env: EnvFactory | None
    make_agent: AgentFactory | None
    """A fresh adapter for the agent under test (one per episode, or per web session); None
    when the agent is reached only through the chat widget at `web.start_url`."""
    cache: RequestCache | None = None
    """The record/replay cache, closed at the end of the run."""
    clients: HttpClients | None = None
    """The run's HTTP clients (one set per endpoint), closed at the end of the run."""
    agent_policy: str = ""
    """The built-in domain's written policy (the head of the agent-token proxy); else empty."""


def build_parts(
    config: RunConfig,
    *,
    store_path: Path,
    models: Mapping[str, ChatModel] | None = None,
    domain: Domain | None = None,
) -> Parts:
    """Build the policy, models, environment factory and agent opener a config names.

    Raises:
        ConfigError: the config names no agent, an agent that cannot be reached or loaded, or
            no model for a role it needs.
    """
    from vistasim.agent import check_agent_spec
    from vistasim.llm import RequestCache, RoleModel, build_models
    from vistasim.llm._role import endpoint_limiters

    # Reached through the page's widget, the agent of an `[agent]` section is never called:
    # it is not imported either (its module may not even exist where the page runs).
    agent = None if widget_only(config) else config.agent
    if agent is None and not widget_only(config):
        raise ConfigError(
            "no agent to test: add an [agent] section, e.g. kind = 'python', "
            "target = 'my_agent:MyAgent' (or, in ui and hybrid modes, set web.start_url to reach "
            "the agent through its page's chat widget)",
            key="agent",
        )
    make_importable(config)
    if agent is not None:
        check_agent_spec(agent)
    cache = None
    if config.cache.mode != "off":
        cache_path = (
            config.resolve(config.cache.path)
            if config.cache.path
            else store_path.with_name("cache.db")
        )
        cache = RequestCache(
            cache_path, mode=config.cache.mode, secrets=known_secrets(config, os.environ)
        )
    clients = HttpClients(concurrency=config.run.concurrency)
    limiters = endpoint_limiters(config)
    metered: dict[str, ChatModel] = dict(
        build_models(config, cache=cache, clients=clients, limiters=limiters)
    )
    for role, model in (models or {}).items():
        spec = config.models.get(role)
        metered[role] = RoleModel(
            model,
            role=role,
            price=config.prices.get(model.name),
            cache=cache,
            max_retries=spec.max_retries if spec else 2,
        )
    return Parts(
        policy=_make_policy(config, metered, domain),
        models=metered,
        make_env=env_factory(config, domain),
        make_agent=None if agent is None else _agent_factory(config, metered, clients, limiters),
        cache=cache,
        clients=clients,
        agent_policy=domain.policy() if domain is not None else "",
    )


def default_store_path(config: RunConfig | None, explicit: str | Path | None) -> Path:
    """The store file: the explicit one, else the config's, else `$VISTASIM_HOME/vistasim.db`."""
    if explicit is not None:
        return Path(explicit)
    if config is not None and config.run.store:
        return config.resolve(config.run.store)
    return default_home() / "vistasim.db"


def _make_policy(
    config: RunConfig, models: Mapping[str, ChatModel], domain: Domain | None
) -> UserPolicy:
    from vistasim.user import LLMUserPolicy, ScriptedUser, load_script

    if config.user.policy == "agenda":
        from vistasim.user import AgendaPolicy, load_web_skills  # only agenda runs load them

        skills = load_web_skills(domain.package) if domain is not None else None
        return AgendaPolicy(web_skills=skills)
    if config.user.policy == "scripted":
        if not config.user.script:
            raise ConfigError(
                "user.policy = 'scripted' needs user.script: a YAML file mapping each scenario "
                "id to its user turns (`vistasim export RUN --episode ID --as-test` writes one)",
                key="user.script",
            )
        return ScriptedUser(load_script(config.resolve(config.user.script)))
    if "user" not in models:
        raise ConfigError(
            "user.policy = 'llm' needs a user model: add [models.user] with model (and base_url), "
            "or pass --model user=openai/gpt-4.1-mini",
            key="models.user",
        )
    spec = config.models.get("user")
    return LLMUserPolicy(
        models["user"],
        temperature=spec.temperature if spec else None,
        seed=spec.seed if spec else None,
        max_repairs=config.user.max_repairs,
    )


def env_factory(config: RunConfig, domain: Domain | None = None) -> EnvFactory | None:
    """The config's environment factory, guarded: what it makes fails only with `EnvError`.

    `domain`: the built-in domain the run's settings resolved (`settings.builtin_domain`).
    """
    if config.environment is None:
        return None
    target, options = config.environment.target, config.environment.options
    domain = domain if domain is not None else builtin_domain(config)
    if domain is not None:
        return guard_env_factory(domain.make_environment, name=target)
    if is_tau2_target(target):
        from vistasim.tau2 import make_tau2_environment

        make_tau2_environment(target)  # a missing tau2 is one config error now, not per episode
        return guard_env_factory(lambda: make_tau2_environment(target), name=target)
    factory = resolve_target(target, key="environment.target")
    return guard_env_factory(lambda: factory(**options), name=target)


def _agent_factory(
    config: RunConfig,
    models: Mapping[str, ChatModel],
    clients: HttpClients,
    limiters: Mapping[str, anyio.CapacityLimiter],
) -> AgentFactory:
    from vistasim.agent import open_agent

    spec = config.agent
    assert spec is not None
    if isinstance(spec, PythonAgentSpec):
        resolve_target(spec.target)  # a typo is one config error now, not one per episode
    chat_setup = None
    if isinstance(spec, OpenAIChatAgentSpec):
        chat_setup = _chat_setup(config, spec, clients, limiters)

    def make(env: Environment | None) -> GuardedAgent:
        try:
            adapter = open_agent(
                spec,
                env=env,
                model=models.get("agent"),
                chat_setup=chat_setup,
                clients=clients,
                max_body_bytes=body_cap(config.run.max_reply_bytes),
            )
            return GuardedAgent(adapter, name=getattr(adapter, "name", "the agent"))
        except ConfigError:
            raise  # the same mistake for every episode: the run stops and says so
        except AgentError as exc:
            return GuardedAgent(_FailedAgent(exc))
        except Exception as exc:
            name = f"the agent factory raised {type(exc).__name__}: {exc}{user_frame(exc)}"
            return GuardedAgent(_FailedAgent(AgentError(name)))

    return make


def _chat_setup(
    config: RunConfig,
    spec: OpenAIChatAgentSpec,
    clients: HttpClients,
    limiters: Mapping[str, anyio.CapacityLimiter],
) -> ChatAgentSetup:
    """The run's one metered model for an `openai_chat` agent, on the run's shared client."""
    from vistasim.agent._chat_endpoint import EndpointChatModel
    from vistasim.agent._openai_chat import ENVIRONMENT_TOOLS, prepare_chat_agent
    from vistasim.llm import RoleModel

    if spec.tools == ENVIRONMENT_TOOLS and config.environment is None:
        raise ConfigError(
            "agent.tools = 'environment' needs an environment: add [environment] target "
            "(a built-in domain such as 'shop', or a module:factory), or list the tool schemas "
            "in a file",
            key="agent.tools",
        )
    endpoint = EndpointChatModel(
        spec, clients=clients, max_body_bytes=body_cap(config.run.max_reply_bytes)
    )
    model = RoleModel(
        endpoint,
        role="agent",
        price=config.prices.get(spec.model),
        max_retries=0,  # the agent under test is not retried: its failures are findings
        endpoint_limiter=limiters.get(spec.base_url.rstrip("/")),
    )
    return prepare_chat_agent(spec, base_dir=config.base_dir, model=model)


class _FailedAgent:
    """Stands in for an agent that could not start, so its episode records an agent failure."""

    restore_strategy: RestoreStrategy = "stateless"

    def __init__(self, error: AgentError) -> None:
        self.error = error

    async def respond(self, turn: Turn) -> Reply:
        raise self.error

    async def aclose(self) -> None:
        return None


def make_importable(config: RunConfig) -> None:
    # A config names its agent as `module:attr` next to the config file, as uvicorn does.
    base = str(Path(config.base_dir).resolve())
    if base not in sys.path:
        sys.path.insert(0, base)

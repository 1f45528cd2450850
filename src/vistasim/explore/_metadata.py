"""What a run records about its setup before it starts, so later metrics need no config files.

The environment's tools (with their descriptions, which the generic detectors read) and the
product's own rules, validated now: a mistake in them stops the run before anything is stored.
"""

from __future__ import annotations

from typing import Any

from vistasim.config import RunConfig
from vistasim.explore._settings import builtin_domain
from vistasim.explore._setup import env_factory

__all__ = ["run_metadata"]


def run_metadata(config: RunConfig) -> dict[str, object]:
    """What a run records about its setup: prompt hash, tools with descriptions, own rules."""
    from vistasim.user import prompt_hash

    metadata: dict[str, object] = {"prompt_hash": prompt_hash(), "user_policy": config.user.policy}
    if config.environment is not None:
        factory = env_factory(config)
        if factory is not None:
            env = factory()
            tools = env.agent_tools()
            metadata["agent_tools"] = [t.name for t in tools]
            metadata["agent_tool_descriptions"] = {t.name: t.description for t in tools}
            metadata["user_tools"] = [t.name for t in env.user_tools()]
            rules = _product_rules(config, type(getattr(env, "inner", env)))
            if rules is not None:
                metadata["policy_rules"] = rules.model_dump(mode="json")
    return metadata


def _product_rules(config: RunConfig, env_class: type) -> Any:
    """The product's own rules (validated now, stored with the run), if it has any."""
    from vistasim.metrics import rules_of_environment

    assert config.environment is not None
    configured = config.environment.rules
    return rules_of_environment(
        config.resolve(configured) if configured else None,
        None if builtin_domain(config) is not None else env_class,
    )

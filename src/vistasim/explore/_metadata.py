"""What a run records about its setup before it starts, so later metrics need no config files.

The environment's tools (with their descriptions, which the generic detectors read) and the
product's own rules, validated now: a mistake in them stops the run before anything is stored.
"""

from __future__ import annotations

from typing import Any

from vistasim.config import RunConfig
from vistasim.dates import environment_now
from vistasim.errors import ConfigError
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
            metadata["agent_tool_params"] = {t.name: _param_names(t.parameters) for t in tools}
            metadata["user_tools"] = [t.name for t in env.user_tools()]
            now = environment_now(getattr(env, "inner", env))
            if now is not None:  # the detectors read "tomorrow" in replies against it
                metadata["environment_now"] = now.isoformat()
            rules = _product_rules(config, type(getattr(env, "inner", env)))
            if rules is not None:
                metadata["policy_rules"] = rules.model_dump(mode="json")
    if config.judges.policy:
        from vistasim.metrics import POLICY_TEXT_KEY

        metadata[POLICY_TEXT_KEY] = _policy_text(config, config.judges.policy)
    return metadata


def _param_names(schema: object) -> list[str]:
    properties = schema.get("properties") if isinstance(schema, dict) else None
    return sorted(str(k) for k in properties) if isinstance(properties, dict) else []


_POLICY_LIMIT = 40_000


def _policy_text(config: RunConfig, configured: str) -> str:
    """The policy text a judge will read, checked now: it must exist, be text, and fit."""
    path = config.resolve(configured)
    fix = "point [judges] policy at your product's policy text (Markdown or plain text)"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path} does not exist; {fix}", key="judges.policy") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"{path} cannot be read as text ({exc}); {fix}", key="judges.policy"
        ) from None
    if not text.strip():
        raise ConfigError(f"{path} is empty; {fix}", key="judges.policy")
    if len(text) > _POLICY_LIMIT:
        raise ConfigError(
            f"{path} has {len(text):,} characters, more than the {_POLICY_LIMIT:,} a judge reads;"
            " keep the rules the agent must follow",
            key="judges.policy",
        )
    return text


def _product_rules(config: RunConfig, env_class: type) -> Any:
    """The product's own rules (validated now, stored with the run), if it has any."""
    from vistasim.metrics import rules_of_environment

    assert config.environment is not None
    configured = config.environment.rules
    return rules_of_environment(
        config.resolve(configured) if configured else None,
        None if builtin_domain(config) is not None else env_class,
    )

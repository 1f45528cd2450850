"""What a built-in domain provides, so the runner, the CLI and the web server treat them alike."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from vistasim.env._types import Environment
from vistasim.llm._types import ChatModel
from vistasim.scenario import Scenario, load_scenarios


@dataclass(frozen=True, kw_only=True)
class Domain:
    """A built-in product to test: state, tools, agents, web site and scenarios."""

    name: str
    """`shop`, `school`."""
    description: str
    make_environment: Callable[[], Environment]
    """A fresh environment from seed data (one per episode)."""
    rule_agent: type
    """Rule-based agent class: `cls(env=env)` with `respond(turn)`, `snapshot()`, `restore()`."""
    make_llm_agent: Callable[[Environment, ChatModel], Any]
    """LLM agent with tool calling: `(env, model) -> agent` with `respond(turn) -> Reply`."""
    package: str
    """Package holding `scenarios.yaml`, `policy.md` and `README.md`."""
    make_web_app: Callable[..., Any] | None = None
    """`(env, agent_factory) -> ASGI app` for `vistasim serve`; `None` if the domain has no site."""

    def scenarios(self) -> list[Scenario]:
        """The domain's bundled scenarios."""
        with resources.as_file(resources.files(self.package) / "scenarios.yaml") as path:
            return load_scenarios(path)

    def policy(self) -> str:
        """The written policy the agents and tools enforce."""
        return (resources.files(self.package) / "policy.md").read_text(encoding="utf-8")

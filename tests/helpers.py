"""Builders shared by tests."""

from __future__ import annotations

from importlib import resources

from vistasim.config import RunConfig
from vistasim.scenario import Scenario, load_scenarios


def desk_config(*, rollouts: int = 1, **sections: dict) -> RunConfig:
    """A run config for the tiny order-desk test domain (vistasim.demo), offline."""
    base: dict = {
        "run": {"rollouts": rollouts, "concurrency": 4},
        "user": {"policy": "agenda"},
        "agent": {"kind": "python", "target": "vistasim.demo:OrderDeskAgent"},
        "environment": {"target": "vistasim.demo:OrderBook"},
        "cache": {"mode": "off"},
    }
    for name, values in sections.items():
        base[name] = {**(base.get(name) or {}), **values}
    return RunConfig.model_validate(base)


def desk_scenarios() -> list[Scenario]:
    """The order desk's five scenarios."""
    with resources.as_file(resources.files("vistasim.demo") / "scenarios.yaml") as path:
        return load_scenarios(path)

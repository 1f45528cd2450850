"""The run configs resolve: agent and environment targets import, scenarios are found."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks.bikes import BikeEnvironment

from vistasim.config import load_config
from vistasim.explore._setup import build_parts
from vistasim.scenario import load_scenarios

CONFIGS = Path(__file__).parents[2] / "benchmarks" / "bikes"


@pytest.mark.parametrize(
    ("name", "agent"),
    [("bikes.toml", "BikeDeskAgent"), ("bikes_flawed.toml", "FlawedBikeDeskAgent")],
)
def test_config_builds(name, agent, tmp_path):
    config = load_config(CONFIGS / name, environ={})
    assert config.user.policy == "agenda" and config.cache.mode == "off"
    assert len(load_scenarios(config.resolve(config.run.scenarios))) == 30
    parts = build_parts(config, store_path=tmp_path / "store.db")
    env = parts.make_env()
    # The run wraps the environment so a failing tool costs one episode (env.inner is it).
    assert isinstance(env.inner, BikeEnvironment) and env is not parts.make_env()
    adapter = parts.make_agent(env)
    assert adapter.restore_strategy == "state" and adapter.inner.name.endswith(agent)

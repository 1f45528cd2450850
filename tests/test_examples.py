"""The configs in examples/ stay valid, and the offline one runs."""

from pathlib import Path

import pytest

from vistasim.config import load_config
from vistasim.explore import run
from vistasim.scenario import load_scenarios
from vistasim.store import open_store

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize("name", ["vistasim.toml", "http_agent.toml", "openai_agent.toml"])
def test_example_config_is_valid(name):
    config = load_config(EXAMPLES / name, environ={})
    assert config.agent is not None
    assert load_scenarios(config.resolve(config.run.scenarios))


async def test_offline_example_runs(tmp_path):
    config = load_config(EXAMPLES / "vistasim.toml", environ={})
    result = await run(config, store=open_store(tmp_path / "v.db"))
    assert result.episodes == 6
    assert result.passed == 6


def test_the_example_schema_file_is_current():
    import json

    from vistasim.scenario import scenario_schema

    stored = json.loads((EXAMPLES / "scenario.schema.json").read_text(encoding="utf-8"))
    # Regenerate with: vistasim schema > examples/scenario.schema.json
    assert stored == scenario_schema()

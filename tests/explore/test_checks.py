"""Criteria the environment cannot satisfy are scenario errors, found before the run starts."""

import pytest

from tests.helpers import desk_config, desk_scenarios
from vistasim.errors import ConfigError
from vistasim.explore import run
from vistasim.scenario import Scenario
from vistasim.store import open_store


def with_criteria(**criteria) -> list[Scenario]:
    base = desk_scenarios()[0]
    return [base.model_copy(update={"criteria": base.criteria.model_copy(update=criteria)})]


async def test_a_criterion_naming_an_unknown_tool_is_a_scenario_error(tmp_path):
    first = desk_scenarios()[0].criteria.actions[0]
    typo = first.model_copy(update={"tool": first.tool + "s"})
    with pytest.raises(
        ConfigError,
        match=rf"criteria.actions\[0\].tool: no agent tool .*did you mean {first.tool!r}",
    ):
        await run(
            desk_config(),
            scenarios=with_criteria(actions=[typo]),
            store=open_store(tmp_path / "s.db"),
        )
    store = open_store(tmp_path / "s.db")
    assert store.db.execute("SELECT count(*) FROM runs").fetchone()[0] == 0  # nothing recorded


async def test_a_state_check_without_an_environment_is_a_scenario_error(tmp_path):
    config = desk_config().model_copy(update={"environment": None})
    config = config.model_copy(
        update={
            "agent": config.agent.model_copy(
                update={"target": "tests.explore.agents:confused_agent"}
            )
        }
    )
    scenarios = desk_scenarios()[1:2]  # its criteria check the orders table
    with pytest.raises(ConfigError, match="no environment to check the end state"):
        await run(config, scenarios=scenarios, store=open_store(tmp_path / "s.db"))

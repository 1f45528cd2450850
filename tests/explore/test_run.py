import json

import pytest

from tests.helpers import desk_config as _config
from tests.helpers import desk_scenarios as _demo_scenarios
from vistasim.events import AgentReply, ApiCall, Judgment, Snapshot, Stop, UserMessage
from vistasim.explore import run
from vistasim.llm import ModelCallFailed
from vistasim.scenario import load_scenarios
from vistasim.store import open_store, read_run_view
from vistasim.testing import FunctionLLM


async def _run(tmp_path, config, scenarios=None, **kwargs):
    store = open_store(tmp_path / "store.db")
    result = await run(config, scenarios=scenarios or _demo_scenarios(), store=store, **kwargs)
    return result, read_run_view(store, result.run_id)


async def test_demo_config_plays_every_episode_to_a_stop(tmp_path):
    result, view = await _run(tmp_path, _config(rollouts=2))
    assert result.episodes == 10
    # The two-items user keeps insisting on both items, which the flawed agent never takes.
    assert set(result.stop_reasons) <= {"goal_met", "user_stop", "max_turns"}
    assert result.passed + result.failed == 10
    verdicts = {e.scenario_id: e.events[-2].event.passed for e in view.episodes}
    assert verdicts["desk-return-blender"] is True
    assert verdicts["desk-return-two-items"] is False  # the demo agent's documented flaw


async def test_turns_end_in_snapshots_and_episodes_in_judgment_then_stop(tmp_path):
    _, view = await _run(tmp_path, _config())
    episode = next(e for e in view.episodes if e.scenario_id == "desk-cancel-processing")
    kinds = [e.event.kind for e in episode.events]
    assert kinds[0] == "snapshot"
    assert kinds[-2:] == ["judgment", "stop"]
    user_turns = sum(isinstance(e.event, UserMessage) for e in episode.events)
    snapshots = [e.event for e in episode.events if isinstance(e.event, Snapshot)]
    assert [s.turn for s in snapshots] == list(range(user_turns + 1))
    assert all(s.env_state_ref and s.agent_state_ref for s in snapshots)


@pytest.mark.parametrize(
    ("target", "detail"),
    [
        ("tests.explore.agents:crashing_agent", "database connection lost"),
        ("tests.explore.agents:garbage_agent", "returned int"),
        ("tests.explore.agents:FailsToStart", "model weights not found"),
    ],
)
async def test_a_failing_agent_is_a_recorded_agent_failure(tmp_path, target, detail):
    config = _config(agent={"target": target}, environment={"target": "vistasim.demo:OrderBook"})
    result, view = await _run(tmp_path, config)
    assert result.stop_reasons == {"agent_error": 5}
    assert result.failed == 5 and result.errored == 0
    episode = view.episodes[0]
    assert isinstance(episode.events[-3].event, UserMessage)  # the message that broke it is kept
    verdict = episode.events[-2].event
    assert isinstance(verdict, Judgment) and verdict.passed is False
    assert detail in episode.stop.detail


async def test_max_turns_stops_an_episode_that_goes_nowhere(tmp_path):
    config = _config(agent={"target": "tests.explore.agents:confused_agent"}, run={"max_turns": 2})
    result, _ = await _run(tmp_path, config)
    assert result.stop_reasons == {"max_turns": 5}


async def test_episode_timeout_stops_with_timeout(tmp_path):
    config = _config(
        agent={"target": "tests.explore.agents:slow_agent"}, run={"episode_timeout_s": 0.3}
    )
    result, view = await _run(tmp_path, config, scenarios=_demo_scenarios()[:1])
    assert result.stop_reasons == {"timeout": 1}
    assert view.episodes[0].status == "done"


LLM_USER = {"user": {"policy": "llm"}, "models": {"user": {"model": "fake-user", "max_retries": 0}}}


def _llm_user(script_for_scenario=None):
    def reply(request):
        goal = request.messages[0].content
        if script_for_scenario and script_for_scenario in goal:
            raise ModelCallFailed("upstream overloaded", retryable=False, status=503)
        said = sum(1 for m in request.messages if m.role == "assistant")
        if said == 0:
            text = "Hi, I need help with order W1002. My email is sam.okafor@example.com."
            return json.dumps({"plan": "ask", "action": "say", "text": text, "api": None,
                               "finish_reason": None})  # fmt: skip
        return json.dumps({"plan": "done", "action": "finish", "text": "Thanks!", "api": None,
                           "finish_reason": "goal_met"})  # fmt: skip

    return FunctionLLM(reply, name="fake-user")


async def test_llm_user_makes_one_model_call_per_turn(tmp_path):
    config = _config(**LLM_USER)
    llm = _llm_user()
    result, view = await _run(tmp_path, config, models={"user": llm})
    assert result.stop_reasons == {"goal_met": 5}
    for episode in view.episodes:
        actions = sum(isinstance(e.event, UserMessage) for e in episode.events) + 1  # + finish
        assert [c.role for c in episode.model_calls] == ["user"] * actions
    assert len(llm.requests) == 10


async def test_provider_failure_marks_only_that_episode_errored(tmp_path):
    config = _config(**LLM_USER)
    result, view = await _run(tmp_path, config, models={"user": _llm_user("Cancel order W1001")})
    assert result.errored == 1 and result.stop_reasons["infra_error"] == 1
    errored = next(e for e in view.episodes if e.status == "errored")
    assert errored.scenario_id == "desk-cancel-processing"
    assert not any(isinstance(e.event, Judgment) for e in errored.events)  # never pass nor fail
    assert errored.model_calls[0].error is not None
    assert result.passed + result.failed == 4


async def test_cached_rerun_is_identical_and_calls_no_model(tmp_path):
    config = _config(**LLM_USER, cache={"mode": "read_write", "path": str(tmp_path / "cache.db")})
    first_llm, second_llm = _llm_user(), _llm_user()
    _, first = await _run(tmp_path, config, models={"user": first_llm})
    _, second = await _run(tmp_path, config, models={"user": second_llm})
    assert len(first_llm.requests) == 10 and second_llm.requests == []
    assert _transcripts(first) == _transcripts(second)
    assert all(c.cache_hit for e in second.episodes for c in e.model_calls)


async def test_same_seed_gives_the_same_offline_run(tmp_path):
    _, first = await _run(tmp_path, _config())
    _, second = await _run(tmp_path, _config())
    assert _transcripts(first) == _transcripts(second)


async def test_api_mode_lets_the_user_call_user_side_apis(tmp_path):
    scenarios = load_scenarios_text(
        """
        - id: track
          persona: {name: Sam}
          goal: Find out where order W1002 is.
          knowledge: {order_id: W1002}
          agenda: [{intent: track_shipment, slots: {order_id: W1002}}]
        """,
        tmp_path,
    )
    _, view = await _run(tmp_path, _config(run={"mode": "api"}), scenarios=scenarios)
    calls = [e.event for e in view.episodes[0].events if isinstance(e.event, ApiCall)]
    assert calls and calls[0].name == "track_shipment"
    assert calls[0].result["carrier"] == "UPS"
    assert view.user_tools == ("track_shipment",)


async def test_ui_mode_without_a_page_is_a_config_error(tmp_path):
    from vistasim.errors import ConfigError

    with pytest.raises(ConfigError, match="web.start_url"):
        await _run(tmp_path, _config(run={"mode": "ui"}))


def load_scenarios_text(text, tmp_path):
    import textwrap

    path = tmp_path / "scenarios.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_scenarios(path)


def _transcripts(view):
    return {
        e.scenario_id: [
            (type(s.event).__name__, getattr(s.event, "text", None))
            for s in e.events
            if isinstance(s.event, (UserMessage, AgentReply, Stop))
        ]
        for e in view.episodes
    }


async def test_web_mode_without_a_browser_fails_before_recording_a_run(tmp_path):
    from vistasim.errors import BrowserError

    config = _config(run={"mode": "hybrid"}, environment={"target": "shop"},
                     agent={"target": "vistasim.domains.shop:RuleShopAgent"},
                     web={"chromium": str(tmp_path / "no-such-chromium")})  # fmt: skip
    store = open_store(tmp_path / "v.db")
    with pytest.raises(BrowserError, match="no-such-chromium"):
        await run(config, scenarios=_demo_scenarios()[:1], store=store)
    assert store.list_runs() == []


async def test_a_run_leaves_the_garbage_collector_as_it_found_it(tmp_path):
    import gc

    before = gc.get_threshold()
    seen: list[tuple[tuple[int, int, int], int]] = []

    def watch(done, total, plan, reason):
        seen.append((gc.get_threshold(), gc.get_freeze_count()))

    await _run(tmp_path, _config(), on_episode=watch)
    assert seen and all(threshold[0] > before[0] and frozen for threshold, frozen in seen)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


async def test_a_built_in_domain_without_a_scenarios_file_plays_its_own_scenarios(tmp_path):
    from vistasim.config import RunConfig
    from vistasim.errors import ConfigError

    def config(**environment) -> RunConfig:
        return RunConfig.model_validate({
            "run": {"select": ["shop-cancel-*"], "rollouts": 1},
            "agent": {"kind": "python", "target": "vistasim.domains.shop:RuleShopAgent"},
            "cache": {"mode": "off"}, **({"environment": environment} if environment else {}),
        })  # fmt: skip

    with open_store(tmp_path / "v.db") as store:
        result = await run(config(target="shop"), store=store, preflight=False)
        played = {e.scenario_id for e in store.list_episodes(result.run_id)}
        with pytest.raises(ConfigError, match="run.scenarios to a YAML/JSON file"):
            await run(config(), store=store, preflight=False)
        assert len(store.list_runs()) == 1  # the refused run was not recorded
    assert played and all(s.startswith("shop-cancel-") for s in played)

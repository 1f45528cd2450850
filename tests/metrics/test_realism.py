import json

from tests.metrics._builders import agent, criteria, episode, make_run, stop, user
from vistasim.llm import ModelCallFailed
from vistasim.metrics import RealismNotComputed, RealismReport, realism
from vistasim.testing import ScriptedLLM


def verdict(h=3, c=3, g=3):
    return json.dumps(
        {
            "human_likeness": {"score": h, "reason": "sounds human"},
            "coherence": {"score": c, "reason": "follows"},
            "goal_consistency": {"score": g, "reason": "on goal"},
        }
    )


def _ep(eid, mode="chat", **kw):
    events = [user("where is my order $W1"), agent("Let me check."), criteria(True), stop()]
    return episode(eid, "s1", events, mode=mode, **kw)


async def test_no_judge_reports_not_computed():
    result = await realism(make_run([_ep("e1")]), None)
    assert isinstance(result, RealismNotComputed)
    assert set(result.model_dump()) == {"computed", "reason"}
    assert result.model_dump()["computed"] is False


async def test_scores_and_reasons_are_kept_per_episode():
    result = await realism(make_run([_ep("e1")]), ScriptedLLM([verdict(2, 3, 1)]))
    assert isinstance(result, RealismReport)
    [scored] = result.episodes
    assert scored.scores == {"human_likeness": 2, "coherence": 3, "goal_consistency": 1}
    assert scored.reasons["human_likeness"] == "sounds human"


async def test_means_and_share_of_threes():
    judge = ScriptedLLM([verdict(3, 3, 3), verdict(1, 3, 2)])
    result = await realism(make_run([_ep("e1"), _ep("e2")]), judge, max_concurrency=1)
    rubrics = result.overall.rubrics
    assert (rubrics["human_likeness"].mean, rubrics["human_likeness"].share_of_3) == (2.0, 0.5)
    assert (rubrics["coherence"].mean, rubrics["goal_consistency"].mean) == (3.0, 2.5)


async def test_realism_is_reported_per_mode():
    judge = ScriptedLLM([verdict(3, 3, 3), verdict(1, 1, 1)])
    run = make_run([_ep("e1", mode="chat"), _ep("e2", mode="hybrid")])
    result = await realism(run, judge, max_concurrency=1)
    assert result.by_mode["chat"].rubrics["coherence"].mean == 3.0
    assert result.by_mode["hybrid"].rubrics["coherence"].mean == 1.0


async def test_one_judge_call_per_episode():
    judge = ScriptedLLM([verdict()] * 3)
    result = await realism(make_run([_ep("e1"), _ep("e2"), _ep("e3")]), judge)
    assert (len(judge.requests), result.judge_calls) == (3, 3)


async def test_out_of_range_score_is_repaired_with_the_error_quoted():
    judge = ScriptedLLM([verdict(h=4), verdict(h=2)])
    result = await realism(make_run([_ep("e1")]), judge)
    assert result.episodes[0].scores["human_likeness"] == 2
    repair = judge.requests[1].messages[-1].content
    assert "human_likeness.score" in repair and "less than or equal to 3" in repair


async def test_malformed_replies_become_a_judge_error_not_a_zero():
    judge = ScriptedLLM(["not json", "```json\n{oops```", '{"coherence": 2}'])
    result = await realism(make_run([_ep("e1")]), judge, max_repairs=2)
    assert result.episodes == [] and result.overall is None
    [error] = result.errors
    assert (error.item, error.calls, error.judge) == ("e1", 3, "realism")
    assert "human_likeness" in error.error


async def test_json_in_a_code_fence_is_accepted():
    judge = ScriptedLLM([f"```json\n{verdict()}\n```"])
    result = await realism(make_run([_ep("e1")]), judge)
    assert result.episodes[0].scores["coherence"] == 3


async def test_provider_failure_is_recorded_as_judge_error():
    judge = ScriptedLLM([ModelCallFailed("overloaded", retryable=True, status=429), verdict()])
    result = await realism(make_run([_ep("e1"), _ep("e2")]), judge, max_concurrency=1)
    assert [e.item for e in result.errors] == ["e1"]
    assert [e.episode_id for e in result.episodes] == ["e2"]


async def test_errored_episodes_are_not_judged():
    judge = ScriptedLLM([verdict()])
    result = await realism(make_run([_ep("e1"), _ep("e2", status="errored")]), judge)
    assert [e.episode_id for e in result.episodes] == ["e1"]
    assert len(judge.requests) == 1


async def test_judge_sees_persona_goal_and_user_side():
    judge = ScriptedLLM([verdict()])
    await realism(make_run([_ep("e1")]), judge)
    prompt = judge.requests[0].messages[0].content
    assert "goal of s1" in prompt and "USER: where is my order $W1" in prompt
    assert judge.requests[0].response_format == {"type": "json_object"}


async def test_judge_tokens_are_reported_apart_from_the_run_cost():
    result = await realism(make_run([_ep("e1")]), ScriptedLLM([verdict(h=9), verdict()]))
    assert result.judge_usage.input_tokens > 0 and result.judge_calls == 2


async def test_a_judge_that_fails_after_retries_is_recorded_per_episode():
    from vistasim.llm import RoleModel

    failing = ScriptedLLM([ModelCallFailed("timed out", retryable=False)] * 2)
    judge = RoleModel(failing, role="judge", max_retries=0)
    result = await realism(make_run([_ep("e1"), _ep("e2")]), judge)
    assert isinstance(result, RealismReport)
    assert len(result.errors) == 2 and "timed out" in result.errors[0].error
    assert result.overall is None

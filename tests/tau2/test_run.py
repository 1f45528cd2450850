"""A vistasim run on a tau2 domain: its task, its tools, graded by tau2's reward."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("tau2", reason="the tau2 extra is not installed (see README)")

from vistasim.config import RunConfig  # noqa: E402
from vistasim.events import Judgment  # noqa: E402
from vistasim.explore import run  # noqa: E402
from vistasim.metrics import compute_metrics  # noqa: E402
from vistasim.store import open_store, read_run_view  # noqa: E402
from vistasim.tau2 import episode_reward, task_id_of, tau2_outcome  # noqa: E402
from vistasim.testing import FakeOpenAIServer, ScriptedLLM  # noqa: E402


def _say(text: str) -> str:
    return json.dumps({"plan": "ask", "action": "say", "text": text, "api": None,
                       "finish_reason": None})  # fmt: skip


def _finish() -> str:
    return json.dumps({"plan": "done", "action": "finish", "text": "Thanks, bye.", "api": None,
                       "finish_reason": "goal_met"})  # fmt: skip


def _agent(title: str) -> Any:
    """A tau2 agent that creates one task, then confirms it; it checks it was briefed."""

    def respond(request: dict[str, Any]) -> dict[str, Any] | str:
        messages = request["messages"]
        if "tools" not in request:
            return "ok"  # the preflight's probe
        assert "task" in messages[0]["content"].lower()  # the domain policy as system prompt
        assert {t["function"]["name"] for t in request["tools"]} >= {"create_task"}
        if messages[-1]["role"] == "tool":
            return f"Your task '{title}' was created."
        args = json.dumps({"user_id": "user_1", "title": title})
        call = {"id": "c1", "type": "function",
                "function": {"name": "create_task", "arguments": args}}  # fmt: skip
        return {"role": "assistant", "content": None, "tool_calls": [call]}

    return respond


@pytest.mark.parametrize(("title", "reward"), [("Important Meeting", 1.0), ("Lunch", 0.0)])
async def test_a_run_on_tau2_mock_is_graded_as_tau2_grades(tmp_path, title, reward) -> None:
    async with FakeOpenAIServer(responder=_agent(title)) as server:
        config = RunConfig.model_validate(
            {
                "environment": {"target": "tau2:mock"},
                "user": {"policy": "llm"},
                "agent": {
                    "kind": "openai_chat",
                    "base_url": server.base_url,
                    "model": "fake",
                    "tools": "environment",
                },  # fmt: skip
                "run": {"select": ["mock-create_task_1"], "max_turns": 4},
                "cache": {"mode": "off"},
            }
        )
        store = open_store(tmp_path / "store.db")
        user = ScriptedLLM([_say("Please create a task for my meeting."), _finish()])
        result = await run(config, store=store, models={"user": user})
    [episode] = read_run_view(store, result.run_id).episodes
    stop = str(episode.stop_reason)
    graded = episode_reward("mock", episode.scenario_id, [e.event for e in episode.events],
                            stop=stop)  # fmt: skip
    assert graded.reward == reward, graded
    assert tau2_outcome(graded, stop) == ("passed" if reward else "failed")
    # The episode's own criteria judgment is tau2's reward, so the run's verdicts are tau2's.
    [judged] = [e.event for e in episode.events if isinstance(e.event, Judgment)]
    assert judged.scores == {"tau2_reward": reward}
    assert judged.passed is (reward == 1.0)
    assert judged.checks[0]["check"] == "tau2 DB"
    report = await compute_metrics(read_run_view(store, result.run_id))
    assert report.success.outcomes.get("passed" if reward else "failed") == 1


def _with_assertions(monkeypatch, assertions: list[str]) -> None:
    """Grade mock's create_task_1 on `assertions` too, as a task with NL_ASSERTION would be."""
    from tau2.data_model.tasks import RewardType

    import vistasim.env._tau2_grade as grade

    every = grade.tasks("mock")
    task = every["create_task_1"]
    criteria = task.evaluation_criteria.model_copy(
        update={"nl_assertions": assertions,
                "reward_basis": [RewardType.DB, RewardType.NL_ASSERTION]}  # fmt: skip
    )
    every["create_task_1"] = task.model_copy(update={"evaluation_criteria": criteria})
    monkeypatch.setattr(grade, "tasks", lambda domain: every)


def _verdicts(*met: bool) -> str:
    return json.dumps({"results": [{"outcome": f"o{i}", "reasoning": "read it", "met": m}
                                   for i, m in enumerate(met)]})  # fmt: skip


@pytest.mark.parametrize(
    ("judge", "passed", "why"),
    [
        ([_verdicts(True, True)], True, ""),
        ([_verdicts(True, False)], False, "tau2 NL_ASSERTION"),
        (None, None, "add [models.judge]"),
        (["not json"] * 3, None, "the judge gave no verdicts"),
        ([_verdicts(True)], None, "graded 1 of 2"),
    ],
)
async def test_natural_language_assertions_are_graded_by_the_runs_judge(
    tmp_path, monkeypatch, judge, passed, why
) -> None:
    _with_assertions(monkeypatch, ["The agent confirmed the task", "The agent was polite"])
    models: dict[str, Any] = {"user": ScriptedLLM([_say("Please create my task."), _finish()])}
    if judge is not None:
        models["judge"] = ScriptedLLM(judge)
    async with FakeOpenAIServer(responder=_agent("Important Meeting")) as server:
        config = RunConfig.model_validate(
            {
                "environment": {"target": "tau2:mock"},
                "user": {"policy": "llm"},
                "agent": {"kind": "openai_chat", "base_url": server.base_url, "model": "fake",
                          "tools": "environment"},  # fmt: skip
                "run": {"select": ["mock-create_task_1"], "max_turns": 4},
                "cache": {"mode": "off"},
            }
        )
        store = open_store(tmp_path / "store.db")
        result = await run(config, store=store, models=models)
    [episode] = read_run_view(store, result.run_id).episodes
    [judged] = [e.event for e in episode.events if isinstance(e.event, Judgment)]
    assert judged.passed is passed, judged
    assert why in judged.reason
    if judge is not None and passed is not None:
        assert [c["check"] for c in judged.checks] == ["tau2 DB", "tau2 NL_ASSERTION"]
        # The judge read the conversation, the agent's words among it, and the assertions.
        [asked] = models["judge"].requests[:1]
        text = asked.messages[-1].content
        assert "Important Meeting" in text and "The agent was polite" in text
    outcome = {True: "passed", False: "failed", None: "unjudged"}[passed]
    assert result.outcomes.get(outcome) == 1, result.outcomes


def _call(name: str, args: dict[str, Any] | None = None) -> str:
    api = {"name": name, "args": args or {}}
    return json.dumps({"plan": "use my phone", "action": "call_api", "text": "", "api": api,
                       "finish_reason": None})  # fmt: skip


@pytest.mark.parametrize(("second", "reward"), [("toggle_data", 1.0), ("toggle_roaming", 0.0)])
async def test_telecom_dual_control_the_llm_user_fixes_its_own_phone(
    tmp_path, second, reward
) -> None:
    """Telecom's user acts on its phone through the api channel; tau2 grades the phone's state."""
    from vistasim.env._tau2_tasks import tau2_scenarios
    from vistasim.events import ApiCall

    task = "[mobile_data_issue]airplane_mode_on|data_mode_off[PERSONA:None]"
    [scenario] = [s for s in tau2_scenarios("tau2:telecom")
                  if task_id_of("telecom", s.id) == task]  # fmt: skip

    def agent(request: dict[str, Any]) -> str:
        return "Please turn airplane mode off, then turn mobile data on."

    user = ScriptedLLM([_call("toggle_airplane_mode"), _call(second), _finish()])
    async with FakeOpenAIServer(responder=agent) as server:
        config = RunConfig.model_validate(
            {
                "environment": {"target": "tau2:telecom"},
                "user": {"policy": "llm"},
                "agent": {"kind": "openai_chat", "base_url": server.base_url, "model": "fake",
                          "tools": "environment"},  # fmt: skip
                "run": {"select": [scenario.id], "max_turns": 6, "mode": "api"},
                "cache": {"mode": "off"},
            }
        )
        store = open_store(tmp_path / "store.db")
        result = await run(config, store=store, models={"user": user})
    # The user was offered its phone's tools, and its calls ran on the phone.
    offered = {t.name for t in user.requests[0].tools or []} | {
        name for name in ("toggle_data", "toggle_airplane_mode")
        if name in user.requests[0].messages[0].content
    }
    assert {"toggle_airplane_mode", "toggle_data"} <= offered
    [episode] = read_run_view(store, result.run_id).episodes
    calls = [e.event for e in episode.events if isinstance(e.event, ApiCall)]
    assert [c.name for c in calls] == ["toggle_airplane_mode", second]
    [judged] = [e.event for e in episode.events if isinstance(e.event, Judgment)]
    assert judged.scores == {"tau2_reward": reward}, judged
    stop = str(episode.stop_reason)
    replayed = episode_reward("telecom", scenario.id, [e.event for e in episode.events], stop=stop)
    assert replayed.reward == reward  # graded live and from the store alike

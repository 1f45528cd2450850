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
from vistasim.tau2 import episode_reward, tau2_outcome  # noqa: E402
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

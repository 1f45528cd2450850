"""An LLM judge that reads the product's policy text and names the breaches it sees.

Given with `[judges] policy = "policy.md"`, the policy text is stored with the run; `vistasim
metrics RUN --judge MODEL` then asks the judge about every episode that was not errored (one
call each, with bounded repairs). A breach counts only with evidence: event ids of the
transcript, at least one of them the agent's own reply or tool call; an answer citing anything
else is repaired or recorded as a judge error, never guessed at. Its findings are causes (kind
`policy`, label `judge: <rule>`): like a rule's, they make an episode `failed`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from vistasim.events import AgentReply, ToolCall
from vistasim.llm import ChatModel
from vistasim.metrics._failures import Failure
from vistasim.metrics._judge import (
    CitedFinding,
    JudgeError,
    JudgeFailed,
    ask_json,
    judge_each,
    judged_items,
    load_prompt,
    render_transcript,
)
from vistasim.metrics._outcome import is_errored
from vistasim.store import EpisodeView, RunView

__all__ = ["POLICY_TEXT_KEY", "judge_policy", "policy_text"]

POLICY_TEXT_KEY = "policy_text"
"""Run metadata key of the policy text given with `[judges] policy`."""


class _Violation(CitedFinding):
    rule: str = Field(min_length=1, max_length=80)


class _Violations(BaseModel):
    model_config = ConfigDict(extra="forbid")

    violations: list[_Violation]


def policy_text(run: RunView) -> str | None:
    """The policy text stored with the run, if `[judges] policy` gave one."""
    text = run.metadata.get(POLICY_TEXT_KEY)
    return text if isinstance(text, str) and text.strip() else None


async def judge_policy(
    run: RunView,
    judge: ChatModel,
    policy: str,
    *,
    max_repairs: int = 2,
    max_concurrency: int = 8,
) -> tuple[list[Failure], list[JudgeError], int]:
    """Ask the judge about every non-errored episode: breaches, judge errors, calls made."""
    episodes = [e for e in run.episodes if not is_errored(e) and e.events]
    goals = {sid: s.goal for sid, s in run.scenarios.items()}

    async def judge_one(episode: EpisodeView) -> tuple[list[Failure], JudgeError | None, int]:
        goal = goals.get(episode.scenario_id, "")
        return await _judge_episode(judge, episode, policy, goal, max_repairs)

    results = await judge_each(episodes, judge_one, max_concurrency=max_concurrency)
    return judged_items(results)


async def _judge_episode(
    judge: ChatModel, episode: EpisodeView, policy: str, goal: str, max_repairs: int
) -> tuple[list[Failure], JudgeError | None, int]:
    prompt = load_prompt(
        "policy", policy=policy, goal=goal, transcript=render_transcript(episode)
    )
    context = {
        "event_ids": {s.id for s in episode.events},
        "agent_ids": {s.id for s in episode.events if isinstance(s.event, AgentReply | ToolCall)},
    }
    try:
        answer = await ask_json(
            judge,
            prompt,
            lambda data: _Violations.model_validate(data, context=context),
            max_repairs=max_repairs,
        )
    except JudgeFailed as exc:
        error = JudgeError(judge="policy", item=episode.episode_id, error=str(exc), calls=exc.calls)
        return [], error, exc.calls
    found = [
        Failure(
            episode_id=episode.episode_id,
            scenario_id=episode.scenario_id,
            kind="policy",
            label=f"judge: {' '.join(v.rule.split())}"[:80],
            description=f"policy judge: {' '.join(v.description.split())}",
            event_ids=sorted(set(v.event_ids)),
        )
        for v in answer.value.violations
    ]
    return found, None, answer.calls

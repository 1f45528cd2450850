"""Realism: does the simulated user sound like a real user (VISTA's LLM-judged metric)?

One structured judge call per episode rates the user's side on three 1-3 rubrics (prompt in
`prompts/realism.md`), keeping the judge's reasons. Scores out of range or malformed replies get a
bounded repair, then a recorded judge error. With no judge the metric says it was not computed.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from vistasim.llm._types import ChatModel
from vistasim.llm._usage import TokenUsage
from vistasim.metrics._judge import (
    JudgeError,
    JudgeFailed,
    ask_json,
    judge_each,
    load_prompt,
    render_transcript,
)
from vistasim.metrics._outcome import is_errored
from vistasim.store._view import EpisodeView, RunView

__all__ = [
    "RUBRICS",
    "EpisodeRealism",
    "RealismGroup",
    "RealismNotComputed",
    "RealismReport",
    "realism",
]

RUBRICS = ("human_likeness", "coherence", "goal_consistency")
"""The three realism rubrics, each scored 1 (poor) to 3 (like a real user)."""


_Judged = tuple["EpisodeRealism | JudgeError", tuple[int, TokenUsage]]
"""One episode's verdict (or judge error), with the calls and tokens it took."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RubricScore(_Model):
    """One rubric's score and the judge's reason, as the judge must answer it."""

    score: int = Field(ge=1, le=3)
    reason: str = Field(min_length=1)


class _Verdict(_Model):
    human_likeness: RubricScore
    coherence: RubricScore
    goal_consistency: RubricScore


class EpisodeRealism(_Model):
    """The judge's scores for one episode."""

    episode_id: str
    mode: str
    scores: dict[str, int]
    """Score per rubric, 1-3."""
    reasons: dict[str, str]
    """The judge's reason per rubric."""


class RubricStats(_Model):
    """Summary of one rubric over a group of episodes."""

    mean: float
    share_of_3: float
    """Share of episodes scored 3 (indistinguishable from a real user)."""


class RealismGroup(_Model):
    """Realism of a group of episodes (all, or one mode)."""

    episodes: int
    rubrics: dict[str, RubricStats]


class RealismNotComputed(_Model):
    """Realism was not computed: there was no judge model, or nothing to judge."""

    computed: Literal[False] = False
    reason: str


class RealismReport(_Model):
    """Realism scores of a run."""

    computed: Literal[True] = True
    judge_model: str
    overall: RealismGroup | None
    """`None` when the judge failed on every episode."""
    by_mode: dict[str, RealismGroup]
    episodes: list[EpisodeRealism]
    errors: list[JudgeError]
    """Episodes the judge gave no valid answer for: reported, never scored as zero."""
    judge_calls: int
    """Judge calls made, repairs included."""
    judge_usage: TokenUsage
    """Tokens the judge calls used (the judge's cost is not part of the run's cost)."""


async def realism(
    run: RunView,
    judge: ChatModel | None,
    *,
    max_repairs: int = 2,
    max_concurrency: int = 8,
) -> RealismReport | RealismNotComputed:
    """Rate the simulated user of every non-errored episode with one judge call each."""
    if judge is None:
        return RealismNotComputed(reason="no judge model configured (use --judge MODEL)")
    episodes = [e for e in run.episodes if not is_errored(e) and e.events]
    if not episodes:
        return RealismNotComputed(reason="no episode to judge")
    scenario_text = {
        sid: (json.dumps(s.persona.model_dump(mode="json")), s.goal)
        for sid, s in run.scenarios.items()
    }

    async def judge_one(episode: EpisodeView) -> _Judged:
        persona, goal = scenario_text.get(episode.scenario_id, ("(unknown)", "(unknown)"))
        return await _judge_episode(judge, episode, persona, goal, max_repairs)

    judged = await judge_each(episodes, judge_one, max_concurrency=max_concurrency)
    results = [result for result, _ in judged]
    spent = [cost for _, cost in judged]
    scored = [r for r in results if isinstance(r, EpisodeRealism)]
    return RealismReport(
        judge_model=judge.name,
        overall=_group(scored),
        by_mode={
            mode: group
            for mode, members in sorted(_by_mode(scored).items())
            if (group := _group(members)) is not None
        },
        episodes=scored,
        errors=[r for r in results if isinstance(r, JudgeError)],
        judge_calls=sum(calls for calls, _ in spent),
        judge_usage=sum((usage for _, usage in spent), TokenUsage()),
    )


async def _judge_episode(
    judge: ChatModel, episode: EpisodeView, persona: str, goal: str, max_repairs: int
) -> _Judged:
    prompt = load_prompt(
        "realism", persona=persona, goal=goal, transcript=render_transcript(episode)
    )
    try:
        answer = await ask_json(judge, prompt, _Verdict.model_validate, max_repairs=max_repairs)
    except JudgeFailed as exc:
        error = JudgeError(
            judge="realism", item=episode.episode_id, error=str(exc), calls=exc.calls
        )
        return error, (exc.calls, exc.usage)
    verdict = answer.value
    rubrics = {name: getattr(verdict, name) for name in RUBRICS}
    result = EpisodeRealism(
        episode_id=episode.episode_id,
        mode=episode.mode,
        scores={name: r.score for name, r in rubrics.items()},
        reasons={name: r.reason for name, r in rubrics.items()},
    )
    return result, (answer.calls, answer.usage)


def _by_mode(scored: list[EpisodeRealism]) -> dict[str, list[EpisodeRealism]]:
    groups: dict[str, list[EpisodeRealism]] = defaultdict(list)
    for item in scored:
        groups[item.mode].append(item)
    return groups


def _group(scored: list[EpisodeRealism]) -> RealismGroup | None:
    if not scored:
        return None
    n = len(scored)
    return RealismGroup(
        episodes=n,
        rubrics={
            name: RubricStats(
                mean=sum(s.scores[name] for s in scored) / n,
                share_of_3=sum(s.scores[name] == 3 for s in scored) / n,
            )
            for name in RUBRICS
        },
    )

"""Failures found: what went wrong for the agent under test, episode by episode.

Deterministic detectors read each non-errored episode: an agent error stop, tool and user-API calls
that failed, each failed check of the criteria judgment, and policy rules given as data
(`PolicyRule`). An optional LLM failure judge adds labelled failures with evidence event ids.
`metrics/_dedup.py` then folds them into unique failures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from vistasim.events import ApiCall, Judgment, StopReason, ToolCall, UserMessage
from vistasim.llm._types import ChatModel
from vistasim.metrics._judge import (
    JudgeError,
    JudgeFailed,
    ask_json,
    judge_each,
    load_prompt,
    render_transcript,
)
from vistasim.metrics._success import episode_outcome, is_errored
from vistasim.store._view import EpisodeView, RunView

__all__ = ["Failure", "FailureKind", "PolicyRule", "detect_failures", "judge_failures"]

FailureKind = Literal["criteria", "policy", "tool_error", "api_error", "agent_error", "judge"]
"""Where a failure was found; the order is the preference for a unique failure's name."""


class PolicyRule(BaseModel):
    """A rule the agent must follow when it calls `tool`, checked on every episode.

    Set at least one condition. Example: `{id: confirm-before-cancel, description: "cancel only
    after looking the order up", tool: cancel_order, requires_prior_tool: get_order}`.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")
    """Stable rule id; it names the failure."""
    description: str
    """What the rule demands, in words, shown in the failure catalogue."""
    tool: str
    """The agent tool the rule constrains."""
    requires_prior_tool: str | None = None
    """Every call to `tool` must come after a call to this tool in the same episode."""
    forbid_after_user_says: list[str] = []
    """`tool` must not be called after a user message containing any of these (case-insensitive)."""
    max_calls: int | None = Field(default=None, ge=0)
    """`tool` may be called at most this many times per episode."""

    @model_validator(mode="after")
    def _has_condition(self) -> PolicyRule:
        if self.requires_prior_tool is None and not self.forbid_after_user_says:
            if self.max_calls is None:
                raise ValueError(
                    f"rule {self.id!r} sets no condition; set requires_prior_tool,"
                    " forbid_after_user_says or max_calls"
                )
        return self


class Failure(BaseModel):
    """One failure found in one episode."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    episode_id: str
    scenario_id: str
    kind: FailureKind
    label: str
    """Category: the tool name, the rule id, the judge's label, or the kind itself."""
    description: str
    """What went wrong, worded the same way each time the same flaw shows up."""
    event_ids: list[int] = []
    """Evidence: the events that show the failure."""
    detail: str = ""
    """Episode-specific detail (the error text, the check's explanation)."""


def detect_failures(
    run: RunView, rules: Sequence[PolicyRule] = (), *, recovered_errors: bool = False
) -> list[Failure]:
    """Run the deterministic detectors over every non-errored episode of a run.

    Args:
        run: The stored run.
        rules: Policy rules to check.
        recovered_errors: Also report tool and user-API errors of episodes that passed. Off by
            default: there the error is the environment enforcing its policy (an expired coupon)
            and the agent recovering, not a flaw of the agent.
    """
    found: list[Failure] = []
    for episode in run.episodes:
        outcome = episode_outcome(episode)
        if outcome != "errored":
            call_errors = recovered_errors or outcome != "passed"
            found.extend(_detect(episode, rules, call_errors=call_errors))
    return found


def _detect(
    episode: EpisodeView, rules: Sequence[PolicyRule], *, call_errors: bool
) -> list[Failure]:
    found: list[Failure] = []
    stop = episode.stop
    if stop is not None and stop.reason is StopReason.AGENT_ERROR:
        found.append(
            _failure(
                episode,
                "agent_error",
                "agent_error",
                f"agent error: {stop.detail}",
                [episode.events[-1].id],
            )
        )
    for stored in episode.events:
        event = stored.event
        if isinstance(event, ToolCall) and event.error is not None and call_errors:
            text = f"agent tool {event.name} failed: {event.error}"
            found.append(_failure(episode, "tool_error", event.name, text, [stored.id]))
        elif isinstance(event, ApiCall) and event.error is not None and call_errors:
            text = f"user API {event.name} failed: {event.error}"
            found.append(_failure(episode, "api_error", event.name, text, [stored.id]))
        elif isinstance(event, Judgment) and event.judge == "criteria":
            found.extend(_failed_checks(episode, stored.id, event))
    for rule in rules:
        evidence = _violations(episode, rule)
        if evidence:
            text = f"policy {rule.id} violated: {rule.description}"
            found.append(_failure(episode, "policy", rule.id, text, evidence))
    return found


def _failed_checks(episode: EpisodeView, event_id: int, judgment: Judgment) -> list[Failure]:
    failures = []
    for check in judgment.checks:
        if check.get("passed") is False:
            what = check.get("check")
            detail = check.get("detail")
            failures.append(
                _failure(
                    episode,
                    "criteria",
                    "criteria",
                    f"criteria not met: {what}",
                    [event_id],
                    detail="" if detail is None else str(detail),
                )
            )
    return failures


def _violations(episode: EpisodeView, rule: PolicyRule) -> list[int]:
    evidence: list[int] = []
    prior_done = False
    user_said = False
    calls = 0
    phrases = [p.lower() for p in rule.forbid_after_user_says]
    for stored in episode.events:
        event = stored.event
        if isinstance(event, UserMessage) and any(p in event.text.lower() for p in phrases):
            user_said = True
        if not isinstance(event, ToolCall):
            continue
        if event.name == rule.tool:
            calls += 1
            missing_prior = rule.requires_prior_tool is not None and not prior_done
            too_many = rule.max_calls is not None and calls > rule.max_calls
            if missing_prior or user_said or too_many:
                evidence.append(stored.id)
        if event.name == rule.requires_prior_tool:
            prior_done = True
    return evidence


def _failure(
    episode: EpisodeView,
    kind: FailureKind,
    label: str,
    description: str,
    event_ids: list[int],
    *,
    detail: str = "",
) -> Failure:
    return Failure(
        episode_id=episode.episode_id,
        scenario_id=episode.scenario_id,
        kind=kind,
        label=label,
        description=" ".join(description.split()),
        event_ids=event_ids,
        detail=detail,
    )


class _JudgedFailure(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str = Field(min_length=1, max_length=80)
    description: str = Field(min_length=1, max_length=400)
    event_ids: list[int] = Field(min_length=1)

    @field_validator("event_ids")
    @classmethod
    def _known_ids(cls, ids: list[int], info: ValidationInfo) -> list[int]:
        known = (info.context or {}).get("event_ids", set())
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise ValueError(f"event ids {unknown!r} are not in the transcript")
        return ids


class _JudgedFailures(BaseModel):
    model_config = ConfigDict(extra="forbid")

    failures: list[_JudgedFailure]


async def judge_failures(
    run: RunView,
    judge: ChatModel,
    *,
    max_repairs: int = 2,
    max_concurrency: int = 8,
) -> tuple[list[Failure], list[JudgeError], int]:
    """Ask an LLM failure judge about every non-errored episode (one call each, plus repairs).

    Returns:
        The labelled failures, the episodes the judge gave no valid answer for, and the number of
        judge calls made.
    """
    episodes = [e for e in run.episodes if not is_errored(e) and e.events]
    goals = {sid: s.goal for sid, s in run.scenarios.items()}

    async def judge_one(episode: EpisodeView) -> tuple[list[Failure], JudgeError | None, int]:
        return await _judge_episode(judge, episode, goals.get(episode.scenario_id, ""), max_repairs)

    results = await judge_each(episodes, judge_one, max_concurrency=max_concurrency)
    failures = [f for found, _, _ in results for f in found]
    errors = [error for _, error, _ in results if error is not None]
    return failures, errors, sum(calls for _, _, calls in results)


async def _judge_episode(
    judge: ChatModel, episode: EpisodeView, goal: str, max_repairs: int
) -> tuple[list[Failure], JudgeError | None, int]:
    prompt = load_prompt("failure", goal=goal, transcript=render_transcript(episode))
    context = {"event_ids": {stored.id for stored in episode.events}}
    try:
        answer = await ask_json(
            judge,
            prompt,
            lambda data: _JudgedFailures.model_validate(data, context=context),
            max_repairs=max_repairs,
        )
    except JudgeFailed as exc:
        return (
            [],
            JudgeError(judge="failure", item=episode.episode_id, error=str(exc), calls=exc.calls),
            exc.calls,
        )
    found = [
        _failure(episode, "judge", item.label, item.description, sorted(set(item.event_ids)))
        for item in answer.value.failures
    ]
    return found, None, answer.calls

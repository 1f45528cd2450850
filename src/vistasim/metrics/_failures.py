"""Failures found: what went wrong for the agent under test, episode by episode.

Deterministic detectors read each non-errored episode: an agent error stop, tool and user-API calls
that failed, each failed check of the criteria judgment, and policy rules given as data
(`PolicyRule`). An optional LLM failure judge adds labelled failures with evidence event ids.
`metrics/_behaviour.py` adds conversational failures (kind `behaviour`), and
`metrics/_dedup.py` then folds them all into unique failures.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    field_validator,
    model_validator,
)

from vistasim.events import AgentReply, ApiCall, Judgment, StopReason, ToolCall, UserMessage
from vistasim.llm._types import ChatModel
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
from vistasim.metrics._outcome import CAUSE_KINDS, criteria_outcome, is_errored
from vistasim.store._view import EpisodeView, RunView

__all__ = [
    "CAUSE_KINDS",
    "Failure",
    "FailureKind",
    "PolicyRule",
    "ResultValue",
    "detect_failures",
    "judge_failures",
]

T = TypeVar("T")

FailureKind = Literal[
    "criteria", "policy", "behaviour", "claims", "tool_error", "api_error", "agent_error", "judge"
]
"""Where a failure was found; the order is the preference for a unique failure's name."""


class ResultValue(BaseModel):
    """A value the agent read in an earlier tool result, e.g. the owner of the order it changes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str
    """The tool whose latest successful result holds the value."""
    field: str = Field(min_length=1)
    """Dotted path of the value in that result (`customer_id`, `student.id`)."""
    same_arg: str | None = None
    """Only a call whose argument of this name equals the constrained call's one counts
    (`order_id`: the lookup of the very order being changed)."""

    def read(self, call: ToolCall, earlier: Sequence[ToolCall]) -> JsonValue:
        """Return the value as the agent last read it before `call`, or `None`."""
        for prior in reversed(earlier):
            if prior.name != self.tool or prior.error is not None:
                continue
            if self.same_arg is not None:
                if prior.args.get(self.same_arg) != call.args.get(self.same_arg):
                    continue
            value: JsonValue = prior.result
            for key in self.field.split("."):
                value = value.get(key) if isinstance(value, dict) else None
            return value
        return None


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
    tool: str | list[str]
    """The agent tool the rule constrains, or several tools under one rule."""
    requires_prior_tool: str | None = None
    """Every call to `tool` must come after a call to this tool in the same episode."""
    forbid_after_user_says: list[str] = []
    """`tool` must not be called after a user message containing any of these (case-insensitive)."""
    max_calls: int | None = Field(default=None, ge=0)
    """`tool` may be called at most this many times per episode."""
    requires_agent_said: list[str] = []
    """Regular expressions (case-insensitive) that must each match an agent reply since the
    previous call of `tool` (or the episode start): `reason` asks the reason, `yes/no|proceed`
    asks for a confirmation."""
    requires_equal: list[ResultValue] = []
    """Values the agent must have read before calling `tool`, all equal: e.g. the order's owner and
    the verified customer. A value never read counts as a violation (the check was not made)."""

    @property
    def tools(self) -> tuple[str, ...]:
        """The constrained tools."""
        return (self.tool,) if isinstance(self.tool, str) else tuple(self.tool)

    @field_validator("requires_agent_said")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(
                    f"requires_agent_said pattern {pattern!r} is not a regular expression ({exc});"
                    " escape special characters such as ( ) ? [ ] with a backslash"
                ) from exc
        return patterns

    @model_validator(mode="after")
    def _has_condition(self) -> PolicyRule:
        conditions = (
            self.requires_prior_tool,
            self.forbid_after_user_says,
            self.max_calls,
            self.requires_agent_said,
            self.requires_equal,
        )
        if all(c is None or c == [] for c in conditions):
            raise ValueError(
                f"rule {self.id!r} sets no condition; set requires_prior_tool,"
                " forbid_after_user_says, max_calls, requires_agent_said or requires_equal"
            )
        if len(self.requires_equal) == 1:
            raise ValueError(
                f"rule {self.id!r}: requires_equal compares values, so list at least two"
            )
        if not self.tools:
            raise ValueError(f"rule {self.id!r} names no tool; set tool to a name or a list")
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


def detector_failures(
    view: EpisodeView,
    kind: FailureKind,
    detectors: Mapping[str, Callable[[T], list[int]]],
    descriptions: Mapping[str, str],
    subject: T,
) -> list[Failure]:
    """Run named detectors over one episode's `subject`; one failure per detector that fires."""
    found = []
    for label, detect in detectors.items():
        evidence = detect(subject)
        if evidence:
            found.append(
                Failure(
                    episode_id=view.episode_id,
                    scenario_id=view.scenario_id,
                    kind=kind,
                    label=label,
                    description=descriptions[label],
                    event_ids=sorted(set(evidence)),
                )
            )
    return found


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
    section = run.config.get("run")
    cap = section.get("max_reply_bytes", 1_000_000) if isinstance(section, dict) else 1_000_000
    for episode in run.episodes:
        if not is_errored(episode):
            call_errors = recovered_errors or criteria_outcome(episode) is not True
            found.extend(_detect(episode, rules, call_errors=call_errors))
            found.extend(_oversized(episode, cap))
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
    retried = _retried(episode)
    for i, stored in enumerate(episode.events):
        event = stored.event
        if isinstance(event, ToolCall | ApiCall) and i in retried:
            continue
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


def _retried(episode: EpisodeView) -> set[int]:
    """Positions of failed calls that a later call of the same tool in the episode got through.

    The environment refused (a detail the user gave wrong, a rule) and the call then went
    through: the refusal was the environment doing its job, not a failure of its own. Counted,
    every wrong detail a user gave became a distinct failure of the run.
    """
    done: set[tuple[type, str]] = set()
    out: set[int] = set()
    for i in range(len(episode.events) - 1, -1, -1):
        event = episode.events[i].event
        if not isinstance(event, ToolCall | ApiCall):
            continue
        key = (type(event), event.name)
        if event.error is None:
            done.add(key)
        elif key in done:
            out.add(i)
    return out


def _oversized(episode: EpisodeView, cap: object) -> list[Failure]:
    """Replies and tool results over `run.max_reply_bytes`, which the runner stored cut."""
    found = []
    for stored in episode.events:
        event = stored.event
        if isinstance(event, AgentReply | ToolCall) and event.oversized is not None:
            what = "reply" if isinstance(event, AgentReply) else f"result of tool {event.name}"
            text = (
                f"oversized reply: the agent's {what} was {event.oversized:,} bytes, over "
                f"run.max_reply_bytes ({cap:,}); it is stored cut"
            )
            found.append(_failure(episode, "agent_error", "oversized_reply", text, [stored.id]))
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
    earlier: list[ToolCall] = []
    said: list[str] = []  # agent replies since the previous call of a constrained tool
    user_said = False
    called = False  # a constrained call was made since the last user message
    calls = 0
    phrases = [p.lower() for p in rule.forbid_after_user_says]
    for stored in episode.events:
        event = stored.event
        if isinstance(event, (UserMessage, AgentReply)) and called:
            # Calls made in one go share what was said before them: "I'll drop MATH201 and
            # HIST110. Shall I proceed?" - "Yes" covers both drops, made one after the other.
            said, called = [], False
        if isinstance(event, UserMessage):
            user_said = user_said or any(p in event.text.lower() for p in phrases)
        elif isinstance(event, AgentReply):
            said.append(event.text)
        if not isinstance(event, ToolCall):
            continue
        if event.name in rule.tools:
            calls += 1
            too_many = rule.max_calls is not None and calls > rule.max_calls
            unnamed = called and not _named_in(event, said)
            if user_said or too_many or unnamed or _breaks(rule, event, earlier, said):
                evidence.append(stored.id)
            called = True
        earlier.append(event)
    return evidence


def _named_in(call: ToolCall, said: list[str]) -> bool:
    """Whether what was said names the call's ids (or it has none).

    A second call in one go needs its own mention ("I'll drop MATH201-A and HIST110-A"), not a
    section picked after the first one failed.
    """
    ids = [v for v in call.args.values() if isinstance(v, str) and re.search(r"\d", v)]
    text = " ".join(said).casefold()
    return not ids or any(v.casefold() in text for v in ids)


def _breaks(rule: PolicyRule, call: ToolCall, earlier: list[ToolCall], said: list[str]) -> bool:
    """Whether `call` lacks a required prior tool, agent statement or matching value."""
    if rule.requires_prior_tool is not None:
        if all(prior.name != rule.requires_prior_tool for prior in earlier):
            return True
    for pattern in rule.requires_agent_said:
        if not any(re.search(pattern, text, re.IGNORECASE) for text in said):
            return True
    if rule.requires_equal:
        values = [ref.read(call, earlier) for ref in rule.requires_equal]
        return any(v is None for v in values) or any(v != values[0] for v in values)
    return False


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


class _JudgedFailure(CitedFinding):
    label: str = Field(min_length=1, max_length=80)


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
    return judged_items(results)


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

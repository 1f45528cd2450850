"""LLM judges for metrics: rubric prompts, episode transcripts, and a structured call with repair.

Judges answer in JSON. A reply that does not parse or validate gets a bounded number of repair
re-prompts quoting the error; after that the caller records a judge error for the item, so a bad
judge never turns into a silent zero.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from string import Template
from typing import Generic, TypeVar

import anyio
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from vistasim.errors import ModelError
from vistasim.events import AgentReply, ApiCall, Judgment, Note, Stop, ToolCall, UserMessage
from vistasim.events import WebAction as WebActionEvent
from vistasim.llm._structured import strip_fences
from vistasim.llm._types import ChatMessage, ChatModel, ChatRequest, ModelCallFailed
from vistasim.llm._usage import TokenUsage
from vistasim.store._view import EpisodeView

__all__ = [
    "CitedFinding",
    "JudgeError",
    "JudgeFailed",
    "ask_json",
    "cited_events",
    "judge_each",
    "judged_items",
    "load_prompt",
    "render_transcript",
]

T = TypeVar("T")
R = TypeVar("R")

_FIELD_LIMIT = 400
"""Characters kept of any one field of an event in a transcript."""
_TRANSCRIPT_LIMIT = 16_000
"""Characters kept of a whole transcript (its end is kept: failures show up late)."""


class JudgeError(BaseModel):
    """A judge that gave no usable answer for one item, kept in the report instead of a score."""

    model_config = ConfigDict(extra="forbid")

    judge: str
    """`realism`, `failure` or `merge`."""
    item: str
    """The episode id (or cluster batch) the judge was asked about."""
    error: str
    """Why the answer was unusable (or the provider's error)."""
    calls: int
    """Calls made on the item, repairs included."""


class JudgeFailed(Exception):
    """A structured judge call gave no valid answer within its repair budget."""

    def __init__(self, message: str, *, calls: int, usage: TokenUsage) -> None:
        self.calls = calls
        self.usage = usage
        super().__init__(message)


@dataclass(frozen=True, kw_only=True)
class JudgeAnswer(Generic[T]):
    """A validated judge answer and what it cost."""

    value: T
    calls: int
    usage: TokenUsage


class CitedFinding(BaseModel):
    """A judge's finding: one sentence and the transcript events that show it (checked)."""

    model_config = ConfigDict(extra="forbid")

    description: str = Field(min_length=1, max_length=400)
    event_ids: list[int] = Field(min_length=1)

    @field_validator("event_ids")
    @classmethod
    def _cited(cls, ids: list[int], info: ValidationInfo) -> list[int]:
        return cited_events(ids, info.context)


def cited_events(ids: list[int], context: Mapping[str, object] | None) -> list[int]:
    """Check a judge's evidence, the event ids it cites.

    They must be ids of the transcript (`context["event_ids"]`) and, when `context["agent_ids"]`
    is given, one of them at least must be the agent's own event.
    """
    known = (context or {}).get("event_ids", set())
    unknown = [i for i in ids if not isinstance(known, set) or i not in known]
    if unknown:
        raise ValueError(f"event ids {unknown!r} are not in the transcript")
    agent_ids = (context or {}).get("agent_ids")
    if isinstance(agent_ids, set) and not set(ids) & agent_ids:
        raise ValueError("cite at least one of the agent's own replies or tool calls")
    return ids


def load_prompt(name: str, **values: str) -> str:
    """Load `metrics/prompts/<name>.md` and fill its `$placeholders`.

    Substitution is one pass, so a `$` inside a value (untrusted episode text) stays inert.
    """
    text = (resources.files("vistasim.metrics") / "prompts" / f"{name}.md").read_text(
        encoding="utf-8"
    )
    return Template(text).substitute(values)


async def ask_json(
    model: ChatModel,
    prompt: str,
    validate: Callable[[object], T],
    *,
    max_repairs: int = 2,
) -> JudgeAnswer[T]:
    """Ask `model` for a JSON answer that `validate` accepts, re-prompting with the error if not.

    Args:
        model: The judge model.
        prompt: The full rubric prompt (sent as the user message).
        validate: Turns parsed JSON into a value, raising `ValueError` (or a pydantic
            `ValidationError`) with a message the judge can act on.
        max_repairs: Re-prompts allowed after the first reply.

    Raises:
        JudgeFailed: the provider failed, or no reply validated after `max_repairs` repairs.
    """
    messages = [ChatMessage(role="user", content=prompt)]
    usage = TokenUsage()
    for attempt in range(1, max_repairs + 2):
        request = ChatRequest(
            messages=messages, response_format={"type": "json_object"}, temperature=0.0
        )
        try:
            response = await model.complete(request)
        except (ModelCallFailed, ModelError) as exc:
            # A judge's provider failing is recorded per episode, never fatal to the metrics.
            raise JudgeFailed(f"model call failed: {exc}", calls=attempt, usage=usage) from exc
        usage = usage + response.usage
        try:
            return JudgeAnswer(value=validate(_parse(response.text)), calls=attempt, usage=usage)
        except (ValueError, ValidationError) as exc:
            problem = _describe(exc)
        messages = [
            *messages,
            ChatMessage(role="assistant", content=response.text),
            ChatMessage(role="user", content=f"{problem}\nAnswer again with only the JSON object."),
        ]
    raise JudgeFailed(
        f"no valid answer after {max_repairs} repairs; last problem: {problem}",
        calls=max_repairs + 1,
        usage=usage,
    )


async def judge_each(
    episodes: Sequence[EpisodeView],
    judge_one: Callable[[EpisodeView], Awaitable[R]],
    *,
    max_concurrency: int,
) -> list[R]:
    """Run `judge_one` on every episode, at most `max_concurrency` at once, results in order."""
    results: list[R | None] = [None] * len(episodes)
    limiter = anyio.CapacityLimiter(max_concurrency)

    async def run_one(index: int) -> None:
        async with limiter:
            results[index] = await judge_one(episodes[index])

    async with anyio.create_task_group() as group:
        for index in range(len(episodes)):
            group.start_soon(run_one, index)
    return [r for r in results if r is not None]


def judged_items(
    results: Sequence[tuple[list[T], JudgeError | None, int]],
) -> tuple[list[T], list[JudgeError], int]:
    """Gather per-episode judge results: every item found, the judge errors, the calls made."""
    items = [item for found, _, _ in results for item in found]
    errors = [error for _, error, _ in results if error is not None]
    return items, errors, sum(calls for _, _, calls in results)


def render_transcript(episode: EpisodeView) -> str:
    """Render an episode as numbered lines `[event id] WHO: what`, for a judge to read."""
    lines = [line for stored in episode.events if (line := _line(stored.id, stored.event))]
    text = "\n".join(lines)
    if len(text) > _TRANSCRIPT_LIMIT:
        text = "[... earlier events omitted ...]\n" + text[-_TRANSCRIPT_LIMIT:]
    return text


def _line(event_id: int, event: object) -> str | None:  # noqa: C901 - one branch per event kind
    match event:
        case UserMessage(text=text):
            return f"[{event_id}] USER: {_cut(text)}"
        case AgentReply(text=text):
            return f"[{event_id}] AGENT: {_cut(text)}"
        case ToolCall(name=name, args=args, result=result, error=error):
            outcome = f"ERROR {_cut(error)}" if error else _cut(json.dumps(result, default=str))
            return f"[{event_id}] AGENT TOOL {name}({_cut(json.dumps(args))}) -> {outcome}"
        case WebActionEvent(action=action, target=target, value=value, observation=obs, error=err):
            what = " ".join(_cut(str(part)) for part in (action, target, value) if part)
            seen = f"ERROR {_cut(err)}" if err else _cut(obs)
            return f"[{event_id}] USER WEB {what} -> {seen}"
        case ApiCall(name=name, args=args, result=result, error=error):
            outcome = f"ERROR {_cut(error)}" if error else _cut(json.dumps(result, default=str))
            return f"[{event_id}] USER API {name}({_cut(json.dumps(args))}) -> {outcome}"
        case Stop(reason=reason, detail=detail):
            return f"[{event_id}] STOP {reason.value}: {_cut(detail)}"
        case Note(text=text):
            return f"[{event_id}] NOTE: {_cut(text)}"
        case Judgment():
            # Verdicts stay out: a judge must form its own view from what happened.
            return None
        case _:
            return None


def _parse(text: str) -> object:
    try:
        return json.loads(strip_fences(text))
    except json.JSONDecodeError as exc:
        raise ValueError(f"Your reply is not valid JSON ({exc.msg} at char {exc.pos}).") from None


def _describe(exc: ValueError | ValidationError) -> str:
    if isinstance(exc, ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}"
            for err in exc.errors()
        )
        return f"Your JSON does not match the required shape: {problems}."
    return str(exc)


def _cut(text: str | None) -> str:
    text = (text or "").replace("\n", " ")
    return text if len(text) <= _FIELD_LIMIT else text[:_FIELD_LIMIT] + "..."

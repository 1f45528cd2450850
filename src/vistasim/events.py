"""Events: the immutable records an episode is made of.

Every step of an episode is one event, a pydantic model tagged by `kind`. They form the `Event`
union, parsed by the one module-level `EVENT_ADAPTER`. The store keeps the `kind` in a column and
the rest as JSON; a run carries `SCHEMA_VERSION` so old stores stay readable.

>>> e = EVENT_ADAPTER.validate_python({"kind": "user_message", "text": "hi"})
>>> e.channel
'chat'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal, assert_never

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter

from vistasim.llm._usage import TokenUsage
from vistasim.scenario import Scenario

__all__ = [
    "EVENT_ADAPTER",
    "SCHEMA_VERSION",
    "AgentReply",
    "ApiCall",
    "Event",
    "EventLine",
    "Judgment",
    "Note",
    "RequestDigest",
    "ScenarioStart",
    "Snapshot",
    "StateChange",
    "Stop",
    "StopReason",
    "ToolCall",
    "UserMessage",
    "WebAction",
    "WebActionKind",
    "describe_changes",
    "describe_event",
]

SCHEMA_VERSION = 1
"""Version of the event payloads; bump it with a migration when a payload changes shape."""


class StopReason(StrEnum):
    """Why an episode ended."""

    GOAL_MET = "goal_met"
    """The simulated user considers its request settled: carried out, answered, or refused with
    a reason it accepts (the detail then says so). It is the user's belief, not the verdict: a
    `failed` episode can end `goal_met` when the user believed it was done."""
    USER_STOP = "user_stop"
    """The user stopped without the goal (gave up, or left)."""
    MAX_TURNS = "max_turns"
    TIMEOUT = "timeout"
    AGENT_ERROR = "agent_error"
    """The agent under test crashed, timed out or answered garbage: an agent failure."""
    SIMULATOR_ERROR = "simulator_error"
    """The simulated user produced no valid action after bounded repairs."""
    INFRA_ERROR = "infra_error"
    """A model provider or the browser failed: the episode is errored, never passed or failed."""
    NOT_APPLICABLE = "not_applicable"
    """Never played: the scenario needs what the run's user policy cannot do (decided before)."""


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ScenarioStart(_Event):
    """Root of a scenario's tree in a run; rollouts are its children."""

    kind: Literal["scenario_start"] = "scenario_start"
    scenario: Scenario
    """The scenario exactly as it was run."""


class Snapshot(_Event):
    """Everything needed to resume before a user turn; big states are blobs referenced by hash."""

    kind: Literal["snapshot"] = "snapshot"
    turn: int
    """Number of user actions taken so far."""
    user_state: JsonValue = None
    """The user policy's state (small: derived data stays in the events)."""
    agent_state_ref: str | None = None
    """Blob hash of the agent's state, when the adapter can snapshot."""
    env_state_ref: str | None = None
    """Blob hash of the environment's state, when there is an environment."""
    browser_state_ref: str | None = None
    """Blob hash of the browser state (URL, cookies, storage, widget transcript)."""


class UserMessage(_Event):
    """A message from the simulated user to the agent."""

    kind: Literal["user_message"] = "user_message"
    text: str
    channel: Literal["chat", "widget"] = "chat"
    """`chat` through the adapter; `widget` typed into the page's chat widget."""


class RequestDigest(BaseModel):
    """One request an agent's model received (or would have), reduced to sizes and prefix hashes.

    Enough to count DIVERT's agent tokens and its shared prefixes without storing the request
    (built by `vistasim.agent.digest_request` and `vistasim.agent.proxy_requests`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    input_tokens: int
    """Tokens of the whole request: head plus every message."""
    output_tokens: int
    """Tokens of what the model produced: its text, or its tool call (name and JSON arguments)."""
    head_tokens: int
    """Tokens of the fixed head: the system prompt and the tool schemas."""
    prefix: list[tuple[str, int]]
    """At each message boundary (after the head, then after each message): the hash of all of the
    request up to there (16 hex digits, chained) and the input tokens up to there."""


class AgentReply(_Event):
    """The agent's answer to one user message."""

    kind: Literal["agent_reply"] = "agent_reply"
    text: str
    latency_s: float = 0.0
    usage: TokenUsage | None = None
    """Tokens the agent reported for this turn, when it reports them."""
    oversized: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """The reply's size in bytes when it was over `run.max_reply_bytes` and `text` is cut."""
    requests: list[RequestDigest] = Field(default_factory=list, exclude_if=lambda v: not v)
    """Digests of the model requests behind this reply, in order (empty: none known)."""
    requests_source: Literal["metered", "proxy"] | None = Field(
        default=None, exclude_if=lambda v: v is None
    )
    """`metered`: the requests the agent's model really received; `proxy`: those an LLM agent
    would have received to play the turn of an agent that made no model call (a rule agent)."""


class StateChange(BaseModel):
    """One record a call or a web action changed in the environment's state.

    Taken by comparing the environment's state before and after (see `vistasim.env`), so a call
    is a write because it changed something, never because of its name.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    table: str
    """The table (or the part of the state) changed; `*` when the environment cannot say."""
    key: str = ""
    """The record's key (its primary key values, joined by `/`)."""
    op: Literal["insert", "update", "delete"] = "update"
    fields: list[str] = Field(default_factory=list)
    """The fields whose values changed (for `update`)."""


Changes = Annotated[list[StateChange] | None, Field(exclude_if=lambda v: v is None)]
"""What an event changed in the environment: `[]` nothing, `None` not known (no environment saw
it, or the tool ran outside vistasim)."""


class ToolCall(_Event):
    """A tool call made by the agent under test, with its result."""

    kind: Literal["tool_call"] = "tool_call"
    name: str
    args: dict[str, JsonValue] = Field(default_factory=dict)
    result: JsonValue = None
    error: str | None = None
    """The tool's error message, when the call failed."""
    call_id: str | None = None
    oversized: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """The result's size in bytes (as JSON) when it was over `run.max_reply_bytes`; `result` is
    then the start of that JSON, cut."""
    changes: Changes = None
    """What the call changed in the environment's state (`None`: not seen by the environment)."""


WebActionKind = Literal["click", "type", "select", "scroll", "navigate", "back"]
"""The kinds of web action, defined once: `browser.WebStep` has one class per kind."""


class WebAction(_Event):
    """A user action in the browser and a summary of what the page showed after it."""

    kind: Literal["web_action"] = "web_action"
    action: WebActionKind
    target: str | None = None
    """Semantic id or aria ref of the element acted on."""
    value: str | None = None
    enter: bool | None = Field(default=None, exclude_if=lambda v: v is None)
    """`type` only: Enter was pressed after typing (`None`: not pressed, or not recorded)."""
    url: str | None = None
    observation: str = ""
    """A short summary of the page after the action (never the whole page)."""
    screenshot_ref: str | None = None
    error: str | None = None
    changes: Changes = None
    """What the action changed in the environment (a built-in site's state is the environment's);
    `None`: not known (an external product's page)."""


class ApiCall(_Event):
    """A user-side API call made by the simulated user, with its result."""

    kind: Literal["api_call"] = "api_call"
    name: str
    args: dict[str, JsonValue] = Field(default_factory=dict)
    result: JsonValue = None
    error: str | None = None
    changes: Changes = None
    """What the call changed in the environment's state."""


class Judgment(_Event):
    """A verdict on an episode: criteria checks, or an LLM judge's scores."""

    kind: Literal["judgment"] = "judgment"
    judge: str
    """Who judged: `criteria`, `realism`, `failure`..."""
    passed: bool | None = None
    scores: dict[str, float] = Field(default_factory=dict)
    checks: list[dict[str, JsonValue]] = Field(default_factory=list)
    """One entry per check: what was checked, whether it held, and why not."""
    reason: str = ""


class Note(_Event):
    """Something worth knowing about the episode that is not a step (resume, replay divergence)."""

    kind: Literal["note"] = "note"
    text: str
    diverged_at_turn: int | None = None
    """Set on the note of a replay whose agent answered this stored turn otherwise: the fact
    a branch's status is decided from, so it need not be read back out of `text`."""


class Stop(_Event):
    """The end of an episode."""

    kind: Literal["stop"] = "stop"
    reason: StopReason
    detail: str = ""
    """Free text: the user's last words, or the error."""


Event = Annotated[
    ScenarioStart
    | Snapshot
    | UserMessage
    | AgentReply
    | ToolCall
    | WebAction
    | ApiCall
    | Judgment
    | Note
    | Stop,
    Field(discriminator="kind"),
]
"""One step of an episode."""

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)
"""Parses and dumps any `Event`."""


@dataclass(frozen=True, kw_only=True)
class EventLine:
    """One line a person reads about an event (in `vistasim show`, the report)."""

    who: Literal["user", "agent", "tool", "api", "web", "verdict", "note", "stop"]
    """Who acted: the user, the agent, one of their calls, a verdict, a note, the stop."""
    text: str
    ok: bool = True
    """False for failed calls, web actions and checks."""
    effect: str = ""
    """What a call or web action changed in the environment (`changed orders W1001: status`);
    empty when it changed nothing or nobody could tell."""


def describe_event(event: Event, *, limit: int = 300) -> tuple[EventLine, ...]:
    """The readable lines of an event, none for roots and snapshots.

    `limit` bounds each JSON value quoted (arguments, results). The one rendering of events to
    text: a new event kind must be added here, or the type checker stops at `assert_never`.
    """
    match event:
        case UserMessage(text=text):
            return (EventLine(who="user", text=text),)
        case AgentReply(text=text):
            return (EventLine(who="agent", text=text),)
        case ToolCall() | ApiCall():
            outcome = f"error: {event.error}" if event.error else _short(event.result, limit)
            who: Literal["tool", "api"] = "tool" if isinstance(event, ToolCall) else "api"
            text = f"{event.name}({_short(event.args, limit)}) -> {outcome}"
            effect = describe_changes(event.changes)
            return (EventLine(who=who, text=text, ok=event.error is None, effect=effect),)
        case WebAction():
            seen = event.error or event.observation
            text = " ".join(p for p in (event.action, event.target, event.value) if p)
            return (EventLine(who="web", text=f"{text} -> {seen}" if seen else text,
                              ok=event.error is None,
                              effect=describe_changes(event.changes)),)  # fmt: skip
        case Judgment():
            return _verdict_lines(event)
        case Note(text=text):
            return (EventLine(who="note", text=text),)
        case Stop(reason=reason, detail=detail):
            return (EventLine(who="stop", text=reason.value + (f" ({detail})" if detail else "")),)
        case ScenarioStart() | Snapshot():
            return ()
        case _:
            assert_never(event)


_VERBS = {"insert": "added", "update": "changed", "delete": "removed"}


def describe_changes(changes: list[StateChange] | None, *, shown: int = 6) -> str:
    """What a call or web action changed, in one line; empty for nothing or not known.

    >>> describe_changes([StateChange(table="orders", key="W1001", fields=["status"])])
    'changed orders W1001: status'
    """
    if not changes:
        return ""
    parts = []
    for change in changes[:shown]:
        what = " ".join(p for p in (_VERBS[change.op], change.table, change.key) if p)
        parts.append(f"{what}: {', '.join(change.fields)}" if change.fields else what)
    more = len(changes) - shown
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def _verdict_lines(judgment: Judgment) -> tuple[EventLine, ...]:
    verdict = {True: "pass", False: "FAIL", None: "no verdict"}[judgment.passed]
    head = f"{judgment.judge}: {verdict}" + (f" - {judgment.reason}" if not judgment.checks
                                               and judgment.reason else "")  # fmt: skip
    lines = [EventLine(who="verdict", text=head, ok=judgment.passed is not False)]
    for check in judgment.checks:
        passed = bool(check.get("passed"))
        text = f"{'ok' if passed else 'FAILED'}: {check.get('check')}"
        lines.append(EventLine(who="verdict", text=text, ok=passed))
    return tuple(lines)


def _short(value: object, limit: int) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"

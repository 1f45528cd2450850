"""The episode loop (DESIGN.md §3): observe, act, let the agent answer, record, repeat.

Every user turn is written as one transaction ending in a `Snapshot` of the state before the next
turn, so an episode can be resumed (after a crash) or branched (DIVERT) from any user turn.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import get_args

import anyio
from pydantic import JsonValue

from vistasim.agent._types import AgentAdapter, Turn, Utterance
from vistasim.browser._types import WebStep
from vistasim.env._types import Environment, ToolOutcome
from vistasim.errors import AgentError, BrowserError, ModelError, SimulatorError, VistasimError
from vistasim.events import (
    AgentReply,
    ApiCall,
    Event,
    Snapshot,
    Stop,
    StopReason,
    ToolCall,
    UserMessage,
    WebAction,
)
from vistasim.explore._criteria import evaluate_criteria
from vistasim.explore._web import WebChannel
from vistasim.llm._meter import ModelCall, collect_calls
from vistasim.scenario import Scenario
from vistasim.store._store import EpisodePlan, Store, blob_hash
from vistasim.user._types import Action, CallApi, Finish, Say, UserPolicy, UserView

logger = logging.getLogger(__name__)

WEB_STEPS = get_args(WebStep)


@dataclass(kw_only=True)
class Cursor:
    """Where a live episode stands (in memory only; the store holds the durable copy)."""

    leaf: int | None
    """Last committed event."""
    turn: int
    user_state: JsonValue
    transcript: list[Utterance] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    last_api_result: ToolOutcome | None = None
    last_web_error: str | None = None


@dataclass(kw_only=True)
class Episode:
    """The live parts of one episode."""

    run_id: str
    plan: EpisodePlan
    scenario: Scenario
    store: Store
    policy: UserPolicy
    agent: AgentAdapter
    env: Environment | None
    max_turns: int
    api_tools: tuple = ()
    seed: int = 0
    web: WebChannel | None = None
    """The episode's page in `ui` and `hybrid` modes."""
    pending_blobs: list[bytes] = field(default_factory=list)
    """Blobs (screenshots) to store with the next snapshot."""


@dataclass(kw_only=True)
class _TurnOutcome:
    events: list[Event]
    new_state: JsonValue = None
    stop: Stop | None = None


async def play(ep: Episode, cursor: Cursor, *, timeout_s: float) -> Stop:
    """Run the episode from `cursor` to its end and record the judgment and the stop."""
    pending: list[Event] = []
    calls: list[ModelCall] = []
    stop: Stop | None = None
    with anyio.move_on_after(timeout_s):
        stop, pending, calls = await _loop(ep, cursor)
    if stop is None:
        stop = Stop(reason=StopReason.TIMEOUT, detail=f"episode exceeded {timeout_s:g}s")
    _finish(ep, cursor, stop, pending, calls)
    return stop


async def _loop(ep: Episode, cursor: Cursor) -> tuple[Stop, list[Event], list[ModelCall]]:
    while True:
        if cursor.turn >= ep.max_turns:
            return Stop(reason=StopReason.MAX_TURNS, detail=f"{ep.max_turns} turns"), [], []
        with collect_calls() as calls:
            outcome = await _take_turn(ep, cursor)
        if outcome.stop is not None:
            return outcome.stop, outcome.events, calls
        cursor.turn += 1
        cursor.user_state = outcome.new_state
        snapshot, blobs = await take_snapshot(ep, cursor)
        events = [*outcome.events, snapshot]
        cursor.leaf = ep.store.append_events(
            ep.run_id, ep.plan.episode_id, cursor.leaf, _numbered(events, cursor.turn),
            calls=calls, blobs=blobs,
        )  # fmt: skip


async def _take_turn(ep: Episode, cursor: Cursor) -> _TurnOutcome:
    outcome = _TurnOutcome(events=[])
    try:
        view = await _view(ep, cursor)
        action, outcome.new_state = await ep.policy.next_action(view, cursor.user_state)
        outcome.stop = await _execute(ep, cursor, action, outcome.events)
    except AgentError as exc:
        outcome.events.extend(e for e in exc.tool_calls if isinstance(e, ToolCall))
        outcome.stop = Stop(reason=StopReason.AGENT_ERROR, detail=_agent_detail(exc))
    except (ModelError, BrowserError) as exc:
        outcome.stop = Stop(reason=StopReason.INFRA_ERROR, detail=str(exc))
    except (SimulatorError, VistasimError) as exc:
        outcome.stop = Stop(reason=StopReason.SIMULATOR_ERROR, detail=str(exc))
    except Exception as exc:  # a bug must cost one episode, not the run
        logger.exception("internal error in episode %s", ep.plan.episode_id)
        outcome.stop = Stop(reason=StopReason.INFRA_ERROR, detail=f"internal error: {exc!r}")
    return outcome


async def _execute(ep: Episode, cursor: Cursor, action: Action, events: list[Event]) -> Stop | None:
    cursor.last_api_result = None
    cursor.last_web_error = None
    if isinstance(action, Finish):
        reason = StopReason.GOAL_MET if action.reason == "goal_met" else StopReason.USER_STOP
        return Stop(reason=reason, detail=action.text)
    if isinstance(action, CallApi):
        outcome = await _call_api(ep, action)
        events.append(
            ApiCall(name=action.name, args=action.args, result=outcome.result, error=outcome.error)
        )
        cursor.last_api_result = outcome
        return None
    if isinstance(action, Say):
        await _say(ep, cursor, action.text, events)
        return None
    if isinstance(action, WEB_STEPS):
        await _web_step(ep, cursor, action, events)
        return None
    raise SimulatorError(f"unknown action {action!r}")


async def _web_step(ep: Episode, cursor: Cursor, step: WebStep, events: list[Event]) -> None:
    if ep.web is None:
        cursor.last_web_error = "there is no web page in this mode; chat or call an API instead"
        events.append(WebAction(action=step.kind, error=cursor.last_web_error))
        return
    result = await ep.web.act(step)
    cursor.last_web_error = result.error
    screenshot = None
    if ep.web.screenshots:
        image = await ep.web.session.screenshot()
        screenshot = blob_hash(image)
        ep.pending_blobs.append(image)
    events.append(
        WebAction(
            action=step.kind,
            target=getattr(step, "target", None),
            value=_step_value(step),
            url=result.url,
            observation=result.summary,
            screenshot_ref=screenshot,
            error=result.error,
        )
    )


def _step_value(step: WebStep) -> str | None:
    for name in ("text", "value", "url", "direction"):
        value = getattr(step, name, None)
        if value is not None:
            return str(value)
    return None


async def _say(ep: Episode, cursor: Cursor, text: str, events: list[Event]) -> None:
    events.append(UserMessage(text=text, channel="widget" if ep.web is not None else "chat"))
    turn = Turn(episode_id=ep.plan.episode_id, message=text, history=tuple(cursor.transcript))
    started = anyio.current_time()
    reply = await ep.agent.respond(turn)
    latency = anyio.current_time() - started
    events.extend(reply.tool_calls)
    events.append(AgentReply(text=reply.text, latency_s=round(latency, 6), usage=reply.usage))
    cursor.tool_calls.extend(reply.tool_calls)
    cursor.transcript += [
        Utterance(role="user", text=text),
        Utterance(role="agent", text=reply.text),
    ]


async def _call_api(ep: Episode, action: CallApi) -> ToolOutcome:
    allowed = {tool.name for tool in ep.api_tools}
    if ep.env is None or action.name not in allowed:
        return ToolOutcome(error=f"API {action.name!r} is not available in this run")
    return await ep.env.call_user_api(action.name, action.args)


async def take_snapshot(ep: Episode, cursor: Cursor) -> tuple[Snapshot, list[bytes]]:
    """The state before the next user turn, with the blobs it references."""
    blobs, ep.pending_blobs = ep.pending_blobs, []
    env_ref = agent_ref = browser_ref = None
    if ep.web is not None:
        blobs.append(await ep.web.session.snapshot())
        browser_ref = blob_hash(blobs[-1])
    if ep.env is not None:
        blobs.append(ep.env.snapshot())
        env_ref = blob_hash(blobs[-1])
    if ep.agent.restore_strategy == "state":
        blobs.append(json.dumps(ep.agent.snapshot(), sort_keys=True).encode())  # type: ignore[attr-defined]
        agent_ref = blob_hash(blobs[-1])
    snapshot = Snapshot(
        turn=cursor.turn,
        user_state=cursor.user_state,
        env_state_ref=env_ref,
        agent_state_ref=agent_ref,
        browser_state_ref=browser_ref,
    )
    return snapshot, blobs


def _finish(
    ep: Episode, cursor: Cursor, stop: Stop, pending: list[Event], calls: list[ModelCall]
) -> None:
    events = list(pending)
    errored = stop.reason == StopReason.INFRA_ERROR
    if not errored:
        cursor.tool_calls += [e for e in pending if isinstance(e, ToolCall)]
        agent_texts = [u.text for u in cursor.transcript if u.role == "agent"]
        agent_texts += [e.text for e in pending if isinstance(e, AgentReply)]
        events.append(
            evaluate_criteria(
                ep.scenario.criteria,
                tool_calls=cursor.tool_calls,
                agent_texts=agent_texts,
                env=ep.env,
                mode=ep.plan.mode,
            )
        )
    events.append(stop)
    ep.store.append_events(
        ep.run_id, ep.plan.episode_id, cursor.leaf, _numbered(events, cursor.turn + 1),
        calls=calls, status="errored" if errored else "done", stop_reason=stop.reason.value,
    )  # fmt: skip


async def _view(ep: Episode, cursor: Cursor) -> UserView:
    return UserView(
        scenario=ep.scenario,
        transcript=tuple(cursor.transcript),
        turn=cursor.turn,
        max_turns=ep.max_turns,
        api_tools=ep.api_tools,
        last_api_result=cursor.last_api_result,
        lexicon=ep.env.lexicon() if ep.env is not None else {},
        page=await ep.web.observe() if ep.web is not None else None,
        last_web_error=cursor.last_web_error,
    )


def _numbered(events: list[Event], turn_after: int) -> list[tuple[int, Event]]:
    # Events of a turn carry the number of actions taken before it; the closing snapshot, after.
    return [(turn_after if isinstance(e, Snapshot) else max(turn_after - 1, 0), e) for e in events]


def _agent_detail(exc: AgentError) -> str:
    # Only an HTTP answer's body says more than the message; a Python agent's traceback would
    # bury the user's own line, which the message already ends with.
    if exc.status is None:
        return str(exc)
    body = f"; body: {exc.body[:300]!r}" if exc.body else ""
    return f"{exc} (HTTP {exc.status}){body}"

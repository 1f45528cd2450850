"""Carry out one user action: a message to the agent, a user-side API call, or a web action.

Each records what happened as events (what the agent said and called, what the API returned,
what the page showed and what the action changed), and `take_snapshot` closes a turn with the
state before the next one.
"""

from __future__ import annotations

from typing import Literal, assert_never

import anyio
from pydantic import JsonValue

from vistasim.agent import Reply, Turn, proxy_requests
from vistasim.browser import Back, Click, Navigate, Scroll, SelectOption, TypeText, WebStep
from vistasim.env import ToolOutcome
from vistasim.errors import MissingExtraError
from vistasim.events import (
    AgentReply,
    ApiCall,
    Event,
    RequestDigest,
    Snapshot,
    Stop,
    StopReason,
    ToolCall,
    UserMessage,
    WebAction,
)
from vistasim.explore._live import Episode
from vistasim.explore._oversize import cut_text, cut_tool_call
from vistasim.explore._state import EpisodeState
from vistasim.explore._watch import attach_changes
from vistasim.store import blob_hash
from vistasim.user import Action, CallApi, Finish, Say

__all__ = ["execute", "take_snapshot"]


async def execute(
    ep: Episode, state: EpisodeState, action: Action, events: list[Event]
) -> Stop | None:
    """Carry out `action`, appending its events; return the stop when it ends the episode."""
    match action:
        case Finish():
            return _finish_stop(action)
        case CallApi():
            outcome = await _call_api(ep, action)
            result, error = outcome.result, outcome.error
            seen = ep.env.take_calls("user") if ep.env is not None else []
            changes = seen[-1].changes if seen else None
            events.append(
                ApiCall(name=action.name, args=action.args, result=result, error=error,
                        changes=changes)
            )  # fmt: skip
        case Say():
            await _say(ep, state, action.text, events)
        case Click() | TypeText() | SelectOption() | Scroll() | Navigate() | Back():
            await _web_step(ep, action, events)
        case _:
            assert_never(action)
    return None


def _finish_stop(action: Finish) -> Stop:
    # An accepted refusal settles the request as far as the user is concerned: `goal_met`, with
    # a detail that tells it apart from a request carried out.
    if action.reason == "refused":
        return Stop(
            reason=StopReason.GOAL_MET, detail=f"accepted the agent's refusal: {action.text}"
        )
    reason = StopReason.GOAL_MET if action.reason == "goal_met" else StopReason.USER_STOP
    return Stop(reason=reason, detail=action.text)


async def _web_step(ep: Episode, step: WebStep, events: list[Event]) -> None:
    if ep.web is None:
        error = "there is no web page in this mode; chat or call an API instead"
        events.append(WebAction(action=step.kind, error=error))
        return
    # A built-in site's state is the environment's, so what the action changed is known.
    watched = ep.env if ep.env is not None and ep.web.site is not None else None
    before = watched.snapshot() if watched is not None else None
    result = await ep.web.act(step)
    changes = watched.changes_since(before) if watched is not None and before is not None else None
    screenshot = None
    if ep.web.screenshots:
        image = await ep.web.session.screenshot()
        screenshot = blob_hash(image)
        ep.pending_blobs.append(image)
    events.append(
        WebAction(
            action=step.kind,
            target=step.target if isinstance(step, Click | TypeText | SelectOption) else None,
            value=_step_value(step),
            enter=True if isinstance(step, TypeText) and step.enter else None,
            url=result.url,
            observation=result.summary,
            screenshot_ref=screenshot,
            error=result.error,
            changes=changes,
        )
    )


def _step_value(step: WebStep) -> str | None:
    match step:
        case TypeText(text=value) | SelectOption(value=value) | Navigate(url=value):
            return value
        case Scroll(direction=direction):
            return direction
        case Click() | Back():
            return None
        case _:
            assert_never(step)


async def _say(ep: Episode, state: EpisodeState, text: str, events: list[Event]) -> None:
    events.append(UserMessage(text=text, channel="widget" if ep.web is not None else "chat"))
    turn = Turn(episode_id=ep.session_id, message=text, history=state.transcript)
    if ep.env is not None:
        ep.env.take_calls("agent")  # calls of a replay during a restore are not this turn's
    started = anyio.current_time()
    reply = await ep.agent.respond(turn)
    latency = anyio.current_time() - started
    reported = list(reply.tool_calls)
    if ep.env is not None:
        reported = attach_changes(reported, ep.env.take_calls("agent"))
    # Cut before anything else sees it: a huge reply must not make every later turn slower.
    calls = [cut_tool_call(call, ep.max_reply_bytes) for call in reported]
    answer, oversized = cut_text(reply.text, ep.max_reply_bytes)
    events.extend(calls)
    requests, source = _requests(ep, state, text, calls, answer, reply)
    events.append(
        AgentReply(
            text=answer,
            latency_s=round(latency, 6),
            usage=reply.usage,
            oversized=oversized,
            requests=requests,
            requests_source=source,
        )
    )


def _requests(
    ep: Episode, state: EpisodeState, text: str, calls: list[ToolCall], answer: str, reply: Reply
) -> tuple[list[RequestDigest], Literal["metered", "proxy"] | None]:
    """The agent's requests for this turn: its own, else the labelled proxy.

    The proxy is what an LLM agent would have been sent, counted with the bundled tokenizer.
    """
    if reply.requests:
        return list(reply.requests), "metered"
    if reply.usage is not None or ep.env is None:
        return [], None
    try:
        tools = ep.env.agent_tools()
        made = proxy_requests(
            policy=ep.agent_policy, tools=tools, past=state.turns, message=text,
            tool_calls=calls, reply=answer,
        )  # fmt: skip
    except MissingExtraError:  # no tokenizer installed: no proxy, said so in the metrics
        return [], None
    return made, "proxy"


async def _call_api(ep: Episode, action: CallApi) -> ToolOutcome:
    allowed = {tool.name for tool in ep.api_tools}
    if ep.env is None or action.name not in allowed:
        return ToolOutcome(error=f"API {action.name!r} is not available in this run")
    return await ep.env.call_user_api(action.name, action.args)


async def take_snapshot(
    ep: Episode, *, turn: int, user_state: JsonValue
) -> tuple[Snapshot, list[bytes]]:
    """The state before user turn `turn`, with the blobs it references."""
    blobs, ep.pending_blobs = ep.pending_blobs, []
    env_ref = agent_ref = browser_ref = None
    # Page text, the widget transcript, the agent's messages and the environment's records may
    # all quote a secret: each state is stored masked, and a restore fills the secrets back in.
    if ep.web is not None:
        blobs.append(ep.store.mask_state(await ep.web.snapshot()))
        browser_ref = blob_hash(blobs[-1])
    if ep.env is not None:
        blobs.append(ep.store.mask_state(ep.env.snapshot()))
        env_ref = blob_hash(blobs[-1])
    if ep.agent.restore_strategy == "state":
        blobs.append(ep.store.mask_state(ep.agent.snapshot_bytes()))
        agent_ref = blob_hash(blobs[-1])
    snapshot = Snapshot(
        turn=turn,
        user_state=user_state,
        env_state_ref=env_ref,
        agent_state_ref=agent_ref,
        browser_state_ref=browser_ref,
    )
    return snapshot, blobs

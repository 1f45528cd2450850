"""Bring an interrupted episode back: rebuild its cursor and restore agent, environment, page.

The store holds, before every user turn, a snapshot of the user state and blobs of the
environment, agent and browser states; the transcript and tool calls are derived from the events
on the path. Agents that cannot snapshot are brought back by replaying the stored user turns.
"""

from __future__ import annotations

import json

from vistasim.agent import Turn, Utterance
from vistasim.env._types import ToolOutcome
from vistasim.errors import StoreError
from vistasim.events import (
    AgentReply,
    ApiCall,
    Note,
    Snapshot,
    Stop,
    ToolCall,
    UserMessage,
    WebAction,
)
from vistasim.explore._episode import Cursor, Episode
from vistasim.explore._guard import stop_for
from vistasim.store._view import StoredEvent

__all__ = ["resume"]


async def resume(ep: Episode, leaf_id: int) -> tuple[Cursor, Stop | None]:
    """Rebuild the cursor from the stored path and bring agent, environment and page back.

    Returns the cursor, and the stop when a hook (the agent's `restore()`, say) failed.

    Raises:
        StoreError: the stored episode does not end in a snapshot.
    """
    path = ep.store.read_path(leaf_id)
    snapshots = [s for s in path if isinstance(s.event, Snapshot)]
    after = path[path.index(snapshots[-1]) + 1 :] if snapshots else path
    if not snapshots or any(not isinstance(s.event, Note) for s in after):
        raise StoreError(f"episode {ep.plan.episode_id} does not end in a snapshot; cannot resume")
    last = snapshots[-1].event
    assert isinstance(last, Snapshot)
    cursor = Cursor(leaf=leaf_id, turn=last.turn, user_state=last.user_state)
    _replay_transcript(cursor, path)
    try:
        await _restore(ep, cursor, last)
    except Exception as exc:
        return cursor, stop_for(exc, episode_id=ep.plan.episode_id)
    return cursor, None


async def _restore(ep: Episode, cursor: Cursor, last: Snapshot) -> None:
    await _restore_agent(ep, cursor, last)
    if ep.env is not None and last.env_state_ref is not None:
        ep.env.restore(ep.store.get_blob(last.env_state_ref))
    if ep.web is not None and last.browser_state_ref is not None:
        await ep.web.restore(ep.store.get_blob(last.browser_state_ref))


def _replay_transcript(cursor: Cursor, path: list[StoredEvent]) -> None:
    pending_user: str | None = None
    for stored in path:
        event = stored.event
        if isinstance(event, UserMessage):
            pending_user = event.text
        elif isinstance(event, AgentReply) and pending_user is not None:
            cursor.transcript += [
                Utterance(role="user", text=pending_user),
                Utterance(role="agent", text=event.text),
            ]
            pending_user = None
        elif isinstance(event, ToolCall):
            cursor.tool_calls.append(event)
        elif isinstance(event, ApiCall):
            cursor.last_api_result = ToolOutcome(result=event.result, error=event.error)
        elif isinstance(event, WebAction):
            cursor.last_web_error = event.error
        elif isinstance(event, Snapshot):
            previous = _previous(path, stored)
            if not isinstance(previous, ApiCall):
                cursor.last_api_result = None
            if not isinstance(previous, WebAction):
                cursor.last_web_error = None


def _previous(path: list[StoredEvent], stored: StoredEvent) -> object:
    # The result of an API call or web action is seen by the user's next step only.
    index = path.index(stored)
    return path[index - 1].event if index > 0 else None


async def _restore_agent(ep: Episode, cursor: Cursor, snapshot: Snapshot) -> None:
    agent = ep.agent
    if agent.restore_strategy == "state" and snapshot.agent_state_ref is not None:
        agent.restore(json.loads(ep.store.get_blob(snapshot.agent_state_ref)))
    elif agent.restore_strategy == "replay" and cursor.transcript:
        diverged = await _replay_agent(ep, cursor)
        text = f"resumed by replaying {len(cursor.transcript) // 2} user turn(s) to the agent"
        if diverged is not None:
            text += f"; its reply diverged from the stored one at turn {diverged}"
        note = [(cursor.turn, Note(text=text))]
        cursor.leaf = ep.store.append_events(ep.run_id, ep.plan.episode_id, cursor.leaf, note)


async def _replay_agent(ep: Episode, cursor: Cursor) -> int | None:
    diverged = None
    history = cursor.transcript
    for index in range(0, len(history), 2):
        turn = Turn(
            episode_id=f"{ep.plan.episode_id}~replay",
            message=history[index].text,
            history=tuple(history[:index]),
        )
        reply = await ep.agent.respond(turn)
        if diverged is None and reply.text != history[index + 1].text:
            diverged = index // 2
    return diverged

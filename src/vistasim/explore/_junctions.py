"""Read a stored trajectory as DIVERT sees it: its user turns, and what a branch changed.

`junctions` rebuilds each user turn with the snapshot before it and the action taken;
`continuation` is what came after a fork, compared to tell a branch that converged on its
parent's path from one that went somewhere new.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from pydantic import JsonValue

from vistasim.divert import UserTurn
from vistasim.events import AgentReply, ApiCall, Snapshot, Stop, ToolCall, UserMessage, WebAction
from vistasim.store import StoredEvent
from vistasim.user import Action, action_of_event

__all__ = ["continuation", "junctions", "state_after", "tokens_after"]

_LOOPBACK_PORT = re.compile(r"(127\.0\.0\.1|localhost):\d+")


def junctions(path: Sequence[StoredEvent]) -> list[tuple[UserTurn, StoredEvent, Action | None]]:
    """Each user turn with the snapshot before it and the action taken, rebuilt from events.

    A web action is not rebuilt (its target is an element id of that page): its action is
    `None`, and the offline user, which is deterministic, is asked again at the junction.
    """
    found = []
    before = ""
    for index, stored in enumerate(path[:-1]):
        event = stored.event
        if isinstance(event, AgentReply):
            before = event.text
        if not isinstance(event, Snapshot):
            continue
        kind, text = _describe_event(path[index + 1].event)
        action = None if kind == "web" else action_of_event(path[index + 1].event)
        if kind is not None and (action is not None or kind == "web"):
            turn = UserTurn(index=event.turn, kind=kind, text=text, before=before)
            found.append((turn, stored, action))
    return found


def tokens_after(path: Sequence[StoredEvent], snapshot: StoredEvent) -> int:
    """Agent tokens the path spent after `snapshot`: about what a branch there would cost."""
    start = path.index(snapshot)
    return sum(
        d.input_tokens + d.output_tokens
        for stored in path[start:]
        if isinstance(stored.event, AgentReply)
        for d in stored.event.requests
    )


def _describe_event(event: object) -> tuple[str | None, str]:
    match event:
        case UserMessage(text=text):
            return "say", text
        case ApiCall(name=name, args=args):
            return "api", f"call {name} {args}"
        case WebAction(action=action, target=target, value=value):
            return "web", f"{action} {target or ''} {value or ''}".strip()
        case Stop(reason=reason, detail=detail):
            return (
                ("stop", f"stop ({reason.value}): {detail}")
                if reason.value in ("goal_met", "user_stop")
                else (None, "")
            )
        case _:
            return None, ""


def state_after(path: Sequence[StoredEvent], turn: int) -> JsonValue:
    """The user state recorded after user turn `turn` on a path (`None` if it ended there)."""
    after = next(
        (s.event for s in path if isinstance(s.event, Snapshot) and s.event.turn == turn + 1),
        None,
    )
    return after.user_state if isinstance(after, Snapshot) else None


def continuation(path: Sequence[StoredEvent], fork_id: int) -> list[str]:
    """What happened after the action at the fork: replies, calls, later user actions, the end.

    Snapshots and timings are left out; they differ without meaning.
    """
    after = [s.event for s in path if s.id > fork_id]
    start = next((i for i, e in enumerate(after) if _describe_event(e)[0] is not None), None)
    if start is None:
        return []
    seen = []
    for event in after[start + 1 :]:
        match event:
            case AgentReply(text=text):
                seen.append(f"agent:{text}")
            case ToolCall() | ApiCall() | WebAction() | Stop():
                # Canonical: a restored agent may build the same arguments in another key order,
                # and each episode's built-in site is served on a port of its own.
                data = event.model_dump(mode="json", exclude={"latency_s", "screenshot_ref"})
                seen.append(_LOOPBACK_PORT.sub(r"\1:PORT", json.dumps(data, sort_keys=True)))
            case UserMessage(text=text):
                seen.append(f"user:{text}")
            case _:
                pass
    return seen

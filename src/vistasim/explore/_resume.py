"""Bring an episode back to a stored snapshot: the one restore path of resume and DIVERT branches.

The store holds, before every user turn, a snapshot of the user state and blobs of the
environment, agent and browser states; the rest of the episode state (transcript, tool calls,
what the user's last action returned) is folded from the events on the path (`_state.fold`), the
same way live play builds it. An agent that cannot snapshot is brought back by replaying the
stored user turns into a fresh session, in which the episode then continues.

Every restore is counted on the episode (`Episode.restores`): a DIVERT branch is grown with one,
and the count is stored with it. The note a replay leaves is the restored episode's own; while a
branch is being grown it is held (`record=False`) until the branch exists to own it
(`record_held`), so growing a branch never writes into its parent.
"""

from __future__ import annotations

import json
from dataclasses import replace

from vistasim.agent import Turn
from vistasim.events import Note, Snapshot, Stop
from vistasim.explore._episode import Episode
from vistasim.explore._guard import stop_for
from vistasim.explore._state import EpisodeState, state_at
from vistasim.store import StoredEvent

__all__ = ["fork_divergence", "look_at", "record_held", "restore", "resume"]

async def resume(ep: Episode, leaf_id: int) -> tuple[EpisodeState, Stop | None]:
    """Restore the episode at its stored leaf (after a crash, or a branch at its fork).

    Returns the state, and the stop when a hook (the agent's `restore()`, say) failed.

    Raises:
        StoreError: the stored path does not end in a snapshot.
    """
    return await restore(ep, ep.store.read_path(leaf_id, exact=True))


async def restore(
    ep: Episode, path: list[StoredEvent], *, record: bool = True
) -> tuple[EpisodeState, Stop | None]:
    """Rebuild the state at the end of `path` and bring agent, environment and page there.

    `path` must be read with `Store.read_path(..., exact=True)`: the restored user and agent
    see the values the live run saw, not the `***` the store shows everyone else. With
    `record=False` what the restore has to say is held on the episode (`record_held`).
    """
    state, snapshot = state_at(path)
    ep.restores += 1
    ep.held = []
    try:
        # Without a page, a replayed agent goes first: the tool calls it makes again change the
        # environment, which the snapshot then puts back. With a page, the environment comes
        # first (a built-in site reads it when the page loads again) and a replayed agent
        # behind a widget is replayed into the restored page.
        if ep.web is None:
            state = await _restore_agent(ep, state, snapshot)
        if ep.env is not None and snapshot.env_state_ref is not None:
            ep.env.restore(ep.store.read_state(snapshot.env_state_ref))
        if ep.web is not None:
            if snapshot.browser_state_ref is not None:
                await ep.web.restore(ep.store.read_state(snapshot.browser_state_ref))
            state = await _restore_agent(ep, state, snapshot)
    except Exception as exc:
        return state, stop_for(exc, episode_id=ep.plan.episode_id)
    return (record_held(ep, state) if record else state), None


def look_at(ep: Episode, path: list[StoredEvent]) -> EpisodeState | None:
    """The state at the end of `path` with only the environment put back there (no restore).

    What the candidates of a branch need, when the episode has no page: the agent is left as
    it is until a candidate is chosen. `None` with a page, or when the environment cannot be
    put back: then only a whole `restore` will do.
    """
    if ep.web is not None:
        return None
    state, snapshot = state_at(path)
    if ep.env is not None and snapshot.env_state_ref is not None:
        try:
            ep.env.restore(ep.store.read_state(snapshot.env_state_ref))
        except Exception:  # the restore that follows records what went wrong
            return None
    return state


def fork_divergence(path: list[StoredEvent], fork_id: int) -> int | None:
    """The turn the agent replayed to restore a branch at its fork answered otherwise, if any.

    Read from the note that replay left as the branch's first own event, so it is the same
    however often the branch was restored after (a resumed branch is replayed once more, and
    that replay's note says nothing of the fork).
    """
    at = next((i for i, stored in enumerate(path) if stored.id == fork_id), None)
    first = path[at + 1].event if at is not None and at + 1 < len(path) else None
    return first.diverged_at_turn if isinstance(first, Note) else None


def record_held(ep: Episode, state: EpisodeState) -> EpisodeState:
    """Store what the last restore held as `ep.plan`'s own events; the state after them."""
    if not ep.held:
        return state
    leaf = ep.store.append_events(ep.run_id, ep.plan.episode_id, state.leaf, ep.held)
    ep.held = []
    return replace(state, leaf=leaf)


async def _restore_agent(ep: Episode, state: EpisodeState, snapshot: Snapshot) -> EpisodeState:
    agent = ep.agent
    if agent.restore_strategy == "state" and snapshot.agent_state_ref is not None:
        agent.restore(json.loads(ep.store.read_state(snapshot.agent_state_ref)))
    elif agent.restore_strategy == "replay" and state.transcript:
        # A fresh session: the agent may still hold the interrupted one under the episode's id.
        ep.agent_session = f"{ep.plan.episode_id}~{state.leaf}"
        diverged = await _replay_agent(ep, state)
        text = f"resumed by replaying {len(state.transcript) // 2} user turn(s) to the agent"
        if diverged is not None:
            text += f"; its reply diverged from the stored one at turn {diverged}"
        ep.held = [(state.turn, Note(text=text, diverged_at_turn=diverged))]
    return state


async def _replay_agent(ep: Episode, state: EpisodeState) -> int | None:
    diverged = None
    history = state.transcript
    for index in range(0, len(history), 2):
        turn = Turn(episode_id=ep.session_id, message=history[index].text, history=history[:index])
        reply = await ep.agent.respond(turn)
        if diverged is None and reply.text != history[index + 1].text:
            diverged = index // 2
    return diverged

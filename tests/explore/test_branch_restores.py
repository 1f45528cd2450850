"""Growing a DIVERT branch restores its parent once, with the values live play saw."""

from __future__ import annotations

import pytest

from tests.explore.agents import DESK_TOKEN, SecretReplayDesk, SecretStateDesk
from tests.helpers import desk_config, desk_scenarios
from vistasim.events import Note, Stop
from vistasim.explore import run
from vistasim.store import open_store, read_run_view

_REPLAYED = "resumed by replaying"


async def _explore(agent: str, *, secrets: tuple[str, ...] = ()):
    store = open_store(":memory:")
    store.add_secrets(secrets)
    config = desk_config(agent={"target": agent}, explore={"branches": 3})
    result = await run(config, scenarios=desk_scenarios(), store=store)
    return store, result.run_id


@pytest.mark.parametrize(
    "agent", ["vistasim.demo:OrderDeskAgent", "tests.explore.agents:SessionDesk"]
)
async def test_each_branch_restores_its_parent_once_and_writes_nothing_into_it(agent):
    store, run_id = await _explore(agent)
    view = read_run_view(store, run_id)
    played = [b for b in view.branches if b.status != "abandoned"]
    assert len(played) >= 8
    assert {b.restores for b in played} == {1}, [(b.episode_id, b.restores) for b in played]
    assert {b.status for b in played} <= {"done", "converged"}  # no replay diverged
    replayed = agent.endswith("SessionDesk")
    turns = {b.episode_id: b.turn for b in played}
    for episode in view.episodes:
        # A parent keeps its own path to its stop: growing a branch wrote nothing into it.
        assert episode.status == "done" and isinstance(episode.events[-1].event, Stop)
        notes = [s for s in episode.own_events
                 if isinstance(s.event, Note) and s.event.text.startswith(_REPLAYED)]  # fmt: skip
        if episode.branch_of is None:
            assert notes == []
        else:  # the one replay that restored it (if it had turns to replay) is its own
            assert len(notes) == (1 if replayed and turns[episode.episode_id] else 0)
            assert episode.own_events[0].parent_id == episode.fork_event_id


async def test_a_replayed_agent_is_given_the_secret_it_said_while_the_store_masks_it():
    SecretReplayDesk.histories.clear()
    store, run_id = await _explore("tests.explore.agents:SecretReplayDesk", secrets=(DESK_TOKEN,))
    view = read_run_view(store, run_id)
    assert view.branches and {b.status for b in view.branches} <= {"done", "converged"}
    # Replays restore the branches: turns that arrive with a history holding the first reply.
    replayed = [h for h in SecretReplayDesk.histories if len(h) >= 2]
    assert replayed
    assert all(DESK_TOKEN in h[1] and "***" not in h[1] for h in replayed)
    _assert_nothing_stored_holds(store, DESK_TOKEN)
    said = [s.event for e in view.episodes for s in e.own_events if s.event.kind == "agent_reply"]
    assert any("Your desk token is ***" in r.text for r in said)


async def test_a_restored_agent_state_holds_the_secret_while_the_store_masks_it():
    SecretStateDesk.restored.clear()
    store, run_id = await _explore("tests.explore.agents:SecretStateDesk", secrets=(DESK_TOKEN,))
    played = [b for b in store.list_branches(run_id) if b.status != "abandoned"]
    assert played
    assert SecretStateDesk.restored == [DESK_TOKEN] * len(played)  # once per branch, unmasked
    _assert_nothing_stored_holds(store, DESK_TOKEN)


def _assert_nothing_stored_holds(store, secret: str) -> None:
    rows = store.db.execute("SELECT payload, exact_payload FROM events").fetchall()
    assert rows and not any(secret in (text or "") for row in rows for text in row)
    blobs = store.db.execute("SELECT data FROM blobs").fetchall()
    assert blobs and not any(secret.encode() in bytes(row[0]) for row in blobs)


@pytest.mark.parametrize(
    "agent", ["vistasim.demo:OrderDeskAgent", "tests.explore.agents:ForgetfulReplayDesk"]
)
async def test_a_branch_left_playing_after_its_episode_ended_is_finished_on_resume(agent):
    store, run_id = await _explore(agent)
    finished = {b.episode_id: (b.status, b.detail) for b in store.list_branches(run_id)}
    # A run killed between a branch's last turn and its status: every branch left `playing`.
    for episode_id, (status, _) in finished.items():
        if status != "abandoned":
            store.set_branch_status(episode_id, "playing")
    store.finish_run(run_id, "failed")

    await run(resume=run_id, store=store)

    resumed = {b.episode_id: (b.status, b.detail) for b in store.list_branches(run_id)}
    assert resumed == finished
    statuses = {status for status, _ in finished.values()}
    if agent.endswith("ForgetfulReplayDesk"):  # told by the note its replay at the fork left
        assert "diverged" in statuses  # all but those at the first turn: nothing to replay
        assert all(d == "the replayed agent answered turn 0 differently"
                   for s, d in finished.values() if s == "diverged")  # fmt: skip
    else:
        assert statuses & {"done", "converged"}

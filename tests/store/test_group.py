"""Group commit: the turns written in one event-loop tick share a transaction, safely."""

import anyio
import pytest

from vistasim.events import AgentReply, Snapshot, UserMessage
from vistasim.scenario import Persona, Scenario
from vistasim.store import Append, open_store


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path / "store.db") as store:
        store.create_run(
            "r1", config={}, scenarios=[Scenario(id="s", persona=Persona(name="A"), goal="g")],
            rollouts=3, mode="chat",
        )  # fmt: skip
        yield store


def _turn(store, rollout: int, text: str = "hi", parent: int | None = None) -> Append:
    root, _ = store.scenario_roots("r1")["s"]
    return Append(
        run_id="r1", episode_id=f"r1:s:{rollout}", parent_id=root if parent is None else parent,
        events=[(0, UserMessage(text=text)), (0, AgentReply(text="ok")), (1, Snapshot(turn=1))],
        blobs=[f"state {rollout}".encode()],
    )  # fmt: skip


def _commits(store) -> list[str]:
    seen: list[str] = []
    store.db.set_trace_callback(lambda sql: seen.append(sql) if sql == "COMMIT" else None)
    return seen


async def test_turns_written_in_the_same_tick_are_one_transaction(store):
    commits = _commits(store)
    leaves: dict[int, int | None] = {}

    async def write(rollout: int) -> None:
        leaves[rollout] = await store.append_turn(_turn(store, rollout))

    async with anyio.create_task_group() as group:
        for rollout in range(3):
            group.start_soon(write, rollout)

    assert commits == ["COMMIT"]
    for rollout, leaf in leaves.items():
        assert leaf is not None
        path = store.read_path(leaf)
        assert [e.event.kind for e in path] == [
            "scenario_start", "user_message", "agent_reply", "snapshot"
        ]  # fmt: skip
        assert {e.episode_id for e in path[1:]} == {f"r1:s:{rollout}"}
        assert store.episode(f"r1:s:{rollout}").leaf_event_id == leaf


async def test_a_failing_write_fails_only_its_own_episode(store):
    no_turn = [(None, Snapshot(turn=0))]  # the turn column is NOT NULL
    bad = Append(run_id="r1", episode_id="r1:s:1", parent_id=None, events=no_turn)
    outcomes: dict[int, object] = {}

    async def write(rollout: int, turn: Append) -> None:
        try:
            outcomes[rollout] = await store.append_turn(turn)
        except Exception as exc:
            outcomes[rollout] = exc

    async with anyio.create_task_group() as group:
        group.start_soon(write, 0, _turn(store, 0))
        group.start_soon(write, 1, bad)
        group.start_soon(write, 2, _turn(store, 2))

    assert "NOT NULL" in str(outcomes[1])
    for rollout in (0, 2):
        leaf = outcomes[rollout]
        assert isinstance(leaf, int)
        assert len(store.read_path(leaf)) == 4
    counted = store.db.execute("SELECT COUNT(*) FROM events WHERE episode_id IS NOT NULL")
    assert counted.fetchone()[0] == 6  # nothing of the failed write, nothing twice


async def test_a_cancelled_episode_still_learns_its_committed_leaf(store):
    # Were the wait cancelled, the episode would continue from the leaf before its stored turn
    # and write that turn a second time.
    with anyio.CancelScope() as scope:
        scope.cancel()
        leaf = await store.append_turn(_turn(store, 0))
    assert leaf is not None
    assert store.episode("r1:s:0").leaf_event_id == leaf


def test_append_turn_off_asyncio_commits_at_once(store):
    # Under another event loop (anyio on trio) there is no tick to group by: driven by hand here.
    commits = _commits(store)
    with pytest.raises(StopIteration) as done:
        store.append_turn(_turn(store, 0)).send(None)
    assert commits == ["COMMIT"]
    assert store.episode("r1:s:0").leaf_event_id == done.value.value

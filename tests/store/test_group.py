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


def _rows(store) -> dict[str, list[tuple]]:
    """Every row a write touches, without the clock."""
    tables = {
        "events": "SELECT id, run_id, episode_id, parent_id, turn, kind, payload, exact_payload"
        " FROM events ORDER BY id",
        "calls": "SELECT id, run_id, episode_id, role, model, input_tokens, error"
        " FROM model_calls ORDER BY id",
        "episodes": "SELECT id, leaf_event_id, turns, status, stop_reason FROM episodes"
        " ORDER BY id",
        "blobs": "SELECT rowid, hash, size FROM blobs ORDER BY rowid",
    }
    return {name: [tuple(r) for r in store.db.execute(sql)] for name, sql in tables.items()}


def _writes(store) -> list[Append]:
    from vistasim.llm import ModelCall
    from vistasim.llm._usage import TokenUsage

    call = ModelCall(role="user", model="m", usage=TokenUsage(input_tokens=3), latency_s=0.1,
                     cost_usd=0.0, error="failed with sk-secret")  # fmt: skip
    first = [_turn(store, rollout, text=f"hi sk-secret {rollout}") for rollout in range(3)]
    ended = Append(run_id="r1", episode_id="r1:s:1", parent_id=None, calls=[call, call],
                   events=[(2, AgentReply(text="bye"))], status="done",
                   stop_reason="goal_met")  # fmt: skip
    return [*first, ended]


def test_a_group_stores_what_its_writes_store_one_by_one(tmp_path, store):
    # One statement per table for the whole group: the ids are worked out from the largest one,
    # so each event's id, parent and payload must be those SQLite gave writing them one by one.
    with open_store(tmp_path / "alone.db") as alone:
        alone.create_run(
            "r1", config={}, scenarios=[Scenario(id="s", persona=Persona(name="A"), goal="g")],
            rollouts=3, mode="chat",
        )  # fmt: skip
        for one in (store, alone):
            one.add_secrets(["sk-secret"])
        for write in _writes(alone):
            alone.append_many([write])
        store.append_many(_writes(store))
        assert _rows(store) == _rows(alone)
    events = _rows(store)["events"]
    assert [e[0] for e in events] == list(range(1, len(events) + 1))
    assert "sk-secret" not in repr(_rows(store))


def test_a_group_near_the_largest_id_lets_sqlite_pick_the_ids(store):
    # Past the largest rowid SQLite picks unused ids at random; counting on "largest plus one"
    # there would collide, so such a group is written event by event.
    store.db.execute(
        "INSERT INTO events (id, run_id, turn, kind, payload, created_at)"
        ' VALUES (?, \'r1\', 0, \'note\', \'{"kind": "note", "text": "x"}\', 0)',
        (2**63 - 2,),
    )
    leaves = store.append_many([_turn(store, 0), _turn(store, 1)])
    root, _ = store.scenario_roots("r1")["s"]
    for rollout, leaf in enumerate(leaves):
        kinds, event_id = [], leaf
        while event_id != root:  # the path by parent ids: these ids are not in path order
            row = store.db.execute(
                "SELECT parent_id, kind, episode_id FROM events WHERE id = ?", (event_id,)
            ).fetchone()
            assert row["episode_id"] == f"r1:s:{rollout}"
            kinds.insert(0, row["kind"])
            event_id = row["parent_id"]
        assert kinds == ["user_message", "agent_reply", "snapshot"]

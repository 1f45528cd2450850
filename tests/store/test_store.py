import json

import pytest

from vistasim.errors import StoreError
from vistasim.events import AgentReply, Snapshot, Stop, StopReason, UserMessage
from vistasim.llm import ModelCall, TokenUsage
from vistasim.scenario import Persona, Scenario
from vistasim.store import blob_hash, export_run, open_store, read_run_view


def _scenario(sid="s1"):
    return Scenario(id=sid, persona=Persona(name="Ann"), goal="Say hello.")


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path / "store.db") as store:
        yield store


def _new_run(store, rollouts=2):
    return store.create_run(
        "r1",
        config={"run": {"rollouts": rollouts}},
        scenarios=[_scenario(), _scenario("s2")],
        rollouts=rollouts,
        mode="chat",
        metadata={"agent_tools": ["a", "b"]},
    )


def test_create_run_plans_every_rollout_as_pending(store):
    plans = _new_run(store)
    assert [(p.scenario_id, p.rollout, p.status) for p in plans] == [
        ("s1", 0, "pending"),
        ("s1", 1, "pending"),
        ("s2", 0, "pending"),
        ("s2", 1, "pending"),
    ]
    assert set(store.scenario_roots("r1")) == {"s1", "s2"}


def test_append_events_chains_parents_and_moves_the_leaf(store):
    plans = _new_run(store)
    root, _ = store.scenario_roots("r1")["s1"]
    leaf = store.append_events(
        "r1",
        plans[0].episode_id,
        root,
        [(0, Snapshot(turn=0)), (0, UserMessage(text="hi")), (0, AgentReply(text="hello"))],
        calls=[
            ModelCall(
                role="user",
                model="m",
                usage=TokenUsage(input_tokens=3),
                latency_s=0.1,
                cost_usd=0.0,
            )
        ],
        blobs=[b"state"],
    )
    path = store.read_path(leaf)
    assert [e.event.kind for e in path] == [
        "scenario_start",
        "snapshot",
        "user_message",
        "agent_reply",
    ]
    assert [e.parent_id for e in path[1:]] == [e.id for e in path[:-1]]
    assert store.list_episodes("r1")[0].leaf_event_id == leaf
    assert store.get_blob(blob_hash(b"state")) == b"state"


def test_rollouts_are_siblings_under_the_scenario_root(store):
    plans = _new_run(store)
    root, _ = store.scenario_roots("r1")["s1"]
    for plan in plans[:2]:
        store.append_events("r1", plan.episode_id, root, [(0, Snapshot(turn=0))])
    children = store.db.execute(
        "SELECT COUNT(*) FROM events WHERE parent_id = ?", (root,)
    ).fetchone()[0]
    assert children == 2


def test_a_failed_transaction_writes_nothing(store):
    plans = _new_run(store)
    before = store.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    with pytest.raises(TypeError):
        store.append_events(
            "r1", plans[0].episode_id, 10**9, [(0, Snapshot(turn=0))], blobs=[object()]
        )
    assert store.db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == before


def test_read_run_view_gives_paths_and_calls(store):
    plans = _new_run(store, rollouts=1)
    root, _ = store.scenario_roots("r1")["s1"]
    store.append_events(
        "r1",
        plans[0].episode_id,
        root,
        [(0, UserMessage(text="hi")), (0, Stop(reason=StopReason.GOAL_MET))],
        calls=[
            ModelCall(
                role="user",
                model="m",
                usage=TokenUsage(output_tokens=5),
                latency_s=0.2,
                cost_usd=0.01,
            )
        ],
        status="done",
        stop_reason="goal_met",
    )
    view = read_run_view(store, "r1")
    episode = view.episodes[0]
    assert episode.stop_reason == StopReason.GOAL_MET
    assert [e.event.kind for e in episode.events] == ["user_message", "stop"]
    assert episode.model_calls[0].usage.output_tokens == 5
    assert view.agent_tools == ("a", "b")
    assert set(view.scenarios) == {"s1", "s2"}


def test_read_run_view_for_verdicts_leaves_out_snapshots_and_calls(store):
    # What a run's verdicts are computed from: the same paths (parents walked through the
    # snapshots left out), no model calls, read in one pass over the events.
    plans = _new_run(store, rollouts=1)
    root, _ = store.scenario_roots("r1")["s1"]
    call = ModelCall(role="user", model="m", usage=TokenUsage(), latency_s=0.2, cost_usd=0.0)
    turn = [(0, UserMessage(text="hi")), (1, Snapshot(turn=1)), (1, AgentReply(text="hello"))]
    leaf = store.append_events("r1", plans[0].episode_id, root, turn, calls=[call])
    store.append_events("r1", plans[0].episode_id, leaf, [(1, Stop(reason=StopReason.GOAL_MET))],
                        status="done", stop_reason="goal_met")  # fmt: skip
    whole = read_run_view(store, "r1").episodes[0]
    lean = read_run_view(store, "r1", snapshots=False, calls=False).episodes[0]
    assert [e.event.kind for e in whole.events] == [
        "user_message", "snapshot", "agent_reply", "stop"
    ]  # fmt: skip
    assert lean.events == tuple(e for e in whole.events if e.event.kind != "snapshot")
    assert (len(whole.model_calls), lean.model_calls) == (1, ())


def test_unknown_run_names_the_known_ones(store):
    _new_run(store)
    with pytest.raises(StoreError, match="no run 'nope'.*r1"):
        store.read_run("nope")


def test_export_jsonl_has_one_row_per_event(store, tmp_path):
    plans = _new_run(store, rollouts=1)
    root, _ = store.scenario_roots("r1")["s1"]
    store.append_events("r1", plans[0].episode_id, root, [(0, UserMessage(text="hi"))])
    out = tmp_path / "out.jsonl"
    assert export_run(store, "r1", out) == 3
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["kind"] for r in rows] == ["scenario_start", "scenario_start", "user_message"]
    assert rows[2]["event"]["text"] == "hi"
    assert rows[2]["scenario_id"] == "s1"


def test_export_parquet_round_trips(store, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    plans = _new_run(store, rollouts=1)
    root, _ = store.scenario_roots("r1")["s1"]
    store.append_events("r1", plans[0].episode_id, root, [(0, UserMessage(text="hi"))])
    out = tmp_path / "out.parquet"
    export_run(store, "r1", out, fmt="parquet")
    table = pq.read_table(out)
    assert table.num_rows == 3
    assert json.loads(table.column("event")[2].as_py())["text"] == "hi"


def test_metrics_are_stored_per_version(store):
    _new_run(store)
    store.put_metrics("r1", "1", {"x": 1}, fingerprint=store.run_fingerprint("r1"))
    assert store.get_metrics("r1", "1") == {"x": 1}
    assert store.get_metrics("r1", "2") is None


def test_metrics_of_a_run_that_changed_since_are_not_returned(store):
    _new_run(store)
    store.put_metrics("r1", "1", {"x": 1}, fingerprint=store.run_fingerprint("r1"))
    store.finish_run("r1", "failed", failure="interrupted")
    assert store.get_metrics("r1", "1") is None


SECRET = "sk-store-secret-0123456789"


def _database_holding(text: str) -> bytes:
    import sqlite3

    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE notes (text TEXT)")
    db.executemany("INSERT INTO notes VALUES (?)", [(text,), ("plain",)])
    db.commit()
    return db.serialize()


def test_a_state_is_stored_with_every_spelling_of_a_secret_masked_and_read_back_exactly(store):
    import base64

    basic = base64.b64encode(f"user:{SECRET}".encode()).decode()
    state = _database_holding(f"{SECRET} / {SECRET.upper()} / Basic {basic}")
    store.add_secrets([SECRET])
    masked = store.mask_state(state)
    assert len(masked) == len(state) and masked != state
    for spelling in (SECRET, SECRET.upper(), SECRET.lower(), basic[4:20]):
        assert spelling.encode() not in masked
    _new_run(store)
    store.append_events("r1", "r1:s1:0", None, [], blobs=[masked])
    assert store.get_blob(blob_hash(masked)) == masked  # the store holds only the masked state
    assert store.read_state(blob_hash(masked)) == state


def test_a_state_read_without_the_secret_keeps_its_masks(tmp_path):
    state = json.dumps({"messages": [f"key {SECRET}"]}).encode()
    with open_store(tmp_path / "store.db") as first:
        first.add_secrets([SECRET])
        masked = first.mask_state(state)
        _new_run(first)
        first.append_events("r1", "r1:s1:0", None, [], blobs=[masked])
    with open_store(tmp_path / "store.db") as second:  # resumed with the key no longer set
        assert second.read_state(blob_hash(masked)) == masked
    assert json.loads(masked)["messages"][0].startswith("key *~")


def test_a_state_that_already_holds_a_mask_of_the_secret_is_refused(store):
    store.add_secrets([SECRET])
    masked = store.mask_state(f"key {SECRET}".encode())
    with pytest.raises(StoreError, match="reversibly"):
        store.mask_state(masked)


def test_spent_tokens_counts_the_run_or_one_episodes_own_turns(store):
    from vistasim.events import RequestDigest

    plans = _new_run(store, rollouts=1)
    digest = RequestDigest(input_tokens=30, output_tokens=4, head_tokens=10, prefix=[])
    for plan, used in zip(plans, (5, 7), strict=True):
        root, _ = store.scenario_roots("r1")[plan.scenario_id]
        reply = AgentReply(text="ok", requests=[digest], requests_source="proxy")
        call = ModelCall(role="user", model="m", usage=TokenUsage(output_tokens=used),
                         latency_s=0.1, cost_usd=0.0)  # fmt: skip
        events = [(0, UserMessage(text="hi")), (0, reply)]
        store.append_events(
            "r1", plan.episode_id, root, events, calls=[call], status="done", stop_reason="goal_met"
        )
    first, second = (p.episode_id for p in plans)
    assert store.spent_tokens("r1", first) == 34 + 5
    assert store.spent_tokens("r1", second) == 34 + 7
    assert store.spent_tokens("r1") == 34 * 2 + 12


def test_a_branch_is_recorded_with_its_model_calls_and_perturbations_in_one_write(store):
    from vistasim.store import NewBranch

    [plan] = _new_run(store, rollouts=1)[:1]
    root, _ = store.scenario_roots("r1")["s1"]
    fork = store.append_events("r1", plan.episode_id, root, [(0, Snapshot(turn=0))],
                               status="done", stop_reason="goal_met")  # fmt: skip
    assert fork is not None
    parent = store.episode(plan.episode_id)
    call = ModelCall(role="chooser", model="m", usage=TokenUsage(output_tokens=9),
                     latency_s=0.1, cost_usd=0.0)  # fmt: skip
    drawn = ({"op": "hesitate", "seed": 1},)

    def branch(**more) -> NewBranch:
        return NewBranch(parent=parent, fork_event_id=fork, turn=0, chooser="test",
                         rationale="r", original={}, candidates=(), chosen=-1,
                         injected={}, calls=(call,), **more)  # fmt: skip

    made = store.create_branch("r1", branch(perturbations=drawn))
    store.create_branch("r1", branch(abandoned="no candidate differs"))

    assert made is not None and made.perturbations == drawn
    assert store.spent_tokens("r1", made.episode_id) == 9
    assert store.spent_tokens("r1") == 18  # the abandoned one's call too, with no episode

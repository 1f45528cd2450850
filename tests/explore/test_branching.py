"""DIVERT branches: one restore path, exact same-action restores, queued branches, counting once."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from tests.helpers import (
    KILLABLE_DESK_CONFIG,
    count_rows,
    desk_config,
    desk_scenarios,
    start_and_kill,
    write_desk_config,
)
from vistasim.config import RunConfig, load_config
from vistasim.domains import get_domain
from vistasim.errors import StoreError
from vistasim.events import AgentReply, Snapshot, ToolCall, UserMessage
from vistasim.explore import run
from vistasim.explore._junctions import junctions
from vistasim.explore._state import EpisodeState, fold, state_at
from vistasim.metrics import compute_metrics
from vistasim.metrics._verdicts import find_all
from vistasim.store import NewBranch, open_store, read_run_view
from vistasim.store._view import StoredEvent
from vistasim.user._agenda_ops import action_json

# -- the folded state ------------------------------------------------------------------------


def _stored(i: int, event, episode: str = "e") -> StoredEvent:
    return StoredEvent(id=i, parent_id=i - 1 or None, episode_id=episode, turn=0, created_at=0.0,
                       event=event)  # fmt: skip


def test_fold_builds_transcript_tool_calls_and_turns_from_events():
    start = EpisodeState(leaf=None, turn=0, user_state=None)
    state = fold(
        start,
        [
            UserMessage(text="cancel W1", channel="chat"),
            ToolCall(name="get_order", args={"order_id": "W1"}),
            AgentReply(text="Shall I proceed?"),
            Snapshot(turn=1, user_state={"step": 1}),
        ],
    )
    assert [u.text for u in state.transcript] == ["cancel W1", "Shall I proceed?"]
    assert [c.name for c in state.tool_calls] == ["get_order"]
    assert len(state.turns) == 1
    assert state.turns[0].user == "cancel W1"
    assert [c.name for c in state.turns[0].tool_calls] == ["get_order"]
    assert (state.turn, state.user_state) == (1, {"step": 1})
    assert state.pending_user is None


def test_state_at_refuses_a_path_that_does_not_end_in_a_snapshot():
    path = [_stored(1, Snapshot(turn=0, user_state=None)), _stored(2, UserMessage(text="hi"))]
    with pytest.raises(StoreError, match="does not end in a snapshot"):
        state_at(path)
    state, snapshot = state_at(path[:1])
    assert state.leaf == 1 and snapshot.turn == 0


# -- same action from every inner snapshot ---------------------------------------------------


def _domain_config(domain: str, mode: str, **explore) -> RunConfig:
    return RunConfig.model_validate(
        {
            "run": {"rollouts": 1, "mode": mode, "concurrency": 4},
            "user": {"policy": "agenda"},
            "agent": {"kind": "python",
                      "target": f"vistasim.domains.{domain}:Rule{domain.title()}Agent"},
            "environment": {"target": domain},
            "cache": {"mode": "off"},
            "explore": explore,
        }
    )  # fmt: skip


def _comparable(events) -> list[dict]:
    # Timing differs between two plays of the same turn, and a page's port between two sites
    # served for two episodes; nothing else may.
    out = []
    for stored in events:
        # The browser blob holds the port too: tests/explore/test_web_restore.py compares it.
        skip = {"latency_s", "screenshot_ref", "browser_state_ref"}
        data = stored.event.model_dump(mode="json", exclude=skip)
        out.append(json.loads(re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", json.dumps(data))))
    return out


def _queue_same_action_branches(store, run_id: str) -> int:
    """A branch at every inner user turn of every rollout, injecting what the user did there."""
    made = 0
    for parent in store.list_episodes(run_id):
        path = store.read_path(parent.leaf_event_id)
        for turn, snapshot, action in junctions(path):
            after = next(
                (s.event for s in path
                 if isinstance(s.event, Snapshot) and s.event.turn == turn.index + 1),
                None,
            )  # fmt: skip
            if after is None:  # the turn that ended the episode: nothing follows to compare
                continue
            if action is None:
                # A web action's target is that page's element id: the branch maker asks the
                # user again there. Restoring before one is tests/explore/test_web_restore.py.
                continue
            plan = store.create_branch(
                run_id,
                NewBranch(
                    parent=parent, fork_event_id=snapshot.id, turn=turn.index, chooser="every",
                    rationale="same action", original=action_json(action), candidates=(),
                    chosen=-1,
                    injected={"action": action_json(action), "user_state": after.user_state},
                ),
            )  # fmt: skip
            assert plan is not None and plan.leaf_event_id == snapshot.id
            made += 1
    return made


_HYBRID = [pytest.mark.slow, pytest.mark.browser]
_WEB_SCENARIOS = {
    # Chat, API calls, logins, typed and selected form input, a refused form post, chat after
    # page visits: what a hybrid restore must bring back.
    "shop-hybrid-refund-coupon-status", "shop-return-late-refused", "shop-cancel-shipped-refused",
    "school-hybrid-waiver-exam-seats", "school-wrong-email-not-verified",
    "school-waive-first-late-fee",
}  # fmt: skip


@pytest.mark.parametrize(
    ("domain", "mode", "count"),
    [("shop", "chat", 8), ("shop", "api", 8), ("school", "chat", 8), ("school", "api", 8),
     pytest.param("shop", "hybrid", 3, marks=_HYBRID),
     pytest.param("school", "hybrid", 3, marks=_HYBRID)],
)  # fmt: skip
async def test_same_action_from_every_inner_snapshot_replays_the_continuation(domain, mode, count):
    every = list(get_domain(domain).scenarios())
    scenarios = [s for s in every if s.id in _WEB_SCENARIOS] if mode == "hybrid" else every[:count]
    store = open_store(":memory:")
    result = await run(_domain_config(domain, mode), scenarios=scenarios, store=store)
    made = _queue_same_action_branches(store, result.run_id)
    assert made >= 2 * count
    store.finish_run(result.run_id, "failed", failure="branches queued by the test")
    await run(resume=result.run_id, store=store)

    view = read_run_view(store, result.run_id)
    by_id = {e.episode_id: e for e in view.episodes}
    branches = [e for e in view.episodes if e.branch_of is not None]
    assert len(branches) == made
    assert all(e.status == "done" for e in view.episodes), "no episode may end errored"
    exact = 0
    for branch in branches:
        parent = by_id[branch.branch_of]
        fork = branch.fork_event_id
        assert branch.own_events[0].parent_id == fork  # played from its fork, nothing before
        after_fork = [s for s in parent.events if s.id > fork]
        exact += _comparable(branch.own_events) == _comparable(after_fork)
    assert exact == made, f"{made - exact} of {made} continuations differ"
    assert {b.status for b in view.branches} == {"converged"}


# -- queued branches and resume --------------------------------------------------------------


async def test_a_queued_branch_resumes_at_its_fork_with_its_injected_action():
    store = open_store(":memory:")
    result = await run(desk_config(), scenarios=desk_scenarios()[:2], store=store)
    parent = store.list_episodes(result.run_id)[0]
    path = store.read_path(parent.leaf_event_id)
    turn, snapshot, _ = junctions(path)[1]
    injected = {"kind": "say", "text": "Actually, hold on a second."}
    user_state = next(s.event.user_state for s in path if s.id == snapshot.id)
    store.create_branch(
        result.run_id,
        NewBranch(parent=parent, fork_event_id=snapshot.id, turn=turn.index, chooser="test",
                  rationale="r", original={}, candidates=(), chosen=-1,
                  injected={"action": injected, "user_state": user_state}),
    )  # fmt: skip
    store.finish_run(result.run_id, "failed", failure="killed")
    await run(resume=result.run_id, store=store)

    view = read_run_view(store, result.run_id)
    [branch] = [e for e in view.episodes if e.branch_of is not None]
    first = branch.own_events[0]
    assert first.parent_id == snapshot.id
    assert isinstance(first.event, UserMessage) and first.event.text == injected["text"]
    assert branch.status == "done" and branch.stop is not None
    # The prefix is the parent's, stored once (the view leaves out the scenario's root).
    assert [e.id for e in branch.events if e.id <= snapshot.id] == [
        e.id for e in path[1:] if e.id <= snapshot.id
    ]
    assert view.branches[0].status in ("done", "converged")


async def test_explore_branches_every_scenario_and_records_candidates_with_cosines():
    store = open_store(":memory:")
    config = _domain_config("shop", "chat", branches=2, novelty=False)  # the paper's argmin
    scenarios = list(get_domain("shop").scenarios())[:4]
    result = await run(config, scenarios=scenarios, store=store)
    branches = store.list_branches(result.run_id)
    played = [b for b in branches if b.status != "abandoned"]
    assert len(played) >= 6
    for branch in played:
        cosines = [c.cosine for c in branch.candidates]
        assert all(c is not None for c in cosines)
        assert branch.chosen == cosines.index(min(cosines))  # argmin: the least similar
        assert branch.embedder and branch.embedder.startswith("wordllama")
        assert branch.candidates[branch.chosen].action == branch.injected["action"]
    assert result.episodes == len(scenarios) + len(played)


async def test_novelty_plays_a_recorded_candidate_and_keeps_every_cosine():
    store = open_store(":memory:")
    config = _domain_config("shop", "chat", branches=2)
    scenarios = list(get_domain("shop").scenarios())[:4]
    result = await run(config, scenarios=scenarios, store=store)
    played = [b for b in store.list_branches(result.run_id) if b.status != "abandoned"]
    assert len(played) >= 6
    for branch in played:
        assert all(c.cosine is not None for c in branch.candidates)
        assert branch.candidates[branch.chosen].action == branch.injected["action"]
    assert result.episodes == len(scenarios) + len(played)


# -- counting each event once ----------------------------------------------------------------


async def test_metrics_count_each_event_once_in_a_run_with_branches():
    store = open_store(":memory:")
    config = _domain_config("shop", "chat", branches=3)
    scenarios = list(get_domain("shop").scenarios())[:6]
    result = await run(config, scenarios=scenarios, store=store)
    view = read_run_view(store, result.run_id)
    assert any(e.branch_of for e in view.episodes)
    report = await compute_metrics(view)

    sent = store.db.execute(
        "SELECT COUNT(*) FROM events WHERE run_id = ? AND kind = 'user_message'", (result.run_id,)
    ).fetchone()[0]
    assert report.cost.actions["user_message"].total == sent
    # Every stored event is some episode's own, exactly once.
    own = [s.id for e in view.episodes for s in e.own_events]
    assert len(own) == len(set(own))
    stored = store.db.execute(
        "SELECT COUNT(*) FROM events WHERE run_id = ? AND episode_id IS NOT NULL",
        (result.run_id,),
    ).fetchone()[0]
    assert len(own) == stored
    # A branch's findings have evidence after its fork.
    findings = find_all(view)
    by_id = {e.episode_id: e for e in view.episodes}
    for failure in findings.failures:
        episode = by_id[failure.episode_id]
        if episode.fork_event_id is not None and failure.event_ids:
            assert episode.own(failure.event_ids)
    eff = report.efficiency
    assert eff.agent_tokens_source == "proxy"
    assert eff.token_savings is not None and eff.token_savings > 0
    assert eff.branches == len(view.branches)


def test_branch_records_round_trip_through_the_store():
    store = open_store(":memory:")
    plans = store.create_run("r", config={}, scenarios=desk_scenarios()[:1], rollouts=1,
                             mode="chat")  # fmt: skip
    root = store.scenario_roots("r")[plans[0].scenario_id][0]
    leaf = store.append_events("r", plans[0].episode_id, root,
                               [(0, Snapshot(turn=0, user_state={"a": 1}))])  # fmt: skip
    assert leaf is not None
    parent = store.episode(plans[0].episode_id)
    from vistasim.store import BranchCandidate

    plan = store.create_branch(
        "r",
        NewBranch(parent=parent, fork_event_id=leaf, turn=0, chooser="heuristic",
                  rationale="the agent asked", original={"kind": "say", "text": "hi"},
                  candidates=(BranchCandidate(action={"kind": "say", "text": "hm"},
                                              source="hesitate", cosine=0.25),),
                  chosen=0, injected={"action": {"kind": "say", "text": "hm"}, "user_state": 1},
                  embedder="wordllama/x", overhead_tokens=7),
    )  # fmt: skip
    assert plan is not None
    assert (plan.branch_of, plan.fork_event_id, plan.status) == (parent.episode_id, leaf, "pending")
    [branch] = store.list_branches("r")
    assert branch.candidates[0].cosine == 0.25 and branch.status == "queued"
    store.set_branch_status(plan.episode_id, "converged", detail="same")
    assert store.branch(plan.episode_id).status == "converged"
    abandoned = store.create_branch(
        "r",
        NewBranch(parent=parent, fork_event_id=leaf, turn=0, chooser="heuristic", rationale="r",
                  original={}, candidates=(), chosen=-1, injected={}, abandoned="nothing"),
    )  # fmt: skip
    assert abandoned is None
    assert [b.status for b in store.list_branches("r")] == ["converged", "abandoned"]
    assert json.loads(json.dumps(store.list_branches("r")[1].injected)) == {}


# -- kill -9 while branching -----------------------------------------------------------------

EXPLORE_DESK = (
    KILLABLE_DESK_CONFIG.replace("rollouts = 4", "rollouts = 1")
    + """
[explore]
branches = 3
"""
)


@pytest.mark.slow
async def test_kill_9_while_branching_then_resume_loses_and_duplicates_nothing(tmp_path):
    config = write_desk_config(tmp_path, EXPLORE_DESK)
    db_path = tmp_path / "killed.db"
    start_and_kill(["run", str(config), "--store", str(db_path)], db_path,
                   count_sql="SELECT COUNT(*) FROM branches", at_least=3)  # fmt: skip
    left = count_rows(
        db_path, "SELECT COUNT(*) FROM episodes WHERE status IN ('pending', 'running')"
    )
    assert left > 0, "nothing was left to resume"

    with open_store(db_path) as store:
        [row] = store.list_runs()
        await run(resume=row.run_id, store=store)
        view = read_run_view(store, row.run_id)
        in_table = store.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    assert view.status == "done"
    assert all(e.status in ("done", "errored") for e in view.episodes)
    assert {b.status for b in view.branches} <= {"done", "converged", "abandoned"}
    # The same branches as an uninterrupted run: none lost, none made twice.
    with open_store(tmp_path / "reference.db") as ref_store:
        result = await run(load_config(config, environ={}), store=ref_store)
        reference = read_run_view(ref_store, result.run_id)
    assert _branch_keys(view) == _branch_keys(reference)
    assert Counter(b.scenario_id for b in view.branches) == Counter(
        b.scenario_id for b in reference.branches
    )
    # Every stored event is exactly one episode's own (or a scenario root): nothing duplicated.
    own = [s.id for e in view.episodes for s in e.own_events]
    assert len(own) == len(set(own)) and in_table == len(own) + len(view.scenarios)
    for branch in (e for e in view.episodes if e.branch_of is not None):
        assert branch.own_events[0].parent_id == branch.fork_event_id


def _branch_keys(view) -> list[tuple]:
    return sorted(
        (b.episode_id.split(":", 1)[1], b.turn, b.status, json.dumps(b.injected, sort_keys=True))
        for b in view.branches
    )


async def test_a_replayed_agent_continues_in_the_session_it_was_replayed_into():
    from tests.explore.agents import SessionDesk

    SessionDesk.seen.clear()
    store = open_store(":memory:")
    config = desk_config(agent={"target": "tests.explore.agents:SessionDesk"})
    result = await run(config, scenarios=desk_scenarios()[:1], store=store)
    parent = store.list_episodes(result.run_id)[0]
    path = store.read_path(parent.leaf_event_id)
    turn, snapshot, action = junctions(path)[1]
    user_state = next(s.event.user_state for s in path if s.id == snapshot.id)
    plan = store.create_branch(
        result.run_id,
        NewBranch(parent=parent, fork_event_id=snapshot.id, turn=turn.index, chooser="test",
                  rationale="r", original={}, candidates=(), chosen=-1,
                  injected={"action": action_json(action), "user_state": user_state}),
    )  # fmt: skip
    assert plan is not None
    SessionDesk.seen.clear()
    store.finish_run(result.run_id, "failed", failure="killed")
    await run(resume=result.run_id, store=store)

    sessions = {episode for episode, _ in SessionDesk.seen}
    assert len(sessions) == 1, sessions  # replayed into one session, and continued in it
    [session] = sessions
    assert session.startswith(plan.episode_id)
    replayed = [m for _, m in SessionDesk.seen][: turn.index]
    sent = [s.event.text for s in path if isinstance(s.event, UserMessage)][: turn.index]
    assert replayed == sent

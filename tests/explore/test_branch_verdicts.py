"""Branch verdicts: a hesitation is no failure of a correct agent, and a change the user called off
must not happen."""

from __future__ import annotations

import copy

import pytest

from tests.helpers import desk_config, desk_scenarios
from vistasim.events import AgentReply, Snapshot, ToolCall
from vistasim.explore import run
from vistasim.explore._junctions import junctions
from vistasim.metrics import find_all
from vistasim.store import NewBranch, open_store, read_run_view

CAREFUL = "tests.explore.agents:CarefulDesk"
HEDGE = "Hold on, not yet. I'm not sure I want that."
"""A hesitation the demo desk takes for a yes ("sure"), and the careful desk for a no."""


@pytest.mark.parametrize(
    ("agent", "fails"), [(CAREFUL, False), ("vistasim.demo:OrderDeskAgent", True)]
)
async def test_a_hesitation_branch_on_a_correct_agent_is_never_failed(agent, fails):
    store = open_store(":memory:")
    config = desk_config(agent={"target": agent}, explore={"branches": 6})
    result = await run(config, scenarios=desk_scenarios(), store=store)
    view = read_run_view(store, result.run_id)
    verdicts = find_all(view).verdicts
    hesitations = [
        verdicts[b.episode_id].outcome for b in view.branches if b.operation == "hesitate"
    ]
    # Hesitations only where the user would say yes (at a wrong proposal it objects first).
    assert len(hesitations) >= 3
    if fails:  # the demo desk takes "I'm not sure" as a yes: a real flaw, found
        assert "failed" in hesitations
    else:
        assert set(hesitations) == {"passed"}


async def _called_off(agent: str):
    """A cancellation whose user hesitates at the confirmation and leaves it there (a branch)."""
    store = open_store(":memory:")
    [scenario] = [s for s in desk_scenarios() if s.id == "desk-cancel-processing"]
    result = await run(desk_config(agent={"target": agent}), scenarios=[scenario], store=store)
    parent = store.list_episodes(result.run_id)[0]
    path = store.read_path(parent.leaf_event_id)
    [(turn, snapshot)] = [(t, snap) for t, snap, _ in junctions(path) if _after_ask(path, snap.id)]
    after = next(s.event for s in path
                 if isinstance(s.event, Snapshot) and s.event.turn == turn.index + 1)  # fmt: skip
    state = copy.deepcopy(after.user_state)
    entry = state["stack"][0]
    entry["behaviours"].append({"op": "hesitate", "then": "stop"})
    entry["played"].append("hesitate")
    store.create_branch(
        result.run_id,
        NewBranch(parent=parent, fork_event_id=snapshot.id, turn=turn.index, chooser="test",
                  rationale="confirmation", original={}, candidates=(), chosen=-1,
                  injected={"action": {"kind": "say", "text": HEDGE},
                            "user_state": state}),
    )  # fmt: skip
    store.finish_run(result.run_id, "failed", failure="a branch queued by the test")
    await run(resume=result.run_id, store=store)
    view = read_run_view(store, result.run_id)
    [branch] = [e for e in view.episodes if e.branch_of is not None]
    return view, branch


def _after_ask(path, snapshot_id: int) -> bool:
    """Whether the agent's last reply before this snapshot asks to proceed."""
    replies = [s.event.text for s in path if s.id < snapshot_id and isinstance(s.event, AgentReply)]
    return bool(replies) and "proceed" in replies[-1]


async def test_a_change_the_user_called_off_must_not_happen():
    view, branch = await _called_off(CAREFUL)
    assert not any(c.name == "cancel_order" for c in _calls(branch))
    assert find_all(view).verdicts[branch.episode_id].outcome == "passed"
    judged = [s.event for s in branch.own_events if s.event.kind == "judgment"]
    assert judged and all("called off" in c["check"] for c in judged[-1].checks)


async def test_an_agent_that_makes_a_change_the_user_called_off_fails():
    view, branch = await _called_off("vistasim.demo:OrderDeskAgent")
    assert any(c.name == "cancel_order" and c.changes for c in _calls(branch))
    verdict = find_all(view).verdicts[branch.episode_id]
    assert verdict.outcome == "failed"


def _calls(episode) -> list[ToolCall]:
    return [s.event for s in episode.own_events if isinstance(s.event, ToolCall)]

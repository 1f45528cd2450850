"""The DIVERT loop: B branches or why not, exact progress totals, the same branches after kills."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import anyio
import pytest
from click.testing import CliRunner

from tests.explore.test_branching import EXPLORE_DESK
from tests.helpers import (
    KILLABLE_DESK_CONFIG,
    count_rows,
    desk_config,
    desk_scenarios,
    start_and_kill,
    write_desk_config,
)
from vistasim.cli import cli
from vistasim.config import load_config
from vistasim.explore import run
from vistasim.llm import ChatRequest
from vistasim.metrics import find_all
from vistasim.store import open_store, read_run_view
from vistasim.testing import FunctionLLM

_SHORT = re.compile(r"^scenario (\S+): (\d+) of (\d+) branches; .+$")


async def _explore(branches: int, *, on_episode=None, **explore):
    store = open_store(":memory:")
    config = desk_config(explore={"branches": branches, **explore})
    result = await run(config, scenarios=desk_scenarios(), store=store, on_episode=on_episode)
    return store, result


@pytest.mark.parametrize("branches", [3, 6])
async def test_branches_b_makes_b_per_scenario_or_says_in_one_line_why_not(branches):
    store, result = await _explore(branches)
    made = Counter(b.scenario_id for b in store.list_branches(result.run_id)
                   if b.status != "abandoned")  # fmt: skip
    said = {}
    for line in result.warnings:
        match = _SHORT.match(line)
        assert match, line
        said[match[1]] = (int(match[2]), int(match[3]))
    assert said, "the desk's scenarios cannot all get this many branches"
    for scenario in desk_scenarios():
        if scenario.id in said:
            assert said[scenario.id] == (made[scenario.id], branches)
            assert made[scenario.id] < branches
        else:
            assert made[scenario.id] == branches, scenario.id


def test_explore_prints_why_a_scenario_got_fewer_branches(tmp_path):
    config = write_desk_config(tmp_path, KILLABLE_DESK_CONFIG.replace("SlowDesk", "CarefulDesk"))
    argv = ["explore", str(config), "--rollouts", "1", "--branches", "3"]
    result = CliRunner().invoke(cli, [*argv, "--store", str(tmp_path / "v.db")])
    lines = [line for line in result.stderr.splitlines() if line.startswith("warning: scenario")]
    assert lines, result.stderr
    assert all(_SHORT.match(line.removeprefix("warning: ")) for line in lines)


@pytest.mark.parametrize("explore", [{"branches": 3}, {"branches": 50, "budget_tokens": 40_000}])
async def test_the_progress_total_is_what_the_run_plays(explore):
    seen: list[tuple[int, int]] = []
    store, result = await _explore(on_episode=lambda d, t, *_: seen.append((d, t)), **explore)
    played = len(store.list_episodes(result.run_id))
    assert played > len(desk_scenarios())  # it branched
    assert seen[-1] == (played, played)
    assert [d for d, _ in seen] == list(range(1, played + 1))
    assert all(d <= t for d, t in seen)
    if "budget_tokens" not in explore:
        # Without a budget the total is known once the scenarios' junctions are: never more.
        assert all(t >= played for _, t in seen)
        assert max(t for _, t in seen) <= len(desk_scenarios()) * (1 + explore["branches"])


# -- kill -9 at three random points ----------------------------------------------------------


@pytest.mark.slow
async def test_kill_9_at_three_random_points_then_resume_branches_as_one_uninterrupted_run(
    tmp_path,
):
    config = write_desk_config(tmp_path, EXPLORE_DESK)
    with open_store(tmp_path / "reference.db") as ref_store:
        result = await run(load_config(config, environ={}), store=ref_store)
        reference = _lineage(read_run_view(ref_store, result.run_id))
    points = sorted(random.Random(16).sample(range(1, len(reference)), 3))
    db_path = tmp_path / "killed.db"
    argv = ["run", str(config), "--store", str(db_path)]
    made = 0
    for point in points:
        # Each kill comes after the resume before it made a branch of its own.
        start_and_kill(argv, db_path, count_sql=_BRANCHES, at_least=max(point, made + 1))
        made = count_rows(db_path, _BRANCHES)
        with open_store(db_path) as store:
            [row] = store.list_runs()
            assert row.status != "done", "the run ended before it was killed"
        argv = ["run", "--resume", row.run_id, "--store", str(db_path)]
    assert made < len(reference)
    with open_store(db_path) as store:
        await run(resume=row.run_id, store=store)
        view = read_run_view(store, row.run_id)
    assert view.status == "done"
    assert _lineage(view) == reference


_BRANCHES = "SELECT COUNT(*) FROM branches"


def _lineage(view) -> list[tuple]:
    """Each branch: its parent, junction, injected action, status and outcome (ids without run)."""
    outcome = {k: v.outcome for k, v in find_all(view).verdicts.items()}

    def local(episode_id: str) -> str:
        return episode_id.split(":", 1)[1]

    return sorted(
        (local(b.episode_id), local(b.parent_episode_id), b.turn, b.status,
         json.dumps(b.injected, sort_keys=True), outcome.get(b.episode_id, "abandoned"))
        for b in view.branches
    )  # fmt: skip


# -- under a token budget, junctions before fresh rollouts -----------------------------------


async def test_under_a_budget_a_scenario_without_junctions_waits_while_others_branch():
    # The waiting rule alone: with the rollout arm (below) a fresh rollout is tried where it
    # may find more per token than the branches.
    store, result = await _explore(50, budget_tokens=40_000, rollout_arm=False)
    episodes = store.list_episodes(result.run_id)
    state = store.load_exploration(result.run_id)
    assert state["drained"], "no scenario ran out of junctions: the test needs one that does"
    # A fresh rollout is a linear rollout: none is played while other scenarios can branch.
    assert not state["refill"]
    assert all(p.rollout == 0 for p in episodes if p.branch_of is None)
    assert set(state["drained"]) < {s.id for s in desk_scenarios()}


async def test_once_every_scenario_waits_fresh_rollouts_refill_the_pools():
    store, result = await _explore(50, budget_tokens=400_000, rollout_arm=False)
    episodes = store.list_episodes(result.run_id)
    assert store.load_exploration(result.run_id)["refill"]
    added = [i for i, p in enumerate(episodes) if p.branch_of is None and p.rollout > 0]
    assert added
    # Before the first fresh rollout, every scenario was branched until it had no junction.
    before = {p.scenario_id for p in episodes[: added[0]] if p.branch_of is not None}
    assert before == {s.id for s in desk_scenarios()}


async def test_a_scenario_with_nothing_to_branch_gets_a_rollout_before_it_waits():
    # desk-status-shipped's only rollout is invalid: no trajectory to branch. Waiting, it would
    # stay unexplored while the other scenarios still have junctions.
    config = desk_config(
        agent={"target": "tests.explore.agents:MumblesOnceDesk"},
        explore={"branches": 50, "budget_tokens": 40_000, "rollout_arm": False},
    )  # fmt: skip
    store = open_store(":memory:")
    result = await run(config, scenarios=desk_scenarios(), store=store)
    episodes = store.list_episodes(result.run_id)
    state = store.load_exploration(result.run_id)
    assert not state["refill"], "every scenario waited: the test needs others still branching"
    status = [p for p in episodes if p.scenario_id == "desk-status-shipped"]
    assert [p.rollout for p in status if p.branch_of is None] == [0, 1]
    assert any(p.branch_of is not None for p in status)  # then it is branched like the others


# -- a fresh rollout as an arm that competes with branching ------------------------------------


async def _arm_run(agent: str, arm: bool):
    config = desk_config(
        agent={"target": agent},
        explore={"branches": 50, "budget_tokens": 80_000, "rollout_arm": arm},
    )  # fmt: skip
    store = open_store(":memory:")
    result = await run(config, scenarios=desk_scenarios(), store=store)
    state = store.load_exploration(result.run_id)
    fresh = [p for p in store.list_episodes(result.run_id) if p.branch_of is None and p.rollout]
    causes = {c for j in state["verdicts"].values() for c in j["causes"]}
    return store, result, state, fresh, causes


async def test_where_the_agent_varies_by_rollout_the_budget_shifts_to_fresh_rollouts():
    # The desk fails on a scenario's odd fresh rollouts only; its first rollouts and every
    # branch of them pass where the demo desk passes. Branches never sample that variation.
    agent = "tests.explore.agents:VariesByRolloutDesk"
    _, _, state, fresh, causes = await _arm_run(agent, True)
    _, _, state_off, fresh_off, causes_off = await _arm_run(agent, False)
    # With the arm, fresh rollouts are played while other scenarios still have junctions...
    assert not state["refill"] and len(fresh) >= 5
    assert state["memory"]["rollout_yield"]
    # ... where without it they wait for every scenario to run dry (and find less). A junction
    # that offers what only it can play is branched again (explore/_reopen.py), so the
    # scenarios may not all run dry within the budget: fewer fresh rollouts either way.
    assert len(fresh_off) < len(fresh)
    assert state_off["refill"] or not fresh_off
    # The arm's rollouts find what branches do not sample. (Whether they find more in all than
    # the default no longer holds here: reopened junctions gave the default 13 causes to 10.)
    assert sum(y["new"] for y in state["memory"]["rollout_yield"].values()) > 0
    assert causes - causes_off


async def test_where_branches_find_more_the_rollout_arm_is_not_chosen():
    # The demo desk replays itself: a fresh rollout shows what its first rollout showed, while
    # branches find its flaws. The arm is tried (its prior is optimistic), finds nothing, and
    # the budget stays with the branches.
    store, result, state, fresh, _ = await _arm_run("vistasim.demo:OrderDeskAgent", True)
    rollouts = state["memory"]["rollout_yield"]
    assert sum(y["found"] for y in rollouts.values()) == 0
    assert len(fresh) <= 8  # two waves' slots at most (run.concurrency 4)
    branches = [b for b in store.list_branches(result.run_id) if b.status != "abandoned"]
    assert len(branches) >= 3 * len(fresh)
    # Where the desk varies by rollout, the same budget goes to fresh rollouts far more.
    _, _, _, varying, _ = await _arm_run("tests.explore.agents:VariesByRolloutDesk", True)
    assert len(varying) > len(fresh)


@pytest.mark.slow
async def test_kill_9_while_the_rollout_arm_plays_then_resume_makes_the_same_episodes(tmp_path):
    text = KILLABLE_DESK_CONFIG.replace("rollouts = 4", "rollouts = 1").replace(
        "tests.explore.agents:SlowDesk", "tests.explore.agents:SlowVariesDesk"
    ) + "\n[explore]\nbranches = 50\nbudget_tokens = 60000\nrollout_arm = true\n"
    config = write_desk_config(tmp_path, text)
    db_path = tmp_path / "killed.db"
    fresh = "SELECT COUNT(*) FROM episodes WHERE rollout > 0 AND id NOT LIKE '%.b%'"
    start_and_kill(["run", str(config), "--store", str(db_path)], db_path,
                   count_sql=fresh, at_least=2)  # fmt: skip
    with open_store(db_path) as store:
        [row] = store.list_runs()
        await run(resume=row.run_id, store=store)
        resumed = read_run_view(store, row.run_id)
    with open_store(tmp_path / "reference.db") as ref_store:
        result = await run(load_config(config, environ={}), store=ref_store)
        reference = read_run_view(ref_store, result.run_id)
    assert resumed.status == "done"

    def keys(view):
        return sorted(
            (e.episode_id.split(":", 1)[1], e.status, e.stop_reason) for e in view.episodes
        )

    assert keys(resumed) == keys(reference)
    assert any(e.rollout > 0 and e.branch_of is None for e in reference.episodes)


# -- the order a wave's branches are recorded in -----------------------------------------------


def _middle_turn(request: ChatRequest) -> str:
    """A chooser answer that depends on the request only: the middle allowed turn."""
    text = "\n".join(str(m.content) for m in request.messages)
    allowed = re.findall(r"\[turn (\d+)\](?! \(already)", text)
    return json.dumps({"turn_index": int(allowed[len(allowed) // 2]), "rationale": "middle"})


class _InOrder:
    """Answers as `_middle_turn`; the calls that arrive together, in arrival order or reversed.

    A wave's slots ask the chooser in the same instant, in plan order; answering them one by
    one, first come or last come first, makes them record their branches in that order. No
    call waits longer than 0.6 s.
    """

    def __init__(self, *, reverse: bool) -> None:
        self.reverse = reverse
        self.batch: list[float] = []

    async def __call__(self, request: ChatRequest) -> str:
        now = anyio.current_time()
        if not self.batch or now - self.batch[0] > 0.1:
            self.batch = []
        batch = self.batch
        batch.append(now)
        rank = len(batch) - 1
        await anyio.sleep(0.1)  # every call of the wave has arrived
        place = len(batch) - 1 - rank if self.reverse else rank
        await anyio.sleep(min(0.5, 0.05 * place))
        return _middle_turn(request)


async def _explore_with(chooser) -> tuple[list[tuple], list[str], dict]:
    config = desk_config(
        rollouts=2, run={"concurrency": 5, "seed": 3}, user={"perturb": 0.5},
        explore={"branches": 4, "chooser": "llm"}, models={"chooser": {"model": "c"}},
    )  # fmt: skip
    with open_store(":memory:") as store:
        result = await run(config, scenarios=desk_scenarios(), store=store,
                           models={"chooser": FunctionLLM(chooser)}, preflight=False)  # fmt: skip
        view = read_run_view(store, result.run_id)
        recorded = [b.episode_id for b in store.list_branches(result.run_id)]
        return _lineage(view), recorded, store.load_exploration(result.run_id) or {}


async def test_a_wave_recording_its_branches_in_reverse_explores_as_in_plan_order():
    natural, natural_order, natural_state = await _explore_with(_InOrder(reverse=False))
    reversed_, reversed_order, reversed_state = await _explore_with(_InOrder(reverse=True))

    assert len(natural) > 10  # several waves of several slots
    assert reversed_order != natural_order  # the slots did record in another order
    # The memory learns a wave in one order whatever the order of recording: the same branches.
    assert reversed_ == natural
    assert reversed_state["memory"] == natural_state["memory"]

"""A perturbed rollout's opening draws its first sub-goal again (`explore.opening_draws`)."""

from __future__ import annotations

from collections import defaultdict

from tests.helpers import desk_config, desk_scenarios
from vistasim.divert import PLAIN
from vistasim.explore import run
from vistasim.store import open_store, read_run_view


async def _openings(draws: int) -> tuple[dict[str, list], dict[str, tuple]]:
    config = desk_config(run={"seed": 1}, user={"perturb": 1.0},
                         explore={"branches": 8, "opening_draws": draws})  # fmt: skip
    with open_store(":memory:") as store:
        result = await run(config, scenarios=desk_scenarios(), store=store)
        view = read_run_view(store, result.run_id)
        opened: dict[str, list] = defaultdict(list)
        for branch in store.list_branches(result.run_id):
            if branch.turn == 0 and 0 <= branch.chosen < len(branch.candidates):
                opened[branch.parent_episode_id].append(branch)
        drawn = {e.episode_id: e.perturbations for e in view.episodes if e.branch_of is None}
        return opened, drawn


async def test_a_rollouts_opening_plays_the_plain_user_first_then_other_first_draws():
    opened, drawn = await _openings(3)
    assert opened and set(opened) <= set(drawn)  # only rollouts are branched at their opening
    assert max(len(b) for b in opened.values()) > 1
    for parent, branches in opened.items():
        assert len(branches) <= 3
        own = [d for d in drawn[parent] if d["subgoal"] == 0]
        assert own, "perturb = 1 draws an operation for every first sub-goal"
        sources = [b.candidates[b.chosen].source for b in branches]
        # The rollout's draw was taken off: first the user as the scenario has it, then other
        # operations of that sub-goal, never the rollout's own again, none twice.
        assert sources[0] == PLAIN
        first = branches[0].injected["user_state"]["stack"][0]["behaviours"]
        assert own[0]["behaviour"] not in first
        assert own[0]["operation"] not in sources
        assert len(set(sources)) == len(sources)


async def test_without_redraw_the_opening_is_one_junction_like_any_other():
    opened, _ = await _openings(0)
    assert opened
    for branches in opened.values():
        # Branched again only for what only it can play (tests/explore/test_reopen.py), never
        # twice the same; the plain user only where the rollout's draw acts at the opening
        # itself (it says otherwise), never the same first words (test_pending_draw.py).
        sources = [b.candidates[b.chosen].source for b in branches]
        assert len(set(sources)) == len(sources)
        for branch in branches:
            chosen = branch.candidates[branch.chosen]
            assert chosen.source != PLAIN or chosen.action != branch.original

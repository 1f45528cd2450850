"""The varying user without the draw it is about to play: the `plain` alternative at a junction."""

from __future__ import annotations

from collections import defaultdict

from tests.helpers import desk_config, desk_scenarios
from vistasim.divert import PLAIN
from vistasim.explore import run
from vistasim.explore._plain import without_pending_draw
from vistasim.scenario import AgendaItem, Persona, Scenario
from vistasim.store import open_store, read_run_view
from vistasim.user import AgendaPolicy, perturbed, undrawn


def _drawn():
    scenario = Scenario(
        id="s",
        persona=Persona(name="Ann"),
        goal="Cancel booking BK-2047, then check order O-12.",
        agenda=[
            AgendaItem(intent="cancel_booking",
                       slots={"booking_id": "BK-2047", "email": "ann@example.com"}),
            AgendaItem(intent="order_status", slots={"order_id": "O-12"}),
        ],
    )  # fmt: skip
    state = AgendaPolicy().initial_state(scenario, seed=3)
    root, drawn = perturbed(state, 1.0, seed=1)
    return state, root, drawn


def test_a_draw_not_played_yet_comes_off_the_current_subgoal_only():
    state, root, drawn = _drawn()
    undone = without_pending_draw(root, drawn)
    assert undone is not None
    assert undone["stack"][0] == undrawn(state, [])["stack"][0]  # the scenario's own sub-goal
    assert undone["stack"][1] == root["stack"][1]  # later sub-goals: the branch redraws them


def test_nothing_pending_means_no_plain_alternative():
    state, root, drawn = _drawn()
    assert without_pending_draw(state, []) is None  # nothing drawn
    op = root["stack"][0]["behaviours"][0]["op"]
    played = {**root, "stack": [{**root["stack"][0], "played": [op]}, root["stack"][1]]}
    assert without_pending_draw(played, drawn) is None  # the draw has acted: too late
    assert without_pending_draw("not an agenda state", drawn) is None


async def test_a_branch_may_take_back_the_draw_where_it_acts_without_opening_redraws():
    config = desk_config(run={"seed": 1}, user={"perturb": 1.0},
                         explore={"branches": 8, "opening_draws": 0})  # fmt: skip
    with open_store(":memory:") as store:
        result = await run(config, scenarios=desk_scenarios(), store=store)
        view = read_run_view(store, result.run_id)
        episodes = {e.episode_id: e for e in view.episodes}
        plain = defaultdict(list)
        for branch in store.list_branches(result.run_id):
            sources = [c.source for c in branch.candidates]
            if PLAIN in sources:
                plain[branch.parent_episode_id].append(branch)
    assert plain, "perturb = 1 draws for every sub-goal: some junction is where a draw acts"
    for parent, branches in plain.items():
        for branch in branches:
            candidate = branch.candidates[[c.source for c in branch.candidates].index(PLAIN)]
            assert candidate.action != branch.original  # offered only where the draw acts
            stack = branch.injected["user_state"]["stack"]
            if branch.candidates[branch.chosen].source != PLAIN or not stack:
                continue
            # The current sub-goal has none of the behaviours drawn for it on the parent's path.
            chain, at = [], episodes[parent]
            while at is not None:
                chain += [d["behaviour"] for d in at.perturbations
                          if d["intent"] == stack[0]["intent"]]  # fmt: skip
                at = episodes.get(at.branch_of) if at.branch_of else None
            assert chain and all(b not in stack[0]["behaviours"] for b in chain)

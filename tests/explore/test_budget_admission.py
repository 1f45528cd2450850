"""Under `explore.budget_tokens`, a slot starts only when its whole expected cost fits."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from vistasim.explore._explorer import Explorer, ExplorerState
from vistasim.explore._verdicts import Judged


def _explorer(*, budget: int, spent: int, each: float) -> Explorer:
    """An explorer whose run has spent `spent` tokens, its branches `each` on average."""
    explorer = object.__new__(Explorer)
    explorer.spec = SimpleNamespace(budget_tokens=budget)
    explorer.run = SimpleNamespace(run_id="r", db=SimpleNamespace(spent_tokens=lambda _: spent))
    explorer.state = ExplorerState()
    explorer._cost_each = lambda: each  # type: ignore[method-assign]
    return explorer


@pytest.mark.parametrize(
    ("left", "admitted"),
    [(999, 0), (1_000, 1), (1_600, 1), (2_999, 2), (3_000, 3)],
)
def test_a_slot_is_admitted_only_when_its_mean_cost_fits_in_what_is_left(left, admitted):
    # Admitted on half its cost, a slot with 600 of its 1,000 left overshot the budget by 400
    # on average: the branch row then spent more agent tokens than the linear row it is
    # compared with at equal tokens.
    explorer = _explorer(budget=10_000, spent=10_000 - left, each=1_000.0)
    assert explorer._affordable(5) == admitted


def test_without_a_budget_every_wanted_slot_is_admitted():
    explorer = _explorer(budget=None, spent=10**9, each=1_000.0)  # type: ignore[arg-type]
    assert explorer._affordable(4) == 4


def _waiting(outcomes: list[str]) -> tuple[Explorer, list[str]]:
    """An explorer under a budget at a scenario with no junction left, its episodes judged."""
    plans = [SimpleNamespace(episode_id=f"r:s:{i}", scenario_id="s") for i in range(len(outcomes))]
    explorer = object.__new__(Explorer)
    explorer.spec = SimpleNamespace(budget_tokens=10_000, novelty=True, rollout_arm=False)
    explorer.run = SimpleNamespace(run_id="r", db=SimpleNamespace(list_episodes=lambda _: plans))
    explorer.state = ExplorerState(
        verdicts={p.episode_id: Judged(outcome=o) for p, o in zip(plans, outcomes, strict=True)}
    )
    explorer._save = lambda: None  # type: ignore[method-assign]
    explorer._made = lambda _: 1  # type: ignore[method-assign]
    played: list[str] = []

    async def fresh(scenario_id: str) -> None:
        played.append(scenario_id)

    explorer._fresh = fresh  # type: ignore[method-assign]
    return explorer, played


async def test_a_scenario_that_failed_every_time_plays_a_fresh_rollout_instead_of_waiting():
    # Bikes: the root and its one branch of a scenario that fails whatever the user does, then
    # no junction left; waiting for the others, it got no rollout to the end of the budget
    # while the linear baseline's rollouts of it failed four times.
    explorer, played = _waiting(["failed", "failed"])
    await explorer._no_parent("s")
    assert played == ["s"] and explorer.state.drained == []


@pytest.mark.parametrize("outcomes", [["failed"], ["failed", "passed"], ["passed", "passed"]])
async def test_a_scenario_that_did_not_fail_every_time_waits(outcomes):
    explorer, played = _waiting(outcomes)
    await explorer._no_parent("s")
    assert played == [] and explorer.state.drained == ["s"]

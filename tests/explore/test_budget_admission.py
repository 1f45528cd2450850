"""Under `explore.budget_tokens`, a slot starts only when its whole expected cost fits."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from vistasim.explore._explorer import Explorer, ExplorerState


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

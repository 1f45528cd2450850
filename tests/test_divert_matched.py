"""`benchmarks/divert.py` compares branching with its baseline at exactly matched agent tokens."""

from __future__ import annotations

from benchmarks._divert_matched import branch_budget, matched


def _row(variant: str, curve: list[list[int]], branches: int = 0) -> dict:
    return {"variant": variant, "branches": branches, "agent_tokens": curve[-1][0],
            "curve": curve, "budget_of": "linear-R4"}  # fmt: skip


def test_both_arms_count_what_they_found_within_the_smaller_arms_tokens():
    # The baseline spends 1,000 tokens and finds its 3rd distinct failure in its last episode;
    # branching spends 1,070 (within the ±10 % the per-100K table allows) and has its 3
    # distinct failures by 600 tokens, then fails once more at 1,070.
    baseline = _row("perturbed-R4", [[300, 1, 1], [700, 2, 2], [1000, 3, 3]])
    branching = _row("branch-eq-R4", [[200, 1, 1], [600, 3, 2], [900, 3, 3], [1070, 3, 4]], 3)
    rows = [baseline, branching]
    matched(rows)
    assert branching["matched_tokens"] == 1000
    assert (branching["matched_unique"], branching["matched_unique_perturbed"]) == (3, 3)
    # The failed episode that ended after 1,000 tokens does not count.
    assert (branching["matched_failed"], branching["matched_failed_perturbed"]) == (3, 3)


def test_the_smaller_arm_may_be_the_branches():
    baseline = _row("perturbed-R4", [[500, 2, 1], [1100, 5, 2]])
    branching = _row("branch-eq-R4", [[400, 1, 1], [1000, 4, 3]], 2)
    matched([baseline, branching])
    assert branching["matched_tokens"] == 1000
    assert (branching["matched_unique"], branching["matched_unique_perturbed"]) == (4, 2)
    assert "matched_tokens" not in baseline  # only branch rows are compared


def test_a_branch_row_is_budgeted_at_its_perturbed_baselines_tokens():
    # The perturbed row spent 8 % less than the linear row (its draws shortened conversations):
    # budgeted at the linear row's tokens, branching had 8 % more tokens than the arm its rates
    # are divided against.
    linear, perturbed = {"agent_tokens": 1_000_000}, {"agent_tokens": 920_000}
    assert branch_budget(linear, perturbed) == 920_000
    assert branch_budget(linear, None) == 1_000_000  # no --perturb: the linear row's

"""`benchmarks/divert.py --seeds`: branching against its baseline pooled over seeds."""

from __future__ import annotations

from benchmarks._divert_pooled import pooled


def _row(variant: str, unique: int, failed: int, tokens: int, domain: str = "bikes") -> dict:
    row = {"domain": domain, "variant": variant, "unique_failures": unique, "failed": failed,
           "agent_tokens": tokens, "unique_per_100k": unique / tokens * 1e5,
           "err_per_100k": failed / tokens * 1e5}  # fmt: skip
    if variant.startswith("branch-"):
        row["budget_of"] = "linear-R4"
    return row


def test_counts_and_tokens_are_summed_before_they_are_divided():
    # Seed 0: branching 6 distinct in 100K tokens against 4; seed 1: 5 in 50K against 6 in
    # 100K. Pooled: 11 in 150K against 10 in 200K = 1.47x; a mean of the two ratios (1.50
    # and 1.67) would say 1.58.
    rows = {
        0: [_row("linear-R4", 1, 1, 100_000), _row("perturbed-R4", 4, 8, 100_000),
            _row("branch-eq-R4", 6, 12, 100_000)],
        1: [_row("linear-R4", 1, 1, 100_000), _row("perturbed-R4", 6, 10, 100_000),
            _row("branch-eq-R4", 5, 15, 50_000)],
    }  # fmt: skip
    [row] = pooled(rows)
    assert row["baseline"] == "perturbed-R4" and row["seeds"] == [0, 1]
    assert (row["base_unique_failures"], row["branch_unique_failures"]) == (10, 11)
    assert (row["base_agent_tokens"], row["branch_agent_tokens"]) == (200_000, 150_000)
    assert row["uniq_x"] == round((11 / 150_000) / (10 / 200_000), 2) == 1.47
    assert row["err_x"] == round((27 / 150_000) / (18 / 200_000), 2) == 2.0
    assert row["uniq_seeds_ahead"] == "2/2" and row["err_seeds_ahead"] == "2/2"


def test_without_a_perturbed_row_the_linear_one_is_the_baseline_and_gaps_are_left_out():
    rows = {
        0: [_row("linear-R4", 2, 2, 100_000), _row("branch-eq-R4", 2, 4, 100_000),
            _row("linear-R4", 1, 1, 100_000, "shop"), _row("branch-eq-R4", 1, 1, 100_000, "shop")],
        1: [_row("linear-R4", 4, 4, 100_000), _row("branch-eq-R4", 3, 2, 100_000)],
    }  # fmt: skip
    [row] = pooled(rows)  # shop has no seed-1 rows: nothing to pool for it
    assert row["domain"] == "bikes" and row["baseline"] == "linear-R4"
    assert row["uniq_x"] == round(5 / 6, 2) and row["err_x"] == 1.0
    assert row["uniq_seeds_ahead"] == "1/2" and row["err_seeds_ahead"] == "1/2"

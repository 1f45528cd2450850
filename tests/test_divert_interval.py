"""`benchmarks/divert.py`: how far a desk's ratio could move by chance (paired bootstrap)."""

from __future__ import annotations

import math
from types import SimpleNamespace

from benchmarks._divert_interval import by_scenario, interval, pooled_scenarios
from benchmarks._divert_pooled import pooled


def _counts(*per_scenario: tuple[int, float, int]) -> dict[str, list[float]]:
    return {f"s{i}": list(c) for i, c in enumerate(per_scenario)}


def test_an_arm_that_finds_twice_as_much_in_every_scenario_is_2x_on_every_draw():
    base = _counts(*[(100, 1, 2)] * 6)
    branch = _counts(*[(100, 2, 4)] * 6)
    assert interval(base, branch, "unique") == (2.0, 2.0)
    assert interval(base, branch, "failed") == (2.0, 2.0)


def test_a_gap_that_rests_on_one_scenario_is_not_shown():
    # Equal in five scenarios; the baseline fails once more in the sixth: 0.83x in failed
    # episodes, but drawing the scenarios again puts 1.0 well inside the interval.
    base = _counts(*[(100, 1, 1)] * 5, (100, 1, 2))
    branch = _counts(*[(100, 1, 1)] * 6)
    low, high = interval(base, branch, "failed")
    assert low < 5 / 6 < 1.0 <= high


def test_the_draws_are_paired_and_seeded():
    # Branching found in the scenarios where the baseline did not: unpaired draws could give
    # the baseline's found scenarios with branching's empty ones; paired, every draw keeps the
    # arms' scenarios together. Two calls give the same interval.
    base = _counts((100, 2, 2), (100, 0, 0), (100, 2, 2), (100, 0, 0))
    branch = _counts((100, 2, 2), (100, 2, 2), (100, 2, 2), (100, 2, 2))
    first = interval(base, branch, "unique")
    assert first == interval(base, branch, "unique")
    assert first is not None and first[0] >= 1.0  # never fewer than the baseline, paired
    assert math.isinf(first[1])  # a draw of the baseline's empty scenarios alone: no bound


def test_no_interval_without_a_baseline_or_for_different_scenarios():
    nothing = _counts(*[(100, 0, 0)] * 4)
    some = _counts(*[(100, 1, 1)] * 4)
    assert interval(nothing, nothing, "unique") is None
    assert interval(some, {"other": [100, 1, 1]}, "unique") is None


def test_seeds_are_summed_per_scenario():
    summed = pooled_scenarios([{"a": [100, 1, 2]}, {"a": [50, 0.5, 1], "b": [10, 0, 0]}])
    assert summed == {"a": [150, 1.5, 3], "b": [10, 0, 0]}


def test_a_failure_shown_in_two_scenarios_counts_half_in_each_and_explained_symptoms_none():
    episodes = [SimpleNamespace(episode_id=e, scenario_id=s)
                for e, s in (("e1", "a"), ("e2", "a"), ("e3", "b"))]  # fmt: skip
    view = SimpleNamespace(episodes=episodes)
    report = SimpleNamespace(failures=SimpleNamespace(unique=[
        SimpleNamespace(id="u1", episodes=["e1", "e3"]), SimpleNamespace(id="u2", episodes=["e2"]),
        SimpleNamespace(id="u3", episodes=["e3"]),  # a symptom u1 explains: not a failure more
    ], covered=["u3"]))  # fmt: skip
    counts = by_scenario(view, report, {"e1", "e3"}, {"e1": 10, "e2": 20, "e3": 5})
    assert counts == {"a": [30, 1.5, 1], "b": [5, 0.5, 1]}
    assert sum(c[1] for c in counts.values()) == 2  # the two distinct failures, split


def _row(variant: str, counts: dict[str, list[float]]) -> dict:
    tokens = int(sum(c[0] for c in counts.values()))
    unique = sum(c[1] for c in counts.values())
    failed = sum(c[2] for c in counts.values())
    row = {"domain": "waste", "variant": variant, "unique_failures": unique, "failed": failed,
           "agent_tokens": tokens, "unique_per_100k": unique / tokens * 1e5,
           "err_per_100k": failed / tokens * 1e5, "by_scenario": counts}  # fmt: skip
    if variant.startswith("branch-"):
        row["budget_of"] = "linear-R4"
    return row


def test_pooled_rows_carry_their_intervals_and_count_a_seed_below_only_when_shown():
    # Seed 0: branching fails less in one scenario of eight (not shown); seed 1: it fails
    # half as often in every scenario (shown below).
    even = [(100, 1, 2)] * 8
    rows = {
        0: [_row("perturbed-R4", _counts(*even)),
            _row("branch-eq-R4", _counts(*even[:7], (100, 1, 1)))],
        1: [_row("perturbed-R4", _counts(*even)),
            _row("branch-eq-R4", _counts(*[(100, 1, 1)] * 8))],
    }  # fmt: skip
    [row] = pooled(rows)
    assert row["err_seeds_ahead"] == "0/2"
    assert row["err_seeds_below"] == 1 and row["uniq_seeds_below"] == 0
    low, high = row["err_ci"]
    assert low <= row["err_x"] <= high < 1.0
    assert row["uniq_ci"] == (1.0, 1.0)


def test_rows_without_scenario_counts_pool_as_before():
    plain = {k: v for k, v in _row("perturbed-R4", _counts((100, 1, 1))).items()
             if k != "by_scenario"}  # fmt: skip
    branch = {k: v for k, v in _row("branch-eq-R4", _counts((100, 1, 1))).items()
              if k != "by_scenario"}  # fmt: skip
    [row] = pooled({0: [plain, branch], 1: [plain, branch]})
    assert "uniq_ci" not in row and row["uniq_x"] == 1.0

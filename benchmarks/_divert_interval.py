"""How far one desk's ratio could move by chance: a paired bootstrap over its scenarios.

A desk's ratio rests on a handful of distinct failures (4 to 20 per row and seed), so "branching
is below the baseline on this desk" cannot be read from the ratio alone: waste's 0.75x on one
seed is 3 failed episodes against 4. Each row keeps, per scenario, what its episodes cost and
found (`by_scenario`: agent tokens, distinct failures, failed episodes); both arms play the same
scenarios, so the scenarios are drawn again with replacement, the *same* draw for both arms
(paired), and the ratio of their per-token rates is taken on each draw. The 2.5th and 97.5th
percentiles of 2,000 draws are the 95 % interval: a ratio whose interval holds 1.0 is not shown
to differ from the baseline, either way.

A distinct failure seen in several scenarios counts a share in each (its total stays one). A
draw in which the baseline found nothing and branching something has no bounded ratio (it
counts as infinite); one in which neither found anything is left out. The draws are seeded, so a
table reproduces.

>>> base = {"a": [100, 1, 1], "b": [100, 1, 2], "c": [100, 0, 0]}
>>> branch = {"a": [100, 2, 2], "b": [100, 1, 3], "c": [100, 1, 1]}
>>> low, high = interval(base, branch, "unique", draws=500)
>>> low <= 2.0 <= high
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["by_scenario", "distinct", "interval", "pooled_scenarios"]

_FIELD = {"tokens": 0, "unique": 1, "failed": 2}
DRAWS = 2_000
SEED = 20261207


def by_scenario(view: Any, report: Any, failed: set[str],
                tokens: Mapping[str, int]) -> dict[str, list[float]]:  # fmt: skip
    """Per scenario: [agent tokens, distinct failures (shared ones split), failed episodes].

    `tokens` holds each episode's own agent tokens (a branch's after its fork), as the curve
    of `_divert_matched` counts them.
    """
    scenario_of = {e.episode_id: e.scenario_id for e in view.episodes}
    out: dict[str, list[float]] = {sid: [0, 0.0, 0] for sid in sorted(set(scenario_of.values()))}
    for episode_id, scenario_id in scenario_of.items():
        out[scenario_id][0] += tokens.get(episode_id, 0)
        out[scenario_id][2] += episode_id in failed
    for item in distinct(report):
        shown = sorted({scenario_of[e] for e in item.episodes if e in scenario_of})
        for scenario_id in shown:
            out[scenario_id][1] += 1 / len(shown)
    return out


def distinct(report: Any) -> list[Any]:
    """The catalogue's distinct failures: named causes and the symptoms no cause covers."""
    covered = set(report.failures.covered)
    return [item for item in report.failures.unique if item.id not in covered]


def pooled_scenarios(rows: Iterable[Mapping[str, Sequence[float]]]) -> dict[str, list[float]]:
    """Several seeds' `by_scenario` of one arm, summed per scenario (seeds play the same ones)."""
    out: dict[str, list[float]] = {}
    for row in rows:
        for scenario_id, counts in row.items():
            mine = out.setdefault(scenario_id, [0, 0.0, 0])
            for i, value in enumerate(counts):
                mine[i] += value
    return out


def interval(base: Mapping[str, Sequence[float]], branch: Mapping[str, Sequence[float]],
             what: str, *, draws: int = DRAWS) -> tuple[float, float] | None:  # fmt: skip
    """The 95 % interval of branching's rate over the baseline's in `what` (unique or failed).

    None when the baseline has nothing in `what` (no ratio) or the arms played different
    scenarios (nothing to pair).
    """
    if set(base) != set(branch) or not base:
        return None
    scenarios = sorted(base)
    field = _FIELD[what]
    rng = random.Random(SEED)
    ratios = []
    for _ in range(draws):
        drawn = [scenarios[rng.randrange(len(scenarios))] for _ in scenarios]
        ratio = _ratio(base, branch, drawn, field)
        if ratio is not None:
            ratios.append(ratio)
    if len(ratios) < draws // 2:  # most draws had nothing at all in the baseline
        return None
    ratios.sort()
    return ratios[int(0.025 * len(ratios))], ratios[min(len(ratios) - 1, int(0.975 * len(ratios)))]


def _ratio(base: Mapping[str, Sequence[float]], branch: Mapping[str, Sequence[float]],
           drawn: list[str], field: int) -> float | None:  # fmt: skip
    base_found = sum(base[s][field] for s in drawn)
    base_tokens = sum(base[s][0] for s in drawn)
    branch_tokens = sum(branch[s][0] for s in drawn)
    if not base_tokens or not branch_tokens:
        return None
    branch_found = sum(branch[s][field] for s in drawn)
    if not base_found:  # nothing in the baseline's draw: no ratio, or one without bound
        return math.inf if branch_found else None
    return (branch_found / branch_tokens) / (base_found / base_tokens)

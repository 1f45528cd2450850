"""`benchmarks/divert.py`'s comparison at exactly matched agent tokens.

Each row keeps its `curve`: per episode, in the order the episodes ended, the agent tokens, the
distinct failures and the failed episodes so far. A branch row and its perturbed baseline are
then both counted within the smaller arm's agent tokens (`matched`), so the two rates share one
denominator. The per-100K ratios of the table (each arm over its own tokens, within ±10 % of the
linear budget) are kept beside it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks._divert_interval import by_scenario, distinct
from vistasim.events import AgentReply
from vistasim.metrics import compute_metrics
from vistasim.store import RunView, open_store, read_run_view

__all__ = [
    "branch_budget", "curve", "curve_of", "episode_tokens", "matched", "scenarios_of_store",
]


def branch_budget(linear: dict, perturbed: dict | None) -> int:
    """The agent tokens a branch row may spend: the perturbed row's, the arm it is compared with.

    The linear and perturbed rows of one R differ by up to 17 % in agent tokens (a drawn
    operation lengthens or shortens a conversation), so a branch row budgeted at the linear
    row's tokens was compared with a baseline that had spent 8 % less (dental) or 17 % more
    (hotel): the per-100K ratio then measured the token gap where both arms had found every
    failure there was. Without a perturbed row, the linear row's.
    """
    return int((perturbed or linear)["agent_tokens"])


def episode_tokens(view: RunView) -> dict[str, int]:
    """Each episode's own agent tokens (a branch's after its fork), as `efficiency` counts them.

    Its agent's metered calls when the run has any, else the proxy of its own request digests.
    """
    metered = any(c.role == "agent" and not c.cache_hit
                  for e in view.episodes for c in e.model_calls)  # fmt: skip

    def own_tokens(episode: Any) -> int:
        if metered:
            return sum(c.usage.input_tokens + c.usage.output_tokens for c in episode.model_calls
                       if c.role == "agent" and not c.cache_hit)  # fmt: skip
        return sum(d.input_tokens + d.output_tokens for e in episode.own_events
                   if isinstance(e.event, AgentReply) for d in e.event.requests)  # fmt: skip

    return {e.episode_id: own_tokens(e) for e in view.episodes}


def curve(view: RunView, report: Any, failed: set[str]) -> list[list[int]]:
    """Per episode, in the order they ended: [agent tokens so far, distinct failures so far,
    failed episodes so far], for the comparison at exactly matched tokens (`matched`).

    An episode's agent tokens are its own (`episode_tokens`). A distinct failure counts from the
    first episode, in this order, that shows it.
    """
    own = episode_tokens(view)
    first: dict[str, int] = {}
    order = sorted(view.episodes, key=lambda e: (e.ended_at or 0.0, e.started_at or 0.0,
                                                 e.episode_id))  # fmt: skip
    position = {e.episode_id: i for i, e in enumerate(order)}
    for item in distinct(report):
        shown = [position[e] for e in item.episodes if e in position]
        if shown:
            first[item.id] = min(shown)
    found_at = Counter(first.values())
    out, tokens, found, failures = [], 0, 0, 0
    for i, episode in enumerate(order):
        tokens += own[episode.episode_id]
        found += found_at[i]
        failures += episode.episode_id in failed
        out.append([tokens, found, failures])
    return out


def _within(curve: list[list[int]], budget: int) -> tuple[int, int]:
    """(distinct failures, failed episodes) of the episodes that ended within `budget` tokens."""
    kept = [point for point in curve if point[0] <= budget]
    return (kept[-1][1], kept[-1][2]) if kept else (0, 0)


def matched(rows: list[dict]) -> None:
    """Per branch row, both arms counted at exactly the same agent tokens.

    `tok/lin` lets the two arms spend within ±10 % of the linear budget, and a ratio of
    per-100K rates then favours whichever spent less where the failures ran out early. Here
    each arm counts only the episodes that ended, in the order it played them, within the
    smaller of the two arms' agent tokens (`matched_tokens`), so both rates share one
    denominator and the ratio is a ratio of counts.
    """
    perturbed = {r["variant"].removeprefix("perturbed-"): r for r in rows
                 if r["variant"].startswith("perturbed-")}  # fmt: skip
    for row in rows:
        baseline = perturbed.get(row.get("budget_of", "").removeprefix("linear-"))
        if not row["branches"] or baseline is None:
            continue
        if not row.get("curve") or not baseline.get("curve"):
            continue
        budget = min(row["agent_tokens"], baseline["agent_tokens"])
        row["matched_tokens"] = budget
        row["matched_unique"], row["matched_failed"] = _within(row["curve"], budget)
        base_unique, base_failed = _within(baseline["curve"], budget)
        row["matched_unique_perturbed"], row["matched_failed_perturbed"] = base_unique, base_failed


async def curve_of(path: Path) -> list[list[int]]:
    """The `curve` of a kept store (a reused row written before the curve was)."""
    view, report, failed = await _read(path)
    return curve(view, report, failed)


async def scenarios_of_store(path: Path) -> dict[str, list[float]]:
    """The `by_scenario` of a kept store (a row written before it was)."""
    view, report, failed = await _read(path)
    return by_scenario(view, report, failed, episode_tokens(view))


async def _read(path: Path) -> tuple[RunView, Any, set[str]]:
    store = open_store(path)
    try:
        run_id = store.db.execute("SELECT id FROM runs").fetchone()[0]
        view = read_run_view(store, run_id)
    finally:
        store.close()
    report = await compute_metrics(view)
    failed = {e for e, o in report.success.episodes.items() if o == "failed"}
    return view, report, failed

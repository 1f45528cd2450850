"""Cost: what a run spent in tokens, dollars, wall time and user actions.

Model calls are read from each episode's metered `ModelCall`s (dollars were priced when the call
was made, from the run's price table). Errored episodes count here: their spending was real.
Latency is read from the same calls (seconds per call, retries included) and, for an agent of
any kind, from its replies (seconds per turn, its tool rounds included).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from vistasim.events import AgentReply, ApiCall, UserMessage, WebAction
from vistasim.llm import ModelCall
from vistasim.store._view import EpisodeView, RunView

__all__ = ["CHANNELS", "CostReport", "Distribution", "RoleCost", "cost", "distribution"]

CHANNELS = ("user_message", "web_action", "api_call")
"""The simulated user's action channels counted per episode."""


class _Report(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Distribution(_Report):
    """Summary of a per-episode quantity."""

    total: float
    mean: float
    p50: float
    p95: float
    max: float


class RoleCost(_Report):
    """Spending of one model role (user, agent, judge, chooser, generator, embedder)."""

    calls: int = 0
    failed_calls: int = 0
    cache_hits: int = 0
    """Calls served by the record/replay cache (no tokens spent)."""
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cost_usd: float = 0.0


class CostReport(_Report):
    """Totals, per-role spending and per-episode distributions of a run."""

    total: RoleCost
    by_role: dict[str, RoleCost]
    episodes: int
    wall_time_s: Distribution | None
    """Per-episode wall time; `None` when no episode has both start and end times."""
    tokens: Distribution
    """Per-episode tokens (input + output), all roles."""
    cost_usd: Distribution
    """Per-episode dollars, all roles."""
    actions: dict[str, Distribution]
    """Per-episode user actions by channel: `user_message`, `web_action`, `api_call`."""
    latency_s: dict[str, Distribution] = {}
    """Seconds per model call by role, retries and failed calls included; calls the
    record/replay cache answered are left out (they took no model time)."""
    reply_latency_s: Distribution | None = None
    """Seconds per agent reply (a whole turn, its tool rounds included), for an agent of any
    kind; `None` when no reply was timed."""


def distribution(values: Sequence[float]) -> Distribution:
    """Summarize values by total, mean, median, 95th percentile (linear interpolation) and max.

    >>> distribution([1, 2, 3, 4]).p50
    2.5
    """
    if not values:
        return Distribution(total=0.0, mean=0.0, p50=0.0, p95=0.0, max=0.0)
    ordered = sorted(values)
    total = float(math.fsum(ordered))
    return Distribution(
        total=total,
        mean=total / len(ordered),
        p50=_percentile(ordered, 0.5),
        p95=_percentile(ordered, 0.95),
        max=float(ordered[-1]),
    )


def cost(run: RunView) -> CostReport:
    """Compute the cost of a stored run."""
    by_role = _by_role(run)
    total = {
        name: sum(getattr(role, name) for role in by_role.values())
        for name in RoleCost.model_fields
    }
    total["cost_usd"] = math.fsum(role.cost_usd for role in by_role.values())
    walls = [
        e.ended_at - e.started_at
        for e in run.episodes
        if e.started_at is not None and e.ended_at is not None
    ]
    calls = [episode.model_calls for episode in run.episodes]
    actions = [_actions(episode) for episode in run.episodes]
    return CostReport(
        total=RoleCost.model_validate(total),
        by_role=by_role,
        episodes=len(run.episodes),
        wall_time_s=distribution(walls) if walls else None,
        tokens=distribution(
            [
                sum(c.usage.input_tokens + c.usage.output_tokens for c in cs if not c.cache_hit)
                for cs in calls
            ]
        ),
        cost_usd=distribution([math.fsum(c.cost_usd for c in cs) for cs in calls]),
        actions={ch: distribution([a[ch] for a in actions]) for ch in CHANNELS},
        latency_s=_call_latency(run),
        reply_latency_s=_reply_latency(run),
    )


def _call_latency(run: RunView) -> dict[str, Distribution]:
    seconds: dict[str, list[float]] = defaultdict(list)
    for episode in run.episodes:
        for call in episode.model_calls:
            if not call.cache_hit:
                seconds[call.role].append(call.latency_s)
    return {role: distribution(seconds[role]) for role in sorted(seconds)}


def _reply_latency(run: RunView) -> Distribution | None:
    seconds = [
        stored.event.latency_s
        for episode in run.episodes
        for stored in episode.own_events  # a branch's prefix was timed in its parent
        if isinstance(stored.event, AgentReply) and stored.event.latency_s > 0
    ]
    return distribution(seconds) if seconds else None


def _by_role(run: RunView) -> dict[str, RoleCost]:
    sums: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(RoleCost.model_fields, 0))
    dollars: dict[str, list[float]] = defaultdict(list)
    for episode in run.episodes:
        for call in episode.model_calls:
            _add(sums[call.role], call)
            dollars[call.role].append(call.cost_usd)
    # Dollars are summed exactly (fsum), so the order of episodes cannot change a total.
    for role, values in dollars.items():
        sums[role]["cost_usd"] = math.fsum(values)
    return {role: RoleCost.model_validate(sums[role]) for role in sorted(sums)}


def _actions(episode: EpisodeView) -> dict[str, int]:
    counts = dict.fromkeys(CHANNELS, 0)
    for stored in episode.own_events:  # a branch's prefix was its parent's actions
        if isinstance(stored.event, UserMessage | WebAction | ApiCall):
            counts[stored.event.kind] += 1
    return counts


def _add(sums: dict[str, float], call: ModelCall) -> None:
    sums["calls"] += 1
    sums["failed_calls"] += call.error is not None
    sums["cache_hits"] += call.cache_hit
    if call.cache_hit:
        return  # served by the record/replay cache: no token was spent
    sums["input_tokens"] += call.usage.input_tokens
    sums["output_tokens"] += call.usage.output_tokens
    sums["cached_tokens"] += call.usage.cached_tokens


def _percentile(ordered: Sequence[float], q: float) -> float:
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return float(ordered[low] + (ordered[high] - ordered[low]) * (position - low))

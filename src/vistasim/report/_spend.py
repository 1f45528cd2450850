"""What a run spent and how long things took, by model role and by mode.

By role: the metered model calls (tokens, dollars, latency per call), plus the agent's replies
as the simulated user waited for them, which is the only latency there is for an agent that
makes no model call of its own (a rule agent, a product behind HTTP). By mode: the same sums
over the episodes played in each mode, with their replies' latency and wall time.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from vistasim.events import AgentReply
from vistasim.llm import ModelCall
from vistasim.metrics import CostReport, distribution
from vistasim.store import EpisodeView, RunView

__all__ = ["Spend", "spend_by_mode", "spend_by_role"]


@dataclass(frozen=True, kw_only=True)
class Spend:
    """Spending and latency of one role or one mode."""

    name: str
    calls: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    latency_p50: float | None
    """Seconds; `None` when nothing was timed."""
    latency_p95: float | None
    latency_of: str
    """What the latency times: `model calls` or `agent replies`."""
    episodes: int | None = None
    """Episodes played in the mode (by mode only)."""
    wall_p50: float | None = None
    """Median episode wall time in seconds (by mode only)."""


def spend_by_role(view: RunView, cost: CostReport) -> tuple[Spend, ...]:
    """Model calls per role, then the agent's replies as the user waited for them."""
    latencies: dict[str, list[float]] = defaultdict(list)
    for episode in view.episodes:
        for call in episode.model_calls:
            latencies[call.role].append(call.latency_s)
    rows = []
    for role, spent in cost.by_role.items():
        p50, p95 = _percentiles(latencies.get(role, []))
        rows.append(
            Spend(name=role, calls=spent.calls, input_tokens=spent.input_tokens,
                  output_tokens=spent.output_tokens, cost_usd=spent.cost_usd,
                  latency_p50=p50, latency_p95=p95, latency_of="model calls")
        )  # fmt: skip
    replies = [r.latency_s for e in view.episodes for r in _replies(e)]
    if replies:
        p50, p95 = _percentiles(replies)
        rows.append(
            Spend(name="agent replies", calls=len(replies), input_tokens=0, output_tokens=0,
                  cost_usd=0.0, latency_p50=p50, latency_p95=p95, latency_of="agent replies")
        )  # fmt: skip
    return tuple(rows)


def spend_by_mode(view: RunView) -> tuple[Spend, ...]:
    """Model calls and agent reply latency of the episodes of each mode."""
    modes: dict[str, list[EpisodeView]] = defaultdict(list)
    for episode in view.episodes:
        modes[episode.mode].append(episode)
    return tuple(_mode_row(mode, episodes) for mode, episodes in sorted(modes.items()))


def _mode_row(mode: str, episodes: list[EpisodeView]) -> Spend:
    calls: list[ModelCall] = [c for e in episodes for c in e.model_calls]
    spent = [c for c in calls if not c.cache_hit]
    walls = [
        e.ended_at - e.started_at
        for e in episodes
        if e.ended_at is not None and e.started_at is not None
    ]
    p50, p95 = _percentiles(r.latency_s for e in episodes for r in _replies(e))
    return Spend(
        name=mode,
        episodes=len(episodes),
        calls=len(calls),
        input_tokens=sum(c.usage.input_tokens for c in spent),
        output_tokens=sum(c.usage.output_tokens for c in spent),
        cost_usd=sum(c.cost_usd for c in calls),
        latency_of="agent replies",
        latency_p50=p50,
        latency_p95=p95,
        wall_p50=distribution(walls).p50 if walls else None,
    )


def _replies(episode: EpisodeView) -> Iterable[AgentReply]:
    # Own events only: a branch's prefix replies were its parent's wait.
    return (e.event for e in episode.own_events if isinstance(e.event, AgentReply))


def _percentiles(values: Iterable[float]) -> tuple[float | None, float | None]:
    seen = list(values)
    if not seen:
        return None, None
    summary = distribution(seen)
    return summary.p50, summary.p95

"""Task success: which episodes met their scenario's criteria, and how reliably (pass^k).

An episode passes or fails by the `criteria` judgment the runner writes before its stop event.
Errored episodes (infra errors) never pass nor fail; they are counted apart. pass^k uses linear
rollouts only: branches are directed, not random samples of the agent's behaviour.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from math import comb
from typing import Literal

from pydantic import BaseModel, ConfigDict

from vistasim.events import Judgment, StopReason
from vistasim.store._view import EpisodeView, RunView

__all__ = [
    "Outcome",
    "SuccessReport",
    "episode_outcome",
    "is_errored",
    "pass_hat_k",
    "success",
]

Outcome = Literal["passed", "failed", "errored", "unjudged"]
"""`unjudged`: the episode has no criteria judgment (still running, or interrupted)."""


class _Report(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModeSuccess(_Report):
    """Success of the linear rollouts of one mode."""

    passed: int
    judged: int
    success_rate: float | None
    """passed / judged; `None` when nothing was judged."""


class SuccessReport(_Report):
    """Success rate, pass^k and the counts behind them."""

    success_rate: float | None
    """Share of judged linear rollouts that passed; `None` when none was judged."""
    pass_hat_k: dict[int, float]
    """pass^k for k = 1..max rollouts, averaged over scenarios with at least k judged rollouts."""
    pass_hat_k_scenarios: dict[int, int]
    """How many scenarios each pass^k value averages over."""
    outcomes: dict[str, int]
    """Linear rollouts per outcome: passed, failed, errored, unjudged."""
    branch_outcomes: dict[str, int]
    """Branches per outcome (they never enter the success rate or pass^k)."""
    by_mode: dict[str, ModeSuccess]
    episodes: dict[str, Outcome]
    """Outcome of every episode, by episode id."""


def is_errored(episode: EpisodeView) -> bool:
    """Return whether an episode ended in an infra error (kept out of most metrics)."""
    return episode.status == "errored" or episode.stop_reason is StopReason.INFRA_ERROR


def episode_outcome(episode: EpisodeView) -> Outcome:
    """Return whether an episode passed, failed, errored, or has no criteria judgment yet.

    An infra-error stop means errored whatever the status says; an agent-error stop without a
    criteria judgment is a failure of the agent.
    """
    if is_errored(episode):
        return "errored"
    for stored in reversed(episode.events):
        event = stored.event
        if isinstance(event, Judgment) and event.judge == "criteria" and event.passed is not None:
            return "passed" if event.passed else "failed"
    return "failed" if episode.stop_reason is StopReason.AGENT_ERROR else "unjudged"


def pass_hat_k(trials: dict[str, tuple[int, int]]) -> tuple[dict[int, float], dict[int, int]]:
    """Return pass^k per k and the scenarios behind each value, from `{scenario: (n, c)}`.

    Uses the unbiased estimator C(c, k) / C(n, k) per scenario (n judged rollouts, c passed),
    averaged over the scenarios with n >= k.

    >>> pass_hat_k({"s1": (3, 2), "s2": (3, 3)})[0]
    {1: 0.8333333333333333, 2: 0.6666666666666666, 3: 0.5}
    """
    max_n = max((n for n, _ in trials.values()), default=0)
    values: dict[int, float] = {}
    counts: dict[int, int] = {}
    for k in range(1, max_n + 1):
        eligible = [(n, c) for n, c in trials.values() if n >= k]
        values[k] = sum(comb(c, k) / comb(n, k) for n, c in eligible) / len(eligible)
        counts[k] = len(eligible)
    return values, counts


def success(run: RunView) -> SuccessReport:
    """Compute success rate, pass^k and success by mode of a stored run."""
    outcomes = {episode.episode_id: episode_outcome(episode) for episode in run.episodes}
    linear = [e for e in run.episodes if e.branch_of is None]
    branches = [e for e in run.episodes if e.branch_of is not None]
    trials: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    modes: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for episode in linear:
        outcome = outcomes[episode.episode_id]
        if outcome in ("passed", "failed"):
            for tally in (trials[episode.scenario_id], modes[episode.mode]):
                tally[0] += 1
                tally[1] += outcome == "passed"
    values, counts = pass_hat_k({s: (n, c) for s, (n, c) in trials.items()})
    judged = sum(n for n, _ in trials.values())
    passed = sum(c for _, c in trials.values())
    return SuccessReport(
        success_rate=passed / judged if judged else None,
        pass_hat_k=values,
        pass_hat_k_scenarios=counts,
        outcomes=_tally(outcomes[e.episode_id] for e in linear),
        branch_outcomes=_tally(outcomes[e.episode_id] for e in branches),
        by_mode={
            mode: ModeSuccess(passed=c, judged=n, success_rate=c / n if n else None)
            for mode, (n, c) in sorted(modes.items())
        },
        episodes=outcomes,
    )


def _tally(outcomes: Iterable[Outcome]) -> dict[str, int]:
    counts = dict.fromkeys(("passed", "failed", "errored", "unjudged"), 0)
    for outcome in outcomes:
        counts[outcome] += 1
    return counts

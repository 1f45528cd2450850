"""Task success: which episodes met their scenario's criteria, and how reliably (pass^k).

Each episode's outcome comes from `metrics/_verdicts.py` (criteria, agent-failure detectors and
checks of the simulated user; see `metrics/_outcome.py`). Only `passed` and `failed` episodes are
judged: errored, invalid and not-applicable ones are counted apart, with their reasons. pass^k
uses linear rollouts only: branches are directed, not random samples of the agent's behaviour.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from math import comb

from pydantic import BaseModel, ConfigDict

from vistasim.metrics._outcome import OUTCOMES, Outcome, Verdict, classify, is_errored
from vistasim.store._view import EpisodeView, RunView

__all__ = [
    "Outcome",
    "SuccessReport",
    "episode_outcome",
    "is_errored",
    "pass_hat_k",
    "success",
]


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
    """Share of judged (passed or failed) linear rollouts that passed; `None` when none was."""
    pass_hat_k: dict[int, float]
    """pass^k for k = 1..max rollouts, averaged over scenarios with at least k judged rollouts."""
    pass_hat_k_scenarios: dict[int, int]
    """How many scenarios each pass^k value averages over."""
    outcomes: dict[str, int]
    """Linear rollouts per outcome: passed, failed, errored, invalid, not_applicable, unjudged."""
    branch_outcomes: dict[str, int]
    """Branches per outcome (they never enter the success rate or pass^k)."""
    by_mode: dict[str, ModeSuccess]
    episodes: dict[str, Outcome]
    """Outcome of every episode, by episode id."""
    reasons: dict[str, str] = {}
    """Why, for every episode that is not `passed` or `failed` (errored, invalid...)."""


def episode_outcome(episode: EpisodeView) -> Outcome:
    """Return an episode's outcome from its stop and criteria alone (no detectors).

    `success()` and `compute_metrics()` also weigh the detectors' findings and the checks of the
    simulated user; this is the quick verdict for one episode read on its own.
    """
    return classify(episode).outcome


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


def success(run: RunView, verdicts: Mapping[str, Verdict] | None = None) -> SuccessReport:
    """Compute success rate, pass^k and success by mode of a stored run.

    Args:
        run: The stored run.
        verdicts: Each episode's verdict (`find_all(run).verdicts`); default: computed here with
            the run's built-in domain rules, if any.
    """
    if verdicts is None:
        from vistasim.metrics._domain_rules import rules_for_run
        from vistasim.metrics._verdicts import find_all

        domain = rules_for_run(run)
        verdicts = find_all(
            run, rules=domain.rules, behaviour=domain.behaviour, disclosure=domain.disclosure
        ).verdicts
    outcomes = {e.episode_id: verdicts[e.episode_id].outcome for e in run.episodes}
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
        reasons={
            e: verdicts[e].reason
            for e, outcome in outcomes.items()
            if outcome not in ("passed", "failed")
        },
    )


def _tally(outcomes: Iterable[Outcome]) -> dict[str, int]:
    counts: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
    for outcome in outcomes:
        counts[outcome] += 1
    return counts

"""Outcome classes: every episode ends as exactly one of five; two say something of the agent.

- `passed`: the criteria held and no detector found an agent failure.
- `failed`: an agent failure — the agent errored, the criteria failed, or a detector named what
  the agent did wrong (a policy broken, a false claim) even where the end state looks right.
- `errored`: infrastructure failed (a model provider, the browser); nothing is known.
- `invalid`: the simulated user failed (`simulator_error`), could not follow the agent (it
  stopped because it could read none of the agent's replies for several turns), or a check of
  its own behaviour decided the result (it contradicted its facts and the agent acted on that;
  it changed the state itself; the agent never received a message).
- `not_applicable`: the scenario needs what the run's user policy cannot do; never played.

`unjudged` marks an episode still running or interrupted. Only `passed` and `failed` enter
success rate, pass^k, the failure catalogue and DIVERT's error counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from vistasim.events import Judgment, StopReason, UserMessage
from vistasim.store import EpisodeView

__all__ = [
    "CAUSE_KINDS",
    "LOST_USER",
    "OUTCOMES",
    "Outcome",
    "Verdict",
    "classify",
    "criteria_outcome",
    "is_errored",
]

Outcome = Literal["passed", "failed", "errored", "invalid", "not_applicable", "unjudged"]
OUTCOMES: tuple[Outcome, ...] = (
    "passed", "failed", "errored", "invalid", "not_applicable", "unjudged"
)  # fmt: skip
"""Every outcome, in the order reports list them."""

CAUSE_KINDS = frozenset({"policy", "behaviour", "claims"})
LOST_USER = "the simulated user could not follow the agent"
"""How the offline user's stop detail begins when it could read none of the agent's replies for
several turns: the episode says nothing of the agent."""
"""Failure kinds that name what the agent did wrong (a cause), not what the end state lacked."""


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """An episode's outcome and, in words, why."""

    outcome: Outcome
    reason: str


def is_errored(episode: EpisodeView) -> bool:
    """Return whether an episode ended in an infra error (kept out of most metrics)."""
    return episode.status == "errored" or episode.stop_reason is StopReason.INFRA_ERROR


def criteria_outcome(episode: EpisodeView) -> bool | None:
    """Return the criteria verdict of an episode (`None`: not judged)."""
    for stored in reversed(episode.events):
        event = stored.event
        if isinstance(event, Judgment) and event.judge == "criteria" and event.passed is not None:
            return event.passed
    return None


def classify(
    episode: EpisodeView,
    *,
    cause_labels: Sequence[str] = (),
    decisive_user: Sequence[str] = (),
) -> Verdict:
    """Return an episode's outcome from its stop, criteria, causes found and user checks.

    Args:
        episode: The stored episode.
        cause_labels: What the agent did wrong, per cause the detectors found in it.
        decisive_user: Descriptions of the user checks that decided its result.
    """
    stop = episode.stop
    reason = stop.reason if stop is not None else None
    if is_errored(episode):
        return Verdict(outcome="errored", reason=_why("infrastructure failed", stop))
    if reason is StopReason.NOT_APPLICABLE:
        return Verdict(outcome="not_applicable", reason=_why("not playable", stop))
    if reason is StopReason.SIMULATOR_ERROR:
        return Verdict(outcome="invalid", reason=_why("the simulated user failed", stop))
    if reason is StopReason.USER_STOP and stop is not None and stop.detail.startswith(LOST_USER):
        return Verdict(outcome="invalid", reason=stop.detail)
    reached = any(isinstance(s.event, UserMessage) for s in episode.events)
    passed = criteria_outcome(episode)
    if reason is StopReason.AGENT_ERROR and reached:
        return Verdict(outcome="failed", reason=_why("the agent errored", stop))
    if passed is None and reason is None:
        return Verdict(outcome="unjudged", reason="no criteria judgment yet")
    if decisive_user:
        return Verdict(outcome="invalid", reason="; ".join(dict.fromkeys(decisive_user)))
    if passed is False and reached:
        return Verdict(outcome="failed", reason="criteria not met")
    if passed is False:
        return Verdict(outcome="invalid", reason="criteria not met, but the agent got no message")
    if cause_labels and reached:
        labels = ", ".join(dict.fromkeys(cause_labels))
        return Verdict(outcome="failed", reason=f"criteria met, but the agent {labels}")
    if passed is None:
        return Verdict(outcome="unjudged", reason=_why("no criteria judgment", stop))
    return Verdict(outcome="passed", reason="criteria met")


def _why(what: str, stop: object) -> str:
    detail = getattr(stop, "detail", "")
    return f"{what}: {detail}" if detail else what

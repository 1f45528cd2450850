"""Why an episode ended as it did, in words: the verdict's reason, or the failures found in it.

One wording for every reader: the report's episodes, `vistasim show` and the end of a run.
"""

from __future__ import annotations

from vistasim.metrics import MetricsReport, UniqueFailure

__all__ = ["failures_by_episode", "why"]


def failures_by_episode(metrics: MetricsReport) -> dict[str, list[UniqueFailure]]:
    """Episode id -> the unique failures it shows, causes first (the catalogue's order)."""
    found: dict[str, list[UniqueFailure]] = {}
    for item in metrics.failures.unique:
        for episode_id in item.episodes:
            found.setdefault(episode_id, []).append(item)
    return found


def why(
    metrics: MetricsReport, episode_id: str, failures: list[UniqueFailure], *, shown: int = 3
) -> str:
    """Why the episode has its outcome: the verdict's reason, else its failures (`shown` of them).

    A passed episode has no reason: the empty string.
    """
    reason = metrics.success.reasons.get(episode_id)
    if reason:
        return reason
    described = [f.description for f in failures]
    more = len(described) - shown
    return "; ".join(described[:shown]) + (f"; and {more} more" if more > 0 else "")

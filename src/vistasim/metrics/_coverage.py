"""Coverage: did the simulated users drive the agent through diverse tool-use patterns?

Implements docs/architecture.md (Metrics): TransitionEntropy, ToolDistrEntropy and TrajDist over
the agent under test's tool calls, plus per-tool counts and the transition matrix for the
report's heatmap.

Errored episodes (infra errors) are left out: their trajectories were cut short by vistasim, not by
the simulated user. A branch shares its parent's prefix events; calls and transitions are counted
once per stored event, while TrajDist compares whole root-to-leaf trajectories.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from vistasim.events import ToolCall
from vistasim.metrics._outcome import is_errored
from vistasim.store._view import EpisodeView, RunView

__all__ = [
    "CoverageReport",
    "call_sequences",
    "coverage",
    "levenshtein",
    "tool_distr_entropy",
    "traj_dist",
    "transition_entropy",
]


class CoverageReport(BaseModel):
    """The three coverage metrics and the counts behind them."""

    model_config = ConfigDict(extra="forbid")

    n_tools: int
    """N: tools the environment offers (plus any unlisted tool the agent called), else observed."""
    n_tools_known: bool
    """Whether N came from the environment's tool list rather than from the observed calls."""
    tool_distr_entropy: float
    transition_entropy: float
    traj_dist: float | None
    """`None` when no goal has two or more episodes (nothing to compare)."""
    goals_compared: int
    """Goals (scenarios) with at least two episodes, the ones TrajDist averages over."""
    tool_calls: int
    """Distinct agent tool calls in the run."""
    tool_counts: dict[str, int]
    """Calls per tool, every offered tool listed (zero when never called)."""
    transitions: dict[str, dict[str, int]]
    """`transitions[a][b]`: how often tool `a` was immediately followed by tool `b`."""


def coverage(run: RunView) -> CoverageReport:
    """Compute the coverage metrics of a stored run."""
    episodes = [e for e in run.episodes if not is_errored(e)]
    calls = _distinct_calls(episodes)
    counts = Counter(call.name for call in calls.values())
    transitions = _transition_counts(episodes)
    offered = set(run.agent_tools or ())
    # An agent may call a tool the environment did not list; count it so values stay in [0, 1].
    tools = sorted(offered | set(counts))
    n_tools = len(tools)
    by_goal: dict[str, list[list[Hashable]]] = defaultdict(list)
    for episode, sequence in zip(episodes, call_sequences(episodes), strict=True):
        by_goal[episode.scenario_id].append(sequence)
    goals = [seqs for seqs in by_goal.values() if len(seqs) >= 2]
    return CoverageReport(
        n_tools=n_tools,
        n_tools_known=run.agent_tools is not None,
        tool_distr_entropy=tool_distr_entropy(counts, n_tools),
        transition_entropy=transition_entropy(transitions, n_tools),
        traj_dist=traj_dist(goals) if goals else None,
        goals_compared=len(goals),
        tool_calls=len(calls),
        tool_counts={tool: counts.get(tool, 0) for tool in tools},
        transitions={a: dict(sorted(row.items())) for a, row in sorted(transitions.items())},
    )


def tool_distr_entropy(counts: dict[str, int] | Counter[str], n_tools: int) -> float:
    """Return -sum_i q_i log q_i / log N, q_i the share of calls to tool i (0 when N <= 1).

    >>> tool_distr_entropy({"a": 1, "b": 1}, 2)
    1.0
    """
    total = sum(counts.values())
    if n_tools <= 1 or total == 0:
        return 0.0
    return _clamp(_entropy(counts.values(), total) / math.log2(n_tools))


def transition_entropy(transitions: dict[str, dict[str, int]], n_tools: int) -> float:
    """Return the mean over tools with outgoing transitions of their normalized next-tool entropy.

    >>> transition_entropy({"a": {"a": 1, "b": 1}, "b": {"a": 2}}, 2)
    0.5
    """
    rows = [row for _, row in sorted(transitions.items()) if sum(row.values()) > 0]
    if n_tools <= 1 or not rows:
        return 0.0
    log_n = math.log2(n_tools)
    total = math.fsum(_entropy(row.values(), sum(row.values())) / log_n for row in rows)
    return _clamp(total / len(rows))


def traj_dist(goals: Iterable[Sequence[Sequence[Hashable]]]) -> float:
    """Return the mean over goals of the mean normalized edit distance between episode pairs.

    Goals with fewer than two episodes are skipped; 0.0 when none is left.

    >>> traj_dist([[["a", "b"], ["a", "c"]]])
    0.5
    """
    means = [_mean_pair_distance(seqs) for seqs in goals if len(seqs) >= 2]
    # fsum rounds exactly once, so the order of goals and episodes cannot change the result.
    return _clamp(math.fsum(means) / len(means)) if means else 0.0


def call_sequences(episodes: Iterable[EpisodeView]) -> list[list[Hashable]]:
    """Return each episode's tool calls as hashable tokens: equal iff same name and same args.

    Arguments compare by canonical JSON (sorted keys): `{"a": 1, "b": 2}` equals `{"b": 2, "a": 1}`.
    """
    return [[_call_token(call) for call in _tool_calls(episode)] for episode in episodes]


def levenshtein(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Return the edit distance between two sequences (unit insert, delete and substitute costs).

    Uses the bit-parallel algorithm of Myers (1999) as extended by Hyyrö: one pass over `b` with a
    few integer operations per item, whatever the length of `a`.

    >>> levenshtein("kitten", "sitting")
    3
    """
    return _Pattern(a).distance(b)


class _Pattern:
    """A sequence prepared once (bit masks per item) to be compared with many others."""

    __slots__ = ("full", "high", "length", "masks")

    def __init__(self, items: Sequence[Hashable]) -> None:
        self.length = len(items)
        self.masks: dict[Hashable, int] = {}
        for i, item in enumerate(items):
            self.masks[item] = self.masks.get(item, 0) | (1 << i)
        self.full = (1 << self.length) - 1
        self.high = 1 << (self.length - 1) if items else 0

    def distance(self, other: Sequence[Hashable]) -> int:
        if not self.length:
            return len(other)
        masks, full, high = self.masks, self.full, self.high
        positive, negative, score = full, 0, self.length
        for item in other:
            eq = masks.get(item, 0)
            xv = eq | negative
            xh = (((eq & positive) + positive) ^ positive) | eq
            ph = negative | ~(xh | positive)
            mh = positive & xh
            if ph & high:
                score += 1
            elif mh & high:
                score -= 1
            ph = (ph << 1) | 1
            mh <<= 1
            positive = (mh | ~(xv | ph)) & full
            negative = ph & xv & full
        return score


def _mean_pair_distance(sequences: Sequence[Sequence[Hashable]]) -> float:
    # Identical trajectories are common (scripted agents), so compare distinct ones with weights.
    codes: dict[Hashable, int] = {}
    # Small ints hash faster than (name, args) tuples in the inner loop.
    distinct = Counter(tuple(codes.setdefault(x, len(codes)) for x in seq) for seq in sequences)
    items = list(distinct.items())
    # Sum the distances as exact integers per denominator (max length): no float per pair to keep
    # alive, and the same total whatever the order of the episodes.
    numerators: dict[int, int] = defaultdict(int)
    for i, (a, count_a) in enumerate(items):
        pattern = _Pattern(a)
        for b, count_b in items[i + 1 :]:
            numerators[max(len(a), len(b))] += count_a * count_b * pattern.distance(b)
    n = len(sequences)
    return math.fsum(num / den for den, num in sorted(numerators.items())) / (n * (n - 1) / 2)


def _distinct_calls(episodes: Iterable[EpisodeView]) -> dict[int, ToolCall]:
    calls: dict[int, ToolCall] = {}
    for episode in episodes:
        for stored in episode.events:
            if isinstance(stored.event, ToolCall):
                calls[stored.id] = stored.event
    return calls


def _transition_counts(episodes: Iterable[EpisodeView]) -> dict[str, dict[str, int]]:
    seen: set[tuple[int, int]] = set()
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for episode in episodes:
        calls = [(s.id, s.event) for s in episode.events if isinstance(s.event, ToolCall)]
        for (id_a, call_a), (id_b, call_b) in zip(calls, calls[1:], strict=False):
            # A branch repeats its parent's prefix: count each stored transition once.
            if (id_a, id_b) not in seen:
                seen.add((id_a, id_b))
                counts[call_a.name][call_b.name] += 1
    return {a: dict(row) for a, row in counts.items()}


def _tool_calls(episode: EpisodeView) -> list[ToolCall]:
    return [s.event for s in episode.events if isinstance(s.event, ToolCall)]


def _call_token(call: ToolCall) -> tuple[str, str]:
    args = json.dumps(call.args, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return (call.name, args)


def _entropy(counts: Iterable[int], total: int) -> float:
    # Sorted and exactly summed: the same counts in any order give the same bits.
    return -math.fsum(c / total * math.log2(c / total) for c in sorted(counts) if c > 0)


def _clamp(value: float) -> float:
    # Floating-point sums can overshoot the bounds by an ulp; the metric is defined in [0, 1].
    return min(1.0, max(0.0, value))

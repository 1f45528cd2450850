"""DIVERT efficiency: errors per agent token, token savings and shared prefixes.

See docs/architecture.md, Metrics.

Agent tokens count only what was actually generated or processed: a branch restores its prefix,
so it never pays for the requests before its fork again. They are metered from the agent's model
calls (role `agent`, served-from-cache calls excluded) when the run has any; otherwise they are
the labelled proxy: the request digests attached to each episode's own `AgentReply` events (the
requests an LLM agent would have received, counted with the bundled tokenizer).

The other measures read the request digests (`AgentReply.requests`) on both kinds of run:

- the **linear equivalent**: the tokens a linear protocol would spend for the same episodes, that
  is every episode's whole root-to-leaf path of requests, a branch's prefix counted again; token
  savings = 1 - spent / linear equivalent, both counted from the digests;
- the **exact shared-prefix fraction**: for each request, in the order the store wrote them, the
  longest prefix boundary whose hash an earlier request of *another* episode reached (what a KV
  cache could reuse across episodes; growth within one conversation does not count), summed over
  input tokens, with and without the fixed head (system prompt and tools).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict

from vistasim.events import AgentReply, RequestDigest
from vistasim.store import EpisodeView, RunView, StoredEvent

__all__ = ["Efficiency", "OperationYield", "efficiency"]


class OperationYield(BaseModel):
    """What the branches that played one operation found."""

    model_config = ConfigDict(extra="forbid")

    branches: int
    failed_episodes: int
    unique_failures: int
    """Distinct failures some branch of this operation shows."""
    new_causes: int
    """Named causes only branches show, one of them of this operation."""


class Efficiency(BaseModel):
    """DIVERT's efficiency measures of one run."""

    model_config = ConfigDict(extra="forbid")

    agent_tokens: int
    """Input plus output tokens the agent spent (metered, or the proxy; see the source)."""
    agent_tokens_source: Literal["metered", "proxy", "none"]
    """`metered` (the agent's model calls), `proxy` (request digests of an agent that made no
    model call, bundled tokenizer) or `none` (neither is known: the token measures are `None`)."""
    failed_episodes: int
    """Episodes with outcome `failed`, branches included."""
    unique_failures: int
    """Distinct failures of the catalogue (named causes and unexplained symptoms) in the run."""
    new_causes: int
    """Named causes that only branches show: no linear rollout of the run shows them."""
    unique_failures_per_100k_agent_tokens: float | None
    """unique_failures / (agent_tokens / 1e5): what exploration is for, per token spent."""
    by_operation: dict[str, OperationYield] = {}
    """Branches by the operation they played (`hesitate`, `correct`, `llm`...)."""
    err_per_100k_agent_tokens: float | None
    """failed_episodes / (agent_tokens / 1e5); `None` without agent tokens."""
    task_failure_count: int
    """Scenarios with at least one failed episode."""
    requests: int
    """Agent requests with a digest, each counted once (by the episode that sent it)."""
    digest_tokens: int
    """Input plus output tokens of those requests, by the bundled tokenizer."""
    linear_equivalent_tokens: int | None
    """Tokens (bundled tokenizer) a linear protocol would spend for the same episodes: each
    episode's whole path of requests, a branch's prefix included; `None` without digests."""
    token_savings: float | None
    """1 - digest_tokens / linear_equivalent_tokens; `None` without digests."""
    shared_prefix_fraction: float | None
    """Share of request input tokens in a prefix already sent by another episode."""
    shared_prefix_fraction_without_head: float | None
    """The same without the fixed head (system prompt and tool schemas) on either side."""
    branches: int
    overhead_tokens_per_branch: float | None
    """Mean tokens the branching itself cost (junction chooser, candidate generator) per branch."""
    overhead_share: float | None
    """Branching overhead / (agent tokens + branching overhead)."""
    branch_status: dict[str, int]
    """Branches per status (`done`, `converged`, `diverged`, `abandoned`...)."""


def efficiency(
    run: RunView,
    outcomes: Mapping[str, str],
    *,
    only: Collection[str] | None = None,
    failures: Mapping[str, Collection[str]] | None = None,
    causes: Collection[str] = (),
) -> Efficiency:
    """Compute DIVERT's efficiency measures of a run.

    Args:
        run: The stored run.
        outcomes: Outcome of each episode by id (`passed`, `failed`, `errored`, `invalid`,
            `not_applicable`); only `failed` counts as an error.
        only: Count the shared-prefix fractions over these episodes' requests (every
            episode's requests still count as earlier ones), e.g. the branches alone.
        failures: The catalogue's distinct failures: id -> the episodes that show it.
        causes: Which of those ids are named causes (the rest are symptoms).
    """
    metered = [
        call
        for episode in run.episodes
        for call in episode.model_calls
        if call.role == "agent" and not call.cache_hit
    ]
    own = [(e.episode_id, d) for e in run.episodes for d in _digests(e.own_events)]
    digest_tokens = sum(_tokens(d) for _, d in own)
    source: Literal["metered", "proxy", "none"]
    if metered:
        source = "metered"
        agent_tokens = sum(c.usage.input_tokens + c.usage.output_tokens for c in metered)
    elif own:
        source, agent_tokens = "proxy", digest_tokens
    else:
        source, agent_tokens = "none", 0
    linear = sum(_tokens(d) for e in run.episodes for d in _digests(e.events)) if own else None
    failed = {e.episode_id for e in run.episodes if outcomes.get(e.episode_id) == "failed"}
    scenarios = {e.scenario_id for e in run.episodes if e.episode_id in failed}
    overheads = [b.overhead_tokens for b in run.branches]
    overhead = sum(overheads)
    shared, shared_without_head = _shared_prefix(run.episodes, only)
    found = {k: set(v) for k, v in (failures or {}).items() if v}
    new = _new_causes(run, found, set(causes))
    return Efficiency(
        agent_tokens=agent_tokens,
        agent_tokens_source=source,
        failed_episodes=len(failed),
        unique_failures=len(found),
        new_causes=len(new),
        unique_failures_per_100k_agent_tokens=(
            len(found) / (agent_tokens / 1e5) if agent_tokens else None
        ),
        by_operation=_by_operation(run, failed, found, new),
        err_per_100k_agent_tokens=len(failed) / (agent_tokens / 1e5) if agent_tokens else None,
        task_failure_count=len(scenarios),
        requests=len(own),
        digest_tokens=digest_tokens,
        linear_equivalent_tokens=linear,
        token_savings=1 - digest_tokens / linear if linear else None,
        shared_prefix_fraction=shared,
        shared_prefix_fraction_without_head=shared_without_head,
        branches=len(run.branches),
        overhead_tokens_per_branch=overhead / len(overheads) if overheads else None,
        overhead_share=(
            overhead / (agent_tokens + overhead) if overheads and agent_tokens + overhead else None
        ),
        branch_status=dict(sorted(Counter(b.status for b in run.branches).items())),
    )


def _new_causes(run: RunView, found: Mapping[str, set[str]], causes: set[str]) -> set[str]:
    """Named causes that no linear rollout shows (a run without branches has none)."""
    linear = {e.episode_id for e in run.episodes if e.branch_of is None}
    return {k for k, shown in found.items() if k in causes and not shown & linear}


def _by_operation(
    run: RunView, failed: set[str], found: Mapping[str, set[str]], new: set[str]
) -> dict[str, OperationYield]:
    played: dict[str, set[str]] = {}
    for branch in run.branches:
        played.setdefault(branch.operation, set()).add(branch.episode_id)
    return {
        op: OperationYield(
            branches=len(episodes),
            failed_episodes=len(episodes & failed),
            unique_failures=sum(bool(shown & episodes) for shown in found.values()),
            new_causes=sum(bool(found[k] & episodes) for k in new),
        )
        for op, episodes in sorted(played.items())
    }


def _digests(events: Iterable[StoredEvent]) -> list[RequestDigest]:
    return [d for e in events if isinstance(e.event, AgentReply) for d in e.event.requests]


def _tokens(digest: RequestDigest) -> int:
    return digest.input_tokens + digest.output_tokens


def _shared_prefix(
    episodes: Iterable[EpisodeView], only: Collection[str] | None = None
) -> tuple[float | None, float | None]:
    """Return the shared-prefix fractions with and without the head (`None` without requests)."""
    ordered = sorted(
        (
            (stored.id, episode.episode_id, stored.event.requests)
            for episode in episodes
            for stored in episode.own_events
            if isinstance(stored.event, AgentReply) and stored.event.requests
        ),
        key=lambda item: item[0],
    )
    first: dict[str, str] = {}
    """Each boundary hash seen, with the first episode that reached it."""
    several: set[str] = set()
    """Boundary hashes reached by more than one episode."""
    shared = total = shared_body = total_body = 0
    for _, episode_id, requests in ordered:
        for digest in requests:
            reused = next(
                (
                    tokens
                    for hash_, tokens in reversed(digest.prefix)
                    if hash_ in several or first.get(hash_, episode_id) != episode_id
                ),
                0,
            )
            if only is None or episode_id in only:
                shared += reused
                total += digest.input_tokens
                shared_body += max(reused - digest.head_tokens, 0)
                total_body += digest.input_tokens - digest.head_tokens
            for hash_, _ in digest.prefix:
                if first.setdefault(hash_, episode_id) != episode_id:
                    several.add(hash_)
    return (shared / total if total else None, shared_body / total_body if total_body else None)

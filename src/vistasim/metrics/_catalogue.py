"""The failure catalogue: detect failures, optionally ask a judge, fold them into unique ones.

This chains `metrics/_verdicts.py` (finding, and each episode's outcome) and `metrics/_dedup.py`
(folding) into the one `FailureCatalogue` a report shows, recording what each judge call cost and
where it failed. Only findings of `failed` episodes enter: an episode the simulated user spoiled
(`invalid`) or the infrastructure lost (`errored`) says nothing about the agent. Policy,
behavioural and say-versus-do failures are the *named causes* (what the agent did wrong); they
come first, each once, and a symptom (a failed check, a tool error) whose episodes all show one
cause is linked to it, so one flaw reads as one entry with its consequences.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from vistasim.errors import MissingExtraError
from vistasim.llm._embed import Embedder, WordLlamaEmbedder
from vistasim.llm._types import ChatModel
from vistasim.metrics._behaviour import DETECTORS as BEHAVIOUR_DETECTORS
from vistasim.metrics._behaviour import BehaviourSpec
from vistasim.metrics._claims import CLAIM_DETECTORS
from vistasim.metrics._dedup import (
    DEFAULT_THRESHOLD,
    UniqueFailure,
    cluster_failures,
    merge_with_judge,
)
from vistasim.metrics._disclosure import DisclosureRule
from vistasim.metrics._duties import DUTY_DETECTORS
from vistasim.metrics._failures import PolicyRule, judge_failures
from vistasim.metrics._judge import JudgeError
from vistasim.metrics._limits import LIMIT_DETECTORS
from vistasim.metrics._outcome import CAUSE_KINDS
from vistasim.metrics._partial import PARTIAL_DETECTORS
from vistasim.metrics._quotes import QUOTE_DETECTORS
from vistasim.metrics._secrets_shown import SECRET_DETECTORS
from vistasim.metrics._verdicts import RunFindings, find_all
from vistasim.store._view import RunView

__all__ = ["FailureCatalogue", "catalogue_failures", "default_embedder"]

_GENERIC = frozenset(
    {*CLAIM_DETECTORS, *DUTY_DETECTORS, *QUOTE_DETECTORS, *PARTIAL_DETECTORS,
     *LIMIT_DETECTORS, *BEHAVIOUR_DETECTORS, *SECRET_DETECTORS, "shown-to-non-owner",
     "shown-unverified"}
)  # fmt: skip
"""Labels of the detectors that need no product rules; any other policy label is a rule's."""


class FailureCatalogue(BaseModel):
    """Failures found in a run, deduplicated into unique failures."""

    model_config = ConfigDict(extra="forbid")

    failures: int
    """Failures detected over all episodes, before deduplication."""
    by_kind: dict[str, int]
    """Failures detected per kind (criteria, policy, tool_error, api_error, agent_error, judge)."""
    unique: list[UniqueFailure]
    """The catalogue: named causes first, then symptoms; most frequent first within each."""
    causes: list[str] = []
    """Ids of the named causes (policy and behavioural failures), in catalogue order."""
    explained_by: dict[str, str] = {}
    """Symptom id -> id of the one cause present in every episode of the symptom."""
    covered: list[str] = []
    """Symptoms whose every episode shows a named cause, one or several (a superset of
    `explained_by`'s keys): an end state the causes account for, not a failure of its own."""
    distinct: int = 0
    """Distinct failures: the causes, plus the symptoms no cause covers."""
    embedder: str | None
    """Embedder used to fold paraphrases; `None`: only identical wording was folded."""
    threshold: float
    judge_calls: int
    """Calls of the LLM failure judge and of the LLM merge, repairs included."""
    judge_errors: list[JudgeError]


async def catalogue_failures(
    run: RunView,
    *,
    rules: Sequence[PolicyRule] = (),
    behaviour: BehaviourSpec | None = None,
    disclosure: Sequence[DisclosureRule] = (),
    findings: RunFindings | None = None,
    embedder: Embedder | None = None,
    failure_judge: ChatModel | None = None,
    merge_judge: ChatModel | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    max_concurrency: int = 8,
) -> FailureCatalogue:
    """Detect a run's failures and fold them into unique failures.

    Args:
        run: The stored run.
        rules: Policy rules checked on every episode.
        behaviour: Values, write tools and phrasing of the product for the behavioural and
            say-versus-do detectors; `None`: generic (id-like values, tools named like reads).
        disclosure: Read tools whose results only the record's owner may be shown.
        findings: What `find_all` found (it is run here when not given).
        embedder: Embedder that folds paraphrases; `None`: identical wording only (see
            `default_embedder()`).
        failure_judge: An LLM judge that also reads every episode for failures (one call each).
        merge_judge: An LLM judge that says which unique failures are one flaw (one call per 25).
        threshold: Cosine similarity at which free-text failures are folded together.
        max_concurrency: Judge calls in flight at once.
    """
    if findings is None:
        findings = find_all(run, rules=rules, behaviour=behaviour, disclosure=disclosure)
    failures = findings.of_failed_episodes()
    errors: list[JudgeError] = []
    calls = 0
    if failure_judge is not None:
        judged, errors, calls = await judge_failures(
            run, failure_judge, max_concurrency=max_concurrency
        )
        failed = {e for e, v in findings.verdicts.items() if v.outcome == "failed"}
        failures = [*failures, *(f for f in judged if f.episode_id in failed)]
    unique = cluster_failures(failures, embedder, threshold=threshold)
    causes = [u for u in unique if u.kind in CAUSE_KINDS]
    symptoms = [u for u in unique if u.kind not in CAUSE_KINDS]
    if merge_judge is not None:
        # Causes are named by rule or detector already; only free symptoms may fold further.
        symptoms, merge_errors, merge_calls = await merge_with_judge(symptoms, merge_judge)
        errors, calls = [*errors, *merge_errors], calls + merge_calls
    causes.sort(key=lambda u: (-len(u.episodes), u.id))
    causes, restated = _fold_restated(causes)
    symptoms = [*restated, *symptoms]
    reach = _reach(run, causes)
    explained = {**_explained(reach, symptoms), **_ruled_links(causes, restated)}
    # Two causes in every episode of a symptom: which one it shows is not said, but it is no
    # flaw of its own (counted, a move both misquoted and claimed made a third failure).
    covered = [s.id for s in symptoms if s.id in explained or _covered(s, reach)]
    return FailureCatalogue(
        failures=len(failures),
        by_kind=dict(sorted(Counter(f.kind for f in failures).items())),
        unique=[*causes, *symptoms],
        causes=[u.id for u in causes],
        explained_by=explained,
        covered=covered,
        distinct=len(causes) + len(symptoms) - len(covered),
        embedder=embedder.name if embedder is not None else None,
        threshold=threshold,
        judge_calls=calls,
        judge_errors=errors,
    )


def _fold_restated(
    causes: list[UniqueFailure],
) -> tuple[list[UniqueFailure], list[UniqueFailure]]:
    """Split off generic findings that a product rule already names, event for event.

    "Moved an exam without stating the fee and getting a yes" (the product's rule) and "charged
    a fee it never told the user about" (a generic duty) citing the same move in every episode
    are one flaw: the rule names it, the generic finding is listed under it.
    """
    kept, restated = [], []
    for cause in causes:
        # Only generic *duties* (a fee unstated, a change before the identity check) can be a
        # product rule's own flaw; a wrong value or a false claim beside it is another flaw.
        if cause.kind == "policy" and cause.label in _GENERIC and _ruled_by(cause, causes):
            restated.append(cause)
        else:
            kept.append(cause)
    return kept, restated


def _ruled_by(cause: UniqueFailure, causes: Sequence[UniqueFailure]) -> UniqueFailure | None:
    for rule in causes:
        if rule.kind == "policy" and rule.label not in _GENERIC and all(
            set(events) & set(rule.evidence.get(episode, ()))
            for episode, events in cause.evidence.items()
        ) and cause.evidence:
            return rule
    return None


def _ruled_links(
    causes: Sequence[UniqueFailure], restated: Sequence[UniqueFailure]
) -> dict[str, str]:
    links = {}
    for finding in restated:
        rule = _ruled_by(finding, causes)
        if rule is not None:
            links[finding.id] = rule.id
    return links


def _reach(run: RunView, causes: Sequence[UniqueFailure]) -> dict[str, set[str]]:
    """Per cause, the episodes whose path holds its evidence: its own, and branches of them.

    A branch forked after the agent's false "Done" inherits the state it left: the branch's
    unmet criteria are that cause's symptom, though the cause was counted in the parent only.
    """
    paths = {e.episode_id: {s.id for s in e.events} for e in run.episodes}
    reach = {}
    for cause in causes:
        evidence = {i for ids in cause.evidence.values() for i in ids}
        on_path = {e for e, ids in paths.items() if evidence & ids} if evidence else set()
        reach[cause.id] = set(cause.episodes) | on_path
    return reach


def _covered(symptom: UniqueFailure, reach: dict[str, set[str]]) -> bool:
    return any(set(symptom.episodes) <= episodes for episodes in reach.values())


def _explained(reach: dict[str, set[str]], symptoms: Sequence[UniqueFailure]) -> dict[str, str]:
    """Link each symptom to the one cause that shows up in every episode of the symptom."""
    links: dict[str, str] = {}
    for symptom in symptoms:
        covering = [c for c, episodes in reach.items() if set(symptom.episodes) <= episodes]
        if len(covering) == 1:
            links[symptom.id] = covering[0]
    return links


def default_embedder() -> Embedder | None:
    """Return the offline WordLlama embedder, or `None` when `wordllama` is not installed."""
    embedder = WordLlamaEmbedder()
    try:
        embedder.embed(["probe"])
    except MissingExtraError:
        return None
    return embedder

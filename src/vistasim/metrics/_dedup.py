"""Unique failures: fold the failures of many episodes into a catalogue of distinct flaws.

Two findings are one *atom* only when they are the same flaw by construction: the same named
cause (a policy rule, a behavioural or say-versus-do detector: same kind and label), the same
criteria check with the same tool and arguments (a forbidden `cancel_order(W1003)` and one of
`W1010` stay apart), or the same error of the same tool (ids and numbers masked). Atoms are
embedded and clustered by average linkage at a cosine threshold, but only free text (agent error
details, the LLM judge's descriptions) may join a cluster by similarity: generated wording never
merges by embedding. An optional LLM merge (one call per batch of clusters) can still fold
paraphrased free-text flaws.

A unique failure's id hashes its representative's canonical wording, so reruns give the same ids.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    import numpy as np

from vistasim.llm._embed import Embedder
from vistasim.llm._types import ChatModel
from vistasim.metrics._failures import Failure
from vistasim.metrics._judge import JudgeError, JudgeFailed, ask_json, load_prompt

__all__ = ["UniqueFailure", "cluster_failures", "merge_with_judge", "normalize_description"]

DEFAULT_THRESHOLD = 0.6
"""Cosine similarity above which free-text failures join (tuned on WordLlama: paraphrases of one
flaw score 0.6-0.7, different flaws below 0.45)."""

_KIND_ORDER = (
    "criteria", "policy", "behaviour", "claims", "tool_error", "api_error", "agent_error", "judge"
)  # fmt: skip
_NAMED_CAUSES = frozenset({"policy", "behaviour", "claims"})
_FREE_TEXT = {"agent_error": "agent_error", "judge": None}
"""Kinds whose text comes from outside: the group they may merge within (`None`: any group)."""
_ID_LIKE = re.compile(r"\b\w*\d\w*\b")
_MERGE_BATCH = 25


class UniqueFailure(BaseModel):
    """One distinct flaw, with every episode and event that shows it."""

    model_config = ConfigDict(extra="forbid")

    id: str
    """Stable id: a hash of the representative's canonical wording."""
    description: str
    """The representative failure's description."""
    kind: str
    label: str
    failures: int
    """Failures folded into this one."""
    episodes: list[str]
    scenarios: list[str]
    event_ids: list[int]
    variants: list[str]
    """Distinct descriptions folded in (at most 20), most frequent first."""
    evidence: dict[str, list[int]] = {}
    """Episode id -> the events of that episode that show the failure."""


@dataclass(frozen=True, kw_only=True)
class _Atom:
    key: str
    """`kind|label|normalized description`: failures with one key are one flaw."""
    text: str
    kind: str
    group: str | None
    failures: tuple[Failure, ...]

    @property
    def rank(self) -> tuple[int, int, str]:
        return (_KIND_ORDER.index(self.kind), -len(self.failures), self.key)


def normalize_description(text: str) -> str:
    """Mask ids and numbers, so the same flaw on another order reads the same.

    >>> normalize_description("order W1007 not found after 30 s")
    'order # not found after # s'
    """
    return " ".join(_ID_LIKE.sub("#", text).split())


def cluster_failures(
    failures: Sequence[Failure],
    embedder: Embedder | None,
    *,
    threshold: float = DEFAULT_THRESHOLD,
) -> list[UniqueFailure]:
    """Fold failures into unique failures; with no embedder only identical wording is folded."""
    atoms = _atoms(failures)
    if embedder is None or len(atoms) < 2:
        clusters = [[atom] for atom in atoms]
    else:
        clusters = _agglomerate(atoms, embedder, threshold)
    return _catalogue(clusters)


async def merge_with_judge(
    unique: Sequence[UniqueFailure],
    judge: ChatModel,
    *,
    max_repairs: int = 2,
) -> tuple[list[UniqueFailure], list[JudgeError], int]:
    """Ask the judge which unique failures are one flaw, one call per batch of 25.

    Returns:
        The merged catalogue, judge errors (batches left unmerged) and the number of calls.
    """
    merged: list[UniqueFailure] = []
    errors: list[JudgeError] = []
    calls = 0
    for start in range(0, len(unique), _MERGE_BATCH):
        batch = list(unique[start : start + _MERGE_BATCH])
        if len(batch) < 2:
            merged.extend(batch)
            continue
        listing = "\n".join(f"{i}. {item.description}" for i, item in enumerate(batch))
        prompt = load_prompt("merge", failures=listing, last=str(len(batch) - 1))
        try:
            answer = await ask_json(
                judge, prompt, _partition_validator(len(batch)), max_repairs=max_repairs
            )
        except JudgeFailed as exc:
            errors.append(
                JudgeError(
                    judge="merge",
                    item=f"failures {start}-{start + len(batch) - 1}",
                    error=str(exc),
                    calls=exc.calls,
                )
            )
            merged.extend(batch)
            calls += exc.calls
            continue
        calls += answer.calls
        merged.extend(_fold([[batch[i] for i in group] for group in answer.value]))
    return sorted(merged, key=_order), errors, calls


def _atoms(failures: Sequence[Failure]) -> list[_Atom]:
    by_key: dict[str, list[Failure]] = defaultdict(list)
    for failure in failures:
        by_key[f"{failure.kind}|{failure.label}|{_identity(failure)}"].append(failure)
    atoms = []
    for key, members in sorted(by_key.items()):
        kind = members[0].kind
        group = _FREE_TEXT[kind] if kind in _FREE_TEXT else key
        text = key.split("|", 2)[2]
        # Embed only the varying part: a shared prefix makes every agent error look alike.
        text = text.removeprefix("agent error: ") if kind == "agent_error" else text
        atoms.append(_Atom(key=key, text=text, kind=kind, group=group, failures=tuple(members)))
    return atoms


def _identity(failure: Failure) -> str:
    """What makes two findings of one kind and label the same flaw."""
    if failure.kind in _NAMED_CAUSES:
        return failure.description
    if failure.kind == "criteria":
        return " ".join(failure.description.split())  # the check names its tool and arguments
    return normalize_description(failure.description)


def _agglomerate(atoms: list[_Atom], embedder: Embedder, threshold: float) -> list[list[_Atom]]:
    import numpy as np

    vectors = np.asarray(embedder.embed([atom.text for atom in atoms]), dtype=np.float64)
    clusters: list[list[_Atom]] = []
    # Average linkage never joins clusters without one member pair above the threshold, so each
    # connected component of the "similar and compatible" graph is clustered on its own.
    for component in _components(atoms, vectors, threshold):
        clusters.extend(
            _average_linkage([atoms[i] for i in component], vectors[component], threshold)
        )
    return clusters


def _components(atoms: list[_Atom], vectors: object, threshold: float) -> list[list[int]]:
    import numpy as np

    matrix = np.asarray(vectors)
    parent = list(range(len(atoms)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    free = [i for i, atom in enumerate(atoms) if atom.kind in _FREE_TEXT]
    # Only a free-text atom can join another one, so only its rows need comparing.
    for i in free:
        sims = matrix @ matrix[i]
        for j in np.nonzero(sims >= threshold)[0].tolist():
            if j != i and _compatible(atoms[i].group, atoms[j].group):
                parent[find(j)] = find(i)
    components: dict[int, list[int]] = defaultdict(list)
    for i in range(len(atoms)):
        components[find(i)].append(i)
    return sorted(components.values())


def _average_linkage(atoms: list[_Atom], vectors: object, threshold: float) -> list[list[_Atom]]:
    import numpy as np

    matrix = np.asarray(vectors)
    sums = matrix @ matrix.T
    sizes = np.ones(len(atoms))
    groups: list[str | None] = [atom.group for atom in atoms]
    members: list[list[_Atom] | None] = [[atom] for atom in atoms]
    # Mean similarity between clusters; -inf where a merge is not allowed (or a cluster is gone).
    average = np.where(_allowed(groups, members), sums, -np.inf)
    while True:
        # argmax takes the first maximum in index order: ties resolve the same way every run.
        i, j = divmod(int(np.argmax(average)), len(atoms))
        if average[i, j] < threshold:
            return [m for m in members if m is not None]
        i, j = min(i, j), max(i, j)
        sums[i, :] += sums[j, :]
        sums[:, i] += sums[:, j]
        sizes[i] += sizes[j]
        groups[i] = groups[i] if groups[i] is not None else groups[j]
        members[i] = [*(members[i] or []), *(members[j] or [])]
        members[j] = None
        average[j, :] = average[:, j] = -np.inf
        row = np.where(_allowed(groups, members, i), sums[i, :] / (sizes[i] * sizes), -np.inf)
        average[i, :] = average[:, i] = row


def _allowed(
    groups: list[str | None], members: list[list[_Atom] | None], row: int | None = None
) -> np.ndarray:
    """Return which cluster pairs may merge (all pairs, or those of one `row` cluster)."""
    import numpy as np

    rows = range(len(groups)) if row is None else [row]
    allowed = np.array(
        [
            [
                k != r and members[k] is not None and _compatible(groups[r], groups[k])
                for k in range(len(groups))
            ]
            for r in rows
        ],
        dtype=bool,
    )
    return allowed if row is None else allowed[0]


def _compatible(a: str | None, b: str | None) -> bool:
    return a is None or b is None or a == b


def _catalogue(clusters: list[list[_Atom]]) -> list[UniqueFailure]:
    unique = []
    for cluster in clusters:
        atoms = sorted(cluster, key=lambda atom: atom.rank)
        failures = [f for atom in atoms for f in atom.failures]
        variants = Counter(f.description for f in failures)
        representative = atoms[0]
        unique.append(
            UniqueFailure(
                id="F" + hashlib.sha256(representative.key.encode()).hexdigest()[:10],
                description=min(f.description for f in representative.failures),
                kind=representative.kind,
                label=representative.failures[0].label,
                failures=len(failures),
                episodes=sorted({f.episode_id for f in failures}),
                scenarios=sorted({f.scenario_id for f in failures}),
                event_ids=sorted({i for f in failures for i in f.event_ids}),
                variants=[
                    text for text, _ in sorted(variants.items(), key=lambda v: (-v[1], v[0]))
                ][:20],
                evidence=_evidence(failures),
            )
        )
    return sorted(unique, key=_order)


def _fold(groups: list[list[UniqueFailure]]) -> list[UniqueFailure]:
    folded = []
    for group in groups:
        ordered = sorted(group, key=lambda u: (_KIND_ORDER.index(u.kind), -u.failures, u.id))
        variants = list(dict.fromkeys(v for u in ordered for v in u.variants))
        folded.append(
            ordered[0].model_copy(
                update={
                    "failures": sum(u.failures for u in group),
                    "episodes": sorted({e for u in group for e in u.episodes}),
                    "scenarios": sorted({s for u in group for s in u.scenarios}),
                    "event_ids": sorted({i for u in group for i in u.event_ids}),
                    "variants": variants[:20],
                    "evidence": _merged_evidence(group),
                }
            )
        )
    return folded


def _evidence(failures: Sequence[Failure]) -> dict[str, list[int]]:
    by_episode: dict[str, set[int]] = defaultdict(set)
    for failure in failures:
        by_episode[failure.episode_id].update(failure.event_ids)
    return {e: sorted(ids) for e, ids in sorted(by_episode.items())}


def _merged_evidence(group: Sequence[UniqueFailure]) -> dict[str, list[int]]:
    by_episode: dict[str, set[int]] = defaultdict(set)
    for unique in group:
        for episode, ids in unique.evidence.items():
            by_episode[episode].update(ids)
    return {e: sorted(ids) for e, ids in sorted(by_episode.items())}


def _order(unique: UniqueFailure) -> tuple[int, str]:
    return (-unique.failures, unique.id)


def _partition_validator(size: int) -> Callable[[object], list[list[int]]]:
    def validate(data: object) -> list[list[int]]:
        groups = data.get("groups") if isinstance(data, dict) else None
        if not isinstance(groups, list) or not all(
            isinstance(g, list) and all(isinstance(i, int) for i in g) for g in groups
        ):
            raise ValueError('Answer {"groups": [[...], ...]}: a list of lists of numbers.')
        numbers = sorted(i for g in groups for i in g)
        if numbers != list(range(size)):
            raise ValueError(
                f"Every number from 0 to {size - 1} must appear in exactly one group;"
                f" got {numbers!r}."
            )
        return [sorted(g) for g in groups if g]

    return validate

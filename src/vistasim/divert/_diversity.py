"""Keep one candidate per junction: the least like the original (the paper), the most novel, or any.

Candidates all keep the scenario's intent, so the one furthest from the original in embedding
space is the one most likely to take the agent somewhere the original path did not go
(`MostDiverse`, DIVERT's argmin cosine). `NoveltySelector` also keeps away from the junction's
siblings and from actions that already failed for a known cause, weighted by how new the
candidate's operation is (`_novelty`); `RandomSelector` is the ablation without either.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import anyio.to_thread

from vistasim.divert._types import Candidate, Selection
from vistasim.llm import Embedder

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "AsyncEmbedder",
    "MostDiverse",
    "NoveltySelector",
    "RandomSelector",
    "embed_texts",
    "select_most_diverse",
]


@runtime_checkable
class AsyncEmbedder(Protocol):
    """An embedder behind a network call: `aembed` instead of `Embedder.embed`."""

    name: str
    """Embedder name, recorded with the selections that depend on it."""

    async def aembed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts` into an array of shape `(len(texts), dim)` with unit-length rows."""
        ...


async def embed_texts(embedder: Embedder | AsyncEmbedder, texts: Sequence[str]) -> np.ndarray:
    """Embed `texts` with either kind of embedder; a sync one runs in a worker thread.

    Raises:
        ValueError: the embedder returned other than one finite row per text.
    """
    import numpy as np

    if isinstance(embedder, AsyncEmbedder):
        raw = await embedder.aembed(list(texts))
    else:
        # WordLlama loads its weights on first use; a thread keeps other episodes running.
        raw = await anyio.to_thread.run_sync(embedder.embed, list(texts))
    vectors = np.asarray(raw, dtype=np.float64)
    if vectors.ndim != 2 or vectors.shape[0] != len(texts):
        raise ValueError(
            f"embedder {embedder.name!r} returned shape {vectors.shape} for {len(texts)} texts; "
            "expected one row per text"
        )
    if not np.isfinite(vectors).all():
        raise ValueError(f"embedder {embedder.name!r} returned a vector with NaN or infinity")
    return vectors


async def select_most_diverse(
    original: str, candidates: Sequence[str], embedder: Embedder | AsyncEmbedder
) -> Selection:
    """Embed the original and the candidates in one call; pick the lowest cosine (ties: first).

    Rows are normalised again here, so an embedder that returns raw vectors still yields
    cosines; an all-zero row (an empty text) has cosine 0 to everything.

    Raises:
        ValueError: no candidates, or the embedder's answer has the wrong shape.
    """
    if not candidates:
        raise ValueError("select_most_diverse needs at least one candidate")
    unit = _unit(await embed_texts(embedder, [original, *candidates]))
    cosines = tuple(float(c) for c in unit[1:] @ unit[0])
    # min() returns the first of equal values, as the contract says (no NaN: checked above).
    index = min(range(len(cosines)), key=lambda i: cosines[i])
    return Selection(index=index, cosines=cosines, embedder=embedder.name)


class MostDiverse:
    """The paper's selection: the candidate least cosine-similar to the original action."""

    name = "diverse"

    def __init__(self, embedder: Embedder | AsyncEmbedder) -> None:
        self.embedder = embedder

    async def select(
        self,
        original: str,
        candidates: Sequence[Candidate],
        *,
        rng: random.Random,
        avoid: Sequence[str] = (),
        weights: Sequence[float] = (),
    ) -> Selection:
        """Argmin of the cosine to the original (ties: the first); `avoid`/`weights` unused."""
        return await select_most_diverse(original, [c.text for c in candidates], self.embedder)


class NoveltySelector:
    """A candidate drawn in proportion to its novelty: untried operations, away from failures.

    A candidate's chance is its operation's weight (`Memory.op_weights`: how little the run has
    spent that operation, here and on known causes) times its distance, 1 - the highest cosine,
    from its siblings and the actions that already failed for a known cause (`avoid`); never
    below a twentieth of its weight, so no candidate is ruled out by wording alone. The distance
    from the original is *not* a reason to prefer a candidate: the least similar wording is
    most often a refusal or a withheld fact, and always preferring it plays the same operation
    everywhere (in the shop ablation of benchmarks/divert.py it found a third of the distinct
    failures a uniform draw found). The cosines to the original are kept for the record.
    """

    name = "novelty"

    def __init__(self, embedder: Embedder | AsyncEmbedder) -> None:
        self.embedder = embedder

    async def select(
        self,
        original: str,
        candidates: Sequence[Candidate],
        *,
        rng: random.Random,
        avoid: Sequence[str] = (),
        weights: Sequence[float] = (),
    ) -> Selection:
        """Draw with `rng`, in proportion to weight x distance (see the class)."""
        if not candidates:
            raise ValueError("a selection needs at least one candidate")
        others = [original, *avoid]
        vectors = _unit(await embed_texts(self.embedder, [*others, *(c.text for c in candidates)]))
        near = vectors[len(others) :] @ vectors[: len(others)].T
        cosines = tuple(float(c) for c in near[:, 0])
        weight = list(weights) or [1.0] * len(candidates)
        away = [1 - float(row[1:].max()) if len(others) > 1 else 1.0 for row in near]
        chances = [w * max(0.05, d) for w, d in zip(weight, away, strict=True)]
        index = rng.choices(range(len(candidates)), weights=chances)[0]
        reason = (
            f"drawn by novelty: operation weight {weight[index]:.2f} x distance {away[index]:.2f} "
            f"from {len(avoid)} action(s) already tried or failed"
        )
        return Selection(index=index, cosines=cosines, embedder=self.embedder.name, reason=reason)


class RandomSelector:
    """One candidate at random (the ablation without diversity)."""

    name = "random"

    async def select(
        self,
        original: str,
        candidates: Sequence[Candidate],
        *,
        rng: random.Random,
        avoid: Sequence[str] = (),
        weights: Sequence[float] = (),
    ) -> Selection:
        """Draw one with `rng`."""
        if not candidates:
            raise ValueError("a selection needs at least one candidate")
        return Selection(
            index=rng.randrange(len(candidates)),
            cosines=(),
            embedder=None,
            reason="drawn at random",
        )


def _unit(vectors: np.ndarray) -> np.ndarray:
    import numpy as np

    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)

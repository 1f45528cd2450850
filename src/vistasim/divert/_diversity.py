"""Keep the candidate least like the original action: the branch that explores the most.

Candidates all keep the scenario's intent, so the one furthest from the original in embedding
space is the one most likely to take the agent somewhere the original path did not go.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import anyio.to_thread

from vistasim.divert._types import Selection
from vistasim.llm import Embedder

if TYPE_CHECKING:
    import numpy as np

__all__ = ["AsyncEmbedder", "embed_texts", "select_most_diverse"]


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
    import numpy as np

    vectors = await embed_texts(embedder, [original, *candidates])
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = vectors / np.where(norms == 0, 1.0, norms)
    cosines = tuple(float(c) for c in unit[1:] @ unit[0])
    # min() returns the first of equal values, as the contract says (no NaN: checked above).
    index = min(range(len(cosines)), key=lambda i: cosines[i])
    return Selection(index=index, cosines=cosines, embedder=embedder.name)

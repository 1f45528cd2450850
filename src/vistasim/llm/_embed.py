"""Text embeddings without a model endpoint, for failure deduplication and branch diversity.

`WordLlamaEmbedder` uses the `wordllama` package, whose weights ship inside its wheel, so it runs
offline: the package is imported and loaded on first use only, never at import time.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from vistasim.errors import MissingExtraError

if TYPE_CHECKING:
    import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """Anything that turns texts into L2-normalized vectors (one row per text)."""

    name: str
    """Embedder name, recorded with the results that depend on it."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts` into an array of shape `(len(texts), dim)` with unit-length rows."""
        ...


class WordLlamaEmbedder:
    """The bundled offline embedder: WordLlama static embeddings, loaded lazily from its wheel.

    Args:
        config: WordLlama model config name.
        dim: Embedding dimension (WordLlama truncates its matryoshka embeddings).
    """

    def __init__(self, *, config: str = "l2_supercat", dim: int = 256) -> None:
        self.name = f"wordllama/{config}-{dim}"
        self._config = config
        self._dim = dim
        self._model: Any = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts` into an array of shape `(len(texts), dim)` with unit-length rows."""
        try:
            import numpy as np
        except ImportError:  # numpy comes with wordllama: without the extra, neither is there
            raise MissingExtraError("wordllama", "embed") from None

        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        vectors = np.asarray(self._load().embed(list(texts), norm=False), dtype=np.float32)
        return _normalize(vectors)

    def _load(self) -> Any:
        if self._model is None:
            wordllama = _import_wordllama()
            # The weights ship in the wheel: point the cache at the package and never download.
            package_dir = Path(wordllama.__file__).parent
            self._model = wordllama.WordLlama.load(
                config=self._config, cache_dir=package_dir, dim=self._dim, disable_download=True
            )
        return self._model


def _import_wordllama() -> Any:
    # wordllama calls logging.basicConfig(level=INFO) on import; put the root logger back so a
    # library import does not make every later HTTP request print a log line.
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import wordllama
    except ImportError:
        raise MissingExtraError("wordllama", "embed") from None
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    return wordllama


def _normalize(vectors: np.ndarray) -> np.ndarray:
    import numpy as np

    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    # An empty text embeds to zeros; leave it at zero rather than dividing by zero.
    return vectors / np.where(norms == 0, 1.0, norms)

"""The bundled tokenizer: token counts without a model endpoint, for DIVERT's token proxy.

It is the tokenizer that ships inside the `wordllama` wheel (`l2_supercat`, a Llama-family BPE),
loaded with the `tokenizers` package from that file, as `wordllama` itself does: offline, once, on
first use. The counts are a labelled proxy for what an LLM agent would be billed, not any
provider's exact count; they are stable, so runs compare with each other.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

from vistasim.errors import MissingExtraError

if TYPE_CHECKING:
    from tokenizers import Tokenizer

__all__ = ["TOKENIZER_NAME", "count_tokens"]

TOKENIZER_NAME = "wordllama/l2_supercat"
"""The tokenizer the counts come from, recorded with them."""

_CONFIG = Path("tokenizers") / "l2_supercat_tokenizer_config.json"


def count_tokens(text: str) -> int:
    """Return the number of tokens of `text` under the bundled tokenizer (no special tokens).

    Raises:
        MissingExtraError: `wordllama` or `tokenizers` is not installed (extra `embed`).
    """
    if not text:
        return 0
    return _count(text)


@functools.lru_cache(maxsize=1 << 16)
def _count(text: str) -> int:
    # Conversations repeat every earlier message in every request: count each text once.
    return len(_tokenizer().encode(text, add_special_tokens=False).ids)


@functools.cache
def _tokenizer() -> Tokenizer:
    # Locate the wheel without importing `wordllama` (its import loads numpy and the logging setup).
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError("wordllama", "embed")
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise MissingExtraError("tokenizers", "embed") from None
    for location in spec.submodule_search_locations:
        path = Path(location) / _CONFIG
        if path.is_file():
            tokenizer = Tokenizer.from_file(str(path))
            tokenizer.no_truncation()
            tokenizer.no_padding()
            return tokenizer
    raise MissingExtraError("wordllama", "embed")  # a wheel without its tokenizer: reinstall

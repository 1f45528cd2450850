"""What the model-backed DIVERT components share: their prompt files and a token tally.

Prompts are package data (`prompts/*.md`, `$placeholder` templates) so they can be reviewed as
text. `TokenTally` wraps a model to add up the tokens of every call made through it, because
`complete_json` reports how many calls it made but not what they cost, and a junction or a set
of candidates records its own overhead.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from string import Template

from vistasim.llm import ChatModel, ChatRequest, ChatResponse

_MAX_QUOTED = 600
"""Longest message shown to a model in a transcript; branch prompts need gist, not every word."""


@cache
def _template(name: str) -> Template:
    path = resources.files("vistasim.divert") / "prompts" / f"{name}.md"
    return Template(path.read_text(encoding="utf-8"))


def render_prompt(name: str, /, **values: str) -> str:
    """Fill `prompts/<name>.md`; every placeholder must be given (KeyError otherwise)."""
    return _template(name).substitute(values).strip()


def clip(text: str, limit: int = _MAX_QUOTED) -> str:
    r"""Return `text` on one line, cut to `limit` characters with an ellipsis.

    >>> clip("a  b\nc"), clip("abcdef", 4)
    ('a b c', 'abc…')
    """
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class TokenTally:
    """A `ChatModel` that forwards every call and adds up its input and output tokens."""

    def __init__(self, model: ChatModel) -> None:
        self.name = model.name
        self._model = model
        self.tokens = 0
        """Input plus output tokens of every answered call so far."""

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """Forward `request` and count the tokens of the answer."""
        response = await self._model.complete(request)
        self.tokens += response.usage.input_tokens + response.usage.output_tokens
        return response

"""Load the simulated user's prompts from package data and fingerprint them for the run record.

Prompts are files (`prompts/*.md`), not strings in code, so they can be read and reviewed as text;
`prompt_hash()` lets a run record which prompt version produced its episodes.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from string import Template

_PACKAGE = "vistasim.user"


def _prompt_dir() -> Traversable:
    return resources.files(_PACKAGE) / "prompts"


@cache
def load_prompt(name: str) -> Template:
    """Return the prompt file `prompts/<name>.md` as a `$placeholder` template."""
    return Template((_prompt_dir() / f"{name}.md").read_text(encoding="utf-8"))


def render_prompt(prompt: str, /, **values: str) -> str:
    """Fill the placeholders of `prompts/<prompt>.md`; every placeholder must be given.

    As `Template.substitute`, at a third of the CPU: the LLM user renders its turn prompt every
    turn, and `substitute` finds the placeholders with a regular expression and a Python call
    for each, every time. The file is split at its placeholders once instead.
    """
    pieces = _pieces(prompt)
    if pieces is None:  # a `$` that is no placeholder: `substitute` raises its own error
        return load_prompt(prompt).substitute(values).strip()
    return "".join([str(values[text]) if named else text for text, named in pieces]).strip()


@cache
def _pieces(name: str) -> tuple[tuple[str, bool], ...] | None:
    """The prompt as (text, False) and (placeholder name, True) pieces, in order.

    None when the template has a `$` that is neither a placeholder nor `$$`.
    """
    template = load_prompt(name)
    text = template.template
    pieces: list[tuple[str, bool]] = []
    at = 0
    for match in template.pattern.finditer(text):
        named = match.group("named") or match.group("braced")
        if named is not None:
            pieces += [(text[at : match.start()], False), (named, True)]
        elif match.group("escaped") is not None:
            pieces += [(text[at : match.start()], False), (template.delimiter, False)]
        else:
            return None
        at = match.end()
    pieces.append((text[at:], False))
    return tuple(pieces)


def prompt_hash() -> str:
    """Return the first 16 hex digits of a sha256 over every prompt file, names included.

    >>> len(prompt_hash())
    16
    """
    digest = hashlib.sha256()
    files = sorted((p for p in _prompt_dir().iterdir() if p.is_file()), key=lambda p: p.name)
    for path in files:
        digest.update(path.name.encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]

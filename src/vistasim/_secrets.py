"""The secrets a run knows, and cutting them out of everything it stores.

A config never holds a key itself, only where to find it: a model's `api_key_env`, the agent's
`api_key_env`, and `${VAR}` references in header values. Their values are the secrets. Agents
and servers echo them (in error bodies, but also in successful replies and tool results), so the
store, the cache and the run's failure reason pass everything they write through `redact`, and
every view of the run (show, export, report, metrics) reads only redacted data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vistasim.config import RunConfig

__all__ = ["MASK", "SHORTEST_SECRET", "ENV_REF", "known_secrets", "redact", "redact_json"]

MASK = "***"
SHORTEST_SECRET = 8
"""Shorter values are not treated as secrets: no real key is that short, and masking them would
mask ordinary words (`OPENAI_API_KEY=dummy` is common with local servers)."""
ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
"""A `${NAME}` reference to an environment variable in a header value."""


def known_secrets(config: RunConfig, environ: Mapping[str, str]) -> tuple[str, ...]:
    """The values of every key and `${VAR}` header the config refers to, longest first."""
    names = {spec.api_key_env for spec in config.models.values()}
    agent = config.agent
    if agent is not None:
        key_env = getattr(agent, "api_key_env", None)
        if key_env:
            names.add(key_env)
        for value in getattr(agent, "headers", {}).values():
            names.update(ENV_REF.findall(value))
    values = {environ[name] for name in names if name in environ}
    return tuple(sorted((v for v in values if len(v) >= SHORTEST_SECRET), key=len, reverse=True))


def redact(text: str, secrets: Iterable[str]) -> str:
    """Replace every occurrence of a secret in `text` with `***`.

    >>> redact("invalid key sk-123456789", ["sk-123456789"])
    'invalid key ***'
    """
    for secret in sorted(secrets, key=len, reverse=True):
        if secret:
            text = text.replace(secret, MASK)
    return text


def redact_json(text: str, secrets: Iterable[str]) -> str:
    """`redact` for JSON text: also masks a secret as JSON escapes it inside a string."""
    forms: set[str] = set()
    for secret in secrets:
        forms.update(
            (secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1])
        )
    return redact(text, forms)

"""The secrets a run knows, and cutting them out of everything it stores.

A config never holds a key itself, only where to find it: a model's `api_key_env`, the agent's
`api_key_env`, and `${VAR}` references in header values. Their values are the secrets. Agents
and servers echo them (in error bodies, but also in successful replies and tool results, and so
in the agent's and the environment's state), and not always as they were sent: upper-cased, or
base64-encoded in a Basic header. So every spelling of a secret (`secret_forms`) is cut out.

Events, the cache and the run's failure reason pass through `redact` (each spelling becomes
`***`), and every view of the run (show, export, report, metrics) reads only redacted data.
Snapshot blobs must also come back exactly on a restore, so `mask_state` replaces each spelling
with a placeholder of the same length that names the secret by a short tag of its hash and the
spelling by its index; `unmask_state` puts the real value back from the run's secret list, which
is held in memory and never written. The same length keeps binary states (a SQLite database)
well-formed: their records store each text's length apart from its bytes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

from vistasim.errors import StoreError

if TYPE_CHECKING:
    from vistasim.config import RunConfig

__all__ = [
    "ENV_REF",
    "MASK",
    "SHORTEST_SECRET",
    "known_secrets",
    "mask_state",
    "redact",
    "redact_json",
    "secret_forms",
    "unmask_state",
]

MASK = "***"
SHORTEST_SECRET = 8
"""Shorter values are not treated as secrets: no real key is that short, and masking them would
mask ordinary words (`OPENAI_API_KEY=dummy` is common with local servers)."""
ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
"""A `${NAME}` reference to an environment variable in a header value."""

_KINDS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""Placeholder letters, one per spelling of a secret (its index in `secret_forms`)."""
_HEAD = re.compile(rb"\*~([A-Z2-7]{4})([0-9a-z])~")
"""The start of a placeholder: `*~`, the secret's tag, the spelling's letter, `~`; then `*`s."""
_HEAD_LENGTH = 8


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


def secret_forms(secret: str) -> tuple[str, ...]:
    """Return every spelling of `secret` that is cut out: as is, JSON-escaped, cased, base64.

    Base64 spells a value differently depending on where it starts in a group of three bytes,
    so each of the three alignments gives its own form: the characters that depend on the
    secret alone (in the standard and the URL-safe alphabet). A value shorter than
    `SHORTEST_SECRET` is only cut out as is: its variants would match ordinary words.

    >>> secret_forms("sk-abcdef12")[:3]
    ('sk-abcdef12', 'SK-ABCDEF12', 'c2stYWJjZGVmMT')
    """
    forms = [secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]]
    if len(secret) >= SHORTEST_SECRET:
        forms += [secret.upper(), secret.lower()]
        for core in _base64_cores(secret.encode()):
            forms += [core, core.replace("+", "-").replace("/", "_")]
    return tuple(dict.fromkeys(f for f in forms if f))


def redact(text: str, secrets: Iterable[str]) -> str:
    """Replace every spelling of every secret in `text` with `***`.

    >>> redact("invalid key sk-123456789, or SK-123456789", ["sk-123456789"])
    'invalid key ***, or ***'
    """
    for form in _text_forms(tuple(secrets)):
        text = text.replace(form, MASK)
    return text


def redact_json(text: str, secrets: Iterable[str]) -> str:
    """`redact` for JSON text (the JSON-escaped spellings are among the forms `redact` cuts)."""
    return redact(text, secrets)


def mask_state(data: bytes, secrets: Iterable[str]) -> bytes:
    """Replace every spelling of every secret in a state blob with a same-length placeholder.

    Raises:
        StoreError: the state already holds text that reads as a placeholder of one of these
            secrets, so masking it could not be undone exactly.
    """
    secrets = tuple(secrets)
    masked = data
    for form, placeholder in _placeholders(secrets):
        masked = masked.replace(form, placeholder)
    if unmask_state(masked, secrets) != data:
        raise StoreError(
            "a snapshot holds text that reads as vistasim's mask of a secret (*~TAGn~...), so "
            "its secrets cannot be masked reversibly; the state must not contain such text"
        )
    return masked


def unmask_state(data: bytes, secrets: Iterable[str]) -> bytes:
    """Undo `mask_state` with the real values of `secrets`.

    A placeholder of a secret that is not in `secrets` (a key no longer set) stays as it is.
    """
    values = {
        placeholder[:_HEAD_LENGTH]: form for form, placeholder in _placeholders(tuple(secrets))
    }
    if not values:
        return data
    out, done = bytearray(), 0
    for match in _HEAD.finditer(data):
        start = match.start()
        form = values.get(match.group())
        if start < done or form is None:
            continue
        end = start + len(form)
        if data[match.end() : end] != b"*" * (len(form) - _HEAD_LENGTH):
            continue  # the head of a placeholder without its tail: text of the state's own
        out += data[done:start] + form
        done = end
    return bytes(out + data[done:]) if done else data


@lru_cache(maxsize=64)
def _text_forms(secrets: tuple[str, ...]) -> tuple[str, ...]:
    forms = {form for secret in secrets if secret for form in secret_forms(secret)}
    return tuple(sorted(forms, key=len, reverse=True))


@lru_cache(maxsize=64)
def _placeholders(secrets: tuple[str, ...]) -> tuple[tuple[bytes, bytes], ...]:
    """Each spelling of each secret (as UTF-8) and its placeholder, longest first."""
    pairs: dict[bytes, bytes] = {}
    tags: dict[bytes, str] = {}
    for secret in sorted(set(secrets)):
        tag = _tag(secret)
        if tags.setdefault(tag, secret) != secret:
            raise StoreError(
                "two of the run's secrets share a mask tag, so their masks could be confused; "
                "rotate one of the keys"
            )
        for index, form in enumerate(secret_forms(secret)):
            raw = form.encode()
            if len(raw) >= _HEAD_LENGTH:
                head = b"*~" + tag + _KINDS[index].encode() + b"~"
                pairs.setdefault(raw, head + b"*" * (len(raw) - _HEAD_LENGTH))
    return tuple(sorted(pairs.items(), key=lambda pair: len(pair[0]), reverse=True))


def _tag(secret: str) -> bytes:
    """Four base32 letters of the secret's hash: names it in a placeholder, reveals nothing."""
    digest = hashlib.sha256(b"vistasim-secret:" + secret.encode()).digest()
    return base64.b32encode(digest)[:4]


def _base64_cores(raw: bytes) -> list[str]:
    """The base64 characters that depend on `raw` alone, at each of the three alignments."""
    cores = []
    for offset in range(3):
        pad = 3 + (-(offset + len(raw))) % 3  # a whole number of groups: no `=` at the end
        low = base64.b64encode(b"\0" * offset + raw + b"\0" * pad).decode()
        high = base64.b64encode(b"\xff" * offset + raw + b"\xff" * pad).decode()
        # A character that holds any bit of the fill differs between the two encodings.
        same = [i for i, (a, b) in enumerate(zip(low, high, strict=True)) if a == b]
        if same:
            cores.append(low[same[0] : same[-1] + 1])
    return cores

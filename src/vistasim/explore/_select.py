"""Choose which scenarios a run plays: by id (globs) and by tag, so one failure reruns alone.

`run.select` (`--scenario`, repeatable) keeps the scenarios whose id matches any of its patterns
(`fnmatch`, case-sensitive: `shop-flaw-*`); `run.tags` (`--tag`) keeps those carrying any of its
tags; both together keep what both keep. A pattern or tag that matches nothing is a mistake the
user can fix before the run, reported with the ids or tags that exist.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from fnmatch import fnmatchcase

from vistasim.errors import ConfigError
from vistasim.scenario import Scenario

__all__ = ["select_scenarios"]


def select_scenarios(
    scenarios: Sequence[Scenario],
    *,
    patterns: Sequence[str] = (),
    tags: Sequence[str] = (),
    source: str | None = None,
) -> list[Scenario]:
    """The scenarios matching any of `patterns` and carrying any of `tags` (empty: no filter).

    Raises:
        ConfigError: a pattern or tag matches no scenario, or nothing is left.
    """
    ids = [s.id for s in scenarios]
    for pattern in patterns:
        if not any(fnmatchcase(i, pattern) for i in ids):
            raise ConfigError(
                f"--scenario {pattern!r} matches no scenario{_of(source)}{_nearest(pattern, ids)}",
                key="run.select",
            )
    known = sorted({t for s in scenarios for t in s.tags})
    for tag in tags:
        if tag not in known:
            listed = ", ".join(known[:12]) or "none"
            raise ConfigError(
                f"--tag {tag!r} is on no scenario{_of(source)}; the tags are: {listed}",
                key="run.tags",
            )
    chosen = [
        s
        for s in scenarios
        if (not patterns or any(fnmatchcase(s.id, p) for p in patterns))
        and (not tags or set(tags) & set(s.tags))
    ]
    if not chosen:
        raise ConfigError(
            f"no scenario{_of(source)} matches both --scenario {list(patterns)} and "
            f"--tag {list(tags)}; give one of them, or values that meet",
            key="run.select",
        )
    return chosen


def _of(source: str | None) -> str:
    return f" of {source}" if source else ""


def _nearest(pattern: str, ids: Sequence[str]) -> str:
    close = difflib.get_close_matches(pattern, ids, n=3, cutoff=0.5)
    shown = close or list(ids[:5])
    return f"; {'did you mean' if close else 'e.g.'} {', '.join(shown)}"

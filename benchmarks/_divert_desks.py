"""The desks `benchmarks/divert.py` explores: built-in domains, bikes, the generalisation desks.

They are `benchmarks/validity.py`'s subjects. Built-in domains (shop, school) play their rule
agents, whose flaws are documented. On bikes and on every desk of `benchmarks/domains/` the
*flawed* agent plays (its README lists its flaws): a correct agent has nothing to find, so
failures per token would only count false failures. Every flawed agent calls `note_flaw` when a
flaw changes what it does, so the ground truth of `divert.py` (a documented flaw fired on the
failed path) holds on all of them.
"""

from __future__ import annotations

import sys

from benchmarks.validity import BLIND, SUBJECTS, Subject
from vistasim.domains import DOMAINS, get_domain
from vistasim.scenario import Scenario, load_scenarios

__all__ = ["desk", "desk_names", "scenarios_of"]


def desk_names() -> list[str]:
    """Every desk, built-in domains first."""
    return [*sorted(DOMAINS), "bikes", *(name for name, _ in BLIND)]


def desk(name: str) -> Subject:
    """The subject explored on the desk called `name` (`shop`, `bikes`, `bank`...).

    Raises:
        SystemExit: no such desk (one line naming the known ones, exit code 2).
    """
    wanted = f"{name}/rule" if name in DOMAINS else f"{name}/flawed"
    found = next((s for s in SUBJECTS if s.name == wanted), None)
    if found is None:
        known = ",".join(desk_names())
        print(f"divert.py: --domains: unknown domain {name!r}; known: {known}", file=sys.stderr)
        raise SystemExit(2)
    return found


def scenarios_of(subject: Subject, which: str) -> list[Scenario]:
    """Every scenario, or (`unwritten`) those not written to trigger a flaw (no `flaw:*`)."""
    if subject.scenarios is None:
        every = list(get_domain(subject.environment).scenarios())
    else:
        every = list(load_scenarios(subject.scenarios))
    if which == "all":
        return every
    return [s for s in every if not any(t.startswith("flaw:") for t in s.tags)]

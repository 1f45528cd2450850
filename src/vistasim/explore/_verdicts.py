"""What the explorer knows of each finished episode: its outcome and the causes of its failure.

A trajectory may be branched only if its verdict says something of the agent: a branch of an
`invalid` episode (the simulated user failed) or an `errored` one inherits a prefix no verdict
can stand on. Novelty needs the causes: a branch that failed for a cause already known counts
against its operation. Each episode is judged once, at the end of the wave it finished in, with
the same detectors as `vistasim metrics` (what the tools write is learnt from the whole run),
and the verdict is kept in the explorer's stored state, so a resumed run reads the same ones.
"""

from __future__ import annotations

from collections.abc import Collection

from pydantic import BaseModel, ConfigDict

from vistasim.metrics import CAUSE_KINDS, find_all, rules_for_run
from vistasim.store import Store, read_run_view

__all__ = ["Judged", "judge", "sound"]

SOUND = frozenset({"passed", "failed"})
"""Outcomes whose trajectories may be branched."""


class Judged(BaseModel):
    """One episode's verdict as the explorer keeps it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    outcome: str
    causes: tuple[str, ...] = ()
    """Why it failed: named causes (`behaviour:unclear-confirmation`), else its symptoms."""


def judge(db: Store, run_id: str, episode_ids: Collection[str]) -> dict[str, Judged]:
    """Judge finished episodes; an empty collection costs nothing."""
    if not episode_ids:
        return {}
    view = read_run_view(db, run_id, snapshots=False, calls=False)  # verdicts read neither
    rules = rules_for_run(view)
    findings = find_all(
        view, rules=rules.rules, behaviour=rules.behaviour, disclosure=rules.disclosure,
        only=set(episode_ids),
    )  # fmt: skip
    causes: dict[str, list[str]] = {}
    symptoms: dict[str, list[str]] = {}
    for failure in findings.failures:
        if failure.kind in CAUSE_KINDS:
            causes.setdefault(failure.episode_id, []).append(f"{failure.kind}:{failure.label}")
        else:
            symptoms.setdefault(failure.episode_id, []).append(
                f"{failure.kind}:{failure.description}"
            )
    judged = {}
    for episode_id, verdict in findings.verdicts.items():
        why = causes.get(episode_id) or symptoms.get(episode_id, [])
        failed = verdict.outcome == "failed"
        judged[episode_id] = Judged(
            outcome=verdict.outcome, causes=tuple(dict.fromkeys(why)) if failed else ()
        )
    return judged


def sound(verdicts: dict[str, Judged], episode_id: str) -> bool:
    """Whether a judged episode may be branched."""
    judged = verdicts.get(episode_id)
    return judged is not None and judged.outcome in SOUND

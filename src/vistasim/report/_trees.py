"""Scenarios as a report shows them: goal, persona, criteria, k-of-n, and their episode trees.

Rollouts are siblings under the scenario; each DIVERT branch hangs under the episode it forked
from, so a reader sees which turn was replaced and where the conversation went instead. A branch
that could not be played (`abandoned`) is a leaf note under its parent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from vistasim.report._transcripts import EpisodeRow, short_id
from vistasim.scenario import Scenario, describe_criteria
from vistasim.store import BranchView, RunView

__all__ = ["ScenarioRow", "TreeNode", "scenario_rows"]


@dataclass(frozen=True, kw_only=True)
class TreeNode:
    """An episode in its scenario's tree, or a branch that was abandoned."""

    episode: str | None
    """Short id of the episode; `None` for an abandoned branch."""
    children: tuple[TreeNode, ...] = ()
    note: str = ""
    """Why an abandoned branch was not played."""


@dataclass(frozen=True, kw_only=True)
class ScenarioRow:
    """A scenario with its results."""

    id: str
    goal: str
    persona: str
    profile: str
    criteria: tuple[str, ...]
    """Each success criterion, worded as its verdict names it."""
    tags: tuple[str, ...]
    modes: tuple[str, ...]
    passed: int
    """Linear rollouts that passed (the k of k-of-n)."""
    judged: int
    """Linear rollouts that passed or failed (the n)."""
    outcomes: dict[str, int]
    """Every episode of the scenario per outcome, branches included."""
    branches: int
    episodes: tuple[str, ...]
    """Short ids of its episodes, in tree order (each branch after its parent)."""
    tree: tuple[TreeNode, ...]

    @property
    def failed(self) -> bool:
        """Whether any episode of the scenario, branches included, failed."""
        return self.outcomes.get("failed", 0) > 0


def scenario_rows(view: RunView, episodes: Mapping[str, EpisodeRow]) -> tuple[ScenarioRow, ...]:
    """Every scenario of the run: failed ones first, then by pass rate, then by id."""
    by_scenario: dict[str, list[EpisodeRow]] = {}
    for row in episodes.values():
        by_scenario.setdefault(row.scenario_id, []).append(row)
    abandoned: dict[str, list[BranchView]] = {}
    for branch in view.branches:
        if branch.status == "abandoned":
            abandoned.setdefault(branch.scenario_id, []).append(branch)
    rows = [
        _scenario_row(
            scenario,
            by_scenario.get(sid, []),
            [(short_id(view.run_id, b.parent_episode_id), b) for b in abandoned.get(sid, [])],
        )
        for sid, scenario in view.scenarios.items()
    ]
    return tuple(sorted(rows, key=_rank))


def _rank(row: ScenarioRow) -> tuple[bool, float, str]:
    rate = row.passed / row.judged if row.judged else 1.0
    return (not row.failed, rate, row.id)


def _scenario_row(
    scenario: Scenario, rows: list[EpisodeRow], abandoned: list[tuple[str, BranchView]]
) -> ScenarioRow:
    outcomes: dict[str, int] = {}
    for row in rows:
        outcomes[row.verdict] = outcomes.get(row.verdict, 0) + 1
    linear = [r for r in rows if r.branch is None]
    tree = _tree(rows, abandoned)
    return ScenarioRow(
        id=scenario.id,
        goal=scenario.goal,
        persona=scenario.persona.name,
        profile=scenario.persona.profile,
        criteria=tuple(describe_criteria(scenario.criteria)),
        tags=tuple(scenario.tags),
        modes=tuple(sorted({r.mode for r in rows})),
        passed=sum(r.verdict == "passed" for r in linear),
        judged=sum(r.verdict in ("passed", "failed") for r in linear),
        outcomes=outcomes,
        branches=len(rows) - len(linear),
        episodes=tuple(_walk(tree)),
        tree=tree,
    )


def _tree(rows: list[EpisodeRow], abandoned: list[tuple[str, BranchView]]) -> tuple[TreeNode, ...]:
    children: dict[str | None, list[EpisodeRow]] = {}
    known = {r.id for r in rows}
    for row in rows:
        parent = row.parent if row.parent in known else None
        children.setdefault(parent, []).append(row)
    notes: dict[str, list[TreeNode]] = {}
    for parent, branch in abandoned:
        note = f"abandoned at turn {branch.turn}: {branch.detail or 'no candidate to play'}"
        notes.setdefault(parent, []).append(TreeNode(episode=None, note=note))

    def node(row: EpisodeRow, depth: int) -> TreeNode:
        below = children.get(row.id, []) if depth < 200 else []
        return TreeNode(
            episode=row.id,
            children=(*(node(c, depth + 1) for c in below), *notes.get(row.id, ())),
        )

    return tuple(node(row, 0) for row in children.get(None, []))


def _walk(nodes: tuple[TreeNode, ...]) -> list[str]:
    ids = []
    for n in nodes:
        if n.episode is not None:
            ids.append(n.episode)
        ids.extend(_walk(n.children))
    return ids

"""`vistasim show RUN --tree SCENARIO`: a scenario's rollouts and the branches grown from them."""

from __future__ import annotations

from rich.text import Text
from rich.tree import Tree

from vistasim.errors import StoreError
from vistasim.report import branch_info
from vistasim.store import BranchView, EpisodeView, RunView

__all__ = ["scenario_tree"]

_STYLE = {"passed": "green", "failed": "red", "errored": "yellow", "invalid": "magenta"}


def scenario_tree(view: RunView, scenario_id: str, outcomes: dict[str, str]) -> Tree:
    """The tree of one scenario: each branch under the trajectory it forked from.

    Raises:
        StoreError: the run has no such scenario (the message lists some that exist).
    """
    if scenario_id not in view.scenarios:
        known = ", ".join(sorted(view.scenarios)[:8])
        raise StoreError(f"run {view.run_id} has no scenario {scenario_id!r}; e.g. {known}")
    episodes = [e for e in view.episodes if e.scenario_id == scenario_id]
    branches = {b.episode_id: b for b in view.branches if b.scenario_id == scenario_id}
    # Text objects, never markup: agent and user text is untrusted and may contain "[...]".
    tree = Tree(Text(scenario_id, style="bold"))
    nodes: dict[str, Tree] = {}
    for episode in episodes:
        branch = branches.get(episode.episode_id)
        parent = nodes.get(branch.parent_episode_id, tree) if branch else tree
        nodes[episode.episode_id] = parent.add(_label(view, episode, branch, outcomes))
    for branch in branches.values():
        if branch.status == "abandoned":
            parent = nodes.get(branch.parent_episode_id, tree)
            parent.add(Text(f"abandoned at turn {branch.turn}: {branch.detail}", style="dim"))
    return tree


def _label(
    view: RunView, episode: EpisodeView, branch: BranchView | None, outcomes: dict[str, str]
) -> Text:
    outcome = outcomes.get(episode.episode_id, "unjudged")
    name = episode.episode_id.removeprefix(f"{view.run_id}:{episode.scenario_id}:")
    turns = sum(
        1 for e in episode.own_events if e.event.kind in ("user_message", "api_call", "web_action")
    )
    label = Text()
    label.append(f"{name}  ", style="bold")
    label.append(outcome, style=_STYLE.get(outcome, ""))
    label.append(f"  {turns} turn(s)")
    if branch is None:
        return label
    label.append(f"  [{branch.status}]", style="dim")
    info = branch_info(branch, view.run_id)
    label.append(f"\n  at turn {info.turn} ({info.chooser}): {_cut(info.rationale)}")
    label.append(f"\n  replaced: {_cut(info.replaced)}")
    if info.played:
        cosine = "" if info.cosine is None else f", cos {info.cosine:.2f}"
        label.append(f"\n  played {info.source}{cosine}: {_cut(info.played)}")
    return label


def _cut(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"

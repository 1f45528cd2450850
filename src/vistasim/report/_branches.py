"""How a DIVERT branch came to be: its junction, the action it replaced and the one it played.

The store keeps a branch's record (`BranchView`) with its candidates as JSON actions; readers of
a report or of `vistasim show --tree` want the same few facts said the same way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from vistasim.store import BranchView

__all__ = ["BranchInfo", "Candidate", "action_text", "branch_info"]


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """One alternative user action generated at a junction."""

    text: str
    source: str
    """An agenda operation (`hesitate`, `correct`...) or `llm`."""
    cosine: float | None
    """Cosine similarity to the replaced action (`None`: not scored)."""
    chosen: bool


@dataclass(frozen=True, kw_only=True)
class BranchInfo:
    """A branch's junction and the action it played instead of the original."""

    parent: str
    """Short id of the episode it forked from."""
    turn: int
    """User actions taken before the junction."""
    chooser: str
    rationale: str
    replaced: str
    """The user's original action at the junction, in words."""
    played: str
    """The chosen candidate, in words."""
    source: str
    cosine: float | None
    candidates: tuple[Candidate, ...]
    status: str
    """`done`, `converged`, `diverged`, `abandoned`, `queued` or `playing`."""
    detail: str = ""


def branch_info(branch: BranchView, run_id: str) -> BranchInfo:
    """The facts of a stored branch record, in words."""
    chosen = branch.chosen if 0 <= branch.chosen < len(branch.candidates) else None
    picked = branch.candidates[chosen] if chosen is not None else None
    return BranchInfo(
        parent=branch.parent_episode_id.removeprefix(f"{run_id}:"),
        turn=branch.turn,
        chooser=branch.chooser,
        rationale=branch.rationale,
        replaced=action_text(branch.original),
        played=action_text(picked.action) if picked else "",
        source=picked.source if picked else "",
        cosine=picked.cosine if picked else None,
        candidates=tuple(
            Candidate(
                text=action_text(c.action), source=c.source, cosine=c.cosine, chosen=i == chosen
            )
            for i, c in enumerate(branch.candidates)
        ),
        status=branch.status,
        detail=branch.detail or "",
    )


def action_text(action: Mapping[str, object]) -> str:
    """A user action as JSON, in words: what it says, else its kind and what it acts on.

    >>> action_text({"kind": "say", "text": "Yes, go ahead."})
    'Yes, go ahead.'
    >>> action_text({"kind": "click", "target": "cancel-W1001"})
    'click cancel-W1001'
    >>> action_text({"kind": "call_api", "name": "track", "args": {"order_id": "W1"}})
    'call_api track {"order_id": "W1"}'
    """
    text = action.get("text")
    if isinstance(text, str) and text:
        return text
    parts = [str(action.get("kind") or "action")]
    for key in ("name", "target", "url", "value", "direction"):
        if action.get(key):
            parts.append(str(action[key]))
    if action.get("args"):
        parts.append(json.dumps(action["args"], sort_keys=True, default=str))
    return " ".join(parts)

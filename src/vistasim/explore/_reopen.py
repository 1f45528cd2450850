"""A junction branched again while it offers what only it can play.

A trajectory's junction is branched once, and the selection draws one of its candidates. A
value operation on a fact the original action says (`divert.last_chance`) can be played at that
junction or never, and an opening offers several (a wrong amount taken back, another amount
asked for first, the client number withheld...). On the held-out desks the baseline's extra
failures sat behind such first-turn operations that the opening had offered and its one branch
had not drawn (`change_mind:amount` on vet-part-pay-xray; benchmarks/README.md, issue 16, eighth
pass). So, with novelty, a junction stays open to its parent while a candidate only it can play
was offered there and no branch there has played it; the next branch there plays another one
(the sources already played are not offered again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from vistasim.divert import last_chance_of
from vistasim.store import BranchView
from vistasim.user import action_from_json, describe_action

__all__ = ["last_chances_left", "played_at"]


def played_at(branches: Sequence[BranchView], parent_id: str, turn: int) -> list[str]:
    """The sources the parent's branches at `turn` played."""
    return [b.candidates[b.chosen].source for b in branches
            if b.parent_episode_id == parent_id and b.turn == turn
            and 0 <= b.chosen < len(b.candidates)]  # fmt: skip


def last_chances_left(
    branches: Sequence[BranchView], parent_id: str, turn: int, facts: Mapping[str, str]
) -> bool:
    """Whether the junction offered a candidate only it can play that no branch there played."""
    here = [b for b in branches if b.parent_episode_id == parent_id and b.turn == turn]
    played = set(played_at(branches, parent_id, turn))
    return any(
        c.source not in played
        and last_chance_of(c.source, facts, describe_action(action_from_json(b.original)))
        for b in here for c in b.candidates
    )  # fmt: skip

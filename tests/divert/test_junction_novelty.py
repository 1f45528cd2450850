"""The heuristic chooser gives cues already branched in a scenario less weight."""

import random

from vistasim.divert import HeuristicChooser, UserTurn
from vistasim.divert._junction import cue_label

TURNS = [
    UserTurn(index=0, kind="say", text="Hi, I'd like to move my booking.", before=""),
    UserTurn(index=1, kind="say", text="It's BK-2047.", before="What's your booking reference?"),
    UserTurn(index=2, kind="say", text="Yes.", before="I'll move it to Friday. Shall I proceed?"),
]


async def test_used_cues_lose_weight_so_other_junctions_get_their_turn():
    chooser = HeuristicChooser()
    first = await chooser.choose(TURNS, rng=random.Random(0))
    assert first is not None and first.turn_index == 2  # confirmation first
    used = {cue_label(first.rationale): 2}
    second = await chooser.choose(TURNS, rng=random.Random(0), used=used)
    assert second is not None and second.turn_index == 1  # 4 / 3 < 3: the fact request now
    assert cue_label(second.rationale) == "the agent asked for a fact"

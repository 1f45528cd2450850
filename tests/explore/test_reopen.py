"""A junction stays open to its parent while it offers what only it can play."""

from __future__ import annotations

from collections import defaultdict

from tests.helpers import desk_config, desk_scenarios
from vistasim.explore import run
from vistasim.explore._branch import _facts
from vistasim.explore._reopen import last_chances_left, played_at
from vistasim.store import BranchCandidate, BranchView, open_store

FACTS = {"amount": "£50", "client_number": "C1609"}
OPENING = {"kind": "say", "text": "Hi, I need to pay £50 towards Teddy's X-ray bill."}


def _branch(chosen: int, *sources: str, turn: int = 0, parent: str = "p") -> BranchView:
    return BranchView(
        episode_id=f"{parent}.b{turn}{chosen}", parent_episode_id=parent, scenario_id="s",
        fork_event_id=1, turn=turn, chooser="heuristic", rationale="the user's opening message",
        original=OPENING,
        candidates=tuple(BranchCandidate(action={"kind": "say", "text": s}, source=s)
                         for s in sources),
        chosen=chosen, injected={}, embedder=None, overhead_tokens=0, status="done",
    )  # fmt: skip


def test_an_opening_offering_another_value_operation_stays_open():
    first = _branch(0, "out_of_order", "change_mind:amount", "correct:client_number")
    assert played_at([first], "p", 0) == ["out_of_order"]
    # The amount is said in the opening: its change of mind is played here or never.
    assert last_chances_left([first], "p", 0, FACTS)
    second = _branch(1, "out_of_order", "change_mind:amount")
    assert not last_chances_left([first, second], "p", 0, FACTS)  # played now
    # What any junction can play (or a fact not said here) keeps no junction open.
    only_later = _branch(0, "hesitate", "correct:client_number")
    assert not last_chances_left([only_later], "p", 0, FACTS)
    assert not last_chances_left([first], "other parent", 0, FACTS)


async def test_a_junction_is_branched_again_only_for_what_only_it_can_play():
    config = desk_config(run={"seed": 1}, user={"perturb": 0.5}, explore={"branches": 8})
    with open_store(":memory:") as store:
        result = await run(config, scenarios=desk_scenarios(), store=store)
        branches = [b for b in store.list_branches(result.run_id) if b.chosen >= 0]
    at = defaultdict(list)
    for branch in branches:
        at[(branch.parent_episode_id, branch.turn)].append(branch)
    again = {k: v for k, v in at.items() if len(v) > 1}
    assert again, "some junction offered more than one value operation on a fact it says"
    facts = {s.id: _facts(s) for s in desk_scenarios()}
    for (parent, turn), here in again.items():
        sources = [b.candidates[b.chosen].source for b in here]
        assert len(set(sources)) == len(sources)  # never the same alternative twice
        # Each branch after the first there played one the first had left.
        assert last_chances_left(here[:1], parent, turn, facts[here[0].scenario_id])

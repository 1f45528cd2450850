"""A junction's one branch plays, when it can, what no later junction can play."""

from __future__ import annotations

import random

from vistasim.divert import PLAIN, BranchPolicy, HeuristicChooser, Memory, RandomSelector
from vistasim.divert._policy import last_chance
from vistasim.divert._types import Candidate, CandidateContext

CTX = CandidateContext(
    persona="{}",
    goal="Pay £50 towards the X-ray bill.",
    facts={"amount": "£50", "client_number": "C1609"},
    original="Hi, I need to pay £50 towards Teddy's X-ray bill.",
)
LATER = Candidate(text="Hi, I need to pay £50... also my postcode is BS7 8AE.",
                  source="out_of_order")  # fmt: skip
ONLY_HERE = Candidate(text="Hi, I need to pay £62.50 towards Teddy's X-ray bill.",
                      source="change_mind:amount")  # fmt: skip


class _Made:
    name = "fixed"

    def __init__(self, made: list[Candidate]) -> None:
        self.made = made

    async def generate(self, ctx: CandidateContext, k: int) -> tuple[list[Candidate], int]:
        return list(self.made), 0


def _policy(made: list[Candidate], *, novelty: bool = True) -> BranchPolicy:
    return BranchPolicy(chooser=HeuristicChooser(), generator=_Made(made),
                        selector=RandomSelector(), k=1, novelty=novelty)  # fmt: skip


def test_a_value_operation_on_a_fact_said_here_is_its_last_chance():
    assert last_chance(ONLY_HERE, CTX)
    assert not last_chance(LATER, CTX)
    assert not last_chance(Candidate(text="x", source="hesitate"), CTX)
    # The client number is not said here: a later fact request can still correct it.
    assert not last_chance(Candidate(text="x", source="correct:client_number"), CTX)
    assert last_chance(Candidate(text="Hi, I need to pay £50.", source=PLAIN), CTX)


async def test_with_novelty_the_last_chance_is_kept_over_an_operation_any_junction_offers():
    for seed in range(20):
        choice = await _policy([LATER, ONLY_HERE]).choose(
            CTX, scenario_id="s", cue="opening", rng=random.Random(seed), memory=Memory()
        )
        assert choice is not None and choice.chosen.source == "change_mind:amount"
    # Without novelty (the paper's method) it is one candidate among others.
    kept = set()
    for seed in range(20):
        choice = await _policy([LATER, ONLY_HERE], novelty=False).choose(
            CTX, scenario_id="s", cue="opening", rng=random.Random(seed), memory=Memory()
        )
        assert choice is not None
        kept.add(choice.chosen.source)
    assert kept == {"out_of_order", "change_mind:amount"}


async def test_with_novelty_a_junction_whose_operations_found_nothing_is_passed_over():
    from vistasim.divert import BranchResult

    withhold = Candidate(text="Why do you need my email?", source="withhold:email")
    memory = Memory()
    for i in range(6):  # six withheld e-mail addresses, none failed
        memory.record(BranchResult(scenario_id=f"s{i}", cue="fact", operation="withhold",
                                   text="why?", tokens=1000))  # fmt: skip
    policy = _policy([withhold])
    assert await policy.choose(CTX, scenario_id="t", cue="fact", rng=random.Random(0),
                               memory=memory) is None  # fmt: skip
    # An operation not yet judged, or the paper's method, still branches there.
    fresh = await _policy([withhold, ONLY_HERE]).choose(
        CTX, scenario_id="t", cue="fact", rng=random.Random(0), memory=memory)
    assert fresh is not None
    plain = await _policy([withhold], novelty=False).choose(
        CTX, scenario_id="t", cue="fact", rng=random.Random(0), memory=memory)
    assert plain is not None


async def test_an_operation_that_pays_is_not_passed_over_for_its_uses_in_the_scenario():
    from vistasim.divert import BranchResult

    amend = Candidate(text="Make that BK-2048.", source="amend:booking_id")
    memory = Memory()
    for i in range(6):  # amend found something new in every other branch, all in "t"
        memory.record(BranchResult(scenario_id="t", cue="fact", operation="amend",
                                   text="x", causes=(f"c{i}",) if i % 2 else (),
                                   tokens=1000))  # fmt: skip
    assert memory.op_weights("t", "fact", ["amend"])[0] < 0.2  # six uses here divide it
    assert not memory.barren(["amend"], 0.2)  # run-wide it pays (school seed 1: amend)
    choice = await _policy([amend]).choose(CTX, scenario_id="t", cue="fact",
                                           rng=random.Random(0), memory=memory)  # fmt: skip
    assert choice is not None

"""Novelty memory: re-finds and barren branches weigh against a junction kind and operation."""

import random

from vistasim.divert import (
    BranchPolicy,
    BranchResult,
    HeuristicChooser,
    Memory,
    RandomSelector,
    SameAction,
    UserTurn,
    junction_kind,
)

TURNS = [
    UserTurn(index=0, kind="say", text="Hi, I'd like to move my booking.", before=""),
    UserTurn(index=1, kind="say", text="It's BK-2047.", before="What's your booking reference?"),
    UserTurn(index=2, kind="say", text="Yes.", before="I'll move it to Friday. Shall I proceed?"),
]
CONFIRM = junction_kind(TURNS[2])
FACT = junction_kind(TURNS[1])


def _branch(scenario: str, cue: str, *causes: str, operation: str = "hesitate") -> BranchResult:
    return BranchResult(
        scenario_id=scenario, cue=cue, operation=operation, text="wait", causes=causes
    )


def _policy() -> BranchPolicy:
    return BranchPolicy(
        chooser=HeuristicChooser(), generator=SameAction(), selector=RandomSelector(), k=3,
        novelty=True,
    )  # fmt: skip


def test_a_new_cause_costs_nothing_a_refind_costs_a_use_and_barren_a_quarter():
    memory = Memory()
    assert memory.record(_branch("a", CONFIRM, "hedge")) is True  # new: no penalty
    assert memory.cue_weights("b", [CONFIRM]) == {CONFIRM: 1.0}
    assert memory.record(_branch("b", CONFIRM, "hedge")) is False  # a re-find
    assert memory.cue_weights("c", [CONFIRM])[CONFIRM] == 1 / 2
    memory.record(_branch("b", FACT, operation="withhold"))  # did not fail: barren
    assert memory.cue_weights("c", [FACT])[FACT] == 1 / 1.25
    assert memory.op_weights("c", FACT, ["withhold", "hesitate"]) == [1 / 1.25, 1 / 2]
    assert memory.scenario_rank("b") == 1.0 and memory.scenario_rank("a") == 0.0


def test_the_memory_round_trips_as_json():
    memory = Memory()
    memory.record(_branch("a", CONFIRM, "hedge"))
    memory.record(_branch("b", CONFIRM, "hedge"))
    memory.record(_branch("b", FACT, operation="withhold"))
    again = Memory.model_validate_json(memory.model_dump_json())
    assert again == memory
    assert again.cue_weights("c", [CONFIRM, FACT]) == memory.cue_weights("c", [CONFIRM, FACT])


async def test_with_novelty_a_cheaper_junction_of_the_same_kind_comes_first():
    facts = [
        UserTurn(index=1, kind="say", text="It's BK-2047.", before="What's your reference?"),
        UserTurn(index=3, kind="say", text="ann@example.com", before="What's your email?"),
    ]
    rng = random.Random(0)
    late = await _policy().junction(
        facts, scenario_id="z", rng=rng, exclude=(), memory=Memory(), cue_uses={},
        costs={1: 9000, 3: 1000},
    )  # fmt: skip
    assert late is not None and late.turn_index == 3  # the branch there replays less
    early = await _policy().junction(
        facts, scenario_id="z", rng=rng, exclude=(), memory=Memory(), cue_uses={},
        costs={1: 1000, 3: 9000},
    )  # fmt: skip
    assert early is not None and early.turn_index == 1

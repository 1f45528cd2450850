"""Novelty memory: what each junction kind and operation found, per branch and per token."""

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
from vistasim.divert._novelty import STALE_AFTER

TURNS = [
    UserTurn(index=0, kind="say", text="Hi, I'd like to move my booking.", before=""),
    UserTurn(index=1, kind="say", text="It's BK-2047.", before="What's your booking reference?"),
    UserTurn(index=2, kind="say", text="Yes.", before="I'll move it to Friday. Shall I proceed?"),
]
CONFIRM = junction_kind(TURNS[2])
FACT = junction_kind(TURNS[1])


def _branch(
    scenario: str, cue: str, *causes: str, operation: str = "hesitate", tokens: int = 1000
) -> BranchResult:
    return BranchResult(
        scenario_id=scenario, cue=cue, operation=operation, text="wait", causes=causes,
        tokens=tokens,
    )  # fmt: skip


def _policy() -> BranchPolicy:
    return BranchPolicy(
        chooser=HeuristicChooser(), generator=SameAction(), selector=RandomSelector(), k=3,
        novelty=True,
    )  # fmt: skip


def test_a_new_cause_scores_one_a_refind_a_quarter_and_a_barren_branch_nothing():
    memory = Memory()
    assert memory.cue_weights("a", [CONFIRM]) == {CONFIRM: 1.0}  # untried: the prior
    assert memory.record(_branch("a", CONFIRM, "hedge")) is True
    assert memory.cue_weights("b", [CONFIRM]) == {CONFIRM: 1.0}  # (1 + 1) / (1 + 1)
    assert memory.cue_weights("a", [CONFIRM]) == {CONFIRM: 0.5}  # used once in "a"
    assert memory.record(_branch("b", CONFIRM, "hedge")) is False  # a re-find
    assert memory.cue_weights("c", [CONFIRM])[CONFIRM] == 2.25 / 3
    memory.record(_branch("b", FACT, operation="withhold", tokens=4000))  # did not fail
    assert memory.cue_weights("c", [FACT])[FACT] == 1 / 2
    # Scenario "a" found a new cause for 1000 tokens; "b" a re-find and nothing for 5000.
    assert memory.scenario_value("a") > memory.scenario_value("c") > memory.scenario_value("b")


def test_a_scenarios_slots_follow_its_new_finds_not_its_refinds():
    memory = Memory()
    assert memory.scenario_value("a") == 1.0  # before any branch: all alike
    memory.record(_branch("a", CONFIRM, "hedge"))  # the run's first find: new
    for _ in range(3):
        memory.record(_branch("a", CONFIRM, "hedge"))  # failing again for the known cause
        memory.record(_branch("b", CONFIRM))  # passing: nothing found
    memory.record(_branch("b", CONFIRM))
    # Both spent four branches at the same cost; "a" found one new cause, "b" nothing. The
    # refinds of "a" add nothing: each scenario is worth its new finds per token.
    untried = memory.scenario_value("c")
    assert memory.scenario_value("a") > untried > memory.scenario_value("b")
    refinding = Memory()
    for scenario in ("a", "b"):
        refinding.know(["hedge"])
        for _ in range(4):
            refinding.record(_branch(scenario, CONFIRM, *(("hedge",) if scenario == "a" else ())))
    assert refinding.scenario_value("a") == refinding.scenario_value("b")


def test_an_operation_weighs_its_finds_per_token():
    memory = Memory()
    memory.record(_branch("a", CONFIRM, "hedge"))
    memory.record(_branch("b", CONFIRM, "hedge"))
    memory.record(_branch("b", FACT, operation="withhold", tokens=4000))
    assert memory.mean_cost() == 2000
    hesitate, withhold, untried = memory.op_weights("c", FACT, ["hesitate", "withhold", "x"])
    # hesitate: 0.75 a branch at (2000 + 2000) / 3 tokens; withhold: 0.5 at (4000 + 2000) / 2.
    assert abs(hesitate - 0.75 * 2000 / (4000 / 3)) < 1e-9
    assert abs(withhold - 0.5 * 2000 / 3000) < 1e-9
    assert untried == 1.0 and hesitate > untried > withhold
    # A use of (kind, operation) in the scenario divides its weight once more.
    assert memory.op_weights("b", CONFIRM, ["hesitate"])[0] == hesitate / 2


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


def test_a_fresh_rollout_wins_where_rollouts_find_more_per_token_than_branches():
    memory = Memory()
    for scenario in ("a", "b"):
        memory.know_first(scenario, (), tokens=2000)
    assert not memory.fresh_pays("a", has_junction=True)  # no branch has ended: no yardstick
    for _ in range(3):
        memory.record(_branch("a", CONFIRM, tokens=1000))  # three branches, nothing found
    # Untried, a rollout counts as one find for what a first rollout cost (twice a branch).
    assert memory.rollout_value("a") == 0.5
    assert memory.fresh_pays("a", has_junction=True)
    # Fresh rollouts that find nothing close the arm for the whole run: branching yields more.
    memory.record_rollout("b", (), tokens=2000)
    memory.record_rollout("b", (), tokens=2000)
    assert not memory.fresh_pays("a", has_junction=True)
    assert not memory.fresh_pays("a", has_junction=False)
    # Fresh rollouts that find new failures open it again, here and for a waiting scenario.
    memory.record_rollout("a", ("symptom:criteria not met: paid",), tokens=2000)
    memory.record_rollout("b", ("symptom:criteria not met: refund",), tokens=2000)
    assert round(memory.rollout_value("a"), 3) == 0.4  # (1 + 3/5) / 2 for twice the cost
    assert round(memory.branch_news("a"), 4) == 0.0625  # (0 + 1/4) / 4: its three found none
    assert memory.fresh_pays("a", has_junction=True)
    assert memory.fresh_pays("a", has_junction=False)  # 0.4 > the run's branches' 1/4


def test_once_nothing_new_is_found_anywhere_slots_follow_failures():
    memory = Memory()
    memory.know(["hedge"])  # the roots found the desk's one cause
    for _ in range(STALE_AFTER // 2 - 1):
        memory.record(_branch("a", CONFIRM, "hedge"))  # failing again for the known cause
        memory.record(_branch("b", CONFIRM))  # passing
    # Not stale yet: a re-find is no news, so "a" is worth what "b" is.
    assert not memory.stale()
    assert memory.scenario_value("a") == memory.scenario_value("b")
    memory.record(_branch("a", CONFIRM, "hedge"))
    memory.record(_branch("b", CONFIRM))
    assert memory.stale()
    # Stale: "a", whose every branch failed, goes before the untried "c" (worth the run's
    # failure rate), and "c" before "b", whose branches all passed.
    assert memory.scenario_value("a") > memory.scenario_value("c") > memory.scenario_value("b")
    # A new cause anywhere ends it: news leads again.
    memory.record(_branch("c", FACT, "dropped"))
    assert not memory.stale()
    assert memory.scenario_value("c") > memory.scenario_value("a")

"""Novelty: steer exploration toward what has not been tried and has not failed already.

Err/100K counts the same flaw again and again: at a confirmation the least similar candidate is
almost always a hesitation, and a flaw found once by hesitating is found again in every scenario.
What a tester wants is *distinct* failures. So the explorer keeps a memory of what it did and
what came of it, and every choice reads it:

- per scenario, how often each junction kind (the cue the agent's message gave: a confirmation,
  a fact request...) and each (junction kind, operation) was branched;
- for the whole run, the causes found so far, and how often each junction kind and operation
  re-found a known cause (a failure whose cause an earlier episode already showed);
- per scenario, the actions of branches that failed for a known cause.

A junction kind's weight is 1 / (1 + uses in the scenario + re-finds in the run + a quarter of
its branches in the run that did not fail), an operation's likewise for its (junction kind,
operation) and the operation's re-finds and barren plays. A candidate is drawn in proportion to
its operation's weight times its distance from its siblings and those failed actions
(`NoveltySelector`); among junctions of equal weight a cheaper (later) one comes first.
A branch that finds a new cause adds to no penalty. Scenarios whose branches re-found known
causes wait behind the others. The memory is plain JSON, stored with the run, so a resumed run
explores exactly as an uninterrupted one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

__all__ = ["BranchResult", "Memory"]

REFIND_PENALTY = 1.0
"""How much one re-find of a known cause weighs against an operation, as one more use does."""
BARREN_PENALTY = 0.25
"""How much one branch that failed for no cause at all weighs against its junction kind and
operation: a little, as it says less than a re-find (the next scenario may differ)."""
_MAX_AVOID = 12
"""Failed actions remembered per scenario (the latest): enough to steer, cheap to embed."""


class BranchResult(BaseModel):
    """What one finished branch tells the memory."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    scenario_id: str
    cue: str
    """The junction kind (`vistasim.divert.cue_label` of its rationale)."""
    operation: str
    """The operation played (`hesitate`, `correct`, `llm`...)."""
    text: str
    """The injected action's text."""
    causes: tuple[str, ...] = ()
    """The causes of its failure (empty: it did not fail)."""


class Memory(BaseModel):
    """What exploration has tried and found so far (plain JSON, stored with the run)."""

    model_config = ConfigDict(extra="forbid")

    causes: list[str] = []
    """Causes found so far in the run, linear rollouts included, in the order found."""
    cue_uses: dict[str, dict[str, int]] = {}
    """Scenario -> junction kind -> branches made there."""
    op_uses: dict[str, dict[str, int]] = {}
    """Scenario -> `kind|operation` -> branches made with it."""
    cue_refinds: dict[str, int] = {}
    """Junction kind -> branches at such a junction that re-found a known cause (whole run)."""
    op_refinds: dict[str, int] = {}
    """Operation -> branches playing it that re-found a known cause (whole run)."""
    failed_texts: dict[str, list[str]] = {}
    """Scenario -> actions of its branches that failed for a known cause (latest last)."""
    cue_barren: dict[str, int] = {}
    """Junction kind -> branches at such a junction that did not fail (whole run)."""
    op_barren: dict[str, int] = {}
    """Operation -> branches playing it that did not fail (whole run)."""
    scenario_refinds: dict[str, int] = {}
    """Scenario -> its branches that re-found a known cause."""

    def know(self, causes: Iterable[str]) -> None:
        """Learn causes found without a branch (linear rollouts): they count as known."""
        for cause in causes:
            if cause not in self.causes:
                self.causes.append(cause)

    def record(self, result: BranchResult) -> bool:
        """Learn one branch's outcome; return whether it found a cause not known before."""
        scenario = result.scenario_id
        _bump(self.cue_uses.setdefault(scenario, {}), result.cue)
        _bump(self.op_uses.setdefault(scenario, {}), f"{result.cue}|{result.operation}")
        new = [c for c in result.causes if c not in self.causes]
        self.know(result.causes)
        if not result.causes:
            _bump(self.cue_barren, result.cue)
            _bump(self.op_barren, result.operation)
        elif not new:
            _bump(self.scenario_refinds, scenario)
            _bump(self.cue_refinds, result.cue)
            _bump(self.op_refinds, result.operation)
            texts = self.failed_texts.setdefault(scenario, [])
            texts.append(result.text)
            del texts[:-_MAX_AVOID]
        return bool(new)

    def cue_weights(self, scenario_id: str, cues: Iterable[str]) -> dict[str, float]:
        """The novelty of each junction kind in a scenario: 1 when never branched there."""
        uses = self.cue_uses.get(scenario_id, {})
        return {
            cue: 1 / (1 + uses.get(cue, 0) + self._spent(self.cue_refinds, self.cue_barren, cue))
            for cue in cues
        }

    def scenario_rank(self, scenario_id: str) -> float:
        """How far back a scenario waits for its next branch: its re-finds of known causes."""
        return REFIND_PENALTY * self.scenario_refinds.get(scenario_id, 0)

    def op_weights(self, scenario_id: str, cue: str, operations: Sequence[str]) -> list[float]:
        """The novelty of each operation at a junction of kind `cue`, in the order given."""
        uses = self.op_uses.get(scenario_id, {})
        return [
            1 / (1 + uses.get(f"{cue}|{op}", 0) + self._spent(self.op_refinds, self.op_barren, op))
            for op in operations
        ]

    @staticmethod
    def _spent(refinds: dict[str, int], barren: dict[str, int], key: str) -> float:
        """What the run's branches say against `key`: re-finds, and a little per barren one."""
        return REFIND_PENALTY * refinds.get(key, 0) + BARREN_PENALTY * barren.get(key, 0)

    def avoid(self, scenario_id: str) -> list[str]:
        """Actions of the scenario's branches that failed for a cause already known."""
        return list(self.failed_texts.get(scenario_id, []))


def _bump(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1

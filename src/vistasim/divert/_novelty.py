"""Novelty: steer exploration toward what finds distinct failures for the fewest tokens.

Err/100K counts the same flaw again and again: at a confirmation the least similar candidate is
almost always a hesitation, and a flaw found once by hesitating is found again in every scenario.
What a tester wants is *distinct* failures per token. So the explorer keeps a memory of what it
did and what came of it, and every choice reads it:

- per scenario, how often each junction kind (the cue the agent's message gave: a confirmation,
  a fact request...) and each (junction kind, operation) was branched: each use there divides
  its weight once more (1 / (1 + uses)), so a scenario's branches spread over what it offers;
- for the whole run, the *yield* of each junction kind and each operation: branches played,
  agent tokens they cost, and what they found — a cause not known before scores 1, a failure
  for a known cause a quarter (it adds to Err/100K but says little new), a branch that did not
  fail nothing. A junction kind weighs its mean yield per branch, an operation its yield per
  token, both counted from one optimistic pseudo-branch that found something, so what has not
  been tried is tried before it is judged. Across desks, withholding a fact makes the agent ask
  again and finds almost nothing, for more tokens than a hesitation at a confirmation: the
  yield learns that from the run itself;
- per scenario, what its branches found *new* per token: each wave's slots go to the scenarios
  that found most new so far (before a first branch, the run's average). A scenario whose
  branches find nothing, or only fail again for a cause the run knows, falls behind — until
  the run is *stale*: once `STALE_AFTER` branches in a row found no new cause anywhere, the
  slots go to the scenarios whose branches fail most per token, known causes included
  (`Memory.stale`). While news comes, chasing re-finds costs distinct failures; once it has
  stopped, distinct failures no longer grow either way and a known failure is still a failure
  the agent shows, so its rate is what is left to win;
- per scenario, the actions of branches that failed for a known cause (the selector keeps away
  from them);
- the *fresh rollout arm* (`explore.rollout_arm`, opt-in): per scenario and run-wide, what
  the rollouts played after the first ones cost and found, scored as branches are. What varies
  between rollouts of a scenario (the varying user's draw and wording, an agent that varies by
  itself) shows to a fresh rollout and not to a branch restored at its parent's junction: under
  a budget the explorer plays a fresh rollout while the run's rollouts yield more per token than
  its branches, in a scenario whose rollouts find more *new* causes per token than its branches
  (`Memory.fresh_pays`).

The junction's own cost (the agent tokens its parent spent after it) divides its weight too
(`BranchPolicy.junction`), so the chooser prefers what finds most per token. The memory is plain
JSON, stored with the run, so a resumed run explores exactly as an uninterrupted one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

__all__ = ["BranchResult", "Memory", "Yield"]

NEW_FIND = 1.0
"""What a branch that found a cause not known before adds to its kind's and operation's yield."""
REFIND = 0.25
"""What a branch that failed for known causes only adds: a failure, but little news."""
PRIOR_FIND = 1.0
"""The yield of the optimistic pseudo-branch every kind and operation starts from."""
STALE_AFTER = 12
"""Branches (and fresh rollouts) in a row without a new cause after which the run is stale.

A fixed count: most of one pass over the 15 scenarios a DIVERT desk branches. 24 kept one
desk's late finds but let another's repeats go unplayed (benchmarks/README.md, eighteenth
session)."""
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
    tokens: int = 0
    """Tokens the branch's own turns spent (agent tokens, or their proxy)."""


class Yield(BaseModel):
    """What the branches of one junction kind or operation cost and found, run-wide."""

    model_config = ConfigDict(extra="forbid")

    branches: int = 0
    tokens: int = 0
    found: float = 0.0
    """`NEW_FIND` per new cause found, `REFIND` per failure for known causes only."""
    new: int = 0
    """Those that found a cause not known before (the fresh-rollout arm compares these)."""
    failed: int = 0
    """Those that failed, for a new cause or a known one."""

    def per_branch(self) -> float:
        """Mean find per branch, from one optimistic pseudo-branch."""
        return (self.found + PRIOR_FIND) / (self.branches + 1)

    def per_token(self, mean_cost: float) -> float:
        """Mean find per token, in units of a branch of mean cost (1: as the prior)."""
        if mean_cost <= 0:
            return self.per_branch()
        cost = (self.tokens + mean_cost) / (self.branches + 1)
        return self.per_branch() * mean_cost / max(cost, 1.0)


class Memory(BaseModel):
    """What exploration has tried and found so far (plain JSON, stored with the run)."""

    # A run stored by an earlier version kept penalty counts instead of yields: ignored.
    model_config = ConfigDict(extra="ignore")

    causes: list[str] = []
    """Causes found so far in the run, linear rollouts included, in the order found."""
    cue_uses: dict[str, dict[str, int]] = {}
    """Scenario -> junction kind -> branches made there."""
    op_uses: dict[str, dict[str, int]] = {}
    """Scenario -> `kind|operation` -> branches made with it."""
    cue_yield: dict[str, Yield] = {}
    """Junction kind -> what its branches cost and found (whole run)."""
    op_yield: dict[str, Yield] = {}
    """Operation -> what its branches cost and found (whole run)."""
    failed_texts: dict[str, list[str]] = {}
    """Scenario -> actions of its branches that failed for a known cause (latest last)."""
    scenario_yield: dict[str, Yield] = {}
    """Scenario -> what its branches cost and found."""
    rollout_yield: dict[str, Yield] = {}
    """Scenario -> what its fresh rollouts (after the run's first ones) cost and found."""
    since_new: int = 0
    """Branches and fresh rollouts ended, in a row, since the last that found a new cause."""
    first_cost: dict[str, Yield] = {}
    """Scenario -> its first rollouts (`branches`: how many, `tokens`: what they cost): the cost
    a fresh rollout is expected to have before one is played."""

    def know(self, causes: Iterable[str]) -> None:
        """Learn causes found without a branch (linear rollouts): they count as known."""
        for cause in causes:
            if cause not in self.causes:
                self.causes.append(cause)

    def know_first(self, scenario_id: str, causes: Iterable[str], tokens: int) -> None:
        """Learn one of the run's first rollouts: its causes are known, its cost a prior."""
        self.know(causes)
        first = self.first_cost.setdefault(scenario_id, Yield())
        first.branches += 1
        first.tokens += tokens

    def record_rollout(self, scenario_id: str, causes: Sequence[str], tokens: int) -> bool:
        """Learn one fresh rollout (the rollout arm); return whether it found a new cause."""
        new = [c for c in causes if c not in self.causes]
        self.know(causes)
        counted = self.rollout_yield.setdefault(scenario_id, Yield())
        counted.branches += 1
        counted.tokens += tokens
        counted.found += NEW_FIND if new else REFIND if causes else 0.0
        counted.new += bool(new)
        counted.failed += bool(causes)
        self._count_news(bool(new))
        return bool(new)

    def rollout_value(self, scenario_id: str) -> float:
        """What a fresh rollout here finds new per token, in units of a branch of mean cost.

        Counted from one pseudo-rollout that finds what the run's fresh rollouts found new on
        average (optimistic before any: one find) and costs what the scenario's first rollouts
        cost; 0 before any branch has ended (nothing to compare it with). Only new causes
        count: a rollout and a branch re-finding a known failure add nothing distinct, and a
        branch of a failing trajectory re-finds it far more often than a rollout does.
        """
        mean = self.mean_cost()
        if mean <= 0:
            return 0.0
        run = _total(self.rollout_yield.values())
        mine = self.rollout_yield.get(scenario_id, Yield())
        first = self.first_cost.get(scenario_id) or _total(self.first_cost.values())
        cost_prior = first.tokens / first.branches if first.branches else mean
        return _news(mine, prior=_news_per(run), cost_prior=cost_prior, mean=mean)

    def branch_news(self, scenario_id: str | None = None) -> float:
        """What the scenario's branches (None: the run's) found new per token.

        As `rollout_value`, from one pseudo-branch that finds what the run's branches found new
        on average (one find before any): both arms are judged on the same footing.
        """
        run = _total(self.scenario_yield.values())
        mean = self.mean_cost()
        if scenario_id is None:
            return _news(run, prior=1.0, cost_prior=mean, mean=mean)
        counted = self.scenario_yield.get(scenario_id, Yield())
        return _news(counted, prior=_news_per(run), cost_prior=mean, mean=mean)

    def fresh_pays(self, scenario_id: str, *, has_junction: bool) -> bool:
        """Whether a fresh rollout of the scenario finds more new per token than a branch.

        Run-wide first: only while the run's fresh rollouts yield more per token than its
        branches (`scenario_value`'s yield: a new cause 1, a known one a quarter; before any
        rollout, optimistically, one find) is the arm played at all. Then, with a
        junction left: more than the scenario's own branches; without one (the scenario waits):
        more than the run's branches on average, else it keeps waiting.
        """
        if not self._rollouts_pay():
            return False
        run_branches = self.branch_news()
        if not has_junction:
            return self.rollout_value(scenario_id) > run_branches
        return self.rollout_value(scenario_id) > self.branch_news(scenario_id)

    def _rollouts_pay(self) -> bool:
        """Whether the run's fresh rollouts yield more per token than its branches."""
        mean = self.mean_cost()
        if mean <= 0:
            return False
        rollouts = _total(self.rollout_yield.values())
        first = _total(self.first_cost.values())
        cost_prior = first.tokens / first.branches if first.branches else mean
        per = (rollouts.found + PRIOR_FIND) / (rollouts.branches + 1)
        cost = (rollouts.tokens + cost_prior) / (rollouts.branches + 1)
        branches = _total(self.scenario_yield.values()).per_token(mean)
        return per * mean / max(cost, 1.0) > branches

    def record(self, result: BranchResult) -> bool:
        """Learn one branch's outcome; return whether it found a cause not known before."""
        scenario = result.scenario_id
        _bump(self.cue_uses.setdefault(scenario, {}), result.cue)
        _bump(self.op_uses.setdefault(scenario, {}), f"{result.cue}|{result.operation}")
        new = [c for c in result.causes if c not in self.causes]
        self.know(result.causes)
        found = NEW_FIND if new else REFIND if result.causes else 0.0
        for counted in (
            self.cue_yield.setdefault(result.cue, Yield()),
            self.op_yield.setdefault(result.operation, Yield()),
            self.scenario_yield.setdefault(scenario, Yield()),
        ):
            counted.branches += 1
            counted.tokens += result.tokens
            counted.found += found
            counted.new += bool(new)
            counted.failed += bool(result.causes)
        self._count_news(bool(new))
        if result.causes and not new:
            texts = self.failed_texts.setdefault(scenario, [])
            texts.append(result.text)
            del texts[:-_MAX_AVOID]
        return bool(new)

    def stale(self) -> bool:
        """Whether the last `STALE_AFTER` branches and fresh rollouts found nothing new."""
        return self.since_new >= STALE_AFTER

    def _count_news(self, new: bool) -> None:
        self.since_new = 0 if new else self.since_new + 1

    def cue_weights(self, scenario_id: str, cues: Iterable[str]) -> dict[str, float]:
        """Each junction kind's yield per branch, divided by its uses in the scenario."""
        uses = self.cue_uses.get(scenario_id, {})
        return {
            cue: self.cue_yield.get(cue, Yield()).per_branch() / (1 + uses.get(cue, 0))
            for cue in cues
        }

    def scenario_value(self, scenario_id: str) -> float:
        """What a scenario's branches found *new* per token so far (`branch_news`).

        The next wave's slots go to the highest. Only new finds count: a branch re-finding a
        failure the run knows adds no distinct one, and counting re-finds (a quarter each) gave
        most of the budget on the held-out desks to scenarios whose every branch failed again for
        the cause their root had shown (vet: 7-8 branches each, none new), while scenarios that
        passed, where the baseline's rollouts found failures behind other first turns, got two.
        Before its first branch a scenario is worth what the run's branches find new on
        average, so one that finds nothing falls behind the untried, and one that does stays
        ahead of them. Once the run is `stale`, a scenario is worth its failures per token,
        known causes included, on the same footing (`branch_failures`).
        """
        if self.mean_cost() <= 0:
            return 1.0
        if self.stale():
            return self.branch_failures(scenario_id)
        return self.branch_news(scenario_id)

    def branch_failures(self, scenario_id: str) -> float:
        """As `branch_news`, counting every failed branch, not only those with a new cause."""
        run = _total(self.scenario_yield.values())
        counted = self.scenario_yield.get(scenario_id, Yield())
        mean = self.mean_cost()
        prior = (run.failed + 1) / (run.branches + 1)
        return _rate(counted.failed, counted, prior=prior, cost_prior=mean, mean=mean)

    def op_weights(self, scenario_id: str, cue: str, operations: Sequence[str]) -> list[float]:
        """Each operation's yield per token, divided by its uses at such junctions here."""
        uses = self.op_uses.get(scenario_id, {})
        mean = self.mean_cost()
        return [
            self.op_yield.get(op, Yield()).per_token(mean) / (1 + uses.get(f"{cue}|{op}", 0))
            for op in operations
        ]

    def barren(self, operations: Sequence[str], below: float) -> bool:
        """Whether every one of `operations` found less than `below` per token, run-wide.

        Each as `Yield.per_token` (from one optimistic pseudo-branch, in units of a branch of
        mean cost), not divided by its uses anywhere; False before any branch has ended.
        """
        mean = self.mean_cost()
        if mean <= 0 or not operations:
            return False
        return all(self.op_yield.get(op, Yield()).per_token(mean) < below for op in operations)

    def mean_cost(self) -> float:
        """Tokens a branch has cost on average so far (0 before any has ended)."""
        branches = sum(y.branches for y in self.op_yield.values())
        tokens = sum(y.tokens for y in self.op_yield.values())
        return tokens / branches if branches else 0.0

    def avoid(self, scenario_id: str) -> list[str]:
        """Actions of the scenario's branches that failed for a cause already known."""
        return list(self.failed_texts.get(scenario_id, []))


def _total(yields: Iterable[Yield]) -> Yield:
    total = Yield()
    for counted in yields:
        total.branches += counted.branches
        total.tokens += counted.tokens
        total.found += counted.found
        total.new += counted.new
        total.failed += counted.failed
    return total


def _news_per(counted: Yield) -> float:
    """New finds per episode, from one optimistic pseudo-episode that found one."""
    return (counted.new + 1) / (counted.branches + 1)


def _news(counted: Yield, *, prior: float, cost_prior: float, mean: float) -> float:
    """New finds per token in units of a mean-cost branch, from one pseudo-episode."""
    return _rate(counted.new, counted, prior=prior, cost_prior=cost_prior, mean=mean)


def _rate(hits: int, counted: Yield, *, prior: float, cost_prior: float, mean: float) -> float:
    """`hits` per token in units of a mean-cost branch, from one pseudo-episode of `prior`."""
    per = (hits + prior) / (counted.branches + 1)
    cost = (counted.tokens + cost_prior) / (counted.branches + 1)
    return per * mean / max(cost, 1.0)


def _bump(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1

"""The DIVERT loop: waves of branches over a run's scenarios, repeatable to the branch.

After the linear rollouts, every scenario gets `explore.branches` branches (or branches until
`explore.budget_tokens` is spent), grown round-robin from its sound trajectories. Branches are
played in *waves* of at most `run.concurrency` slots, one per scenario, the scenarios with the
fewest branches first (with novelty: those whose branches found most new per token first).
Everything a choice reads changes only between waves: the verdicts of the episodes finished in
the last wave, the novelty memory they update (in the run's scenario order, whatever order the
slots recorded their branches in), the budget left. A wave's
plan is stored before it plays, with the trajectories found used up and the verdicts read
(`explorations` table), so a run killed at any instant and resumed makes the same branches, from
the same parents, as one never interrupted.

When a scenario's trajectories have no junction left, it stops without a token budget, and the
run says why it made fewer than asked. Under a budget it waits (`drained`) while other scenarios
still have junctions: a fresh rollout is a linear rollout, and what it shows is no longer news
for the branches (`new_causes` counts causes no linear rollout of the run shows), so the budget
goes to branching while there is something to branch. Once every scenario waits, fresh rollouts
refill their pools, one per slot, as before. A scenario that has not used a slot yet does not
wait: its first slot is a fresh rollout (a scenario whose only rollout the user failed, or that
offered no junction, would otherwise stay unexplored while the budget went elsewhere).

With novelty and `explore.rollout_arm` (opt-in), a fresh rollout is also an arm that competes
with branching on yield per token, under a budget (`Memory.fresh_pays`): while the run's fresh
rollouts yield more per token than its branches, a scenario plays one when its fresh rollouts
find more new causes per token than its branches, and a waiting one when they find more than
the run's branches do. What varies between rollouts (the varying user's draw, an agent that
varies by itself) shows to fresh rollouts; a branch restores its parent's junction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import anyio
from pydantic import BaseModel, ConfigDict

from vistasim.divert import BranchPolicy, BranchResult, Memory, build_policy, junction_kind
from vistasim.explore._branch import grow_branch
from vistasim.explore._junctions import junctions
from vistasim.explore._runner import Runner, play_one
from vistasim.explore._verdicts import Judged, judge, sound
from vistasim.store import EpisodePlan
from vistasim.user import action_from_json, describe_action

__all__ = ["EpisodeDone", "Explorer"]

EpisodeDone = Callable[[EpisodePlan, str], None]
"""Told of each episode the explorer played, with its stop reason."""


class ExplorerState(BaseModel):
    """What the explorer has decided so far (stored with the run after every change)."""

    model_config = ConfigDict(extra="forbid")

    budget_start: int = 0
    """Tokens spent when branching began."""
    first_guess: float = 0.0
    """Tokens a branch is expected to cost before any has ended: half a linear episode."""
    wave: dict[str, int] = {}
    """The wave being played: scenario -> the number of the slot it plays."""
    waves: int = 0
    """Waves played."""
    exhausted: dict[str, list[str]] = {}
    """Scenario -> its trajectories with no junction left."""
    stopped: dict[str, str] = {}
    """Scenario -> why it gets no more branches."""
    drained: list[str] = []
    """Scenarios (under a budget) whose trajectories have no junction left, waiting while others
    still have some."""
    refill: bool = False
    """Every scenario has waited: fresh rollouts now refill the pools that have no junction."""
    budget_spent: bool = False
    verdicts: dict[str, Judged] = {}
    """Every episode judged so far."""
    memory: Memory = Memory()


@dataclass(kw_only=True)
class Explorer:
    """Branch every scenario of a run (see the module)."""

    run: Runner
    on_episode: EpisodeDone

    def __post_init__(self) -> None:
        spec = self.run.settings.explore
        self.spec = spec
        self.policy: BranchPolicy = build_policy(
            spec, user_policy=self.run.parts.policy, models=self.run.parts.models,
            model_specs=self.run.config.models,
        )  # fmt: skip
        self.state = self._load()

    async def explore(self) -> list[str]:
        """Play waves until every scenario has its branches or the budget is spent.

        Returns what the run should say about branches it could not make.
        """
        while True:
            if not self.state.wave:
                self._learn()
                self.state.wave = self._plan()
                self._save()
                if not self.state.wave:
                    return self._shortfalls()
            async with anyio.create_task_group() as tg:
                for scenario_id, number in self.state.wave.items():
                    tg.start_soon(self._slot, scenario_id, number)
            self.state.wave = {}
            self.state.waves += 1
            self._save()

    def remaining(self) -> int:
        """Branch slots still to play (for progress totals: exact once branching ends)."""
        if self.state.budget_spent:
            return 0
        open_slots = sum(
            max(0, self.spec.branches - self._made(s))
            for s in self.run.roots
            if s not in self.state.stopped
        )
        limit = self.spec.budget_tokens
        if limit is None:
            return open_slots
        each = self._cost_each()
        left = limit - self.run.db.spent_tokens(self.run.run_id)
        return min(open_slots, max(0, int(left / each)) if each > 0 else open_slots)

    # -- planning ----------------------------------------------------------------------------

    def _plan(self) -> dict[str, int]:
        """The next wave: up to `concurrency` scenarios still short (see the module for which)."""
        order = list(self.run.roots)
        short = [s for s in order if s not in self.state.stopped]
        made = {s: self._made(s) for s in short}
        memory = self.state.memory
        # With novelty, the scenarios whose branches found most new per token go first.
        value = {s: memory.scenario_value(s) if self.spec.novelty else 0.0 for s in short}
        short = [s for s in short if made[s] < self.spec.branches]
        if short and set(short) <= set(self.state.drained):
            # Every scenario left waits for a fresh rollout: now they get them.
            self.state.refill, self.state.drained = True, []
        # A scenario is worth its better arm; a waiting one has only the rollout arm.
        fresh = {s for s in short if self._fresh_pays(s, has_junction=s not in self.state.drained)}
        for s in fresh:
            value[s] = memory.rollout_value(s)
        short = sorted(
            (s for s in short if s not in self.state.drained or s in fresh),
            key=lambda s: (-value[s], made[s], order.index(s)),
        )[: self.run.settings.concurrency]
        admitted = short[: self._affordable(len(short))]
        if short and not admitted:
            self.state.budget_spent = True
        return {s: made[s] + 1 for s in admitted}

    def _affordable(self, wanted: int) -> int:
        """How many of `wanted` slots the budget still allows (each at the mean cost so far).

        A slot is started only when its whole expected cost fits in what is left: a budget is
        what the run may spend, and a slot admitted on half its cost overshot it by a branch
        or so (1-5 % on DIVERT's desks), which the comparison at equal tokens then read as a
        lower rate for branching wherever the failures had run out.
        """
        limit = self.spec.budget_tokens
        if limit is None:
            return wanted
        spent = self.run.db.spent_tokens(self.run.run_id)
        each = self._cost_each()
        allowed = 0
        while allowed < wanted and spent + (allowed + 1) * each <= limit:
            allowed += 1
        return allowed

    def _cost_each(self) -> float:
        slots = sum(self._made(s) for s in self.run.roots)
        if not slots:
            return self.state.first_guess
        return (self.run.db.spent_tokens(self.run.run_id) - self.state.budget_start) / slots

    def _made(self, scenario_id: str) -> int:
        """Slots a scenario has used: branches played (or queued) and rollouts added."""
        branches = sum(
            1 for b in self.run.db.list_branches(self.run.run_id)
            if b.scenario_id == scenario_id and b.status != "abandoned"
        )  # fmt: skip
        added = sum(
            1 for p in self.run.db.list_episodes(self.run.run_id)
            if p.scenario_id == scenario_id and p.branch_of is None
            and p.rollout >= self.run.config.run.rollouts
        )  # fmt: skip
        return branches + added

    # -- one slot ----------------------------------------------------------------------------

    async def _slot(self, scenario_id: str, number: int) -> None:
        """Make branch `number` of a scenario, from the next sound trajectory with a junction."""
        while self._made(scenario_id) < number:
            parent = self._parent(scenario_id)
            if parent is None:
                await self._no_parent(scenario_id)
                return
            if self._fresh_pays(scenario_id, has_junction=True):
                await self._fresh(scenario_id)
                return
            grown = await grow_branch(self.run, self.policy, self.state.memory, parent, number)
            if grown.plan is not None and grown.reason is not None:
                self.on_episode(grown.plan, grown.reason)
            elif not grown.recorded:
                self.state.exhausted.setdefault(scenario_id, []).append(parent.episode_id)
                self._save()

    def _parent(self, scenario_id: str) -> EpisodePlan | None:
        """The next trajectory to grow from: round-robin over the scenario's sound pool."""
        used_up = set(self.state.exhausted.get(scenario_id, []))
        pool = [
            p for p in self.run.db.list_episodes(self.run.run_id)
            if p.scenario_id == scenario_id and p.status == "done"
            and sound(self.state.verdicts, p.episode_id) and p.episode_id not in used_up
        ]  # fmt: skip
        return pool[self._made(scenario_id) % len(pool)] if pool else None

    async def _no_parent(self, scenario_id: str) -> None:
        """No trajectory has a junction left: under a budget wait, then a fresh rollout; else stop.

        See the module: a scenario waits while others still have junctions, once it has used a
        slot. One that has used none (its rollout is invalid or errored, or offers no junction)
        would otherwise wait unexplored to the end of the budget: its first slot is a rollout.
        """
        budget = self.spec.budget_tokens is not None
        if budget and not self.state.refill and self._made(scenario_id):
            if self._fresh_pays(scenario_id, has_junction=False):
                await self._fresh(scenario_id)
                return
            if scenario_id not in self.state.drained:
                self.state.drained.append(scenario_id)
                self._save()
            return
        if not budget:
            trajectories = len(self.state.exhausted.get(scenario_id, []))
            self.state.stopped[scenario_id] = (
                f"every junction of its {trajectories} sound trajectories was tried"
                if trajectories
                else "it has no trajectory a verdict says something of (all invalid or errored)"
            )
            self._save()
            return
        await self._fresh(scenario_id)

    def _fresh_pays(self, scenario_id: str, *, has_junction: bool) -> bool:
        """Whether the rollout arm wins (see the module): with novelty, under a budget only.

        Without a budget a slot is a branch (`--branches B` makes B branches or says why).
        """
        if not (self.spec.novelty and self.spec.rollout_arm) or self.spec.budget_tokens is None:
            return False
        return self.state.memory.fresh_pays(scenario_id, has_junction=has_junction)

    async def _fresh(self, scenario_id: str) -> None:
        """One more linear rollout of the scenario (a new trajectory to branch, if sound)."""
        if scenario_id in self.state.drained:
            self.state.drained.remove(scenario_id)
            self._save()
        plan = self.run.db.add_rollout(self.run.run_id, scenario_id)
        self.on_episode(plan, await play_one(self.run, plan))

    # -- between waves -----------------------------------------------------------------------

    def _learn(self) -> None:
        """Judge the episodes finished since the last wave; teach the memory what they found.

        The memory learns them in a canonical order, never in the order they were recorded:
        what it learns depends on that order (of two branches finding the same cause, only the
        first finds it new), and a wave's slots record their branches in whatever order their
        choices finish (on Ray, and after a resume, in yet another one).
        """
        db, run_id = self.run.db, self.run.run_id
        new = _canonical(
            [
                p for p in db.list_episodes(run_id)
                if p.status in ("done", "errored") and p.episode_id not in self.state.verdicts
            ],
            list(self.run.roots),
        )  # fmt: skip
        verdicts = judge(db, run_id, [p.episode_id for p in new])
        self.state.verdicts.update(verdicts)
        branches = {b.episode_id: b for b in db.list_branches(run_id)}
        for plan in new:
            found = verdicts.get(plan.episode_id, Judged(outcome="unjudged")).causes
            branch = branches.get(plan.episode_id)
            if branch is None:
                tokens = db.spent_tokens(run_id, plan.episode_id)
                if plan.rollout >= self.run.config.run.rollouts:
                    self.state.memory.record_rollout(plan.scenario_id, found, tokens)
                else:
                    self.state.memory.know_first(plan.scenario_id, found, tokens)
                continue
            self.state.memory.record(
                BranchResult(
                    scenario_id=plan.scenario_id,
                    cue=self._cue(branch.parent_episode_id, branch.turn),
                    operation=branch.operation,
                    text=describe_action(action_from_json(branch.injected["action"])),
                    causes=found,
                    tokens=db.spent_tokens(run_id, plan.episode_id),
                )
            )  # fmt: skip

    def _cue(self, parent_id: str, turn: int) -> str:
        parent = self.run.db.episode(parent_id)
        assert parent.leaf_event_id is not None
        path = self.run.db.read_path(parent.leaf_event_id)
        return next((junction_kind(t) for t, _, _ in junctions(path) if t.index == turn), "")

    def _shortfalls(self) -> list[str]:
        if self.state.budget_spent:
            return []
        return [
            f"scenario {s}: {self._made(s)} of {self.spec.branches} branches; {why}"
            for s, why in self.state.stopped.items()
        ]

    # -- stored state ------------------------------------------------------------------------

    def _load(self) -> ExplorerState:
        stored = self.run.db.load_exploration(self.run.run_id)
        if stored is not None:
            return ExplorerState.model_validate(stored)
        spent = self.run.db.spent_tokens(self.run.run_id)
        episodes = max(1, len(self.run.db.list_episodes(self.run.run_id)))
        return ExplorerState(budget_start=spent, first_guess=spent / episodes / 2)

    def _save(self) -> None:
        self.run.db.save_exploration(self.run.run_id, self.state.model_dump(mode="json"))


def _canonical(plans: list[EpisodePlan], scenarios: list[str]) -> list[EpisodePlan]:
    """`plans` by their scenario's place in the run, each scenario's in the order it made them.

    A scenario's episodes are made one after another (one slot a wave), so their order is its
    own; between scenarios it is the run's, whichever slot of a wave recorded its branch first.
    """
    place = {scenario_id: index for index, scenario_id in enumerate(scenarios)}
    return sorted(plans, key=lambda p: place.get(p.scenario_id, len(place)))

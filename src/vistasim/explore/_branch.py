"""Grow one DIVERT branch: restore a trajectory once, ask the policy, record the branch, play it.

The trajectory's user turns are read from the store; the run's `BranchPolicy` picks a junction;
the candidates are made from what the user saw there (the environment put back at the junction's
snapshot, the transcript folded from the path, with the secrets the live run saw); the policy
generates and selects an alternative; the episode is then restored there once (the same restore
path as resume), the branch is recorded and played on in that very episode. A junction that
offers no alternative costs no restore, except on a page, whose view needs the page restored.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import JsonValue

from vistasim.divert import (
    PLAIN,
    BranchPolicy,
    CandidateContext,
    Choice,
    Junction,
    Memory,
    UserTurn,
    cue_label,
    junction_kind,
)
from vistasim.errors import BrowserError, EnvError, StoreError
from vistasim.events import Snapshot
from vistasim.explore._episode import Episode, view_of
from vistasim.explore._junctions import junctions, state_after, tokens_after
from vistasim.explore._plain import drawn_on_path, without_pending_draw
from vistasim.explore._reopen import last_chances_left, played_at
from vistasim.explore._resume import look_at, record_held, restore
from vistasim.explore._runner import Runner, guarded, open_episode, play_from
from vistasim.explore._state import EpisodeState
from vistasim.explore._values import today_for, value_pool
from vistasim.llm import ModelCall, collect_calls
from vistasim.scenario import Scenario
from vistasim.store import BranchCandidate, EpisodePlan, NewBranch, StoredEvent
from vistasim.user import (
    Action,
    AgendaPolicy,
    Finish,
    action_from_json,
    action_json,
    describe_action,
    redrawn,
    undrawn,
)

__all__ = ["Grown", "grow_branch"]


@dataclass(frozen=True, kw_only=True)
class Grown:
    """What one attempt to branch a trajectory came to."""

    plan: EpisodePlan | None = None
    """The branch played (None: none was)."""
    reason: str | None = None
    """Its stop reason."""
    recorded: bool = False
    """A branch was recorded (played, or abandoned with why); False: no junction was left."""


@dataclass(frozen=True, kw_only=True)
class _Site:
    """The junction being tried, on the parent's path."""

    junction: Junction
    turn: UserTurn
    snapshot: StoredEvent
    original: Action | None


async def grow_branch(
    run: Runner, policy: BranchPolicy, memory: Memory, parent: EpisodePlan, number: int
) -> Grown:
    """Make branch `number` of `parent`'s scenario and play it (see the module)."""
    scenario = run.roots[parent.scenario_id][1]
    assert parent.leaf_event_id is not None  # only finished episodes are parents
    path = run.db.read_path(parent.leaf_event_id, exact=True)
    rng = random.Random(f"{run.settings.seed}:{parent.scenario_id}:{number}")
    # Its own stream, so the junction, selection and continuation draws stay as they were.
    wording = random.Random(f"{run.settings.seed}:{parent.scenario_id}:{number}:wording")
    grower = _Grower(run=run, policy=policy, memory=memory, parent=parent, path=path, rng=rng,
                     wording_seed=wording.getrandbits(32))  # fmt: skip
    site = await grower.next_site()
    if site is None:
        return Grown()
    try:
        async with open_episode(run, parent, scenario) as ep:
            return await grower.grow(ep, site)
    except (BrowserError, EnvError, StoreError) as exc:
        grower.abandon(site, f"could not open the trajectory again: {exc}")
        return Grown(recorded=True)


@dataclass(kw_only=True)
class _Grower:
    run: Runner
    policy: BranchPolicy
    memory: Memory
    parent: EpisodePlan
    path: list[StoredEvent]
    rng: random.Random
    wording_seed: int | None = None
    """The branch's own seed for its candidates' wording (`CandidateContext.wording_seed`)."""
    spent: int = 0
    """Model tokens the chooser and generator spent on this branch so far."""

    def __post_init__(self) -> None:
        self.located = junctions(self.path)
        self.tried: set[int] = set()
        self.branches = self.run.db.list_branches(self.run.run_id)
        self.calls: list[ModelCall] = []
        """The chooser's and the generator's calls, stored with the branch they made."""

    async def next_site(self) -> _Site | None:
        """The next junction to try on the parent (None: every allowed one was tried)."""
        scenario_id = self.parent.scenario_id
        kin = [b for b in self.branches if b.scenario_id == scenario_id]
        with collect_calls() as calls:
            junction = await self.policy.junction(
                [t for t, _, _ in self.located],
                scenario_id=scenario_id,
                rng=self.rng,
                exclude=self._excluded(),
                memory=self.memory,
                cue_uses=Counter(cue_label(b.rationale) for b in kin),
                costs={t.index: tokens_after(self.path, snap) for t, snap, _ in self.located},
            )
        self.calls += calls
        if junction is None:
            return None
        self.tried.add(junction.turn_index)
        self.spent += junction.overhead_tokens
        turn, snapshot, original = next(
            j for j in self.located if j[0].index == junction.turn_index
        )
        return _Site(junction=junction, turn=turn, snapshot=snapshot, original=original)

    def _excluded(self) -> set[int]:
        made = Counter(b.turn for b in self.branches
                       if b.parent_episode_id == self.parent.episode_id)  # fmt: skip
        used = {t for t, n in made.items()
                if n >= (self.policy.opening_draws if self._redraws(t) else 1)}  # fmt: skip
        if self.policy.novelty:  # open while it offers what only it can play (`_reopen`)
            facts, parent = _facts(self.run.roots[self.parent.scenario_id][1]), self.parent
            used = {t for t in used if self._redraws(t)
                    or not last_chances_left(self.branches, parent.episode_id, t, facts)}
        fork_turn = next(
            (s.event.turn for s in self.path
             if s.id == self.parent.fork_event_id and isinstance(s.event, Snapshot)),
            -1,
        )  # fmt: skip
        # A branch's prefix and its injected turn belong to its parents: branch after them.
        excluded = used | self.tried | {t.index for t, _, _ in self.located if t.index <= fork_turn}
        if self.policy.replays_original:
            excluded |= {t.index for t, _, _ in self.located if t.kind == "stop"}
        if not isinstance(self.run.parts.policy, AgendaPolicy):  # only it can be asked again
            excluded |= {t.index for t, _, action in self.located if action is None}
        return excluded

    async def grow(self, ep: Episode, site: _Site) -> Grown:
        """Look at each junction until one offers an alternative; restore once, record, play.

        Without a page the candidates need only the environment at the junction, so a junction
        that offers none costs no restore of the agent; with one, each junction is restored.
        """
        while True:
            fork_path = self.path[: self.path.index(site.snapshot) + 1]
            state = look_at(ep, fork_path)
            restored = state is None
            if state is None:
                state, stop = await restore(ep, fork_path, record=False)
                if stop is not None:
                    self.abandon(site, f"could not restore: {stop.detail}")
                    return Grown(recorded=True)
            original = await self._original(ep, site, state)
            choice = await self._choose(ep, site, state, original)
            player = self.run.branch_player
            if choice is not None and player is not None:  # the restore is the player's
                restores = ep.restores + (0 if restored else 1)
                plan, injected = self._record(ep, site, state, original, choice, restores)
                reason = await player.play_branch(plan, injected)
                return Grown(plan=plan, reason=reason, recorded=True)
            if choice is not None and not restored:
                state, stop = await restore(ep, fork_path, record=False)
                if stop is not None:
                    self.abandon(site, f"could not restore: {stop.detail}")
                    return Grown(recorded=True)
            if choice is not None:
                return await self._play(ep, site, state, original, choice)
            following = await self.next_site()
            if following is None:
                break
            site = following
        if self.spent:  # model tokens were spent: say so
            self.abandon(site, "no junction had an alternative")
            return Grown(recorded=True)
        return Grown()

    async def _original(self, ep: Episode, site: _Site, state: EpisodeState) -> Action:
        """The action taken at the junction: the stored one, or the agenda user's again."""
        if site.original is not None:
            return site.original
        policy = self.run.parts.policy
        if not isinstance(policy, AgendaPolicy):
            return Finish(reason="user_stop", text="(a web action; not restored)")
        action, _ = await policy.next_action(await view_of(ep, state), state.user_state)
        return action

    def _redraws(self, turn: int) -> bool:
        """Whether a branch at `turn` draws the first sub-goal again (`opening_draws`)."""
        return (
            turn == 0 and self.policy.opening_draws > 0 and bool(self.run.settings.perturb)
            and self.parent.branch_of is None
        )  # fmt: skip

    async def _choose(
        self, ep: Episode, site: _Site, state: EpisodeState, original: Action
    ) -> Choice | None:
        scenario = ep.scenario
        view = await view_of(ep, state)
        user_state, plain, played = state.user_state, False, frozenset[str]()
        opening = self._redraws(site.turn.index)
        if opening and state.user_state is not None:
            # Nothing is played yet: the rollout's draw comes off, and the branch draws again;
            # neither the parent's own draw nor one an earlier branch there played is offered.
            user_state = undrawn(state.user_state, self.parent.perturbations)
            earlier = [b.candidates[b.chosen].source for b in self.branches
                       if b.parent_episode_id == self.parent.episode_id and b.turn == 0
                       and 0 <= b.chosen < len(b.candidates)]  # fmt: skip
            own = [str(d.get("operation")) for d in self.parent.perturbations
                   if d.get("subgoal") == 0]  # fmt: skip
            played = frozenset([*earlier, *own])
            plain = user_state != state.user_state and PLAIN not in played
        undone = None  # novelty's: the draw about to act taken back (`explore/_plain.py`)
        if not opening and self.policy.novelty and self.run.settings.perturb and state.user_state:
            said = [u.text for u in state.transcript if u.role == "user"]
            undone = without_pending_draw(state.user_state, self._drawn(), said)
        if not opening and self.policy.novelty:  # a junction opened again: its others only
            played = frozenset(played_at(self.branches, self.parent.episode_id, site.turn.index))
        ctx = CandidateContext(
            persona=scenario.persona.model_dump_json(),
            goal=scenario.goal,
            facts=_facts(scenario),
            transcript=[(u.role, u.text) for u in state.transcript],
            original=describe_action(original),
            rationale=site.junction.rationale,
            original_action=action_json(original),
            view=view,
            user_state=user_state,
            state_after=state_after(self.path, site.turn.index),
            on_page=site.turn.kind == "web",
            values=value_pool(ep.env, scenario),
            today=today_for(ep.env, scenario),
            opening=opening,
            plain=plain,
            played=played,
            undrawn_state=undone,
            wording_seed=self.wording_seed if self.run.settings.perturb else None,
        )
        with collect_calls() as calls:
            choice = await self.policy.choose(
                ctx,
                scenario_id=scenario.id,
                cue=junction_kind(site.turn),
                rng=self.rng,
                memory=self.memory,
                siblings=self._siblings(),
            )
        self.calls += calls
        if choice is not None:
            self.spent += choice.overhead_tokens
        return choice

    def _drawn(self) -> list[dict[str, JsonValue]]:
        """What the varying user drew on the parent's path, per sub-goal the nearest draw."""
        return drawn_on_path(self.parent, self.run.db.episode)

    def _siblings(self) -> list[str]:
        grown = [b for b in self.branches if b.parent_episode_id == self.parent.episode_id]
        return [describe_action(action_from_json(b.injected["action"])) for b in grown
                if b.injected.get("action")]  # fmt: skip

    async def _play(
        self, ep: Episode, site: _Site, state: EpisodeState, original: Action, choice: Choice
    ) -> Grown:
        plan, injected = self._record(ep, site, state, original, choice, ep.restores)
        ep.plan = plan
        state = record_held(ep, state)  # the replay's note is the branch's, not its parent's
        action = injected["action"]
        assert isinstance(action, dict)
        ep.first_action = (action_from_json(action), injected["user_state"])
        reason = await guarded(self.run, plan, lambda: play_from(self.run, ep, state, None))
        return Grown(plan=plan, reason=reason, recorded=True)

    def _record(
        self,
        ep: Episode,
        site: _Site,
        state: EpisodeState,
        original: Action,
        choice: Choice,
        restores: int,
    ) -> tuple[EpisodePlan, dict[str, JsonValue]]:
        """Record the chosen branch (status `playing`); its plan and what it plays first."""
        chosen = choice.chosen
        action = chosen.action or {"kind": "say", "text": chosen.text}
        user_state = chosen.user_state if chosen.user_state is not None else state.user_state
        user_state, drawn = self._varied(ep, user_state)
        injected: dict[str, JsonValue] = {"action": dict(action), "user_state": user_state}
        cosines = choice.selection.cosines
        plan = self.run.db.create_branch(
            self.run.run_id,
            self._new_branch(
                site, original,
                candidates=tuple(
                    BranchCandidate(action=dict(c.action or {"kind": "say", "text": c.text}),
                                    source=c.source, cosine=cosines[i] if cosines else None)
                    for i, c in enumerate(choice.candidates)
                ),
                chosen=choice.selection.index,
                injected=injected, embedder=choice.selection.embedder, restores=restores,
                perturbations=drawn,
            ),
        )  # fmt: skip
        assert plan is not None  # not abandoned: the branch has an episode
        self.run.db.set_branch_status(plan.episode_id, "playing")
        return plan, injected

    def _varied(
        self, ep: Episode, user_state: JsonValue
    ) -> tuple[JsonValue, list[dict[str, JsonValue]]]:
        """Under `user.perturb`, the branch's user varies again after the junction.

        The DIVERT paper branches a stochastic user: roots and continuations are played by the
        same varying user as the linear baseline. So the sub-goals still to come are drawn again
        with a seed of the branch's own (recorded with the branch, so a resume plays it again).
        """
        perturb = self.run.settings.perturb
        if not perturb or not isinstance(self.run.parts.policy, AgendaPolicy):
            return user_state, []
        return redrawn(
            user_state,
            perturb,
            seed=self.rng.getrandbits(32),
            earlier=self.parent.perturbations,
            pool=value_pool(ep.env, ep.scenario),
            today=today_for(ep.env, ep.scenario),
        )

    def abandon(self, site: _Site, why: str) -> None:
        """Record a branch that is not played, with why."""
        original = site.original or Finish(reason="user_stop", text="(a web action)")
        self.run.db.create_branch(self.run.run_id, self._new_branch(site, original, abandoned=why))

    def _new_branch(
        self,
        site: _Site,
        original: Action,
        *,
        candidates: tuple[BranchCandidate, ...] = (),
        chosen: int = -1,
        injected: Mapping[str, object] | None = None,
        embedder: str | None = None,
        abandoned: str | None = None,
        restores: int = 0,
        perturbations: list[dict[str, JsonValue]] | None = None,
    ) -> NewBranch:
        return NewBranch(
            parent=self.parent,
            fork_event_id=site.snapshot.id,
            turn=site.turn.index,
            chooser=site.junction.chooser,
            rationale=site.junction.rationale,
            original=action_json(original),
            candidates=candidates,
            chosen=chosen,
            injected=injected or {},
            embedder=embedder,
            overhead_tokens=self.spent,
            abandoned=abandoned,
            restores=restores,
            calls=tuple(self.calls),
            perturbations=tuple(perturbations or ()),
        )


def _facts(scenario: Scenario) -> dict[str, str]:
    facts = {k: str(v) for k, v in {**scenario.knowledge, **scenario.hidden}.items()}
    for item in scenario.agenda:
        facts.update({k: str(v) for k, v in item.slots.items()})
    return facts

"""Make one DIVERT branch: pick a junction on a trajectory, make and score alternatives, record it.

The trajectory's user turns are read from the store; the chooser picks one; the episode is
restored at the snapshot before it (the same restore path as resume), so the candidates see
exactly what the user saw there; the least cosine-similar candidate is recorded with every other
and the branch is queued. Playing it is the runner's job: a queued branch is an ordinary pending
episode whose first action is given.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import JsonValue

from vistasim.config import ExploreSpec, ModelSpec
from vistasim.divert import (
    CandidateContext,
    HeuristicChooser,
    LLMCandidates,
    LLMChooser,
    RandomChooser,
    UserTurn,
    cue_label,
    select_most_diverse,
)
from vistasim.errors import ConfigError
from vistasim.events import AgentReply, ApiCall, Snapshot, Stop, ToolCall, UserMessage, WebAction
from vistasim.explore._episode import Episode, view_of
from vistasim.explore._resume import restore
from vistasim.llm import ChatModel, collect_calls
from vistasim.store import BranchCandidate, EpisodePlan, NewBranch, Store, StoredEvent
from vistasim.user import (
    Action,
    AgendaPolicy,
    Alternative,
    Finish,
    Say,
    action_json,
    action_of_event,
    agenda_alternatives,
    describe_action,
    pick_alternatives,
)

__all__ = ["BranchMaker", "check_explore", "converged", "junctions"]


@dataclass(frozen=True, kw_only=True)
class _Junction:
    turn: UserTurn
    snapshot: StoredEvent
    original: Action
    rationale: str
    chooser: str
    overhead: int


@dataclass(frozen=True, kw_only=True)
class _Pick:
    """A chosen junction whose original action may still be unknown (a web action)."""

    turn: UserTurn
    snapshot: StoredEvent
    original: Action | None
    rationale: str
    chooser: str
    overhead: int


class BranchMaker:
    """Creates the branches of one run, one at a time."""

    def __init__(
        self,
        spec: ExploreSpec,
        *,
        store: Store,
        run_id: str,
        policy: object,
        models: Mapping[str, ChatModel],
        model_specs: Mapping[str, ModelSpec],
        seed: int,
    ) -> None:
        """Resolve the chooser, the generator and the embedder once for the run.

        Raises:
            ConfigError: the spec asks for a model role the config does not define.
        """
        self.spec, self.store, self.run_id, self.policy = spec, store, run_id, policy
        self.seed = seed
        self.chooser = _chooser(spec, models)
        self.generator = _generator(spec, policy, models)
        self.embedder = _embedder(spec, model_specs) if spec.selection == "diverse" else None

    async def make(
        self,
        parent: EpisodePlan,
        number: int,
        open_episode: Callable[[EpisodePlan], Any],
    ) -> tuple[EpisodePlan | None, bool]:
        """Record branch `number` of `parent`'s scenario and return its pending episode.

        Returns `(None, True)` when the branch was recorded abandoned (nothing to play), and
        `(None, False)` when `parent` has no junction left. `open_episode(plan)` is an async
        context manager yielding a live `Episode` for `plan`.
        """
        # The chooser's and the generator's calls are stored with the branch they made.
        with collect_calls() as calls:
            plan, recorded = await self._make(parent, number, open_episode)
        self.store.record_calls(self.run_id, plan.episode_id if plan else None, calls)
        return plan, recorded

    async def _make(
        self, parent: EpisodePlan, number: int, open_episode: Callable[[EpisodePlan], Any]
    ) -> tuple[EpisodePlan | None, bool]:
        rng = random.Random(f"{self.seed}:{parent.scenario_id}:{number}")
        last: _Junction | None = None
        path = self.store.read_path(parent.leaf_event_id) if parent.leaf_event_id else []
        # A junction where no alternative differs from what the user did is passed over for the
        # chooser's next pick, so a branch is not spent on it.
        tried: set[int] = set()
        spent = 0
        while True:
            pick = await self._junction(parent, path, rng, tried)
            if pick is None:
                if spent and last is not None:  # model tokens were spent: say so
                    return self._abandon(parent, last, "no junction had an alternative", spent)
                return None, False
            tried.add(pick.turn.index)
            spent += pick.overhead
            fork_path = path[: path.index(pick.snapshot) + 1]
            async with open_episode(parent) as ep:
                state, stop = await restore(ep, fork_path)
                if stop is not None:
                    why = f"could not restore: {stop.detail}"
                    return self._abandon(
                        parent, await self._resolved(pick, None, state), why, spent
                    )
                view = await view_of(ep, state)
                junction = await self._resolved(pick, view, state)
                last = junction
                alternatives, made = await self._candidates(ep, junction, view, state, path, rng)
            spent += made
            if alternatives:
                break
        chosen, cosines, embedder = await self._select(junction, alternatives, rng)
        candidates = tuple(
            BranchCandidate(
                action=action_json(a.action), source=a.source, cosine=None if not cosines else c
            )
            for a, c in zip(alternatives, cosines or [0.0] * len(alternatives), strict=True)
        )
        played = alternatives[chosen]
        injected = {"action": action_json(played.action), "user_state": played.user_state}
        plan = self._record(
            parent, junction, spent, candidates=candidates, chosen=chosen, injected=injected,
            embedder=embedder,
        )  # fmt: skip
        return plan, True

    async def _junction(
        self, parent: EpisodePlan, path: list[StoredEvent], rng: random.Random, tried: set[int]
    ) -> _Pick | None:
        located = junctions(path)
        turns = [t for t, _, _ in located]
        fork_turn = -1
        if parent.fork_event_id is not None:
            fork_turn = next(
                (
                    s.turn
                    for s in path
                    if s.id == parent.fork_event_id and isinstance(s.event, Snapshot)
                ),
                -1,
            )
        branches = self.store.list_branches(self.run_id)
        used = {b.turn for b in branches if b.parent_episode_id == parent.episode_id}
        # A branch's prefix and its injected turn belong to its parents: branch after them.
        exclude = used | tried | {t.index for t in turns if t.index <= fork_turn}
        if self.spec.generator == "same":
            exclude |= {t.index for t in turns if t.kind == "stop"}
        if not isinstance(self.policy, AgendaPolicy):  # only it can be asked again, exactly
            exclude |= {t.index for t, _, action in located if action is None}
        if isinstance(self.chooser, HeuristicChooser):
            scenario = [b for b in branches if b.scenario_id == parent.scenario_id]
            cues = Counter(cue_label(b.rationale) for b in scenario)
            junction = await self.chooser.choose(turns, rng=rng, exclude=exclude, used=cues)
        else:
            junction = await self.chooser.choose(turns, rng=rng, exclude=exclude)
        if junction is None:
            return None
        for turn, snapshot, original in located:
            if turn.index == junction.turn_index:
                return _Pick(
                    turn=turn,
                    snapshot=snapshot,
                    original=original,
                    rationale=junction.rationale,
                    chooser=junction.chooser,
                    overhead=junction.overhead_tokens,
                )
        return None

    async def _resolved(self, pick: _Pick, view: Any, state: Any) -> _Junction:
        """The junction with its original action: the stored one, or the agenda user's again."""
        original = pick.original
        if original is None:
            if view is None or not isinstance(self.policy, AgendaPolicy):
                original = Finish(reason="user_stop", text="(a web action; not restored)")
            else:
                original, _ = await self.policy.next_action(view, state.user_state)
        return _Junction(
            turn=pick.turn, snapshot=pick.snapshot, original=original,
            rationale=pick.rationale, chooser=pick.chooser, overhead=pick.overhead,
        )  # fmt: skip

    async def _candidates(
        self,
        ep: Episode,
        junction: _Junction,
        view: Any,
        state: Any,
        path: list[StoredEvent],
        rng: random.Random,
    ) -> tuple[list[Alternative], int]:
        if self.generator == "same":
            after = _state_after(path, junction)
            return [Alternative(source="same", action=junction.original, user_state=after)], 0
        if self.generator == "agenda":
            assert isinstance(self.policy, AgendaPolicy)
            found = await agenda_alternatives(
                self.policy, view, state.user_state, junction.original
            )
            return pick_alternatives(found, self.spec.k, rng), 0
        assert isinstance(self.generator, LLMCandidates)
        scenario = ep.scenario
        facts = {k: str(v) for k, v in {**scenario.knowledge, **scenario.hidden}.items()}
        for item in scenario.agenda:
            facts.update({k: str(v) for k, v in item.slots.items()})
        ctx = CandidateContext(
            persona=scenario.persona.model_dump_json(),
            goal=scenario.goal,
            facts=facts,
            transcript=[(u.role, u.text) for u in state.transcript],
            original=describe_action(junction.original),
            rationale=junction.rationale,
        )
        made, overhead = await self.generator.generate(ctx, self.spec.k)
        return [
            Alternative(source=c.source, action=Say(text=c.text), user_state=state.user_state)
            for c in made
        ], overhead

    async def _select(
        self, junction: _Junction, alternatives: list[Alternative], rng: random.Random
    ) -> tuple[int, list[float], str | None]:
        if self.embedder is None or len(alternatives) == 1 and self.generator == "same":
            return rng.randrange(len(alternatives)), [], None
        texts = [describe_action(a.action) for a in alternatives]
        selection = await select_most_diverse(
            describe_action(junction.original), texts, self.embedder
        )
        return selection.index, list(selection.cosines), selection.embedder

    def _abandon(
        self, parent: EpisodePlan, junction: _Junction, why: str, overhead: int
    ) -> tuple[None, bool]:
        self._record(parent, junction, overhead, abandoned=why)
        return None, True

    def _record(
        self,
        parent: EpisodePlan,
        junction: _Junction,
        overhead: int,
        *,
        candidates: tuple[BranchCandidate, ...] = (),
        chosen: int = -1,
        injected: Mapping[str, Any] | None = None,
        embedder: str | None = None,
        abandoned: str | None = None,
    ) -> EpisodePlan | None:
        return self.store.create_branch(
            self.run_id,
            NewBranch(
                parent=parent,
                fork_event_id=junction.snapshot.id,
                turn=junction.turn.index,
                chooser=junction.chooser,
                rationale=junction.rationale,
                original=action_json(junction.original),
                candidates=candidates,
                chosen=chosen,
                injected=injected or {},
                embedder=embedder,
                overhead_tokens=overhead,
                abandoned=abandoned,
            ),
        )


def junctions(path: Sequence[StoredEvent]) -> list[tuple[UserTurn, StoredEvent, Action | None]]:
    """Each user turn with the snapshot before it and the action taken, rebuilt from events.

    A web action is not rebuilt (its target is an element id of that page): its action is
    `None`, and the offline user, which is deterministic, is asked again at the junction.
    """
    found = []
    before = ""
    for index, stored in enumerate(path[:-1]):
        event = stored.event
        if isinstance(event, AgentReply):
            before = event.text
        if not isinstance(event, Snapshot):
            continue
        kind, text = _describe_event(path[index + 1].event)
        action = None if kind == "web" else action_of_event(path[index + 1].event)
        if kind is not None and (action is not None or kind == "web"):
            turn = UserTurn(index=event.turn, kind=kind, text=text, before=before)
            found.append((turn, stored, action))
    return found


def _describe_event(event: object) -> tuple[str | None, str]:
    match event:
        case UserMessage(text=text):
            return "say", text
        case ApiCall(name=name, args=args):
            return "api", f"call {name} {args}"
        case WebAction(action=action, target=target, value=value):
            return "web", f"{action} {target or ''} {value or ''}".strip()
        case Stop(reason=reason, detail=detail):
            return (
                ("stop", f"stop ({reason.value}): {detail}")
                if reason.value in ("goal_met", "user_stop")
                else (None, "")
            )
        case _:
            return None, ""


def _state_after(path: list[StoredEvent], junction: _Junction) -> JsonValue:
    after = next(
        (
            s.event
            for s in path
            if isinstance(s.event, Snapshot) and s.event.turn == junction.turn.index + 1
        ),
        None,
    )
    return after.user_state if isinstance(after, Snapshot) else None


def converged(parent: Sequence[StoredEvent], branch: Sequence[StoredEvent], fork_id: int) -> bool:
    """Whether a branch's continuation is its parent's.

    After the action at the junction (which differs by construction): the same agent replies
    and tool calls, the same later user actions and the same end. Snapshots and timings are
    left out; they differ without meaning.
    """
    return _continuation(parent, fork_id) == _continuation(branch, fork_id)


def _continuation(path: Sequence[StoredEvent], fork_id: int) -> list[str]:
    after = [s.event for s in path if s.id > fork_id]
    start = next((i for i, e in enumerate(after) if _describe_event(e)[0] is not None), None)
    if start is None:
        return []
    seen = []
    for event in after[start + 1 :]:
        match event:
            case AgentReply(text=text):
                seen.append(f"agent:{text}")
            case ToolCall() | ApiCall() | WebAction() | Stop():
                # Canonical: a restored agent may build the same arguments in another key order,
                # and each episode's built-in site is served on a port of its own.
                data = event.model_dump(mode="json", exclude={"latency_s", "screenshot_ref"})
                seen.append(_LOOPBACK_PORT.sub(r"\1:PORT", json.dumps(data, sort_keys=True)))
            case UserMessage(text=text):
                seen.append(f"user:{text}")
            case _:
                pass
    return seen


def check_explore(spec: ExploreSpec, *, user_policy: str, roles: set[str]) -> None:
    """Refuse, before anything is recorded, branching settings the run cannot play.

    Raises:
        ConfigError: a model role the settings need is missing, or the agenda operations are
            asked for without the agenda user.
    """
    if not spec.branches:
        return
    needs = {"chooser": spec.chooser == "llm", "embedder": spec.embedder == "model"}
    generator = spec.generator
    if generator == "auto":
        generator = "llm" if "generator" in roles else "agenda"
    needs["generator"] = generator == "llm"
    for role, needed in needs.items():
        if needed and role not in roles:
            key = f"explore.{role}"
            raise ConfigError(
                f"{key} = {getattr(spec, role)!r} needs a model for the {role} role: "
                f"add [models.{role}]",
                key=key,
            )
    if spec.selection == "diverse":
        _check_embedding_extra(spec)
    if generator == "agenda" and user_policy != "agenda":
        raise ConfigError(
            "explore.generator = 'agenda' needs the agenda user (user.policy = 'agenda'); "
            "configure [models.generator] and set explore.generator = 'llm' instead",
            key="explore.generator",
        )


_LOOPBACK_PORT = re.compile(r"(127\.0\.0\.1|localhost):\d+")


def _chooser(spec: ExploreSpec, models: Mapping[str, ChatModel]) -> Any:
    if spec.chooser == "heuristic":
        return HeuristicChooser()
    if spec.chooser == "random":
        return RandomChooser()
    if "chooser" not in models:
        raise ConfigError(
            "explore.chooser = 'llm' needs a model for the chooser role: add [models.chooser]",
            key="explore.chooser",
        )
    return LLMChooser(models["chooser"])


def _generator(spec: ExploreSpec, policy: object, models: Mapping[str, ChatModel]) -> Any:
    wanted = spec.generator
    if wanted == "auto":
        wanted = "llm" if "generator" in models else "agenda"
    if wanted == "agenda" and not isinstance(policy, AgendaPolicy):
        raise ConfigError(
            "explore.generator = 'agenda' needs the agenda user (user.policy = 'agenda'); "
            "configure [models.generator] and set explore.generator = 'llm' instead",
            key="explore.generator",
        )
    if wanted == "llm":
        if "generator" not in models:
            raise ConfigError(
                "explore.generator = 'llm' needs a model for the generator role: "
                "add [models.generator]",
                key="explore.generator",
            )
        return LLMCandidates(models["generator"])
    return wanted


def _check_embedding_extra(spec: ExploreSpec) -> None:
    """The diversity selection embeds candidates: without the `embed` extra it cannot run."""
    from importlib.util import find_spec

    missing = [m for m in ("numpy", "wordllama") if find_spec(m) is None]
    if spec.embedder == "model":
        missing = [m for m in missing if m == "numpy"]
    if missing:
        raise ConfigError(
            f"explore.selection = 'diverse' embeds the candidates and needs {', '.join(missing)}:"
            " pip install 'vistasim[embed]', or pass --selection random",
            key="explore.selection",
        )


def _embedder(spec: ExploreSpec, specs: Mapping[str, ModelSpec]) -> Any:
    if spec.embedder == "model":
        from vistasim.divert import OpenAIEmbedder

        if "embedder" not in specs:
            raise ConfigError(
                "explore.embedder = 'model' needs [models.embedder] (an /v1/embeddings endpoint)",
                key="explore.embedder",
            )
        return OpenAIEmbedder(specs["embedder"])
    from vistasim.llm import WordLlamaEmbedder

    return WordLlamaEmbedder()

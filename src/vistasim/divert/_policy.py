"""The branching policy of a run: which junction, which candidates, which one to play.

One object holds the run's chooser, generator and selector (the protocols of `_types`) and the
novelty rules (`_novelty`), built once from `[explore]`; the explorer asks it, step by step, and
does the restoring, recording and playing itself. With `novelty = false` it is the DIVERT paper's
method: the heuristic junction (a cue used in the scenario loses weight), K candidates at
random, the least cosine-similar kept.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from vistasim.config import ExploreSpec, ModelSpec
from vistasim.divert._candidates_agenda import PLAIN, AgendaCandidates, SameAction
from vistasim.divert._candidates_llm import LLMCandidates
from vistasim.divert._diversity import AsyncEmbedder, MostDiverse, NoveltySelector, RandomSelector
from vistasim.divert._junction import HeuristicChooser, LLMChooser, RandomChooser, junction_kind
from vistasim.divert._novelty import Memory
from vistasim.divert._types import (
    Candidate,
    CandidateContext,
    CandidateGenerator,
    CandidateSelector,
    Junction,
    JunctionChooser,
    Selection,
    UserTurn,
)
from vistasim.errors import ConfigError
from vistasim.llm import ChatModel, Embedder
from vistasim.user import AgendaPolicy, UserPolicy

__all__ = ["BranchPolicy", "Choice", "build_policy", "check_explore"]


@dataclass(frozen=True, kw_only=True)
class Choice:
    """The candidates kept at a junction, the one selected, and what they cost."""

    candidates: tuple[Candidate, ...]
    selection: Selection
    overhead_tokens: int

    @property
    def chosen(self) -> Candidate:
        """The candidate the branch plays."""
        return self.candidates[self.selection.index]


class BranchPolicy:
    """Junction, candidates and selection for every branch of a run."""

    def __init__(
        self,
        *,
        chooser: JunctionChooser,
        generator: CandidateGenerator,
        selector: CandidateSelector,
        k: int,
        novelty: bool,
        opening_draws: int = 0,
    ) -> None:
        self.chooser, self.generator, self.selector = chooser, generator, selector
        self.k, self.novelty = k, novelty
        self.opening_draws = opening_draws
        """Under a varying user, branches a rollout's opening may have, each drawing the first
        sub-goal again (`CandidateContext.opening`); 0: the opening is like any junction."""

    @property
    def replays_original(self) -> bool:
        """Whether the branches play the original action again (the junction-only ablation)."""
        return isinstance(self.generator, SameAction)

    async def junction(
        self,
        turns: Sequence[UserTurn],
        *,
        scenario_id: str,
        rng: random.Random,
        exclude: Collection[int],
        memory: Memory,
        cue_uses: Mapping[str, int],
        costs: Mapping[int, int] | None = None,
    ) -> Junction | None:
        """Pick the turn to branch at (None: no allowed turn is left).

        `cue_uses`: branches made so far in the scenario per junction kind (the heuristic's own
        decay, without novelty). `costs` (turn -> agent tokens the parent spent after it; with
        novelty): a later junction shares a longer prefix, so a branch there costs less, and
        its score is multiplied by how much cheaper it is than the trajectory's average
        junction (within [1/4, 4]): with the kind's yield per branch, a find per token.
        """
        if not isinstance(self.chooser, HeuristicChooser):
            return await self.chooser.choose(turns, rng=rng, exclude=exclude)
        if not self.novelty:
            return await self.chooser.choose(turns, rng=rng, exclude=exclude, used=cue_uses)
        cues = {junction_kind(t) for t in turns}
        weights = memory.cue_weights(scenario_id, cues)
        return await self.chooser.choose(
            turns, rng=rng, exclude=exclude, weights=weights, turn_weights=_cheapness(costs)
        )

    async def choose(
        self,
        ctx: CandidateContext,
        *,
        scenario_id: str,
        cue: str,
        rng: random.Random,
        memory: Memory,
        siblings: Sequence[str] = (),
    ) -> Choice | None:
        """Generate candidates, keep K, select one (None: no candidate differs from the original).

        `siblings`: the actions of branches already grown from the same trajectory.
        """
        made, overhead = await self.generator.generate(ctx, self.k)
        if not made:
            return None
        plain = [c for c in made if c.source == PLAIN]
        # At a redrawn opening the varying user's most likely draw (none at all) comes first.
        if plain and self.opening_draws and ctx.opening:
            reason = "the plain user first: the rollout's draw taken off, none drawn instead"
            selection = Selection(index=0, cosines=(), embedder=None, reason=reason)
            return Choice(candidates=(plain[0],), selection=selection, overhead_tokens=overhead)
        weights = memory.op_weights(scenario_id, cue, [c.operation for c in made])
        if self.novelty and memory.barren([c.operation for c in made], BARREN):
            return None  # every operation here has found next to nothing: the next junction
        if self.novelty:
            weights = [w * (LAST_CHANCE if last_chance(c, ctx) else 1.0)
                       for w, c in zip(weights, made, strict=True)]  # fmt: skip
        kept = self._keep(made, weights, rng)
        kept_weights = [weights[made.index(c)] for c in kept]
        avoid = [*siblings, *memory.avoid(scenario_id)] if self.novelty else []
        selection = await self.selector.select(
            ctx.original, kept, rng=rng, avoid=avoid, weights=kept_weights if self.novelty else ()
        )
        return Choice(candidates=tuple(kept), selection=selection, overhead_tokens=overhead)

    def _keep(
        self, made: list[Candidate], weights: list[float], rng: random.Random
    ) -> list[Candidate]:
        """K of the candidates: the most novel (ties at random), or K at random."""
        if len(made) <= self.k:
            return made
        if not self.novelty:
            return rng.sample(made, self.k)
        order = sorted(range(len(made)), key=lambda i: (-weights[i], rng.random()))
        return [made[i] for i in sorted(order[: self.k])]


BARREN = 0.2
"""With novelty, a junction whose every candidate's operation has found less than this per token
run-wide (`Memory.barren`: from one optimistic pseudo-branch, in units of a branch of mean cost;
1 untried) offers nothing worth a branch: the policy says so, and the next junction is tried (a
trajectory without one waits for a fresh rollout). An operation that never fails falls under it
after about four barren branches in the run. On bikes the fact requests offer a withheld e-mail
address and little else: 62 branches there over seeds 0-2 found nothing new (on every desk 1,040
such branches found 33), a fifth of the branches, while the openings' value operations
(`correct:rental_id`) that hid the baseline's extra failures went unplayed: bikes seeds 0-2
went from 12 / 10 / 16 distinct failures to 19 / 14 / 21. Run-wide only: the operation's uses in
the scenario (which `Memory.op_weights` divides by) are not counted. Its cost: school seed 1 fell
from 26 to 14, `amend` being barren in its first branches there and then passed over wherever it
was the only candidate (benchmarks/README.md, tenth pass)."""

LAST_CHANCE = 10.0
"""How much more a candidate weighs that only this junction can play (`last_chance`)."""


def last_chance(candidate: Candidate, ctx: CandidateContext) -> bool:
    """Whether no later junction of the trajectory can play `candidate`.

    A value operation (a fact withheld, said wrongly, asked for otherwise first) applies only
    to a fact not said yet, so one on a fact the original action says is played here or never;
    so is the `plain` user (a draw taken back before it acts). A hesitation, an impatient turn
    or things said out of order can be played at a later, cheaper junction too. The opening is
    branched once per rollout, and on the held-out desks the baseline's extra failures sat
    behind such first-turn value operations (`change_mind:amount` on vet-part-pay-xray) while
    the opening's one branch played an operation any junction offers (benchmarks/README.md).
    """
    return last_chance_of(candidate.source, ctx.facts, ctx.original)


def last_chance_of(source: str, facts: Mapping[str, str], original: str) -> bool:
    """`last_chance` from a candidate's source, the scenario's facts and the original action."""
    if source == PLAIN:
        return True
    _, _, slot = source.partition(":")
    value = facts.get(slot)
    return bool(slot and value) and str(value).lower() in original.lower()


def _cheapness(costs: Mapping[int, int] | None) -> dict[int, float] | None:
    """Per turn, average cost / its cost, within [1/4, 4] (see `BranchPolicy.junction`)."""
    if not costs:
        return None
    mean = sum(costs.values()) / len(costs)
    return {t: min(4.0, max(0.25, mean / max(c, 1))) for t, c in costs.items()}


def build_policy(
    spec: ExploreSpec,
    *,
    user_policy: UserPolicy,
    models: Mapping[str, ChatModel],
    model_specs: Mapping[str, ModelSpec],
) -> BranchPolicy:
    """The policy `[explore]` asks for.

    Raises:
        ConfigError: a model role the settings need is missing, or the agenda operations are
            asked for without the agenda user.
    """
    embedder = _embedder(spec, model_specs) if spec.selection == "diverse" else None
    selector: CandidateSelector
    if embedder is None:
        selector = RandomSelector()
    elif spec.novelty:
        selector = NoveltySelector(embedder)
    else:
        selector = MostDiverse(embedder)
    return BranchPolicy(
        chooser=_chooser(spec, models),
        generator=_generator(spec, user_policy, models),
        selector=selector,
        k=spec.k,
        novelty=spec.novelty,
        opening_draws=spec.opening_draws if isinstance(user_policy, AgendaPolicy) else 0,
    )


def check_explore(spec: ExploreSpec, *, user_policy: str, roles: set[str]) -> None:
    """Refuse, before anything is recorded, branching settings the run cannot play.

    Raises:
        ConfigError: a model role the settings need is missing, the agenda operations are
            asked for without the agenda user, or the embedding extra is missing.
    """
    if not spec.branches:
        return
    needs = {"chooser": spec.chooser == "llm", "embedder": spec.embedder == "model"}
    generator = _generator_name(spec, roles)
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
        raise _agenda_needed()


def _generator_name(spec: ExploreSpec, roles: Collection[str]) -> str:
    if spec.generator == "auto":
        return "llm" if "generator" in roles else "agenda"
    return spec.generator


def _agenda_needed() -> ConfigError:
    return ConfigError(
        "explore.generator = 'agenda' needs the agenda user (user.policy = 'agenda'); "
        "configure [models.generator] and set explore.generator = 'llm' instead",
        key="explore.generator",
    )


def _chooser(spec: ExploreSpec, models: Mapping[str, ChatModel]) -> JunctionChooser:
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


def _generator(
    spec: ExploreSpec, policy: UserPolicy, models: Mapping[str, ChatModel]
) -> CandidateGenerator:
    wanted = _generator_name(spec, models)
    if wanted == "same":
        return SameAction()
    if wanted == "llm":
        if "generator" not in models:
            raise ConfigError(
                "explore.generator = 'llm' needs a model for the generator role: "
                "add [models.generator]",
                key="explore.generator",
            )
        return LLMCandidates(models["generator"])
    if not isinstance(policy, AgendaPolicy):
        raise _agenda_needed()
    return AgendaCandidates(policy)


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


def _embedder(spec: ExploreSpec, specs: Mapping[str, ModelSpec]) -> Embedder | AsyncEmbedder:
    if spec.embedder == "model":
        from vistasim.divert._embed_openai import OpenAIEmbedder

        if "embedder" not in specs:
            raise ConfigError(
                "explore.embedder = 'model' needs [models.embedder] (an /v1/embeddings endpoint)",
                key="explore.embedder",
            )
        return OpenAIEmbedder(specs["embedder"])
    from vistasim.llm import WordLlamaEmbedder

    return WordLlamaEmbedder()

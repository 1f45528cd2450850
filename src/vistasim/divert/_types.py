"""The values DIVERT passes between its steps: user turns, junctions, candidates, selections.

They are plain frozen dataclasses with no behaviour beyond checking their own fields, so the
branching engine, the store and the tests can build and compare them freely.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Protocol

from pydantic import JsonValue

from vistasim.user import UserView, ValuePool

TURN_KINDS = ("say", "api", "web")
"""What a user turn can be: a chat message, a user-side API call, a web action."""


@dataclass(frozen=True, kw_only=True)
class UserTurn:
    """One user action on a trajectory, with the agent message it answered."""

    index: int
    """0-based number of user actions taken before this one (= `Snapshot.turn` before it)."""
    kind: str
    """`say`, `api` or `web`."""
    text: str
    """The user's message, or a one-line rendering of the API call / web action."""
    before: str = ""
    """The agent's message the user was reacting to (`""` for the first turn, or none)."""

    def __post_init__(self) -> None:
        if self.index < 0:
            raise ValueError(f"UserTurn.index must be 0 or more, got {self.index}")
        if self.kind not in TURN_KINDS:
            raise ValueError(f"UserTurn.kind must be one of {TURN_KINDS}, got {self.kind!r}")


@dataclass(frozen=True, kw_only=True)
class Junction:
    """The user turn a chooser picked to branch at, and why."""

    turn_index: int
    """A `UserTurn.index` on the path."""
    rationale: str
    chooser: str
    """`heuristic`, `random` or `llm`."""
    overhead_tokens: int = 0
    """Model tokens (input + output) the chooser spent."""


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """One alternative user action proposed for a junction."""

    text: str
    """The alternative user message (or a one-line rendering of a non-chat action)."""
    source: str
    """Who proposed it: `llm`, `same`, or an operation such as `hesitate`, `correct:order_id`."""
    action: Mapping[str, JsonValue] | None = None
    """The action as JSON (`vistasim.user.action_json`); `None`: say `text`."""
    user_state: JsonValue = None
    """The user's state after the action (the agenda user's); `None`: the junction's own."""

    @property
    def operation(self) -> str:
        """The operation alone: `correct` for `correct:order_id`, `llm` for a model's rewrite."""
        return self.source.split(":", 1)[0]


@dataclass(frozen=True, kw_only=True)
class Selection:
    """Which candidate was kept: the one least similar to the original action."""

    index: int
    """The chosen candidate (argmin of the cosine to the original; ties: the first)."""
    cosines: tuple[float, ...]
    """Cosine of each candidate to the original, in candidate order (empty: none computed)."""
    embedder: str | None
    """Name of the embedder the cosines come from (`None`: no embedding, a random pick)."""
    reason: str = "least similar to the original"
    """Why this candidate: what the selector ranked by."""


@dataclass(frozen=True, kw_only=True)
class CandidateContext:
    """What a candidate generator may know when it rewrites the user's action at a junction."""

    persona: str
    goal: str
    facts: Mapping[str, str] = field(default_factory=dict)
    """Every fact the user may use: scenario knowledge and agenda slot values."""
    transcript: Sequence[tuple[str, str]] = ()
    """`(role, text)` pairs before the junction, oldest first (role `user` or `agent`)."""
    original: str
    """The user's action at the junction, as taken on the original path."""
    rationale: str = ""
    """Why the chooser picked this junction (helps the generator aim its rewrites)."""
    original_action: Mapping[str, JsonValue] | None = None
    """The original action as JSON, when the generator replays it (`same`)."""
    view: UserView | None = None
    """What the user saw at the junction (the agenda operations play from it)."""
    user_state: JsonValue = None
    """The user's state at the junction."""
    state_after: JsonValue = None
    """The user's state after the original action (what `same` continues with)."""
    on_page: bool = False
    """The original action was a web action: asking in chat instead is an alternative."""
    values: ValuePool | None = None
    """Values the environment holds at the junction, for plausible other values."""
    today: date | None = None
    """The environment's day: no alternative may name a date before it."""
    opening: bool = False
    """The user has played nothing yet and its draw of the current sub-goal is taken off
    (`user_state`; a `--perturb` rollout's opening): an operation that acts later, whose first
    action is the original's, is an alternative too, as the varying user's first-turn draw is."""
    plain: bool = False
    """At such an opening, the user without any operation differs from the parent's (which drew
    one): playing it plainly is an alternative too (source `plain`)."""
    played: frozenset[str] = frozenset()
    """The sources not to offer again: at such an opening the parent's own draw and what its
    earlier branches there played; at a junction branched again (novelty, `explore/_reopen.py`)
    what its branches played."""
    undrawn_state: JsonValue = None
    """Elsewhere (not a redrawn opening), under `--perturb`: the user's state without the
    draw still to act on the current sub-goal (None: none is pending). Playing from it is the
    `plain` alternative when it acts otherwise than the original: after this turn the draw has
    acted, and no later junction can take it back."""
    wording_seed: int | None = None
    """The branch's own seed for the agenda user's wording (None: the parent's): each candidate's
    action is said as a stochastic user drawn again at the junction would say it, once the
    parent's wording has shown the operation acts there (`AgendaCandidates`)."""


class JunctionChooser(Protocol):
    """Anything that picks the user turn to branch at."""

    name: str
    """`heuristic`, `random`, `llm`: recorded as `Junction.chooser`."""

    async def choose(
        self, turns: Sequence[UserTurn], *, rng: random.Random, exclude: Collection[int] = ()
    ) -> Junction | None:
        """Pick one of `turns` not in `exclude`; None when there is none to pick."""
        ...


class CandidateGenerator(Protocol):
    """Anything that writes alternative user actions for a junction."""

    name: str
    """`agenda`, `llm` or `same`: how the run's branches were made."""

    async def generate(self, ctx: CandidateContext, k: int) -> tuple[list[Candidate], int]:
        """Return at most `k` candidates and the model tokens spent writing them."""
        ...


class CandidateSelector(Protocol):
    """Anything that keeps one of a junction's candidates."""

    name: str
    """`diverse`, `novelty` or `random`: recorded with the run's settings."""

    async def select(
        self,
        original: str,
        candidates: Sequence[Candidate],
        *,
        rng: random.Random,
        avoid: Sequence[str] = (),
        weights: Sequence[float] = (),
    ) -> Selection:
        """Pick one candidate for the branch.

        `avoid`: texts the branch should be far from (its siblings, actions that failed for a
        known cause); `weights`: each candidate's novelty (1: never tried), in candidate order.
        """
        ...

"""The values DIVERT passes between its steps: user turns, junctions, candidates, selections.

They are plain frozen dataclasses with no behaviour beyond checking their own fields, so the
branching engine, the store and the tests can build and compare them freely.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

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
    """The alternative user message."""
    source: str
    """Who proposed it: `llm`, or an operation name such as `hesitate`."""


@dataclass(frozen=True, kw_only=True)
class Selection:
    """Which candidate was kept: the one least similar to the original action."""

    index: int
    """The chosen candidate (argmin of the cosine to the original; ties: the first)."""
    cosines: tuple[float, ...]
    """Cosine of each candidate to the original, in candidate order."""
    embedder: str
    """Name of the embedder the cosines come from."""


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

    async def generate(self, ctx: CandidateContext, k: int) -> tuple[list[Candidate], int]:
        """Return at most `k` candidates and the model tokens spent writing them."""
        ...

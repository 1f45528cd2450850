"""Junction choosers: which user turn of a trajectory to branch at.

A good junction is a turn where a real user could plausibly have acted differently and the agent
would then have to cope with it. The offline `HeuristicChooser` reads the agent message each user
turn answered: a request to confirm an action is the richest junction (users hesitate, correct
themselves, refuse), a request for a fact next (users withhold, get it wrong, ask why), a proposal
next (users haggle, pick another option), any other question after that, a plain statement
last. `RandomChooser` is the ablation baseline; `LLMChooser` asks a model to read the whole
trajectory.
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

from vistasim.divert._support import TokenTally, clip, render_prompt
from vistasim.divert._types import Junction, UserTurn
from vistasim.llm import ChatMessage, ChatModel, ChatRequest, complete_json

__all__ = [
    "ANY_QUESTION",
    "CONFIRMATION_CUES",
    "FACT_REQUEST_CUES",
    "GREETING_CUES",
    "PROPOSAL_CUES",
    "HeuristicChooser",
    "LLMChooser",
    "RandomChooser",
    "cue_label",
    "junction_kind",
]

_MAX_QUOTE = 80


def _compile(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


# The cue lists are about how agents talk, never about what they sell: no domain words here, so
# the chooser behaves the same on a hotel, a bank or a school. A pattern that needs a question
# mark stays within its sentence (`[^.!?]*`), so a question later in the message does not make an
# earlier statement count.
CONFIRMATION_CUES = _compile(
    r"\b(?:shall|should) (?:i|we)\b[^.!?]*\?",
    r"\b(?:do|would) you (?:want|like) (?:me|us) to\b",
    r"\bdo you (?:still )?want to\b[^.!?]*\?",
    r"\bready for (?:me|us) to\b",
    r"\b(?:can|may|could) (?:i|we) go ahead\b",
    r"\bgo ahead\b[^.!?]*\?",
    r"\bproceed\b[^.!?]*\?",
    r"\bconfirm\b[^.!?]*\?",
    r"\b(?:please|kindly) confirm\b",
    r"\bis (?:that|this|everything|it) (?:correct|right|ok(?:ay)?|accurate|fine)\b",
    r"\b(?:does|do) (?:that|this|these) (?:look|sound|seem) (?:right|correct|good|ok(?:ay)?|fine)",
    r"\bare you sure\b",
    r"\b(?:do|would|will) you (?:approve|agree|authori[sz]e|consent)\b",
    r"\b(?:ok(?:ay)?|alright|all right|fine) (?:to|if (?:i|we))\b[^.!?]*\?",
    r"[,:;]\s*(?:right|correct|ok(?:ay)?|yes)\s*\?",
    r"\byes or no\b|\byes/no\b",
)
"""The agent asks the user to confirm, approve or let it proceed with an action."""

FACT_REQUEST_CUES = _compile(
    r"\b(?:what|which|when|where|who|whom|whose)\b[^.!?]*\?",
    r"\bhow (?:many|much|long|old|often|far)\b[^.!?]*\?",
    r"\b(?:could|can|would|will) you (?:please )?(?:provide|share|give|tell|send|spell|enter"
    r"|type|specify|let (?:me|us) know)\b",
    r"\b(?:may|can|could) (?:i|we) (?:have|get|ask|take)\b",
    r"\bplease (?:provide|share|send|enter|tell|give|specify|let (?:me|us) know)\b",
    r"\b(?:i|we)(?:'ll|'d| will| would)? need (?:your|the|a|an|to know)\b",
    r"\b(?:id|number|e-?mail|address|date|name|surname|code|reference|phone|zip|post ?code|pin"
    r"|username|birthday)\b[^.!?]*\?",
    r"\byour\b[^.!?]*\?",
)
"""The agent asks for a fact: an id, a number, an email, a date, a name, a which/what answer."""

PROPOSAL_CUES = _compile(
    r"\bwould you (?:like|prefer)\b",
    r"\b(?:i|we) (?:can|could)\b(?!['’]t)",
    r"\bhow about\b",
    r"\b(?:i|we) (?:suggest|recommend|propose)\b",
    r"\b(?:options?|alternatives?|alternatively|instead)\b",
    r"\b(?:available|availability)\b",
    r"\bwe (?:have|offer)\b",
    r"[$€£¥]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:%|percent|usd|eur|gbp|dollars?|euros?|pounds?)(?!\w)",
    r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b(?:[01]?\d|2[0-3]):[0-5]\d\b",
    r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight"
    r"|next (?:week|month))\b",
    r"\b\d{4}-\d{2}-\d{2}\b",
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b",
)
"""The agent offers something: an option, a price or amount, a date or time, what it can do."""

ANY_QUESTION = _compile(r"\?")
"""Any other question: less telling than the cues above, more than a statement."""

GREETING_CUES = _compile(
    r"\bhow (?:can|may|could) (?:i|we) (?:help|assist)\b",
    r"\bwhat can (?:i|we) do for you\b",
    r"\bwelcome\b",
)
"""A generic greeting: the user's reply to it is their opening move, not an answer to a cue."""


@dataclass(frozen=True)
class _Cue:
    patterns: tuple[re.Pattern[str], ...]
    score: float
    label: str


# Highest first: a message that both proposes and asks to confirm is a confirmation junction.
_CUES = (
    _Cue(CONFIRMATION_CUES, 4.0, "the agent asked for confirmation"),
    _Cue(FACT_REQUEST_CUES, 3.0, "the agent asked for a fact"),
    _Cue(PROPOSAL_CUES, 2.0, "the agent proposed something"),
    _Cue(ANY_QUESTION, 1.5, "the agent asked a question"),
)
# The opening shapes the whole episode but is a poor test of how the agent copes mid-task; a
# statement gives the user the least to react to.
_OPENING_SCORE = 1.0
_STATEMENT_SCORE = 0.5
# A sentence ends at . ! ? before a space, or at a line break: "$180.50" and "a@b.com" stay whole.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


class HeuristicChooser:
    """Pick the turn whose preceding agent message offers the richest cue; ties by `rng`.

    `used` (cue label -> branches already made at such a cue in this scenario) lowers a cue's
    score with each use, score / (1 + uses): once the confirmation junctions of a scenario have
    been branched, its fact requests and its opening get their turn. `weights` (cue label ->
    novelty, `vistasim.divert.Memory.cue_weights`) multiplies the score instead.
    """

    name = "heuristic"

    async def choose(
        self,
        turns: Sequence[UserTurn],
        *,
        rng: random.Random,
        exclude: Collection[int] = (),
        used: Mapping[str, int] | None = None,
        weights: Mapping[str, float] | None = None,
        turn_weights: Mapping[int, float] | None = None,
    ) -> Junction | None:
        """Score every allowed turn by its cue and pick a best one (None if none is allowed).

        `turn_weights` (turn index -> factor) multiplies a turn's score too (novelty: cheaper
        junctions first).
        """
        uses = used or {}
        per_turn = turn_weights or {}
        scored = []
        for turn in _allowed(turns, exclude):
            score, rationale = _score(turn)
            cue = cue_label(rationale)
            factor = weights.get(cue, 1.0) if weights is not None else 1 / (1 + uses.get(cue, 0))
            scored.append((score * factor * per_turn.get(turn.index, 1.0), rationale, turn))
        if not scored:
            return None
        best = max(score for score, _, _ in scored)
        _, rationale, turn = rng.choice([item for item in scored if item[0] == best])
        return Junction(turn_index=turn.index, rationale=rationale, chooser=self.name)


def junction_kind(turn: UserTurn) -> str:
    """What kind of junction a turn is, by the cue of the agent message it answered.

    >>> junction_kind(UserTurn(index=2, kind="say", text="Yes.", before="Shall I proceed?"))
    'the agent asked for confirmation'
    """
    return cue_label(_score(turn)[1])


def cue_label(rationale: str) -> str:
    """The cue a heuristic rationale names ("the agent asked for confirmation: '...'")."""
    return rationale.split(":", 1)[0]


def _score(turn: UserTurn) -> tuple[float, str]:
    """Return the turn's score and a rationale quoting the sentence that scored."""
    # Greetings ("How can I help you today?") would read as questions; they are not cues.
    sentences = [
        s.strip()
        for s in _SENTENCE_END.split(turn.before)
        if s.strip() and not any(p.search(s) for p in GREETING_CUES)
    ]
    for cue in _CUES:
        for sentence in sentences:
            if any(p.search(sentence) for p in cue.patterns):
                return cue.score, f"{cue.label}: {_quote(sentence)}"
    if not sentences and turn.index == 0:
        return _OPENING_SCORE, "the user's opening message"
    if not sentences:
        return _STATEMENT_SCORE, "the agent had said nothing new before this turn"
    return _STATEMENT_SCORE, f"the agent made a statement: {_quote(sentences[-1])}"


def _quote(sentence: str) -> str:
    return f"'{clip(sentence, _MAX_QUOTE)}'"


class RandomChooser:
    """Pick a turn uniformly at random among the allowed ones (the ablation baseline)."""

    name = "random"

    async def choose(
        self, turns: Sequence[UserTurn], *, rng: random.Random, exclude: Collection[int] = ()
    ) -> Junction | None:
        """Draw one allowed turn with `rng` (None if none is allowed)."""
        allowed = _allowed(turns, exclude)
        if not allowed:
            return None
        turn = rng.choice(allowed)
        rationale = f"drawn uniformly from {len(allowed)} allowed turn(s)"
        return Junction(turn_index=turn.index, rationale=rationale, chooser=self.name)


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    turn_index: int
    rationale: str = Field(min_length=1)


class LLMChooser:
    """Ask a model to read the trajectory and name the turn to branch at.

    Args:
        model: Any chat model (usually the `chooser` role's `RoleModel`).
        max_repairs: Extra calls allowed after an invalid reply (bad JSON or a turn it may not
            pick); then `InvalidOutputError` is raised.
    """

    name = "llm"

    def __init__(self, model: ChatModel, *, max_repairs: int = 2) -> None:
        if max_repairs < 0:
            raise ValueError(f"max_repairs must be 0 or more, got {max_repairs}")
        self.model = model
        self.max_repairs = max_repairs

    async def choose(
        self, turns: Sequence[UserTurn], *, rng: random.Random, exclude: Collection[int] = ()
    ) -> Junction | None:
        """Ask the model for `{turn_index, rationale}`; None (and no call) if no turn is allowed.

        Raises:
            InvalidOutputError: no valid reply within `max_repairs` repairs.
        """
        allowed = sorted({turn.index for turn in _allowed(turns, exclude)})
        if not allowed:
            return None
        prompt = render_prompt(
            "junction",
            trajectory=render_trajectory(turns, exclude=exclude),
            allowed=", ".join(str(i) for i in allowed),
        )
        # The seed comes from the run's rng, so a rerun sends the same request (cache hits).
        request = ChatRequest(
            messages=[ChatMessage(role="user", content=prompt)], seed=rng.randrange(2**31)
        )
        tally = TokenTally(self.model)
        reply, _ = await complete_json(
            tally, request, _reply_schema(allowed), max_repairs=self.max_repairs
        )
        return Junction(
            turn_index=reply.turn_index,
            rationale=reply.rationale.strip(),
            chooser=self.name,
            overhead_tokens=tally.tokens,
        )


def _reply_schema(allowed: list[int]) -> type[_Reply]:
    # An index the model may not pick is an invalid reply like bad JSON: it goes through the same
    # repair loop, with a message naming the valid choices, and counts against the same bound.
    class JunctionReply(_Reply):
        turn_index: int = Field(json_schema_extra={"enum": list[JsonValue](allowed)})

        @field_validator("turn_index")
        @classmethod
        def _allowed_index(cls, value: int) -> int:
            if value not in allowed:
                raise ValueError(f"turn_index {value} cannot be chosen; pick one of {allowed}")
            return value

    return JunctionReply


def render_trajectory(turns: Sequence[UserTurn], *, exclude: Collection[int] = ()) -> str:
    """Render the user turns as numbered blocks: what the agent said, what the user did."""
    blocks = []
    for turn in turns:
        mark = " (already branched here; do not pick)" if turn.index in exclude else ""
        agent = clip(turn.before) if turn.before.strip() else "(nothing yet)"
        action = "said" if turn.kind == "say" else f"did ({turn.kind})"
        blocks.append(
            f"[turn {turn.index}]{mark}\nagent said: {agent}\nuser {action}: {clip(turn.text)}"
        )
    return "\n\n".join(blocks)


def _allowed(turns: Sequence[UserTurn], exclude: Collection[int]) -> list[UserTurn]:
    excluded = set(exclude)
    return [turn for turn in turns if turn.index not in excluded]

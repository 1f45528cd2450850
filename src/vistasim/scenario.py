"""Scenarios: who the simulated user is, what they want, and how to tell they got it.

A scenario file (YAML or JSON) holds a list of scenarios. Loading validates every field and
reports mistakes by file, scenario id and field, so a typo never surfaces mid-run.

>>> s = Scenario(id="hello", persona=Persona(name="Ann"), goal="Say hello.")
>>> s.limits.max_turns
12
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Literal, assert_never

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)
from pydantic_core import ErrorDetails

from vistasim._attribution import did_you_mean
from vistasim._docstrings import described_schema
from vistasim._input import excerpt, read_structured
from vistasim.errors import ConfigError

__all__ = [
    "ActionCriterion",
    "AgendaItem",
    "Behaviour",
    "BehaviourOp",
    "Criteria",
    "Limits",
    "Mode",
    "Persona",
    "Scalar",
    "Scenario",
    "StateCriterion",
    "StatementCriterion",
    "Style",
    "describe_criteria",
    "describe_criterion",
    "load_scenarios",
    "scenario_schema",
]

Scalar = str | int | float | bool
Mode = Literal["chat", "ui", "api", "hybrid"]


class _Strict(BaseModel):
    # Attribute docstrings become the schema's descriptions (`scenario_schema`), so editors
    # show them on hover.
    # Strict types: `max_turns: true` or `patience: "3"` is a mistake to report, not a value to
    # coerce; NaN and infinity are no facts (and could not be stored as JSON).
    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        strict=True,
        allow_inf_nan=False,
    )


def _written(text: str) -> str:
    if not text.strip():
        raise ValueError("it is empty; write it out")
    return text


Text = Annotated[str, Field(min_length=1), AfterValidator(_written)]
"""Text that holds more than white space (a goal, a name)."""


class Style(_Strict):
    """How the persona talks."""

    verbosity: Literal["low", "medium", "high"] = "medium"
    """How much the user says per message."""
    patience: int = Field(default=3, ge=1, le=10)
    """How many unhelpful agent turns the user tolerates before giving up."""
    formality: Literal["casual", "neutral", "formal"] = "neutral"
    """Register of the user's language."""


class Persona(_Strict):
    """Who the simulated user is."""

    name: Text
    """The user's name, as they would give it."""
    profile: str = ""
    """Free text: age, job, temperament; read by LLM users."""
    style: Style = Style()
    """Talking style; drives the offline policy's templates."""


BehaviourOp = Literal[
    "hesitate",
    "correct",
    "change_mind",
    "amend",
    "withhold",
    "out_of_order",
    "second_request",
    "impatient",
    "combine",
]
"""A way of playing a sub-goal that real users show and agents mishandle."""


class Behaviour(_Strict):
    """How the user plays a sub-goal, beyond stating it plainly (the agenda policy plays it).

    - `hesitate`: answers the first confirmation question with a hedged non-answer ("okay, hmm,
      wait, no, not yet"); `then` says whether it confirms at the next one or leaves it there.
    - `correct`: says `wrong` for `slot` first, then takes it back and gives the right value.
    - `change_mind`: asks with `first` for `slot`, then, when the agent proposes it, switches
      to the slot's value.
    - `amend`: asks with `first` for `slot`, then answers the confirmation question with a yes
      that changes it to the slot's value ("Yes, but make it BIO101-B instead of BIO101-A").
    - `withhold`: does not give `slot` the first time it is asked ("why do you need that?").
    - `out_of_order`: gives every fact in the opening message, before being asked.
    - `second_request`: adds the next sub-goal while the agent is still on this one.
    - `impatient`: tolerates one unhelpful turn less and says so.
    - `combine`: asks for the next sub-goal in the same message as this one ("I'd like to book
      a check-up. Also, could you send me a reminder?"). Without it, the agenda user still
      combines a sub-goal with the next one with a small chance per episode (its
      `combine_probability`, 0.3 by default, drawn from the episode's seed).
    """

    op: BehaviourOp
    """The operation."""
    slot: str | None = None
    """The slot it concerns (`correct`, `change_mind`, `amend`, `withhold`)."""
    wrong: Scalar | None = None
    """`correct`: the value said first and taken back."""
    first: Scalar | None = None
    """`change_mind`, `amend`: the value first asked for."""
    then: Literal["confirm", "stop"] = "stop"
    """`hesitate`: confirm at the next confirmation question, or stop there (the default)."""

    @model_validator(mode="after")
    def _fields_fit(self) -> Behaviour:
        needs = {
            "correct": ("slot", "wrong"),
            "change_mind": ("slot", "first"),
            "amend": ("slot", "first"),
            "withhold": ("slot",),
        }
        missing = [f for f in needs.get(self.op, ()) if getattr(self, f) is None]
        if missing:
            raise ValueError(f"behaviour {self.op!r} needs {', '.join(missing)}")
        return self


class AgendaItem(_Strict):
    """One structured sub-goal, read by the offline agenda policy."""

    intent: str
    """What the user wants done, e.g. `return_item`, `cancel_order`, `order_status`."""
    slots: dict[str, Scalar] = {}
    """Facts that belong to this sub-goal, e.g. `{order_id: W1007}`."""
    behaviours: list[Behaviour] = []
    """How the user plays this sub-goal beyond stating it plainly (hesitate, correct...)."""


class StateCriterion(_Strict):
    """An assertion on the environment's end state: rows matching `where` have `expect` values."""

    table: str
    """Table (or collection) name in the environment."""
    where: dict[str, Scalar] = {}
    """Column equalities selecting the rows; all selected rows must match `expect`."""
    expect: dict[str, Scalar | None] = {}
    """Column values every selected row must have."""
    count: int | None = Field(default=None, ge=0)
    """If set, exactly this many rows must match `where` (use 0 to assert absence)."""
    modes: list[Mode] | None = None
    """Run modes this check applies in; default: all."""


class ActionCriterion(_Strict):
    """The agent must have called `tool` with these arguments."""

    tool: str
    """Tool name."""
    args: dict[str, Scalar | list[Scalar] | None] = {}
    """Expected arguments."""
    match: Literal["exact", "partial"] = "partial"
    """`partial`: the given args are a subset of the call's; `exact`: the call's args equal them."""
    modes: list[Mode] | None = None
    """Run modes this check applies in; default: all. A required agent action usually applies
    only in `chat` and `api`, since in `ui` and `hybrid` the user may do it on the site."""


class StatementCriterion(_Strict):
    """The agent must have said something to the user (case-insensitive substring checks)."""

    contains_any: list[str] = []
    """At least one agent message contains one of these."""
    contains_all: list[str] = []
    """Some agent message (not necessarily one) contains each of these."""
    contains_none: list[str] = []
    """No agent message contains any of these (what it must never say: another customer's
    address, a promise the policy forbids)."""
    modes: list[Mode] | None = None
    """Run modes this check applies in; default: all."""


class Criteria(_Strict):
    """Success criteria: all must hold at the end of the episode. No code is evaluated."""

    state: list[StateCriterion] = []
    """Checks on the environment's end state (rows and their values)."""
    actions: list[ActionCriterion] = []
    """Tool calls the agent must have made."""
    statements: list[StatementCriterion] = []
    """Things the agent must have said."""
    forbidden_actions: list[ActionCriterion] = []
    """Calls the agent must not make (e.g. cancelling the wrong order)."""


class Limits(_Strict):
    """Per-scenario limits; the run config may cap them further."""

    max_turns: int = Field(default=12, ge=1, le=200)
    """Maximum number of user actions in an episode."""


class Scenario(_Strict):
    """One test case for the agent under test."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$")
    """Stable identifier; episodes of one scenario share a goal."""
    persona: Persona
    """The simulated user: name, profile and talking style."""
    goal: Text
    """What the user wants, in their words (not empty)."""
    knowledge: dict[str, Scalar] = {}
    """Facts the user may say (order ids, email...)."""
    hidden: dict[str, Scalar] = {}
    """Facts the user reveals only when asked."""
    agenda: list[AgendaItem] = []
    """Optional structured goal for the offline policy; derived from `goal` when empty."""
    criteria: Criteria = Criteria()
    """What must hold at the end: end state, agent actions, agent statements."""
    limits: Limits = Limits()
    """This scenario's cap on user actions."""
    domain: str | None = None
    """Built-in domain the scenario belongs to, if any."""
    tags: list[str] = []
    """Free labels for selecting and grouping scenarios."""


def describe_criterion(
    criterion: StateCriterion | ActionCriterion | StatementCriterion, *, forbidden: bool = False
) -> str:
    """A check in words, as its verdict names it (`forbidden`: an action that must not happen).

    >>> describe_criterion(ActionCriterion(tool="refund", args={"order_id": "W1"}))
    'required action refund(order_id=W1)'
    """
    match criterion:
        case StateCriterion(table=table, where=where, expect=expect, count=count):
            rows = "" if count is None else f" ({count} row(s))"
            expected = f" expect {_pairs(expect)}" if expect else ""
            return f"state {table} where {_pairs(where)}{rows}{expected}"
        case ActionCriterion(tool=tool, args=args):
            return f"{'forbidden' if forbidden else 'required'} action {tool}({_pairs(args)})"
        case StatementCriterion():
            parts = [
                f"{name} of {words}"
                for name, words in (("any", criterion.contains_any),
                                    ("all", criterion.contains_all),
                                    ("none", criterion.contains_none))
                if words
            ]  # fmt: skip
            return "statement " + " and ".join(parts)
        case _:
            assert_never(criterion)


def describe_criteria(criteria: Criteria) -> list[str]:
    """Every check of `criteria` in words, with the modes it is limited to."""
    checks: list[tuple[str, list[Mode] | None]] = [
        *((describe_criterion(c), c.modes) for c in criteria.state),
        *((describe_criterion(c), c.modes) for c in criteria.actions),
        *((describe_criterion(c, forbidden=True), c.modes) for c in criteria.forbidden_actions),
        *((describe_criterion(c), c.modes) for c in criteria.statements),
    ]
    return [f"{text} (in {', '.join(modes)})" if modes else text for text, modes in checks]


def _pairs(mapping: Mapping[str, object]) -> str:
    return ", ".join(f"{k}={v}" for k, v in mapping.items())


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Load and validate a YAML or JSON list of scenarios.

    Raises:
        ConfigError: naming the file, the scenario id and the field for every mistake found.
    """
    path = Path(path)
    raw = _read_structured(path)
    if isinstance(raw, dict) and "scenarios" in raw:
        raw = raw["scenarios"]
    if not isinstance(raw, list):
        raise ConfigError(f"expected a list of scenarios, got {type(raw).__name__}", path=str(path))
    if not raw:
        raise ConfigError("the file holds no scenarios; add at least one", path=str(path))
    scenarios = [_validate_one(item, index, path) for index, item in enumerate(raw)]
    _check_unique_ids(scenarios, path)
    return scenarios


def scenario_schema() -> dict[str, object]:
    """Return the JSON schema of a scenario file (a list of scenarios), for editor validation."""
    return {"type": "array", "items": described_schema(Scenario)}


def _read_structured(path: Path) -> object:
    fmt = "json" if path.suffix == ".json" else "yaml"
    return read_structured(path, fmt=fmt, what="scenario file")


def _validate_one(item: object, index: int, path: Path) -> Scenario:
    label = item.get("id") if isinstance(item, dict) else None
    label = str(label)[:128] if label else f"#{index}"
    try:
        return Scenario.model_validate(item)
    except ValidationError as exc:
        errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")  # typos first
        problems = "; ".join(_problem(label, err) for err in errors[:5])
        more = len(errors) - 5
        problems += f"; and {more} more" if more > 0 else ""
        raise ConfigError(f"{problems}; {_SCHEMA_HINT}", path=str(path)) from None


_SCHEMA_HINT = "every field is described by `vistasim schema` (use it in your editor)"


def _problem(label: str, err: ErrorDetails) -> str:
    where = f"{label}.{'.'.join(str(p) for p in err['loc']) or '(root)'}"
    if err["type"] == "extra_forbidden":
        return f"{where}: unknown field{did_you_mean(Scenario, err['loc'])}"
    if err["type"] == "missing":
        return f"{where}: required field is missing"
    return f"{where}: {err['msg'].removeprefix('Value error, ')} (got {excerpt(err.get('input'))})"


def _check_unique_ids(scenarios: list[Scenario], path: Path) -> None:
    seen: set[str] = set()
    for scenario in scenarios:
        if scenario.id in seen:
            raise ConfigError(
                f"scenario id {scenario.id!r} appears twice; ids must be unique",
                path=str(path),
                key=scenario.id,
            )
        seen.add(scenario.id)

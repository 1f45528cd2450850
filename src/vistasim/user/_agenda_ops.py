"""The agenda user's behaviour operations: the one generator of ways to play a sub-goal differently.

Each operation (hesitate, correct, change mind, amend, withhold, out of order, second request,
impatient) is a behaviour added to a sub-goal as if the scenario had asked for it, and every one
keeps the scenario's intent: a hesitation is resolved by confirming later (`then: confirm`), a
value said wrongly (`correct`), asked for first (`change_mind`) or asked for first and changed
in the yes to the confirmation (`amend`: "Yes, but make it W1007 instead.") is a plausible other
value (`_plausible`) the user takes back, so the scenario's criteria stand unchanged. Two users
of the generator: `vistasim run --perturb P` draws operations per rollout at the start
(`perturbed`), and a DIVERT branch plays one at a junction (`current_operations`,
`apply_operation`). Actions are stored as JSON (`action_json`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import date
from urllib.parse import urlsplit, urlunsplit

from pydantic import JsonValue, ValidationError

from vistasim.browser import WEB_STEPS
from vistasim.scenario import Behaviour, BehaviourOp, Scenario
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._plausible import ValuePool, choice_slot, other_value
from vistasim.user._reading import is_change_intent
from vistasim.user._types import Action, CallApi, Finish, Say

__all__ = [
    "CHAT_INSTEAD",
    "OPERATIONS",
    "Operation",
    "action_from_json",
    "action_json",
    "action_key",
    "apply_operation",
    "calls_off",
    "current_operations",
    "describe_action",
    "operations_for",
    "perturbed",
    "redrawn",
    "undrawn",
]

OPERATIONS: tuple[BehaviourOp, ...] = (
    "hesitate",
    "correct",
    "change_mind",
    "amend",
    "withhold",
    "out_of_order",
    "second_request",
    "impatient",
)
CHAT_INSTEAD = "chat_instead"
"""In the UI: ask in chat for what the user was doing on the page (no behaviour: a channel)."""


@dataclass(frozen=True, kw_only=True)
class Operation:
    """One way of playing the current sub-goal differently."""

    source: str
    """The operation and the slot it concerns: `hesitate`, `correct:order_id`, `chat_instead`."""
    behaviour: Behaviour | None
    """The behaviour added to the sub-goal (`None` for `chat_instead`)."""

    @property
    def op(self) -> str:
        """The operation alone (`correct` for `correct:order_id`)."""
        return self.source.split(":", 1)[0]


def operations_for(
    entry: AgendaEntry,
    *,
    more: bool,
    said: str = "",
    pool: ValuePool | None = None,
    today: date | None = None,
) -> list[Operation]:
    """Every operation that can still be played on a sub-goal, in a fixed order.

    One the scenario already gives the sub-goal is not played twice (a user who withheld a fact
    once does not withhold it again), and the slot operations apply only to facts not said yet
    (`said`: the user's words so far): taking back a value makes no sense once the true one is
    out, or a fact it is made from (`_said`). `more`: another sub-goal follows (a second
    request is possible).
    """
    out = [
        Operation(source="hesitate", behaviour=Behaviour(op="hesitate", then="confirm")),
        Operation(source="out_of_order", behaviour=Behaviour(op="out_of_order")),
        Operation(source="impatient", behaviour=Behaviour(op="impatient")),
    ]
    if more:
        out.append(Operation(source="second_request", behaviour=Behaviour(op="second_request")))
    for slot, value in entry.slots.items():
        if slot == "api" or _said(entry.slots, str(value), said.lower()):
            continue
        out.append(
            Operation(source=f"withhold:{slot}", behaviour=Behaviour(op="withhold", slot=slot))
        )
        other = other_value(slot, value, pool=pool, today=today)
        if other is None:
            continue
        wrong = Behaviour(op="correct", slot=slot, wrong=other)
        out.append(Operation(source=f"correct:{slot}", behaviour=wrong))
        if is_change_intent(entry.intent):  # a question sub-goal has no confirmation to amend
            amended = Behaviour(op="amend", slot=slot, first=other)
            out.append(Operation(source=f"amend:{slot}", behaviour=amended))
        if choice_slot(slot, value):
            changed = Behaviour(op="change_mind", slot=slot, first=other)
            out.append(Operation(source=f"change_mind:{slot}", behaviour=changed))
    return [o for o in out if o.behaviour is None or entry.has(o.behaviour.op) is None]


def _said(slots: Mapping[str, JsonValue], value: str, said: str) -> bool:
    """Whether the user said `value`, or a fact of the same sub-goal that it is made from.

    An exam `EX-ECON301-FIN` is said once its course `ECON301` is: "Yes, but make it
    EX-ECON301-FIN instead" to "I'll move your ECON301 final" would change nothing (school,
    issue 16: seven such branches in one scenario).
    """
    value = value.lower()
    if value in said:
        return True
    parts = (str(v).lower() for k, v in slots.items() if k != "api" and isinstance(v, str))
    return any(len(p) >= 4 and p != value and p in value and p in said for p in parts)


def current_operations(
    state: JsonValue,
    *,
    said: str,
    on_page: bool,
    pool: ValuePool | None = None,
    today: date | None = None,
) -> list[Operation]:
    """The operations the user can play at this step (on its current sub-goal)."""
    current = AgendaState.model_validate(state)
    if not current.stack:
        return []
    entry = current.stack[0]
    found = operations_for(entry, more=len(current.stack) > 1, said=said, pool=pool, today=today)
    if on_page and not entry.web_off:
        # The user was acting on the page: asking in chat instead is an alternative too.
        found.append(Operation(source=CHAT_INSTEAD, behaviour=None))
    return found


def apply_operation(state: JsonValue, operation: Operation) -> JsonValue:
    """The user state with `operation` added to the current sub-goal."""
    current = AgendaState.model_validate(state)
    if operation.behaviour is None:
        return current.with_entry(web_off=True, to_chat=True).model_dump(mode="json")
    return _with_behaviour(current, 0, operation.behaviour).model_dump(mode="json")


def calls_off(state: JsonValue, scenario: Scenario) -> bool:
    """Whether an agenda user's state holds a hesitation that stops, unplanned by its scenario.

    Such a user calls the change off (a branch's hesitation left there): it is judged by not
    having the change done. A scenario that plans one says so in its own criteria.
    """
    try:
        current = AgendaState.model_validate(state)
    except ValidationError:  # another policy's state
        return False
    planned = {item.intent for item in scenario.agenda
               for b in item.behaviours if b.op == "hesitate" and b.then == "stop"}  # fmt: skip
    return any(
        b.op == "hesitate" and b.then == "stop" and entry.intent not in planned
        for entry in current.stack
        for b in entry.behaviours
    )


def perturbed(
    state: JsonValue,
    probability: float,
    *,
    seed: int,
    pool: ValuePool | None = None,
    today: date | None = None,
) -> tuple[JsonValue, list[dict[str, JsonValue]]]:
    """Give each sub-goal, with `probability`, one operation drawn from `operations_for`.

    The draw is seeded by the episode's seed, so a rollout always plays the same way. An
    operation kind is drawn first, then its slot, so that a sub-goal with many facts is not
    mostly given value operations. Returns the state and what was drawn, per sub-goal.
    """
    current = AgendaState.model_validate(state)
    rng = random.Random(f"{seed}:perturb")
    current, drawn = _draw(current, range(len(current.stack)), probability, rng, pool, today)
    return current.model_dump(mode="json"), drawn


def redrawn(
    state: JsonValue,
    probability: float,
    *,
    seed: int,
    earlier: Sequence[Mapping[str, object]] = (),
    pool: ValuePool | None = None,
    today: date | None = None,
) -> tuple[JsonValue, list[dict[str, JsonValue]]]:
    """A branch's user, varying again from its junction on, as a stochastic user would.

    The sub-goals not begun yet lose what the parent's draw gave them (`earlier`: the parent's
    recorded perturbations) and are drawn again with the branch's own `seed`, which also seeds
    the user's wording from here on. The current sub-goal keeps its played prefix. Returns the
    state and the new draw (`subgoal` counts from the current sub-goal).
    """
    current = AgendaState.model_validate(state)
    if not current.stack:  # every sub-goal is done (the branch's action ends the episode)
        return current.model_copy(update={"seed": seed}).model_dump(mode="json"), []
    stack = [current.stack[0], *(_without(e, earlier) for e in current.stack[1:])]
    current = current.model_copy(update={"stack": stack, "seed": seed})
    rng = random.Random(f"{seed}:perturb")
    current, drawn = _draw(current, range(1, len(stack)), probability, rng, pool, today)
    return current.model_dump(mode="json"), drawn


def undrawn(state: JsonValue, earlier: Sequence[Mapping[str, object]]) -> JsonValue:
    """The user before a rollout's draw: every sub-goal without what `earlier` gave it.

    Before the user's first action nothing of the draw has been played, so a branch at the
    opening may play its first sub-goal otherwise too (`redrawn` keeps the current sub-goal's
    played prefix, and with it the draw). An `impatient` draw taken off gives its patience back.
    """
    current = AgendaState.model_validate(state)
    stack = [_without(e, earlier) for e in current.stack]
    intents = {e.intent for e in current.stack}
    impatient = 0
    for drawn in earlier:
        behaviour = drawn.get("behaviour")
        if drawn.get("intent") in intents and isinstance(behaviour, Mapping):
            impatient += behaviour.get("op") == "impatient"
    patience = min(current.full_patience, current.patience + impatient)
    undone = current.model_copy(update={"stack": stack, "patience": patience})
    return undone.model_dump(mode="json")


def _without(entry: AgendaEntry, earlier: Sequence[Mapping[str, object]]) -> AgendaEntry:
    """A sub-goal without the behaviours an earlier draw gave it (the scenario's stay)."""
    gone = [d.get("behaviour") for d in earlier if d.get("intent") == entry.intent]
    kept = [
        b for b in entry.behaviours
        if b.model_dump(mode="json", exclude_defaults=True) not in gone
    ]  # fmt: skip
    return entry.model_copy(update={"behaviours": kept})


def _draw(
    current: AgendaState,
    indices: Iterable[int],
    probability: float,
    rng: random.Random,
    pool: ValuePool | None,
    today: date | None,
) -> tuple[AgendaState, list[dict[str, JsonValue]]]:
    drawn: list[dict[str, JsonValue]] = []
    for index in indices:
        entry = current.stack[index]
        if rng.random() >= probability:
            continue
        options = operations_for(entry, more=index + 1 < len(current.stack), pool=pool, today=today)
        if not options:
            continue
        kinds = sorted({o.op for o in options})
        kind = rng.choice(kinds)
        operation = rng.choice([o for o in options if o.op == kind])
        assert operation.behaviour is not None  # operations_for gives behaviours only
        current = _with_behaviour(current, index, operation.behaviour)
        behaviour = operation.behaviour.model_dump(mode="json", exclude_defaults=True)
        drawn.append({"subgoal": index, "intent": entry.intent, "operation": operation.source,
                      "behaviour": behaviour})  # fmt: skip
    return current, drawn


def _with_behaviour(state: AgendaState, index: int, behaviour: Behaviour) -> AgendaState:
    entry = state.stack[index]
    changed = entry.model_copy(update={"behaviours": [*entry.behaviours, behaviour]})
    stack = [*state.stack[:index], changed, *state.stack[index + 1 :]]
    updated = state.model_copy(update={"stack": stack})
    if behaviour.op == "impatient":
        updated = updated.model_copy(update={"patience": max(1, state.patience - 1)})
    return updated


def action_json(action: Action) -> dict[str, JsonValue]:
    """An action as JSON (its fields and `kind`), as the branch record stores it."""
    return {k: v for k, v in asdict(action).items()}


def action_key(action: Action) -> str:
    """A canonical text of an action: two actions with one key are the same action."""
    return json.dumps(action_json(action), sort_keys=True)


def action_from_json(data: Mapping[str, object]) -> Action:
    """The action `action_json` wrote.

    Raises:
        ValueError: not an action this version knows.
    """
    kinds: dict[str, type] = {"say": Say, "call_api": CallApi, "finish": Finish}
    kinds.update({str(k): v for k, v in WEB_STEPS.items()})
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise ValueError(f"unknown user action kind {kind!r}")
    fields = {k: v for k, v in data.items() if k != "kind"}
    action: Action = kinds[kind](**fields)
    return action


def describe_action(action: Action) -> str:
    """The text of an action, as the embedder and the tree see it.

    A URL is given without its origin: a web episode's site listens on a port of its own, and
    the same step must read the same in every episode (else the cosines, and so the branches
    chosen, would change with the port).
    """
    text = getattr(action, "text", None)
    if isinstance(text, str) and text:
        return text
    data = action_json(action)
    url = data.get("url")
    if isinstance(url, str):
        parts = urlsplit(url)
        data["url"] = urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))
    return json.dumps(data, sort_keys=True)

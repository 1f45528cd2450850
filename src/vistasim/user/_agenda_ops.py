"""Offline alternatives at a DIVERT junction: the agenda user's behaviour operations.

At a junction the user is in a known state. Each operation (hesitate, correct, change mind,
withhold, out of order, second request, impatient) is added to the current sub-goal as if the
scenario had asked for it, and the agenda policy plays that step: the action it takes and the
state after it form one candidate. The facts stay the scenario's own: a value said wrongly (to
`correct` or `change_mind`) is one the user takes back, derived from a true one.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from pydantic import JsonValue

from vistasim.browser import WEB_STEPS
from vistasim.scenario import Behaviour, BehaviourOp, Scalar
from vistasim.user._agenda import AgendaPolicy
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._types import Action, CallApi, Finish, Say, UserView

__all__ = [
    "OPERATIONS",
    "Alternative",
    "action_from_json",
    "action_json",
    "agenda_alternatives",
    "describe_action",
    "pick_alternatives",
]

OPERATIONS: tuple[BehaviourOp, ...] = (
    "hesitate",
    "correct",
    "change_mind",
    "withhold",
    "out_of_order",
    "second_request",
    "impatient",
)


@dataclass(frozen=True, kw_only=True)
class Alternative:
    """One alternative user action and the user state after it."""

    source: str
    """The operation that produced it (`hesitate`, `correct:order_id`, ...)."""
    action: Action
    user_state: JsonValue


async def agenda_alternatives(
    policy: AgendaPolicy, view: UserView, state: JsonValue, original: Action
) -> list[Alternative]:
    """Every behaviour operation that makes the user act differently at this step.

    Operations whose action equals the original (the behaviour does not apply here) are left
    out, and so are operations that produce the same action as an earlier one.
    """
    current = AgendaState.model_validate(state)
    if not current.stack:
        return []
    found: list[Alternative] = []
    seen = {_key(original)}
    said = " ".join(u.text for u in view.transcript if u.role == "user").lower()
    changes = [(source, _with_behaviour(current, b)) for source, b in _behaviours(current, said)]
    if view.page is not None and not current.stack[0].web_off:
        # In the UI, another channel is an alternative too: ask in chat instead of clicking on.
        changes.append(("chat_instead", current.with_entry(web_off=True)))
    for source, changed in changes:
        action, after = await policy.next_action(view, changed.model_dump(mode="json"))
        if _key(action) in seen:
            continue
        seen.add(_key(action))
        found.append(Alternative(source=source, action=action, user_state=after))
    return found


def _behaviours(state: AgendaState, said: str) -> list[tuple[str, Behaviour]]:
    """The operations that can still be played on the current sub-goal.

    One the scenario already gives this sub-goal is not played twice (a user who withheld a fact
    once does not withhold it again), and the slot operations apply only to facts the user has
    not said yet: taking back a value makes no sense once the true one is out.
    """
    entry = state.stack[0]
    out: list[tuple[str, Behaviour]] = [
        ("hesitate", Behaviour(op="hesitate", then="confirm")),
        ("out_of_order", Behaviour(op="out_of_order")),
        ("impatient", Behaviour(op="impatient")),
    ]
    if len(state.stack) > 1:
        out.append(("second_request", Behaviour(op="second_request")))
    for slot, value in entry.slots.items():
        if str(value).lower() in said:
            continue
        out.append((f"withhold:{slot}", Behaviour(op="withhold", slot=slot)))
        other = _other_value(value)
        if other is not None:
            out.append((f"correct:{slot}", Behaviour(op="correct", slot=slot, wrong=other)))
            out.append((f"change_mind:{slot}", Behaviour(op="change_mind", slot=slot, first=other)))
    return [(source, b) for source, b in out if entry.has(b.op) is None]


def _with_behaviour(state: AgendaState, behaviour: Behaviour) -> AgendaState:
    entry: AgendaEntry = state.stack[0]
    changed = state.with_entry(behaviours=[*entry.behaviours, behaviour])
    if behaviour.op == "impatient":
        changed = changed.model_copy(update={"patience": max(1, state.patience - 1)})
    return changed


def _other_value(value: Scalar) -> Scalar | None:
    """A plausible wrong value for a slot: a digit off, one more (what a user mistypes)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        digits = [i for i, ch in enumerate(value) if ch.isdigit()]
        if digits:
            i = digits[-1]
            return value[:i] + str((int(value[i]) + 1) % 10) + value[i + 1 :]
    return None


def _key(action: Action) -> str:
    return json.dumps(action_json(action), sort_keys=True)


def action_json(action: Action) -> dict[str, JsonValue]:
    """An action as JSON (its fields and `kind`), as the branch record stores it."""
    return {k: v for k, v in asdict(action).items()}


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
    """The text of an action, as the embedder and the tree see it."""
    text = getattr(action, "text", None)
    if isinstance(text, str) and text:
        return text
    return _key(action)


def pick_alternatives(
    alternatives: Sequence[Alternative], k: int, rng: random.Random
) -> list[Alternative]:
    """K alternatives drawn without replacement (all of them when there are fewer)."""
    if len(alternatives) <= k:
        return list(alternatives)
    return rng.sample(list(alternatives), k)

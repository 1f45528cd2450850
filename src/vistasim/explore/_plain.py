"""The varying user without the draw it is about to play: the `plain` alternative at a junction.

Under `--perturb` a rollout's draw for a sub-goal stays with every branch restored inside that
sub-goal (a branch redraws only the sub-goals still to come). Where the draw has not acted yet,
nothing of it is played, so taking it back is consistent; at the turn where it acts (the user
without it says otherwise), that is the last chance: after it, no junction of the trajectory or
of its branches plays the scenario's plain user on that sub-goal, which is what the baseline's
rollouts that drew nothing there play (the varying user's most likely draw at perturb <= 0.5).
On the held-out desks (benchmarks/README.md, issue 16, eighth pass) failures behind the plain
user were missed this way: a first-turn correction of the permit number kept every branch of
`parking-renew-card-expired` in a verification loop, never reaching the expired card.

A value draw acts before the user state says it was played: `change_mind` and `amend` say their
`first` value in the request and are marked played only when they switch to the right one, and
`correct` says its `wrong` value first. Once the user said that value, the draw has acted: the
user without it would not know the value it said was not its own, take the agent's refusal of
it as final and stop (bikes seeds 1 and 2, issue 16, tenth pass: `extend-past-limit-r207` after
"extend rental R208", `reserve-ebike-riverside` after "reserve a cargo"). Such a stop costs no
agent tokens and failed the scenario's criteria, a failure of the simulated user's making that
then drew most of the budget to its scenario (a new find at almost no cost).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from pydantic import JsonValue

from vistasim.store import EpisodePlan
from vistasim.user import undrawn

__all__ = ["drawn_on_path", "without_pending_draw"]


def drawn_on_path(
    plan: EpisodePlan, episode: Callable[[str], EpisodePlan]
) -> list[dict[str, JsonValue]]:
    """What the varying user drew on `plan`'s path, per sub-goal the nearest draw.

    A branch records the sub-goals it drew again; the one it forked in keeps an ancestor's.
    """
    out: list[dict[str, JsonValue]] = []
    at: EpisodePlan | None = plan
    while at is not None:
        out += [d for d in at.perturbations if d.get("intent") not in
                {e.get("intent") for e in out}]  # fmt: skip
        at = episode(at.branch_of) if at.branch_of else None
    return out


def without_pending_draw(
    state: JsonValue, perturbations: Sequence[Mapping[str, JsonValue]], said: Sequence[str] = ()
) -> JsonValue:
    """The agenda user's state without the draws of its current sub-goal not played yet.

    `said`: what the user has said so far; a draw whose `first` or `wrong` value is in it has
    acted (see the module). None when there is none (nothing drawn for the current sub-goal,
    or all of it played or acting), or when the state is not an agenda user's.
    """
    if not isinstance(state, Mapping):
        return None
    stack = state.get("stack")
    if not isinstance(stack, list) or not stack or not isinstance(stack[0], Mapping):
        return None
    current = stack[0]
    played = current.get("played")
    done = set(played) if isinstance(played, list) else set()
    pending = [
        d for d in perturbations
        if d.get("intent") == current.get("intent")
        and isinstance(behaviour := d.get("behaviour"), Mapping) and behaviour.get("op") not in done
        and not _acting(behaviour, said)
    ]  # fmt: skip
    undone = undrawn(state, pending) if pending else None
    # Compared with the state put through the same dump, so that only the draw can differ.
    return undone if undone is not None and undone != undrawn(state, []) else None


def _acting(behaviour: Mapping[str, JsonValue], said: Sequence[str]) -> bool:
    """Whether the draw's first-said value (`first`, `wrong`) is in what the user said."""
    values = [str(v) for k in ("first", "wrong") if (v := behaviour.get(k)) not in (None, "")]
    return any(v.lower() in text.lower() for v in values for text in said)

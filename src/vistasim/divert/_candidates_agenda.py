"""Alternatives at a junction without a model: the agenda user's operations, or the same action.

At a junction the agenda user is in a known state. Each of its behaviour operations
(`vistasim.user.current_operations`: hesitate, correct, change mind, withhold...) is added to the
current sub-goal as if the scenario had asked for it, and the user plays that step: the action it
takes and its state after form one candidate. Operations that make the user act as it did are
left out, and so are those that repeat an earlier candidate, except at a `--perturb`
rollout's opening (`CandidateContext.opening`): there the parent's draw is taken off and every
operation of the first sub-goal is an alternative, one that acts only later too, and so is the
plain user (source `plain`): the draws the varying user's first turn makes. Elsewhere, with
novelty, the user without a draw about to act is the `plain` alternative where it acts
(`CandidateContext.undrawn_state`), and a junction branched again offers none of the sources
its branches played (`CandidateContext.played`). Where the user went on, a candidate that
ends the conversation is no alternative: the agent would get no turn to cope with it. `SameAction`
proposes the original action itself: the junction-only ablation, which checks that a restore
is exact.
"""

from __future__ import annotations

from pydantic import JsonValue

from vistasim.divert._types import Candidate, CandidateContext
from vistasim.user import (
    Action,
    AgendaPolicy,
    Finish,
    action_from_json,
    action_json,
    action_key,
    apply_operation,
    current_operations,
    describe_action,
)

__all__ = ["PLAIN", "AgendaCandidates", "SameAction"]

PLAIN = "plain"
"""Source of the candidate that plays the opening with no operation (`CandidateContext.plain`)."""


class AgendaCandidates:
    """Every operation that makes the agenda user act differently at the junction.

    Returns all of them (`k` is the policy's to apply: it keeps the most novel or a random K).
    """

    name = "agenda"

    def __init__(self, policy: AgendaPolicy) -> None:
        self.policy = policy

    async def generate(self, ctx: CandidateContext, k: int) -> tuple[list[Candidate], int]:
        """Play each operation from the junction's state; no model tokens are spent.

        Where the user went on, a candidate that ends the conversation is left out: the agent
        gets no turn to cope with it, so such a branch can fail only by the user's doing (its
        criteria not met because the user left). Bikes `extend-past-limit-r207` (issue 16,
        eleventh pass): with the rollout's `amend:rental_id` said ("extend rental R208"), the
        user given `change_mind:duration` stopped on "R208 isn't a rental on your account",
        a failure at no agent tokens counted as a distinct one on every seed.
        """
        if ctx.view is None or ctx.user_state is None:
            return [], 0
        said = " ".join(u.text for u in ctx.view.transcript if u.role == "user")
        operations = current_operations(
            ctx.user_state, said=said, on_page=ctx.on_page, pool=ctx.values, today=ctx.today
        )
        original = action_from_json(ctx.original_action) if ctx.original_action else None
        seen = {action_key(original)} if original is not None else set()
        found: list[Candidate] = []
        if ctx.plain:  # the opening without the parent's draw: the plain user is an alternative
            action, after = await self._reworded(ctx, ctx.user_state, seen)
            found.append(
                Candidate(text=describe_action(action), source=PLAIN, action=action_json(action),
                          user_state=after)
            )  # fmt: skip
        elif ctx.undrawn_state is not None:
            # The draw about to act taken back: an alternative only where it acts (the plain
            # user says otherwise here); where it acts later, a later junction offers it.
            action, after = await self.policy.next_action(ctx.view, ctx.undrawn_state)
            if action_key(action) not in seen and PLAIN not in ctx.played:
                seen.add(action_key(action))
                action, after = await self._reworded(ctx, ctx.undrawn_state, seen, action, after)
                found.append(
                    Candidate(text=describe_action(action), source=PLAIN,
                              action=action_json(action), user_state=after)
                )  # fmt: skip
        for operation in operations:
            if operation.source in ctx.played:
                continue  # the parent's own draw, or one its opening branches played already
            changed = apply_operation(ctx.user_state, operation)
            action, after = await self.policy.next_action(ctx.view, changed)
            if action_key(action) in seen and not ctx.opening:
                continue  # the operation does not apply here: the user would act the same
            # At an opening an operation that acts later (the same first words) is another user.
            seen.add(action_key(action))
            action, after = await self._reworded(ctx, changed, seen, action, after)
            found.append(
                Candidate(text=describe_action(action), source=operation.source,
                          action=action_json(action), user_state=after)
            )  # fmt: skip
        if original is not None and not isinstance(original, Finish):
            found = [c for c in found if not _quits(c)]
        return found, 0

    async def _reworded(
        self,
        ctx: CandidateContext,
        state: JsonValue,
        seen: set[str],
        action: Action | None = None,
        after: JsonValue = None,
    ) -> tuple[Action, JsonValue]:
        """The user's action from `state`, said with the branch's wording (`wording_seed`).

        `action`, `after`: what the parent's wording made of it (played here when not given).
        That wording decides whether the operation acts at all (against the original action,
        said with the same wording); the candidate is then said as a user drawn again would
        say it. The agenda user draws its phrasing from its state's seed and step, so without
        this every branch of a trajectory says an operation in the same words: a correction
        at a rollout's opening was "R207. Actually, make that R205" in every branch of that
        rollout, while the baseline's rollouts, each with a seed of its own, also said "R207,
        no wait, I meant R205", which the bikes agent misreads (issue 16, eleventh pass).
        Kept as the parent's when the new wording says what the original or an earlier
        candidate said.
        """
        assert ctx.view is not None  # `generate` returns nothing without one
        if action is None:
            action, after = await self.policy.next_action(ctx.view, state)
        if ctx.wording_seed is None or not isinstance(state, dict):
            return action, after
        again, later = await self.policy.next_action(ctx.view, {**state, "seed": ctx.wording_seed})
        if action_key(again) in seen or type(again) is not type(action):
            return action, after
        return again, later


def _quits(candidate: Candidate) -> bool:
    """Whether the candidate ends the conversation (see `AgendaCandidates.generate`)."""
    return candidate.action is not None and candidate.action.get("kind") == "finish"


class SameAction:
    """The original action again (the junction-only ablation: an exact-restore check)."""

    name = "same"

    async def generate(self, ctx: CandidateContext, k: int) -> tuple[list[Candidate], int]:
        """One candidate: what the user did at the junction, with the state it had after."""
        if ctx.original_action is None:
            return [], 0
        candidate = Candidate(
            text=ctx.original, source="same", action=ctx.original_action, user_state=ctx.state_after
        )
        return [candidate], 0

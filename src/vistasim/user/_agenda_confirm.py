"""How the agenda user answers a proposal: yes, a hesitation, a switch, an objection or a no.

Split from `_agenda_react.py`, which reads the agent's message and calls `on_confirmation` for
a yes/no question and `held_off` for the agent's reply after the user hesitated. The goal
always wins over a played behaviour: a cost it rules out is declined and a wrong value objected
to before any hesitation, and the yes after holding off is checked against the proposal it
hesitated at.
"""

from __future__ import annotations

import re
from dataclasses import replace

from vistasim.scenario import Behaviour
from vistasim.user._agenda_check import goal_text, mismatch, states_value
from vistasim.user._agenda_say import switch_pending
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._agenda_step import Reaction, Step, user_said
from vistasim.user._conditions import (
    left_unchanged,
    over_limit,
    price_held,
    price_limit,
    price_rose,
    refund_denied,
    wants_back,
)
from vistasim.user._types import UserView
from vistasim.user._whole import says
from vistasim.values import text_ids, text_values

__all__ = [
    "approved",
    "can_switch",
    "held_off",
    "left_for_cost",
    "on_confirmation",
    "pending_hesitation",
    "too_costly",
]


def on_confirmation(
    step: Step, state: AgendaState, message: str, previous: str | None
) -> Reaction:
    """Answer a yes/no question about the current sub-goal.

    `previous` is the agent's message before it: its proposal may still be on the table.
    """
    ph = step.phrasing
    entry = state.stack[0]
    # A cost the goal rules out ("I won't pay an exit fee") was declined before this is asked
    # (`react`, ahead of any reading): hesitating, then "please go ahead", would agree to it.
    hesitate = entry.has("hesitate")
    objection = _objection(step, state, message, previous)
    # A wrong proposal is objected to first: a hesitation holds off a yes, and this user would
    # not say yes here ("hold on, don't go ahead yet" after five "I need Mochi, not Bella").
    # The hesitation waits for a proposal the user would accept.
    if hesitate is not None and "hesitate" not in entry.played and objection is None:
        return Reaction(text=ph.pick(ph.templates.hesitate), progress=True, played=("hesitate",))
    if hesitate is not None and "hesitate" in entry.played and hesitate.then == "stop":
        return Reaction(text=ph.pick(ph.templates.decline), progress=True, done=True)
    switched = _switch(step, entry, message)  # `amend`: a yes that changes it ("Yes, but B")
    if switched is not None:
        return switched
    if objection is not None:
        return objection
    return Reaction(text=ph.styled("confirm"), progress=True)


def _objection(
    step: Step, state: AgendaState, message: str, previous: str | None
) -> Reaction | None:
    """What the user objects to in a proposal (`None`: nothing, it would say yes)."""
    objection = mismatch(step, state, message)
    if objection is not None and approved(step.view, objection.rejected, previous):
        # "Done — report MB-2201 logged; the crew returns by Wednesday 9 December. To order a
        # caddy: shall I?" after a yes to the report that said so: the next request's proposal
        # restates what was agreed (waste, two requests, one "on Friday").
        objection = None
    bare = not text_ids(message) and not text_values(message)
    on_table = _last_proposal(step.view, previous)
    if objection is None and on_table and state.rejected and bare:
        # "Sorry, I need a clear yes or no" (however often): the proposal on the table is
        # still the one the user rejected.
        again = mismatch(step, state, on_table)
        if again is not None and again.rejected in state.rejected:
            # It asked for a yes or a no: the objection now starts with the no it asked for.
            return replace(again, text=f"No. {again.text}")
    return objection


_YES = re.compile(
    r"^\W*(?:yes|yep|yeah|sure|ok(?:ay)?|that(?:'s| is) (?:correct|right)|"
    r"please (?:go ahead|proceed|do)|go ahead)\b",
    re.IGNORECASE,
)
_BUT = re.compile(r"\b(?:but|instead|rather|actually|make (?:it|that)|change (?:it|that))\b", re.I)


def approved(view: UserView, value: str | None, previous: str | None) -> bool:
    """Whether the user said yes to the agent's proposal of this very value, now or earlier.

    "Okay, but make that W1042 instead" is no yes to W1043. Earlier: the crew's "by Wednesday
    9 December" agreed to, restated after the user asked about a request the agent left out.
    """
    last = next((u.text for u in reversed(view.transcript) if u.role == "user"), "")
    if value and previous and _restates(value, previous) and _is_yes(last):
        return True
    lines = view.transcript
    return bool(value) and any(
        _restates(value, said.text) and _is_yes(reply.text)
        for said, reply in zip(lines, lines[1:], strict=False)
        if said.role == "agent" and reply.role == "user"
    )


def _is_yes(reply: str) -> bool:
    return bool(_YES.search(reply)) and not _BUT.search(reply)


def _restates(value: str | None, proposal: str) -> bool:
    if not value:
        return False
    if value.casefold() in proposal.casefold():
        return True
    # "Wednesday 31 March 2027" restating the "until 31 March 2027" agreed to: the same day.
    values = {v for v in text_values(value) if v[0] in ("date", "time", "money")}
    return bool(values) and values <= text_values(proposal)


def held_off(step: Step, state: AgendaState, previous: str | None) -> Reaction | None:
    """The reply to an agent that held off after the user hesitated (`None`: read it as usual).

    With `then: confirm` the user still wants it done and says so now, unless what is on the
    table is not what it wants (a day it never asked for). After "please go ahead" only a
    report of it done ends the request: a reply that lost the proposal ("Sorry, I didn't
    follow") is read like any other, not taken as done.
    """
    entry = state.stack[0]
    hesitation = pending_hesitation(entry)
    if hesitation is None:
        return None
    if hesitation.then != "confirm":
        return Reaction(text="", progress=True, done=True)  # the agent held off, as asked
    # `previous` is the message the user hesitated at: the proposal it now says yes to.
    objection = mismatch(step, state, previous) if previous else None
    if objection is not None:
        return objection
    switched = _switch(step, entry, previous or "")
    if switched is not None:
        # It held off at a proposal of the value it meant to change: "please do it" would
        # approve that value (energy: a reading of 9638 for 07710).
        return replace(switched, changes={"resumed": True})
    text = step.phrasing.pick(step.phrasing.templates.confirm_later)
    return Reaction(text=text, progress=True, changes={"resumed": True})


def pending_hesitation(entry: AgendaEntry) -> Behaviour | None:
    """The hesitation the user played at a proposal and has not come back from yet."""
    hesitation = entry.has("hesitate")
    if hesitation is None or "hesitate" not in entry.played or entry.resumed:
        return None
    return hesitation


def _switch(step: Step, entry: AgendaEntry, message: str) -> Reaction | None:
    """The change of mind or amend still to play at this proposal, if it can play now."""
    change = switch_pending(entry)
    value = str(entry.slots.get(change.slot, "")) if change and change.slot else ""
    if change is None or not value or not can_switch(step, change, message):
        return None
    # "Yes, but change it to W1004" to a proposal that already says W1004 (the user put it
    # right after a refusal) would change nothing: the proposal is checked as any other.
    if change.op == "amend" and (states_value(message, value, step) or says(message, value)):
        return None
    ph = step.phrasing
    said = ph.templates.amend if change.op == "amend" else ph.templates.change_mind
    text = ph.pick(said, value=value, first=str(change.first))
    return Reaction(text=text, progress=True, played=(change.op,))


def can_switch(step: Step, change: Behaviour, message: str) -> bool:
    """Whether the user can switch now (an `amend` always, a change of mind not always).

    "Yes, but make it B instead" needs no first value. A change of mind names the value it
    leaves, so only one said by the user or the proposal: "Sunday 21 June instead of
    Saturday" in the goal's words never said the slot's "2026-06-21" (nor the "2026-06-22" a
    draw gave it first), and "I changed my mind — 21 June, not 22 June" would change a value
    nobody said.
    """
    if change.op == "amend":
        return True
    words = user_said(step.view)
    first = str(change.first)
    return states_value(words, first, step) or states_value(message, first, step)


def too_costly(step: Step, entry: AgendaEntry, message: str) -> Reaction | None:
    """No to a proposal the goal rules out: one costing more than it allows.

    "Only if there is no fee", or giving back nothing where the goal wants its money back ("only
    if I get the £12 back").
    """
    goal = goal_text(step, entry)
    if wants_back(goal) and refund_denied(message):
        return Reaction(text=step.phrasing.pick(step.phrasing.templates.no_refund), progress=True,
                        done=True)  # fmt: skip
    ph = step.phrasing
    if price_held(goal) and price_rose(message):
        risen = over_limit(message, 0.0)  # the largest figure said: the price now asked
        if risen is not None:
            text = ph.pick(ph.templates.too_costly, amount=risen, limit="what I was quoted")
            return Reaction(text=text, progress=True, done=True)
    limit = price_limit(goal)
    amount = over_limit(message, limit) if limit is not None else None
    if limit is None or amount is None:
        return None
    allowed = "nothing" if limit == 0 else f"at most {limit:.2f}"
    text = ph.pick(ph.templates.too_costly, amount=amount, limit=allowed)
    return Reaction(text=text, progress=True, done=True)


def left_for_cost(step: Step, entry: AgendaEntry, message: str) -> Reaction | None:
    """The agent left the request undone for a price the goal rules out: the goal is met.

    "Collecting at 14:00 would cost £15.00, and you asked me to leave it if there was a
    charge, so I haven't changed anything" says for the user the no it would have said to
    the proposal (kennels: the user asked again until its turns ran out).
    """
    goal = goal_text(step, entry)
    limit = price_limit(goal)
    if not left_unchanged(message):
        return None
    held = price_held(goal) and price_rose(message)  # "only at the price I was quoted"
    if not held and (limit is None or over_limit(message, limit) is None):
        return None
    text = step.phrasing.pick(step.phrasing.templates.left_as_is)
    return Reaction(text=text, progress=True, done=True)


def _last_proposal(view: UserView, previous: str | None) -> str | None:
    """The agent's latest earlier message that states values (the proposal still on the table)."""
    earlier = [u.text for u in view.transcript if u.role == "agent"][:-1]
    for text in reversed(earlier):
        if text_ids(text) or text_values(text):
            return text
    return previous

"""What the agenda user does when the agent refuses with a reason or says it is unavailable.

A refusal is an answer, and repeating the request to it only loops. The user:

- takes it as the answer when the sub-goal is a question ("Can I still cancel W1003?");
- takes its goal's fallback when the goal gives one ("...; if that's not possible, any time
  on Friday is fine"), and from then on checks proposals against the fallback;
- accepts an alternative the agent offers with it, when the alternative fits the goal;
- asks once for another option when something it did not insist on is unavailable ("that slot
  was just booked"), keeping to what its goal does insist on ("...on 19 March");
- else stops that sub-goal with the refusal as the reason.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from vistasim.user._agenda_answer import CLARIFY, OFFER
from vistasim.user._agenda_check import goal_facts, mismatch
from vistasim.user._agenda_step import Reaction, Step
from vistasim.user._facts import TASK
from vistasim.user._lexicon import is_confirmation_request, question_sentences
from vistasim.user._phrasing import lower_first
from vistasim.user._reading import Refusal, is_change_intent, requested_kinds
from vistasim.user._stated import stated_values
from vistasim.user._tasks import goal_is_question
from vistasim.user._whole import says
from vistasim.values import text_ids, text_values

if TYPE_CHECKING:
    from vistasim.user._agenda_state import AgendaEntry, AgendaState

__all__ = ["is_question", "on_refusal"]

_ACCEPTS = re.compile(
    r"^(?:(?:then|just|i'?ll|i will|i'?d)\s+)?"
    r"(?:(?:then\s+)?(?:that'?s|it'?s|that is|it is)\s+(?:fine|ok(?:ay)?|alright)|fine|ok(?:ay)?"
    r"|no problem|no worries|accept\w*|leave it|forget it|never mind|live with it|i'?ll wait"
    r"|nothing else|do without|skip it|don'?t bother"
    r"|(?:don'?t|do not) (?:\w+ )?(?:either|any(?:thing)?|them)\b(?! (?:but|except|unless)\b)"
    r"|keep (?:it|the \w+ i have|my (?:current )?\w+|(?:it|everything) as it is)"
    r"|(?:then )?(?:leave|keep) (?:the|my) \w+ (?:as it is|i have|unchanged))\b",
    re.IGNORECASE,
)


def is_question(step: Step, entry: AgendaEntry) -> bool:
    """Whether a sub-goal asks for information (a refusal or an answer ends it)."""
    if entry.intent == "goal":  # no agenda: the goal's own words say what it asks for
        fallback = entry.fallback if not entry.fallback_used else None
        if fallback and not goal_is_question(fallback) and not _ACCEPTS.search(fallback):
            # "Could my direct debit come out on the last day of the month? If you can't do
            # that, the 28th.": a value to fall back on makes it a request for a change ("If
            # not, leave it as it is" asks for none).
            return False
        return goal_is_question(entry.task or step.view.scenario.goal)
    return not is_change_intent(entry.intent)


def on_refusal(step: Step, state: AgendaState, message: str, refused: Refusal) -> Reaction:
    """React to a refusal or an unavailability of the current sub-goal."""
    entry = state.stack[0]
    ph = step.phrasing
    fallback = entry.fallback if not entry.fallback_used else None
    if is_question(step, entry) and not (fallback and not goal_is_question(fallback)):
        # A question's refusal answers it; "Could my direct debit come out on the 28th? If
        # that's not possible, the 22nd." asks for a change, with a value to fall back on.
        return Reaction(text="", progress=True, refused=True)
    if fallback:
        if _ACCEPTS.search(fallback) or _answers_fallback(fallback, message):
            return Reaction(text="", progress=True, refused=True)
        changes = {"task": fallback, "fallback_used": True, "alternative_asked": False}
        offer = message.replace(refused.sentence, " ")
        if is_confirmation_request(offer) and fits_time_words(
            fallback, step.view.scenario.goal, offer
        ):
            # "I can't do 18 months. Over 12 that's £15.71 a month: shall I?" for a goal that
            # takes "the longest plan you offer": the offer on the table is the fallback.
            # Unless it changes what the fallback keeps: "a better room for the whole stay"
            # offered for other nights than the ones asked for.
            objection = mismatch(step, state.with_entry(**changes), offer)
            if objection is not None and not _insists_on_refused(objection, refused):
                return replace(objection, changes=changes)
            if objection is None:
                return Reaction(text=ph.styled("confirm"), progress=True, changes=changes)
            # "Couldn't apply FRESH15: it expired. I'll apply FRESH16 (the one you took back):
            # shall I?" Insisting on FRESH15 would loop; the goal's fallback is the answer.
            rejected = objection.rejected
        else:
            rejected = None
        text = ph.pick(ph.templates.fallback, request=lower_first(ph.request(fallback)))
        return Reaction(text=text, progress=True, changes=changes, rejected=rejected)
    offered = _alternative(step, message, refused)
    objection = mismatch(step, state, message) if offered else None
    if offered and objection is None:
        return Reaction(text=ph.styled("confirm"), progress=True)  # an alternative that fits
    pinned = _pins_goal(step, state, refused.sentence)
    if (
        offered
        and refused.kind == "policy"
        and not pinned
        and _asks_to_go_ahead(message, refused)
    ):
        # "Refunds only go back to the card you paid with, not to another. I can refund the card
        # ending 4410: shall I?" The rule rules out how the goal wanted it done, not what it
        # wanted done; a customer takes the offer rather than argue with the rule.
        return Reaction(text=ph.styled("confirm"), progress=True)
    if refused.kind == "unavailable" and not pinned and not entry.alternative_asked:
        text = ph.pick(ph.templates.ask_alternative, within=_within(step, state))
        changes = {"alternative_asked": True, "refused_with": refused.sentence}
        return Reaction(text=text, progress=True, changes=changes)
    return Reaction(text="", progress=True, stopped=refused.sentence)


def _insists_on_refused(objection: Reaction, refused: Refusal) -> bool:
    """Whether an objection asks for the very value the refusal just ruled out."""
    named = _said(objection.text) - _said(objection.rejected or "")
    return bool(named & _said(refused.sentence))


def _said(text: str) -> set[str]:
    return {i.casefold() for i in text_ids(text)} | {v.casefold() for _, v in text_values(text)}


def _answers_fallback(fallback: str, message: str) -> bool:
    """Whether the refusal already answers a fallback that asks ("...just tell me when I can").

    "Renewal opens on Friday 1 January 2027. I can't renew it yet." answers "when".
    """
    kinds = requested_kinds(fallback)
    if not kinds or not goal_is_question(fallback):
        return False
    said = {kind.split(":")[0] for kind, _ in text_values(message)}
    return bool(said & kinds) or ("weekday" in said and "date" in kinds)


_PARTS_OF_DAY = {
    "morning": (0, 12 * 60),
    "afternoon": (12 * 60, 17 * 60),
    "evening": (17 * 60, 24 * 60),
    "night": (18 * 60, 24 * 60),
}


def fits_time_words(fallback: str, goal: str, offer: str) -> bool:
    """Whether the times offered fit what the fallback says of them ("Friday evening", "later").

    >>> fits_time_words("the next later train on Friday evening", "Friday at 4 pm", "13:45?")
    False
    >>> fits_time_words("another time that Monday morning is fine", "10am", "10:15, shall I?")
    True
    """
    offered = [
        _minutes(next(iter(v.values)))
        for v in stated_values(offer, None)
        if v.kind == "time" and not _FROM.search(offer[max(0, v.start - 12) : v.start])
    ]  # "move you from the 18:30 to the 13:45": the 13:45 is what is offered
    if not offered:
        return True
    lowered = fallback.lower()
    for word, (start, end) in _PARTS_OF_DAY.items():
        if re.search(rf"\b{word}\b", lowered) and not any(start <= t < end for t in offered):
            return False
    asked = [_minutes(v) for k, v in text_values(goal) if k == "time"]
    if asked and re.search(r"\blater\b", lowered) and not any(t > asked[0] for t in offered):
        return False
    if asked and re.search(r"\bearlier\b", lowered) and not any(t < asked[0] for t in offered):
        return False
    return True


_FROM = re.compile(r"\bfrom\s+(?:the\s+)?$", re.IGNORECASE)


def _minutes(clock: str) -> int:
    hours, _, minutes = clock.partition(":")
    return int(hours) * 60 + int(minutes or 0)


def _alternative(step: Step, message: str, refused: Refusal) -> bool:
    """Whether the message offers something else besides the refusal ("but 11:30 is free")."""
    if _asks_to_go_ahead(message, refused):
        return True
    rest = message.replace(refused.sentence, " ")
    if not any(v.kind in ("date", "time") for v in stated_values(rest, step.today)):
        return False
    # "...renewal opens on 1 September. Anything else I can help with?" tells when, and
    # offers nothing: a day offered is free, asked about, or put with an offer's words.
    asks = [q for q in question_sentences(rest) if not CLARIFY.search(q)]
    return bool(asks) or OFFER.search(rest) is not None


def _asks_to_go_ahead(message: str, refused: Refusal) -> bool:
    """Whether, besides the refusal, the message offers to act now ("...: shall I go ahead?")."""
    return is_confirmation_request(message.replace(refused.sentence, " "))


def _pins_goal(step: Step, state: AgendaState, sentence: str) -> bool:
    """Whether what is refused is a value the goal insists on ("10:00 is taken" for 10:00)."""
    lowered = sentence.casefold()
    for held in state.stack[0].slots.values():
        text = str(held).casefold()
        # A choice the sub-goal made ("size 10", "cargo bike"), not the thing it is about (an
        # order number, an email).
        if (
            text
            and not text_ids(text)
            and "@" not in text
            and says(lowered, text)
        ):
            return True
    facts = goal_facts(step, state)
    for value in stated_values(sentence, step.today):
        if value.kind.startswith("id:") or value.kind == "email":
            continue  # the thing asked about, not a choice the goal made
        if any(value.values & f.values.get(value.kind, frozenset()) for f in facts):
            return True
    return False


def _within(step: Step, state: AgendaState) -> str:
    task = next((f for f in goal_facts(step, state) if f.slot == TASK), None)
    said = task.said.get("date") if task is not None else None
    if not said:
        return ""
    return f" on {said}" if said[0].isdigit() else f" {said}"

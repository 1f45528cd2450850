"""How the agenda user answers the agent's questions: the facts asked for, and no more.

Withheld facts, value behaviours and a second request are applied here (`_agenda_say.py` words
them); a question the user holds nothing for gets "no preference" or nothing at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from vistasim.scenario import Behaviour, BehaviourOp, Scalar
from vistasim.user._agenda_check import fallback_for, slot_kinds, states_value, task_answer
from vistasim.user._agenda_say import (
    say_value,
    spoken_goal,
    switch_on_refusal,
    switch_pending,
    withholds,
)
from vistasim.user._agenda_state import AgendaState
from vistasim.user._agenda_step import (
    Reaction,
    Step,
    fact_sources,
    held_facts,
    task_words,
    user_said,
)
from vistasim.user._lexicon import normalize, question_sentences, shadowed_slots
from vistasim.user._phrasing import SELF_NAMED, lower_first
from vistasim.user._reading import requested_kinds
from vistasim.user._stated import stated_values
from vistasim.user._types import UserView
from vistasim.user._whole import says
from vistasim.values import text_values

__all__ = ["CLARIFY", "OFFER", "answer_asked", "proposes", "unmapped_question"]

CLARIFY = re.compile(
    r"\b(?:rephrase|didn't (?:understand|get|catch)|did not understand|not sure what you mean|"
    r"(?:could|can) you (?:clarify|explain|elaborate|say that again)|what do you mean|"
    r"how (?:can|may) i (?:help|assist)|what can i (?:do|help)|anything else|"
    r"what (?:would|do) you (?:like|need|want)|what else)\b",
    re.IGNORECASE,
)
"""Questions the user reads without a fact to give: a clarification, an open offer to help."""
OFFER = re.compile(
    r"\b(?:I|we) (?:can|could) (?:offer|do|book|give|move|schedule|put)|\b(?:I|we) have\b|"
    r"\b(?:is|are) (?:free|available|open)\b|\b(?:how|what) about\b|\bnext (?:free|available)",
    re.IGNORECASE,
)
"""Words of an offer: a statement with values after them is a proposal to check."""
_PREFERENCE = re.compile(r"\b(?:prefer|preference|would you like|do you want|any particular)\b")


def answer_asked(step: Step, state: AgendaState, message: str, asked: list[str]) -> Reaction:
    """Answer the slots `asked` from the facts the user holds, behaviours applied."""
    ph = step.phrasing
    entry = state.stack[0]
    held = {**held_facts(step, state), **_offered(step, state, message, asked)}
    held = {**_own_name(step, held, asked), **held}
    if _only_lacking_again(step.view, message, asked, held):
        # Asked again for what the user said it does not have ("Which station would you
        # like?"): the agent is on another errand than the user's, who says its own again.
        return Reaction(text="", progress=False)
    bare = _said_just_now(step.view, asked, held) or _dictated(message, asked, held)
    pending = switch_pending(entry)
    if bare and (pending is None or not _puts_right(step, message, held, asked, pending)):
        # The agent asks again for what the user's last message gave: it was not read, so the
        # user says the value alone this time, without the words around it. Words to be
        # written down as said ("What would you like the card to say?") are given alone too.
        text = ", ".join(_bare(str(held[slot])) for slot in asked)
        return Reaction(text=text, progress=True, plain=True)
    shadowed = shadowed_slots(message, step.lexicon, [s for s in asked if s in held])
    clauses: list[str] = []
    played: list[BehaviourOp] = []
    for slot in (s for s in asked if s in held):
        if withholds(entry, slot):
            clauses.append(ph.pick(ph.templates.withhold, label=ph.label(slot, message)))
            played.append("withhold")
            continue
        change = switch_pending(entry)
        if change is not None and change.slot == slot and _offers_only(step, message, held, change):
            # "Which size instead? Options: 8, 9, 10." after asking for 11 meaning to amend it
            # to 10: asking for 11 again would only loop; the user takes it back now.
            value = str(held[slot])
            clauses.append(switch_on_refusal(ph, change, value, "").strip())
            played.append(change.op)
            continue
        right = _wrong_list(step, message, held, slot, change)
        if right is not None and change is not None:
            # "Which item? The order has: Orbit Fitness Watch, Electric Kettle" for the sneakers,
            # after naming the wrong order meant to be amended: the list shows the order is
            # wrong, so the user puts it right now rather than name an item it lacks forever.
            clauses.append(switch_on_refusal(ph, change, right, "").strip())
            played.append(change.op)
            change = None
        said, ops = say_value(ph, entry, slot, held[slot])
        clauses.append(ph.fact(slot, said, message))
        played += ops
    # Answer what was asked and nothing more: a second slot name in the same question ("refund to
    # your original payment method or a gift card?") is usually part of the first one's options.
    missing = [slot for slot in asked if slot not in held and slot not in shadowed]
    from_goal = [task_answer(step, state, slot) for slot in missing]
    goal_said = list(dict.fromkeys(a for a in from_goal if a))
    clauses += goal_said  # "What day suits you?" for "Book a check-up next Thursday"
    changes: dict[str, object] = {}
    if missing and not goal_said:
        kinds = {k for slot in missing for k in slot_kinds(slot)}
        fallback = fallback_for(step, entry, kinds)
        if fallback is not None:  # "Which day of the month?" for "... If not, the 28th."
            clauses.append(fallback)
            changes = {"task": fallback, "fallback_used": True}
    gives_facts = bool(clauses)
    if missing and not clauses:
        clauses.append(ph.pick(ph.templates.dont_have, label=ph.label(missing[0], message)))
    if entry.pending("second_request") is not None and len(state.stack) > 1:
        later = ph.request(task_words(step, state.stack[1]))
        clauses.append(ph.pick(ph.templates.second_request, request=lower_first(later)))
        played.append("second_request")
    text = ph.answer(clauses, gives_facts=gives_facts)
    return Reaction(text=text, progress=True, played=tuple(played), changes=changes)


def _own_name(step: Step, held: dict[str, Scalar], asked: list[str]) -> dict[str, Scalar]:
    """The user's own name when asked for it and no `name` is held: a person knows theirs.

    A product owner writes `caller_name: Nisha Patel` (or nothing, the persona being Nisha):
    "may I have your own full name?" was answered "I don't have my name on hand".
    """
    if "name" not in asked or "name" in held:
        return {}
    own = [v for s, v in held.items() if s.lower().removesuffix("_name") in {*SELF_NAMED, "full"}]
    name = own[0] if own else step.view.scenario.persona.name
    return {"name": name} if name else {}


def _offers_only(step: Step, message: str, held: dict[str, Scalar], change: Behaviour) -> bool:
    """Whether the question offers the value the user means and not the one it said first."""
    value, first = str(held[str(change.slot)]), str(change.first)
    return states_value(message, value, step) and not states_value(message, first, step)


def _offered(step: Step, state: AgendaState, message: str, asked: list[str]) -> dict[str, Scalar]:
    """Asked slots whose options name another value the user holds for them.

    "What's the reason for the change: personal, medical, or an exam conflict?" about the exam
    (the user's next sub-goal) while the fee waiver it is on has its own reason: the user
    answers with the value an option names ("personal"), not the waiver's reason four times.
    """
    question = " ".join(question_sentences(message))
    if not re.search(r"\bor\b", question):
        return {}
    chosen: dict[str, Scalar] = {}
    for slot in asked:
        values = [source[slot] for source in fact_sources(step, state) if slot in source]
        if len(values) < 2 or states_value(question, str(values[0]), step):
            continue
        named = [v for v in values[1:] if states_value(question, str(v), step)]
        if named:
            chosen[slot] = named[0]
    return chosen


_LISTED = re.compile(r":\s*[^.?!:,]+(?:,\s*[^.?!:,]+)+")
"""A list of options after a colon: "The order has: Orbit Fitness Watch, Electric Kettle"."""


def _wrong_list(
    step: Step, message: str, held: dict[str, Scalar], slot: str, change: Behaviour | None
) -> str | None:
    """The value the user means for another slot, when the listed options are of a wrong record.

    They lack the user's value for `slot`, and the user said that other slot's value first
    meaning to change it (`amend`, `change_mind`).
    """
    if change is None or change.slot is None or change.slot == slot or change.slot not in held:
        return None
    said = user_said(step.view)
    wrong = (
        _LISTED.search(message) is not None
        and str(change.first) in said
        and not states_value(message, str(held[slot]), step)
    )
    return str(held[change.slot]) if wrong else None


def unmapped_question(step: Step, message: str) -> Reaction | None:
    """A question the user holds nothing for: no preference, a clarification, or unknown."""
    questions = " ".join(question_sentences(message))
    if not questions:
        return None
    ph = step.phrasing
    if CLARIFY.search(questions):
        return Reaction(text="", progress=False)  # it asks again, in other words
    if _PREFERENCE.search(questions.lower()):
        if _asked_before(step.view, questions):
            return None  # "no preference" did not help: the request is said again instead
        own = _own_value_turned_down(step, questions)
        if own is not None:
            return Reaction(text=ph.pick(ph.templates.none_fit, value=own), progress=True)
        return Reaction(text=ph.pick(ph.templates.no_preference), progress=True)
    return None


_OTHER = re.compile(r"(?:other|another|different|else)", re.IGNORECASE)


def _own_value_turned_down(step: Step, questions: str) -> str | None:
    """The goal's own value when the agent asks for *another* of its kind ("Which other day?").

    A goal that names the day has no other to offer: "No preference, whatever works" would
    give up what it insists on.
    """
    kinds = requested_kinds(questions)
    if not kinds or _OTHER.search(questions) is None:
        return None
    goal = spoken_goal(step.view.scenario.goal)
    return next((v.surface for v in stated_values(goal, step.today) if v.kind in kinds), None)


def _asked_before(view: UserView, questions: str) -> bool:
    earlier = [u.text for u in view.transcript if u.role == "agent"][:-1]
    asked = normalize(questions)
    return any(asked in normalize(" ".join(question_sentences(t))) for t in earlier)


def _puts_right(
    step: Step, message: str, held: dict[str, Scalar], asked: list[str], change: Behaviour
) -> bool:
    """Whether answering `asked` is where the user puts right the value it means to change.

    It is when the value is asked for, or when the options offered are the wrong record's.
    """
    return change.slot in asked or any(
        _wrong_list(step, message, held, slot, change) is not None for slot in asked
    )


def _bare(value: str) -> str:
    """A value said alone, as the user holds it: no full stop an email or id would take in."""
    return value.strip()


_DICTATION = re.compile(
    r"\b(?:(?:like|want)\b[^?]{0,30}\bto (?:say|read)|should\s+(?:it\s+|the\s+\w+\s+)?(?:say|read)"
    r"|wording|inscription|engraving)\b",
    re.IGNORECASE,
)
"""A question for words to be written down as said: a card's message, an engraving."""


def _dictated(message: str, asked: list[str], held: Mapping[str, Scalar]) -> bool:
    """Whether the agent asks for words it will write down as said, and the user holds them."""
    questions = " ".join(question_sentences(message))
    return bool(asked) and bool(_DICTATION.search(questions)) and all(s in held for s in asked)


def _said_just_now(view: UserView, asked: list[str], held: Mapping[str, Scalar]) -> bool:
    """Whether the user's last message gave every value asked for (each held and said there)."""
    last = next((u.text for u in reversed(view.transcript) if u.role == "user"), "")
    return bool(asked) and all(s in held and says(last, str(held[s])) for s in asked)


def _only_lacking_again(
    view: UserView, message: str, asked: list[str], held: Mapping[str, Scalar]
) -> bool:
    """Whether the message asks again, word for word, only for facts the user said it lacks.

    "Which station would you like to pick the bike up from?" after "I don't have that": the
    agent is on another errand than the user's, and saying so again only loops.
    """
    questions = normalize(" ".join(question_sentences(message)))
    if not questions or any(slot in held for slot in asked):
        return False
    turns = view.transcript[:-1]
    return any(
        turn.role == "agent"
        and reply.role == "user"
        and _LACKS.search(reply.text) is not None
        and questions in normalize(" ".join(question_sentences(turn.text)))
        for turn, reply in zip(turns, turns[1:], strict=False)
    )


_LACKS = re.compile(r"\bdon't have (?:that|my|the)\b|\bnot (?:on|to) hand\b", re.IGNORECASE)
"""The user's own "I don't have that on hand" (the `dont_have` templates say it these ways)."""


def proposes(step: Step, message: str) -> bool:
    """Whether the message offers something with values ("I can offer Friday 20 March")."""
    if not OFFER.search(message):
        return False
    return bool(text_values(message)) or bool(
        step.today and re.search(r"\b(?:today|tomorrow|next|this)\b|day\b", message, re.I)
    )

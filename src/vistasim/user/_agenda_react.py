"""How the agenda user reacts to the agent's last message: answer, confirm, object, or move on.

This is the reading half of the offline policy (`_agenda.py` drives the stack of sub-goals): it
tells what the agent asked, proposed, reported, answered or refused, checks proposals against the
fact each restates (`_agenda_check.py`), handles refusals (`_agenda_refuse.py`), answers
proposals (`_agenda_confirm.py`) and questions (`_agenda_answer.py`) with the scenario's
behaviours applied. `None` means the user
could not read the message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Set
from dataclasses import replace

from vistasim.scenario import Scalar
from vistasim.user._agenda_answer import CLARIFY, answer_asked, proposes, unmapped_question
from vistasim.user._agenda_check import (
    choose,
    fallback_for,
    held_option,
    mismatch,
    states_value,
    taken_back,
    task_answer,
)
from vistasim.user._agenda_confirm import (
    approved,
    can_switch,
    held_off,
    left_for_cost,
    on_confirmation,
    pending_hesitation,
    too_costly,
)
from vistasim.user._agenda_refuse import is_question, on_refusal
from vistasim.user._agenda_say import switch_on_refusal, switch_pending
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._agenda_step import Reaction, Step, held_facts, is_id, task_words, user_said
from vistasim.user._done_before import done_before_unseen, later_done, names_entry
from vistasim.user._left_out import left_out
from vistasim.user._lexicon import (
    asked_slots,
    for_another,
    is_confirmation_request,
    is_done,
    mentioned_slots,
    question_sentences,
)
from vistasim.user._phrasing import lower_first
from vistasim.user._reading import (
    Refusal,
    answers_request,
    refusal,
    refusal_sentences,
    requested_kinds,
    statements,
)
from vistasim.user._tasks import goal_is_question
from vistasim.user._types import UserView
from vistasim.user._whole import says
from vistasim.values import text_ids, text_values

_NOT_FACTS = frozenset({"confirm", "confirmation", "yes_no"})


def react(
    step: Step, state: AgendaState, message: str, previous: str | None = None
) -> Reaction | None:
    """Read the agent's latest message (and its previous one); `None`: nothing it can read."""
    confirming = is_confirmation_request(message)
    if confirming:
        # "...the £12.00 paid can't be returned. Shall I cancel it?" reads as a refusal too;
        # a goal that wants it only with its money back (or under a price) says no first.
        costly = too_costly(step, state.stack[0], message)
        if costly is not None:
            return costly
    else:
        left = left_for_cost(step, state.stack[0], message)
        if left is not None:
            return left
    return _read(step, state, message, previous, confirming=confirming)


def _read(
    step: Step, state: AgendaState, message: str, previous: str | None, *, confirming: bool
) -> Reaction | None:
    entry = state.stack[0]
    held = held_facts(step, state)
    question = is_question(step, entry)
    refused = refusal(message)
    # A refusal's own words ("has already been booked") report nothing done; "no free docks"
    # answers a question about free docks.
    done = completes(step, entry, message if question else _without_refusals(message))
    if question and done and refused is not None and refused.kind == "unavailable":
        refused = None
    asked = _asked(step, message, held, refused, confirming=confirming, done=done)
    # An answer's values are news, not a restatement: only a wrong id in it is objected to.
    objection = mismatch(step, state, message, ids_only=question) if refused is None else None
    if objection is not None and approved(step.view, objection.rejected, previous):
        # It restates what the user just said yes to ("10:15 then": booked 10:15; the £950
        # payout of the claim the user agreed to open), done or not.
        objection = None
    later = later_done(state, message) if done and not question else None
    if later is not None:
        # "Done — your exam is now on 18 December" while the user is on the fee waiver it asked
        # first: the exam it also asked for is done, the waiver is not (no objection to the
        # exam's id, no asking for the exam again later).
        # The current sub-goal alone: the goal's whole sentence would ask for the exam again.
        own = task_words(step, entry.model_copy(update={"task": None}))
        request = lower_first(step.phrasing.request(own))
        text = step.phrasing.pick(step.phrasing.templates.next_item, request=request)
        return Reaction(text=text, progress=True, later_done=later)
    if done and not question and done_before_unseen(step.view, message):
        # "That's already been done earlier in this chat" when nothing in it was: disputed.
        request = step.phrasing.request(task_words(step, entry))
        text = step.phrasing.pick(step.phrasing.templates.not_done, request=request)
        return Reaction(text=text, progress=True)
    if done and objection is None and not (question and refused is not None):
        return _after_done(step, state, message, asked, confirming, previous)
    if refused is not None and not asked and confirming and _offers_goal(step, entry, message):
        # "I can't share RX30415. I can refill your RX30412: shall I?": the other part of the
        # goal is on the table.
        return on_confirmation(step, state, message, previous)
    if refused is not None and not asked:
        return _on_refused(step, state, message, refused)
    answer = _answered(step, state, message, asked, refused, confirming=confirming)
    if answer is not None:
        return answer
    chosen = choose(step, state, message)  # "10:00 or 11:30 — which works for you?"
    if chosen is not None:
        return chosen
    if confirming:
        return on_confirmation(step, state, message, previous)
    if objection is not None and (done or proposes(step, message)):
        return objection
    after_hold = held_off(step, state, previous)
    if after_hold is not None:
        return after_hold
    if entry.alternative_asked and entry.refused_with:
        # It asked for another option and got none: the refusal stands.
        return Reaction(text="", progress=True, stopped=entry.refused_with)
    return (
        _asked_from_goal(step, state, message)
        or _wrong_value_doubted(step, state, message)
        or _asked_again(step, state, message)
        or unmapped_question(step, message)
    )


def _asked(
    step: Step,
    message: str,
    held: Mapping[str, Scalar],
    refused: Refusal | None,
    *,
    confirming: bool,
    done: bool,
) -> list[str]:
    """The slots the message asks the user for.

    Domain lexicons may list "confirm" as a slot: that is a yes/no question, not a fact. In a
    yes/no question, a report or a refusal a slot's name is part of the proposal ("to the
    payment method on file"), so only facts the user holds are answered there; a yes/no
    question that states one itself ("Shall I email this to you at tom@example.com?") asks
    for a yes.
    """
    asked = [s for s in asked_slots(message, step.lexicon) if s not in _NOT_FACTS]
    asked = for_another(message, asked, held)
    if confirming or done or refused is not None:
        asked = [s for s in asked if s in held and not _refused_value(held[s], refused)]
    if confirming:
        asked = [s for s in asked if not states_value(message, str(held[s]), step)]
    return asked


def _answered(
    step: Step,
    state: AgendaState,
    message: str,
    asked: list[str],
    refused: Refusal | None,
    *,
    confirming: bool,
) -> Reaction | None:
    """The answer to a question: an option the user holds, else the facts asked for."""
    held = held_facts(step, state)
    picked = held_option(message, held, asked) if refused is None and not confirming else None
    if picked is not None:  # "Individual (£64.00), Joint (two adults at one address) or ...?"
        text = step.phrasing.pick(step.phrasing.templates.choose, value=picked)
        return Reaction(text=text, progress=True)
    if not asked:
        return None
    answer = answer_asked(step, state, message, asked)
    return _with_fallback(answer, state.stack[0], asked, held) if refused is not None else answer


def _offers_goal(step: Step, entry: AgendaEntry, message: str) -> bool:
    """Whether, beside its refusal, the message proposes what the goal asks by an id it names."""
    rest = _without_refusals(message)
    goal = task_words(step, entry)
    goal_ids = {i.casefold() for i in text_ids(goal)}
    refused_ids = {i.casefold() for i in text_ids(message)} - {i.casefold() for i in text_ids(rest)}
    if goal_ids & {i.casefold() for i in text_ids(rest)} - refused_ids:
        return True
    # "...and book me onto the 12:30 Pilates": the offer names the goal's own time or date.
    wanted = {v for v in text_values(goal) if v[0] in ("time", "date")}
    return bool(wanted & text_values(rest))


def _without_refusals(message: str) -> str:
    for sentence in refusal_sentences(message):
        message = message.replace(sentence, " ")
    return message


def _asked_from_goal(step: Step, state: AgendaState, message: str) -> Reaction | None:
    """Answer a day or time question no slot covers ("What day suits you?") from the goal."""
    questions = " ".join(question_sentences(message))
    kinds = requested_kinds(questions) & {"date", "time"}
    if not kinds:
        return None
    said = task_answer(step, state, "date" if "date" in kinds else "time")
    if said is None:
        return _fallback_answer(step, state.stack[0], kinds)
    return Reaction(text=step.phrasing.answer([said]), progress=True)


def _fallback_answer(step: Step, entry: AgendaEntry, kinds: Set[str]) -> Reaction | None:
    fallback = fallback_for(step, entry, kinds)
    if fallback is None:
        return None
    taken = {"task": fallback, "fallback_used": True}
    return Reaction(text=step.phrasing.answer([fallback]), progress=True, changes=taken)


def _wrong_value_doubted(step: Step, state: AgendaState, message: str) -> Reaction | None:
    """Put right the value a doubt is about when it is one the user did not mean.

    "That email doesn't match our records for S1003. Could you check it?" after the user said
    S1003 meaning to amend it, or after "S1003 — sorry, I mean S1002": the record the agent
    checked is the wrong one, so giving the e-mail again would only loop until the user gives
    up (and the agent be blamed for a mismatch it rightly refused).
    """
    questions = " ".join(question_sentences(message))
    if not _POINTS_BACK.search(questions) or CLARIFY.search(questions):
        return None
    said = " ".join(statements(message))
    entry = state.stack[0]
    change = switch_pending(entry)
    if change is not None and change.slot is not None and change.first is not None:
        if says(said, change.first):
            value = str(entry.slots.get(change.slot, ""))
            request = step.phrasing.request(task_words(step, entry))
            text = switch_on_refusal(step.phrasing, change, value, request)
            return Reaction(text=text, progress=True, played=(change.op,))
    back = taken_back(step, entry, said)
    if back is None:
        return None
    wrong, right = back
    text = step.phrasing.pick(step.phrasing.templates.object_value, value=right, wrong=wrong)
    return Reaction(text=text, progress=True, rejected=wrong)


_POINTS_BACK = re.compile(r"\b(?:it|that|this|them|those)\b", re.I)


def _asked_again(step: Step, state: AgendaState, message: str) -> Reaction | None:
    """Give again the fact a question points back to ("That email doesn't match. Check it?")."""
    questions = " ".join(question_sentences(message))
    if not _POINTS_BACK.search(questions) or CLARIFY.search(questions):
        return None  # "Anything else?" points back at nothing
    held = held_facts(step, state)
    said = " ".join(statements(message))
    named = [s for s in mentioned_slots(said, step.lexicon) if s in held and s not in _NOT_FACTS]
    return answer_asked(step, state, message, named[:1]) if named else None


def completes(step: Step, entry: AgendaEntry, message: str) -> bool:
    """Whether the message carries out a change sub-goal, or answers a question sub-goal.

    A question the user hesitated over a proposal for (`then: confirm`) wants that change now:
    only a report of it done ends it, not the answer the proposal gave.
    """
    if not is_question(step, entry) or _to_confirm(entry):
        return is_done(message) or _hands_over(task_words(step, entry), message, step.view)
    wants = requested_kinds(task_words(step, entry))
    return answers_request(
        message, _entities(step, entry), user_said(step.view), entry.intent, wants
    )


def _to_confirm(entry: AgendaEntry) -> bool:
    """Whether the user hesitated at a proposal it is still to say yes to (`then: confirm`)."""
    hesitation = pending_hesitation(entry)
    return hesitation is not None and hesitation.then == "confirm"


def _on_refused(step: Step, state: AgendaState, message: str, refused: Refusal) -> Reaction:
    entry = state.stack[0]
    change = switch_pending(entry, refused.sentence)
    if change is not None and change.slot is not None and can_switch(step, change, message):
        # The refusal is about the value the user meant to take back: it does so now,
        # rather than accept a refusal of something it never wanted.
        value = str(entry.slots.get(change.slot, ""))
        request = step.phrasing.request(task_words(step, entry))
        text = switch_on_refusal(step.phrasing, change, value, request)
        return Reaction(text=text, progress=True, played=(change.op,))
    back = taken_back(step, entry, refused.sentence) or taken_back(step, entry, message)
    if back is not None:
        # "R207 isn't on your account" after "R207, no wait, I meant R205": the refusal is of
        # the value the user took back, so it says the one it meant rather than give up. So
        # is a reply that states it again beside the refusal ("... can't be extended.
        # Bringing it back on 12 December is £90.00") after the user moved to the 11th.
        wrong, right = back
        text = step.phrasing.pick(step.phrasing.templates.object_value, value=right, wrong=wrong)
        return Reaction(text=text, progress=True, rejected=wrong)
    # "...unless for a medical reason", "needs the note number": the refusal names a fact the
    # user holds and has not said yet; it gives it and asks again (once per fact).
    held = held_facts(step, state)
    said = user_said(step.view).casefold()
    named = [
        s
        for s in mentioned_slots(refused.sentence, step.lexicon)
        if s in held
        and s not in _NOT_FACTS
        and str(held[s]).casefold() not in said
        # "I can't sell 2 books": the refusal itself states the value, so it is not missing.
        and not says(refused.sentence, held[s])
    ]
    if named:
        answer = answer_asked(step, state, message, named[:1])
        request = step.phrasing.request(task_words(step, entry))
        return Reaction(text=f"{answer.text} {request}", progress=True)
    return on_refusal(step, state, message, refused)


def _after_done(
    step: Step,
    state: AgendaState,
    message: str,
    asked: list[str],
    confirming: bool,
    previous: str | None,
) -> Reaction:
    """The sub-goal is done; the same message may ask about the next one.

    `previous`: the agent's message before, whose proposal the user may just have said yes to.
    """
    rest = state.popped()
    left = None if asked or confirming or rest.stack else left_out(step, message)
    if left is not None:
        # "Done — the bed's collection is booked. That's everything": the garden waste it also
        # asked for was never named; the user asks after it rather than leave.
        request = step.phrasing.request(left)
        text = step.phrasing.pick(step.phrasing.templates.left_out, request=request)
        return Reaction(text=text, progress=True)
    if asked:
        # "Done — RS414 is cancelled. Which station for the new one?": the user answers, and
        # the cancellation is not asked for again.
        answer = answer_asked(step, rest if rest.stack else state, "", asked)
        return Reaction(text=answer.text, progress=True, done=True, asks_next=bool(rest.stack))
    if not confirming:
        return Reaction(text="", progress=True, done=True)
    entry = state.stack[0]
    if not is_question(step, entry) and undoes_goal(message, step.view.scenario.goal):
        # "Done — it's an SUV now. Switching from SUV to economy would refund £72: shall I?"
        # A yes would undo what the user just got.
        return Reaction(text=step.phrasing.pick(step.phrasing.templates.decline), done=True,
                        progress=True)  # fmt: skip
    if rest.stack and names_entry(rest.stack[0], " ".join(question_sentences(message))):
        # "Booked. Shall I also send you the reminder?" when the reminder is the next sub-goal.
        text = step.phrasing.styled("confirm")
        return Reaction(text=text, progress=True, done=True, asks_next=True)
    goal = step.view.scenario.goal
    answered = is_question(step, entry) and goal_is_question(goal) and _ONLY_ASKING.search(goal)
    if answered and not rest.stack and not entry.behaviours:
        # "£18.00 in all ... Shall I go ahead?" to "Find out what it would cost; I'm only asking
        # today, I'll decide later": the answer was the goal, the change it offers is declined.
        # (A scripted or injected behaviour, a hesitation, plays at such a question as before.)
        return Reaction(text=step.phrasing.pick(step.phrasing.templates.decline), done=True,
                        progress=True)  # fmt: skip
    return on_confirmation(step, state, message, previous)


_ONLY_ASKING = re.compile(
    r"\b(?:only|just)\s+(?:asking|enquiring|inquiring|checking|want(?:ing)?\s+to\s+know|a\s+quote)"
    r"\b|\bdecide\b[^.;]*\blater\b|\bthink\s+(?:it|about\s+it)\s+over\b",
    re.IGNORECASE,
)
"""A goal that says it only asks, and decides later: a change offered with the answer is no."""
_FROM_TO = re.compile(
    r"\bfrom\s+(?:(?:the|an?|your)\s+)?(?P<old>[\w£€$.:-]+)(?:[^.?!]|\.\d){0,40}?"
    r"\bto\s+(?:(?:the|an?|your)\s+)?(?P<new>[\w£€$.:-]+)",
    re.IGNORECASE,
)


def undoes_goal(message: str, goal: str) -> bool:
    """Whether a further offer moves away from what the goal asked for.

    >>> undoes_goal("Done. Switching from SUV (£68.00 a day) to economy refunds £72: shall I?",
    ...             "Upgrade my car hire to an SUV.")
    True
    >>> undoes_goal("Moved from economy to SUV. Shall I add a driver?", "Upgrade to an SUV.")
    False
    >>> undoes_goal("I'll move permit RP-5102 from AB12 CDF to EK24 ZTR. Shall I?",
    ...             "If not, move my permit from AB12 CDF to the new car.")
    False
    >>> undoes_goal("To move it from the 08:30 Poole to Cherbourg sailing on Tuesday to the 08:30 "
    ...             "on Saturday costs £55.00. Shall I?", "Move it to the 08:30 on Saturday.")
    False
    """
    words = {w.casefold().strip(".:-") for w in re.findall(r"[\w£€$.:-]+", goal)}
    wanted = {w.casefold().strip(".:-") for w in _TO.findall(goal)}
    if wanted & {w.casefold().strip(".:-") for w in _TO.findall(message)}:
        return False  # "from the 08:30 Poole to Cherbourg sailing ... to the 08:30 on Saturday"
    for found in _FROM_TO.finditer(message):
        old, new = (found[k].casefold().strip(".:-") for k in ("old", "new"))
        if old in wanted and new not in words:
            return True
    return False


_TO = re.compile(r"\bto\s+(?:(?:the|an?|my)\s+)?([\w£€$.:-]+)", re.IGNORECASE)
"""What a goal moves something to ("upgrade ... to an SUV"); "move it from AB12 CDF" is not."""


def _with_fallback(
    answer: Reaction, entry: AgendaEntry, asked: list[str], held: dict[str, Scalar]
) -> Reaction:
    """An answer to a question that comes with a refusal, taking the fallback if it is asked for.

    "I can't read your PIN out, but I can set a new one: which PIN?" for "tell me what it is —
    or if you can't, set it to 640281": answering with the fallback's own value takes it.
    """
    if not entry.fallback or entry.fallback_used:
        return answer
    if not any(s in held and str(held[s]) in entry.fallback for s in asked):
        return answer
    taken = {"task": entry.fallback, "fallback_used": True}
    return replace(answer, changes={**answer.changes, **taken})


def _refused_value(value: Scalar, refused: Refusal | None) -> bool:
    # "10:00 is taken. What time suits you?": saying 10:00 again would only loop.
    return refused is not None and str(value).casefold() in refused.sentence.casefold()


def _entities(step: Step, entry: AgendaEntry) -> list[str]:
    """The ids a question is about (an order, a rental), if it names any.

    Without an agenda they are the ids its goal names: a date of birth or a phone number held
    in the knowledge is not what the question is about.
    """
    if entry.intent == "goal":
        return sorted(text_ids(task_words(step, entry)))
    return [
        str(v)
        for k, v in entry.slots.items()
        if k != "api" and is_id(v) and "@" not in str(v) and not text_values(str(v))
    ]


_ASKED_ITEM = re.compile(
    r"\b(?:get|give|send|need|want|issue)\b(?:\s+[\w'-]+){0,4}?\s+"
    r"(code|number|reference|pin|password|voucher|token)s?\b",
    re.IGNORECASE,
)
"""A goal that asks to be given an item ("get me the code I need to switch network")."""
_HANDED = re.compile(
    r"\b(code|number|reference|pin|password|voucher|token)\b[^.?!]{0,60}?\b(?:is|:)\s+"
    r"([A-Za-z0-9][\w-]*\d[\w-]*)",
    re.IGNORECASE,
)
"""A reply that gives such an item: "Your PAC code for 07700 900888 is BRW132072"."""


def _hands_over(task: str, message: str, view: UserView) -> bool:
    """Whether the reply gives the item the goal asks to be given, one the user never said.

    "Get me the code I need to take my number with me" is done by "Your PAC code ... is
    BRW132072", which has no done word; a number the user gave read back is not it.
    """
    asked = {m.group(1).lower() for m in _ASKED_ITEM.finditer(task)}
    if not asked:
        return False
    said = re.sub(r"\W", "", user_said(view)).casefold()
    return any(
        m.group(1).lower() in asked
        and text_ids(m.group(2))
        and re.sub(r"\W", "", m.group(2)).casefold() not in said
        for sentence in statements(message)
        for m in _HANDED.finditer(sentence)
    )

"""How the agenda user checks what the agent proposes, and answers from its goal's own values.

A proposal is compared only with the fact it restates (`_facts.py`): the goal's date with the
proposed date, the date of birth only with a date the agent calls a date of birth. When the agent
asks for something the user holds no slot for but its goal says ("What day would suit you?" for
"Book a check-up next Thursday"), the user answers with the goal's words; when it offers options
("10:00 or 11:30?") the user picks the one its goal names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set

from vistasim.scenario import Scalar
from vistasim.user._agenda_say import spoken_goal, switch_pending
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._agenda_step import Reaction, Step, held_facts, user_said
from vistasim.user._facts import TASK, Fact, build_facts, contradiction
from vistasim.user._fallback import kept_from_request, split_fallback
from vistasim.user._lexicon import is_done, question_sentences, split_sentences
from vistasim.user._ranges import kept_range, misplaced_day
from vistasim.user._reading import value_mismatch
from vistasim.user._stated import stated_values
from vistasim.user._whole import says
from vistasim.values import text_values

__all__ = [
    "checkable", "choose", "fallback_for", "goal_facts", "goal_text", "mismatch", "slot_kinds",
    "states_value", "task_answer",
    "taken_back",
]  # fmt: skip

_KIND_WORDS = {"date": "date", "day": "date", "when": "date", "time": "time", "hour": "time"}


def goal_text(step: Step, entry: AgendaEntry) -> str:
    """The words whose values a proposal must agree with: the fallback once taken, else the goal."""
    if entry.fallback_used and entry.task:
        return entry.task
    return entry.task or spoken_goal(step.view.scenario.goal)


def checkable(step: Step, state: AgendaState, *, request: bool = False) -> dict[str, Scalar]:
    """Facts a proposal is checked against: the sub-goal's slots and the knowledge.

    Hidden facts are left out: correcting one would reveal it unasked. A slot whose value the
    user has yet to change its mind about (or amend) is left out too: the agent's proposal is
    what it said.
    Once the goal's fallback is the request, only ids and emails of the sub-goal still hold
    (`request`: the facts as they were before).
    """
    entry = state.stack[0]
    change = switch_pending(entry)
    held = {
        k: v
        for k, v in entry.slots.items()
        if k != "api" and not (change is not None and change.slot == k)
    }
    for key, value in step.view.scenario.knowledge.items():
        held.setdefault(key, value)
    if entry.fallback_used and not request:
        held = {k: v for k, v in held.items() if not text_values(str(v))}
    return held


def goal_facts(step: Step, state: AgendaState) -> list[Fact]:
    """The user's facts by owner, for this step's sub-goal."""
    entry = state.stack[0]
    facts = build_facts(checkable(step, state), goal_text(step, entry), step.today, step.lexicon)
    if not (entry.fallback_used and entry.task):
        return facts
    request = split_fallback(spoken_goal(step.view.scenario.goal))[0]
    held = checkable(step, state, request=True)
    return kept_from_request(facts, held, request, entry.task, step.today, step.lexicon)


def _offered(step: Step, state: AgendaState, slot: str, wrong: str) -> bool:
    """Whether the user has itself offered `wrong` in another fact it said in this chat."""
    values = text_values(wrong)
    said = user_said(step.view).casefold()
    return bool(values) and any(
        other != slot and str(value).casefold() in said and values <= text_values(str(value))
        for other, value in held_facts(step, state).items()
    )


def mismatch(
    step: Step, state: AgendaState, message: str, *, ids_only: bool = False
) -> Reaction | None:
    """Object to a proposal or report that disagrees with the fact it restates.

    `ids_only`: only a wrong id or email counts (an answer's values are news, not proposals).
    """
    ph = step.phrasing
    found = contradiction(message, goal_facts(step, state), step.lexicon, step.today)
    if found is not None and _offered(step, state, found.slot, found.wrong):
        found = None  # "10am the same day, if 2pm is taken": the user's own alternative
    if found is not None and (found.kind.startswith("id:") or found.kind == "email"):
        label = ph.templates.value_labels.get(found.slot, ph.label(found.slot))
        text = ph.pick(ph.templates.correct, label=label, value=found.right, wrong=found.wrong)
        if found.right.isdigit() and label.endswith("s"):  # a count: "2 pets", not "pets 2"
            counted = f"{found.right} {label}"
            text = ph.pick(ph.templates.object_value, value=counted, wrong=found.wrong)
        return Reaction(text=text, progress=True, rejected=found.wrong)
    if ids_only:
        return None
    # The value the user called off, proposed again, is the surest wrong: other dates beside it
    # ("order OR6119 (Tuesday 8 December)") may only describe the record.
    back = taken_back(step, state.stack[0], message)
    if found is not None and back is None:
        text = ph.pick(ph.templates.object_value, value=found.right, wrong=found.wrong)
        return Reaction(text=text, progress=True, rejected=found.wrong)
    if back is None:
        back = misplaced_day(message, goal_text(step, state.stack[0]), step.today)
    if back is None:
        back = another_of_theirs(step, state, message)
    if back is not None:
        wrong, right = back
        text = ph.pick(ph.templates.object_value, value=right, wrong=wrong)
        return Reaction(text=text, progress=True, rejected=wrong)
    # Lists of items ("the toaster" for "the toaster and the kettle") and addresses.
    held = {k: v for k, v in checkable(step, state).items() if not _typed_or_id(v)}
    items = [s for s in held if "item" in s]
    other = value_mismatch(message, held, items)
    if other is None:
        return None
    _, wrong, right = other
    text = ph.pick(ph.templates.object_value, value=right, wrong=wrong)
    return Reaction(text=text, progress=True, rejected=wrong)


_OWN_NAMES = frozenset({"name", "first_name", "last_name", "full_name", "user_name", "username",
                        "customer_name", "account_name", "holder_name"})  # fmt: skip


def another_of_theirs(step: Step, state: AgendaState, message: str) -> tuple[str, str] | None:
    """Another of the user's named things where the goal names one.

    "I can book Bella in" when the goal books the new kitten Mochi (and Bella only proved who
    the owner is). Only names the user holds count (`pet_name`, `child_name`; never its own
    name), and only in what the message proposes, not in what it reports done ("Done — Mochi
    is registered"). Returns (the other name, the goal's).
    """
    held = checkable(step, state)
    names = {k: str(v) for k, v in held.items() if k.endswith("name") and k not in _OWN_NAMES}
    goal = f"{goal_text(step, state.stack[0])} {spoken_goal(step.view.scenario.goal)}"
    wanted = [v for v in names.values() if says(goal, v)]
    proposed = " ".join(s for s in split_sentences(message) if not is_done(s))
    if not wanted or any(says(proposed, v) for v in wanted):
        return None
    others = [v for v in names.values() if v not in wanted and says(proposed, v)]
    return (others[0], wanted[0]) if others else None


def taken_back(step: Step, entry: AgendaEntry, message: str) -> tuple[str, str] | None:
    """A value the user said and took back, restated without the one it wanted instead.

    After "I changed my mind — £50, not £62.50" (`change_mind`), "Yes, but make it B"
    (`amend`) or "W1030, sorry, I mean W1003" (`correct`), a proposal of £62.50 is the value
    called off, whatever words surround it: money and times are not checked by their owner
    otherwise (a price or a balance beside the request's amount is news, not a proposal).
    Returns (the value called off, the value wanted).
    """
    for behaviour in entry.behaviours:
        said = behaviour.wrong if behaviour.op == "correct" else behaviour.first
        if behaviour.op not in entry.played or behaviour.slot is None or said is None:
            continue
        wanted = entry.slots.get(behaviour.slot)
        if wanted is None:
            continue
        if states_value(message, str(said), step) and not states_value(message, str(wanted), step):
            return str(said), str(wanted)
    return None


def states_value(message: str, value: str, step: Step) -> bool:
    """Whether a message states a value: as the same typed value, else in the same words."""
    typed = stated_values(value, step.today)
    if typed:
        said = stated_values(message, step.today)
        return all(any(s.kind == t.kind and s.values & t.values for s in said) for t in typed)
    return says(message, value)


def task_answer(step: Step, state: AgendaState, slot: str) -> str | None:
    """The goal's own words for an asked slot it holds no value for ("next Thursday")."""
    kinds = slot_kinds(slot)
    task = next((f for f in goal_facts(step, state) if f.slot == TASK), None)
    if task is None or not kinds:
        return None
    if "date" in kinds:
        kinds.add("time")  # "When would you like to come in?": the day and the time
    said = [task.said[k] for k in ("date", "time") if k in kinds and k in task.said]
    return " at ".join(said) if said else None


def fallback_for(step: Step, entry: AgendaEntry, kinds: Set[str]) -> str | None:
    """The goal's fallback, when it names a day or time of the kind asked for and is not taken.

    "Which day of the month would you like it taken?" for "on the last day of the month? If
    you can't do that, the 28th.": the user has no day of the month but the 28th to give.
    """
    fallback = entry.fallback if not entry.fallback_used else None
    if not fallback or len(fallback.split()) > _BARE_VALUE_WORDS:
        return None  # "cancel my hold on The Thursday Murder Club": a request, no day to give
    typed = {v.kind for v in stated_values(fallback, step.today)}
    if _DAY_OF_MONTH.search(fallback):
        typed.add("date")  # "the 28th" is a day of every month, no date of its own
    return fallback if typed & kinds else None


def slot_kinds(slot: str) -> set[str]:
    """The kinds of value a slot's name asks for (`payment_day`: a date; a birth date none)."""
    words = slot.lower().split("_")
    if {"birth", "dob", "born", "expiry"} & set(words):
        return set()  # who the user is, not a day the request is for
    return {kind for word, kind in _KIND_WORDS.items() if word in words}


_BARE_VALUE_WORDS = 4
"""The most words a fallback that is a value ("the 28th", "Friday instead") has."""


_DAY_OF_MONTH = re.compile(r"\b(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b", re.IGNORECASE)


def choose(step: Step, state: AgendaState, message: str) -> Reaction | None:
    """Pick among offered dates or times ("10:00 or 11:30?"): the goal's, else the first."""
    ph = step.phrasing
    question = " ".join(question_sentences(message))
    if not question:
        return None
    said = [u.text for u in step.view.transcript if u.role == "agent"]
    both = kept_range(question, said, goal_text(step, state.stack[0]), step.today)
    if both is not None:  # "Which dates?" when the goal moves only the last day
        return Reaction(text=ph.pick(ph.templates.choose, value=both), progress=True)
    part = _part_of_day(question, goal_text(step, state.stack[0]), held_facts(step, state))
    if part is not None:  # "Morning (8am to 12pm) or afternoon (12pm to 5pm)?"
        return Reaction(text=ph.pick(ph.templates.choose, value=part), progress=True)
    # "I have 10:00 or 11:30. Which works for you?": the options may come before the question.
    where = message if re.search(r"\b(?:which|prefer|either|or)\b", question, re.I) else question
    offered = [v for v in stated_values(where, step.today) if v.kind in ("date", "time")]
    task = next((f for f in goal_facts(step, state) if f.slot == TASK), None)
    for kind in ("time", "date"):
        options = [v for v in offered if v.kind == kind]
        if len({v.values for v in options}) < 2:
            continue
        mine = task.values.get(kind) if task is not None else None
        if mine is None:
            pick = options[0].surface.strip(" .,;:!?()")
            return Reaction(text=ph.pick(ph.templates.choose, value=pick), progress=True)
        fits = [v for v in options if v.values & mine]
        if fits:
            pick = fits[0].surface.strip(" .,;:!?()")
            return Reaction(text=ph.pick(ph.templates.choose, value=pick), progress=True)
        assert task is not None
        text = ph.pick(ph.templates.none_fit, value=task.said[kind])
        return Reaction(text=text, progress=True, rejected=options[0].surface)
    named = named_option(question, goal_text(step, state.stack[0]))
    if named is not None:
        return Reaction(text=ph.pick(ph.templates.choose, value=named), progress=True)
    return None


_PARTS_OF_DAY = ("morning", "afternoon", "evening")


def _part_of_day(question: str, goal: str, held: Mapping[str, Scalar]) -> str | None:
    """The part of the day a question offers that the goal or a held fact names, else the first.

    The hours beside "Morning (8am to 12pm) or afternoon (12pm to 5pm)?" are no times of the
    goal's: "in the afternoon" picks the afternoon, not the first hour offered; a goal that
    names none takes the first part offered, by its name ("08:00–12:00" alone may be read by
    its last hour).
    """
    found = {p: re.search(rf"\b{p}\b", question, re.IGNORECASE) for p in _PARTS_OF_DAY}
    offered = sorted((m.start(), p) for p, m in found.items() if m)
    if len(offered) < 2:
        return None
    texts = [goal, *(str(v) for v in held.values())]
    mine = {p for _, p in offered for t in texts if re.search(rf"\b{p}\b", t, re.IGNORECASE)}
    if not mine:
        return f"the {offered[0][1]}"
    return mine.pop() if len(mine) == 1 else None


def named_option(question: str, goal: str) -> str | None:
    """The one option of a question ("from: Central, Northgate or Harbour Road?") the goal names.

    >>> named_option("Which branch: Central, Northgate or Harbour Road?", "hold it at Northgate")
    'Northgate'
    >>> named_option("Central or Northgate?", "hold it somewhere") is None
    True
    """
    words_of_goal = set(re.findall(r"[a-z]+", goal.lower()))
    named = []
    for option in _options(question):
        words = re.findall(r"[A-Za-z]+", option)
        if 0 < len(words) <= 4 and all(w[0].isupper() for w in words):
            if {w.lower() for w in words} <= words_of_goal:
                named.append(option)
    return named[0] if len(named) == 1 else None


def held_option(
    message: str, held: Mapping[str, Scalar], asked: Sequence[str] = ()
) -> str | None:
    """The one option of the message's choice question that is a value the user holds.

    A value of a slot the message asks for by name is left to the answer that names it ("The
    reason is personal" for "the reason: personal, medical or an exam conflict?").

    >>> held_option("Which membership: Individual (£64.00 a year), Joint (£98.00, two adults "
    ...             "at one address) or Family (£112.00)?", {"kind": "Individual"}, ["address"])
    'Individual'
    >>> held_option("Individual or Joint?", {"address": "6 Vicarage Gardens"}) is None
    True
    """
    values = {str(v).casefold() for slot, v in held.items() if slot not in asked}
    chosen = {
        option
        for question in question_sentences(message)
        for option in _options(question)
        if option.casefold() in values
    }
    return chosen.pop() if len(chosen) == 1 else None


def _options(question: str) -> list[str]:
    """The options of a choice question ("Which branch: Central, Northgate or Harbour Road?").

    What an option says of itself in brackets ("Joint (£98.00, two adults at one address)") is
    no option: commas inside it do not split.
    """
    tail = question.rsplit(":", 1)[-1] if ":" in question else question
    tail = re.sub(r"\s*\([^)]*\)", "", tail)
    if not re.search(r"\bor\b", tail):
        return []
    return [o.strip(" ?.!") for o in re.split(r",\s*|\s+or\s+", tail)]


def _typed_or_id(value: Scalar) -> bool:
    text = str(value)
    if text_values(text):
        return True
    return " " not in text and ("@" in text or any(c.isdigit() for c in text))

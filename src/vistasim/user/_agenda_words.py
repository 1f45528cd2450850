"""What the agenda user says when it asks: its opening, its requests, and its rephrasings.

The driving half of the policy (`_agenda.py`) decides when to ask; this module words it. A
request may carry the next sub-goal too (`combine`: "I'd like to book a check-up. Also, could
you send me a reminder?"); the next sub-goal is then marked as asked, so the user never asks for
it again once the agent has done it.
"""

from __future__ import annotations

import re

from vistasim.dates import CLOCK_KEYS
from vistasim.scenario import Scalar
from vistasim.user._agenda_say import mark, say_task, say_value, withholds
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._agenda_step import Step, is_id, task_words, user_said
from vistasim.user._menu import best_option, menu_options, option_request
from vistasim.user._phrasing import join_sentences, lower_first, sentence
from vistasim.user._types import Say, UserView
from vistasim.values import text_values

__all__ = ["agent_turns", "combined", "open_request", "rephrase", "says_again"]


def open_request(step: Step, state: AgendaState) -> tuple[Say, AgendaState]:
    """The first message: a greeting, the request, and facts as the persona volunteers them."""
    ph = step.phrasing
    entry = state.stack[0]
    task, played = say_task(ph, entry, task_words(step, entry))
    request = ph.request(task)
    parts = [ph.greeting(), request]
    count = {"low": 0, "medium": ph.rng.choice([0, 1]), "high": ph.rng.choice([1, 2])}
    offered = [
        (slot, value)
        for slot, value in volunteerable(step, entry)
        if str(value).casefold() not in request.casefold() and not withholds(entry, slot)
    ]
    if entry.pending("out_of_order") is not None:
        offered, played = offered[::-1], [*played, "out_of_order"]  # every fact, last one first
    else:
        # A value to be corrected is said up front, so the correction has something to take back.
        first = [p for p in offered if _plays_on(entry, p[0])]
        offered = first or offered[: count[ph.verbosity]]
    if offered:
        facts = []
        for slot, value in offered:
            said, ops = say_value(ph, entry, slot, value)
            facts.append(ph.fact(slot, said))
            played += ops
        parts.append(ph.pick(ph.templates.volunteer, facts=_joined(facts)))
    state = mark(state, played).model_copy(update={"greeted": True})
    text, state = combined(step, state, join_sentences(parts))
    return Say(text=text), state


def combined(step: Step, state: AgendaState, text: str) -> tuple[str, AgendaState]:
    """Add the next sub-goal to a request when the current one `combine`s (marks it asked)."""
    if len(state.stack) < 2 or state.stack[0].pending("combine") is None or state.stack[1].asked:
        return text, state
    ph = step.phrasing
    later = ph.request(task_words(step, state.stack[1]))
    extra = ph.pick(ph.templates.second_request, request=lower_first(later))
    state = state.played("combine")
    nxt = state.stack[1].model_copy(update={"asked": True})
    state = state.model_copy(update={"stack": [state.stack[0], nxt, *state.stack[2:]]})
    return f"{text} {extra}", state


def volunteerable(step: Step, entry: AgendaEntry) -> list[tuple[str, Scalar]]:
    """Facts the user may say unasked: the sub-goal's and the knowledge (never the clock)."""
    pairs = {k: v for k, v in entry.slots.items() if k != "api" and k not in CLOCK_KEYS}
    for key, value in step.view.scenario.knowledge.items():
        if key not in CLOCK_KEYS:
            pairs.setdefault(key, value)
    return list(pairs.items())


def rephrase(step: Step, state: AgendaState) -> str:
    """Ask for the current sub-goal again in other words, with its ids."""
    ph = step.phrasing
    entry = state.stack[0]
    request = ph.request(task_words(step, entry))
    ids = [
        (slot, value)
        for slot, value in volunteerable(step, entry)
        if str(value).casefold() not in request.casefold()
        and is_id(value)
        and not text_values(str(value))  # a date of birth is not what the request is about
        and not withholds(entry, slot)
    ]
    if ids:
        request = f"{request} {sentence(ph.facts(ids))}"
    option = _menu_item(step, task_words(step, entry))
    if option is not None:
        text = f"{option_request(option)} {request}"
    else:
        text = ph.pick(ph.templates.rephrase, request=request)
    impatient = entry.has("impatient") is not None
    if state.patience <= 1 or impatient:
        text = f"{ph.pick(ph.templates.impatient)} {text}"
    return text


def _menu_item(step: Step, task: str) -> str | None:
    """The item of the agent's list of services that is the request, if not said yet."""
    latest = next((u.text for u in reversed(step.view.transcript) if u.role == "agent"), "")
    option = best_option(menu_options(latest), task)
    said = user_said(step.view).casefold()
    return None if option is None or option.casefold() in said else option


def says_again(view: UserView, text: str) -> bool:
    """Whether `text` repeats the user's last message ("As I said, ..." is true only then).

    After a hedge the agent asks again and the user now agrees: that is new, not a repeat.
    """
    last = next((u.text for u in reversed(view.transcript) if u.role == "user"), "")
    mine = set(_content_words(last))
    words = _content_words(text)
    return bool(words) and sum(1 for w in words if w in mine) * 2 >= len(words)


def agent_turns(view: UserView) -> tuple[str, str | None]:
    """Return the agent's text since the user's last message, and its text before that."""
    blocks: list[list[str]] = [[]]
    for utterance in view.transcript:
        if utterance.role == "user":
            if blocks[-1]:
                blocks.append([])
        else:
            blocks[-1].append(utterance.text)
    last_is_agent = bool(view.transcript) and view.transcript[-1].role == "agent"
    if not last_is_agent:
        return "", " ".join(blocks[-1]) if blocks[-1] else None
    previous = " ".join(blocks[-2]) if len(blocks) > 1 else None
    return " ".join(blocks[-1]), previous


def _content_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9@.]+", text.casefold()) if len(w) > 2]


def _plays_on(entry: AgendaEntry, slot: str) -> bool:
    correct = entry.pending("correct")
    return correct is not None and correct.slot == slot


def _joined(clauses: list[str]) -> str:
    if len(clauses) <= 1:
        return "".join(clauses)
    return ", ".join(clauses[:-1]) + " and " + clauses[-1]


def opening(step: Step, state: AgendaState, parts: list[str]) -> str:
    """Prefix a greeting to the first message of the episode."""
    return join_sentences([step.phrasing.greeting(), *parts] if not state.greeted else parts)

"""The offline simulated user: an agenda-based policy that needs no model.

A classic agenda-based simulator keeps a stack of sub-goals. Each step it reads the agent's last
message with a lexicon (what is asked, confirmed or reported done), picks one dialogue act, and
realizes it with persona-styled templates. Its whole memory is a plain-JSON state, and its only
randomness is `random.Random(f"{seed}:{step}")`, so an episode can be snapshotted, resumed and
branched, and the same (view, state) always gives the same action.

Channels: when an API fits the current sub-goal it is called first (`api`, `hybrid`); else, when a
page is open (`ui`, `hybrid`) and the domain gave a web skill for the intent, the user walks the
skill one web action per step and falls back to chat when the route breaks; else it chats.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping

from pydantic import JsonValue, ValidationError

from vistasim.errors import SimulatorError
from vistasim.llm import ToolSpec
from vistasim.scenario import AgendaItem, Scalar, Scenario
from vistasim.user._agenda_react import Step, held_facts, is_id, react, task_words
from vistasim.user._agenda_say import mark, say_task, say_value, spoken_goal, withholds
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._lexicon import (
    DEFAULT_LEXICON,
    merge_lexicons,
    normalize,
)
from vistasim.user._phrasing import (
    Phrasing,
    join_sentences,
    load_templates,
    lower_first,
    sentence,
)
from vistasim.user._reading import (
    slot_phrases,
    tool_lexicon,
)
from vistasim.user._types import Action, CallApi, Finish, Say, UserView
from vistasim.user._web_route import advance_skill
from vistasim.user._web_skills import WebSkill, web_failed_phrases


class AgendaPolicy:
    """Play a scenario offline from its agenda: answer, confirm, correct, restate, or give up.

    >>> import anyio
    >>> from vistasim.scenario import Persona
    >>> s = Scenario(id="s", persona=Persona(name="Ann"), goal="Cancel order W1.")
    >>> policy = AgendaPolicy()
    >>> state = policy.initial_state(s, seed=1)
    >>> view = UserView(scenario=s, transcript=(), turn=0, max_turns=5)
    >>> action, state = anyio.run(policy.next_action, view, state)
    >>> action.kind, "cancel order W1" in action.text
    ('say', True)
    """

    name = "agenda"

    def __init__(self, *, web_skills: Mapping[str, WebSkill] | None = None) -> None:
        """Create the policy; `web_skills` (intent -> skill: `load_web_skills`) enable the UI."""
        self.web_skills: Mapping[str, WebSkill] = dict(web_skills or {})

    def initial_state(self, scenario: Scenario, *, seed: int) -> JsonValue:
        """Build the stack from `scenario.agenda`, or one item from the goal and knowledge."""
        items = scenario.agenda or [AgendaItem(intent="goal", slots=dict(scenario.knowledge))]
        stack = [
            AgendaEntry(intent=item.intent, slots=dict(item.slots), behaviours=item.behaviours)
            for item in items
        ]
        # The goal text covers every sub-goal; with several, each is asked for on its own.
        goal = spoken_goal(scenario.goal) if len(stack) == 1 else ""
        stack[0] = stack[0].model_copy(update={"task": goal or None})
        patience = scenario.persona.style.patience
        if any(b.op == "impatient" for item in items for b in item.behaviours):
            patience = max(1, patience - 1)
        state = AgendaState(seed=seed, stack=stack, patience=patience, full_patience=patience)
        return state.model_dump(mode="json")

    def unplayable(self, scenario: Scenario) -> str | None:
        """Why this policy cannot play a scenario (tagged `needs:llm-user`), else `None`."""
        if "needs:llm-user" in scenario.tags:
            return "the scenario is tagged needs:llm-user; the agenda user cannot play it"
        return None

    async def next_action(self, view: UserView, state: JsonValue) -> tuple[Action, JsonValue]:
        """Return one action for this step and the new state."""
        current = _parse_state(state)
        rng = random.Random(f"{current.seed}:{current.step}")
        step = Step(
            view=view,
            state=current,
            phrasing=Phrasing(templates=load_templates(), persona=view.scenario.persona, rng=rng),
            lexicon=_lexicon_for(view, current),
            skills=self.web_skills,
        )
        action, new_state = _decide(step, current)
        return action, new_state.model_copy(update={"step": current.step + 1}).model_dump(
            mode="json"
        )


def _parse_state(state: JsonValue) -> AgendaState:
    try:
        return AgendaState.model_validate(state)
    except ValidationError as exc:
        raise SimulatorError(
            f"agenda policy got a state it did not make ({exc.error_count()} errors: "
            f"{exc.errors()[0]['msg']}); pass the state returned by initial_state/next_action"
        ) from None


def _lexicon_for(view: UserView, state: AgendaState) -> dict[str, list[str]]:
    # A product needs no hand-written lexicon: its tools' argument names and the scenario's slot
    # names say what the agent will ask for; a domain's own lexicon only adds phrases.
    names = {*view.scenario.knowledge, *view.scenario.hidden}
    for entry in state.stack:
        names.update(entry.slots)
    own = {name: slot_phrases(name) for name in sorted(names) if name != "api"}
    return merge_lexicons(DEFAULT_LEXICON, view.lexicon, tool_lexicon(view.agent_tools), own)


def _decide(step: Step, state: AgendaState) -> tuple[Action, AgendaState]:
    if state.pending_api is not None:
        return _after_api(step, state)
    return _start_item(step, state) or _respond(step, state)


def _start_item(step: Step, state: AgendaState) -> tuple[Action, AgendaState] | None:
    """Finish, or take the current sub-goal's own channel (API, web skill, opening message)."""
    if not state.stack:
        return Finish(reason="goal_met", text=step.phrasing.styled("thanks")), state
    api_call = _api_call(step.view, state)
    if api_call is not None:
        return api_call
    web = _web_action(step, state)
    if web is not None:
        return web
    if not state.greeted:
        return _open(step, state)
    return None


def _api_call(view: UserView, state: AgendaState) -> tuple[Action, AgendaState] | None:
    entry = state.stack[0]
    tool = _matching_tool(view.api_tools, entry)
    if tool is None or entry.api_tried:
        return None
    properties = tool.parameters.get("properties")
    wanted = set(properties) if isinstance(properties, dict) else set()
    args: dict[str, JsonValue] = {k: v for k, v in entry.slots.items() if k in wanted}
    for key, value in view.scenario.knowledge.items():
        if key in wanted:
            args.setdefault(key, value)
    tried = entry.model_copy(update={"api_tried": True})
    new_state = state.model_copy(
        update={"stack": [tried, *state.stack[1:]], "pending_api": tool.name}
    )
    return CallApi(name=tool.name, args=args), new_state


def _matching_tool(tools: tuple[ToolSpec, ...], entry: AgendaEntry) -> ToolSpec | None:
    by_name = {tool.name: tool for tool in tools}
    named = entry.slots.get("api")
    if isinstance(named, str) and named in by_name:
        return by_name[named]
    return by_name.get(entry.intent)


def _after_api(step: Step, state: AgendaState) -> tuple[Action, AgendaState]:
    outcome = step.view.last_api_result
    state = state.model_copy(update={"pending_api": None})
    if outcome is not None and outcome.error is None:
        return _advance(step, state.model_copy(update={"stack": state.stack[1:]}))
    error = outcome.error if outcome is not None else "no response"
    failed = step.phrasing.pick(step.phrasing.templates.api_failed, error=str(error))
    request = step.phrasing.request(task_words(step, state.stack[0]))
    opening = [step.phrasing.greeting()] if not state.greeted else []
    text = join_sentences([*opening, failed, request])
    return Say(text=text), state.model_copy(update={"greeted": True})


def _advance(step: Step, state: AgendaState) -> tuple[Action, AgendaState]:
    """Move to the next sub-goal after one is done: call its API, ask for it, or finish."""
    started = _start_item(step, state)
    if started is not None:
        return started
    request = step.phrasing.request(task_words(step, state.stack[0]))
    text = step.phrasing.pick(step.phrasing.templates.next_item, request=request)
    return Say(text=text), state


def _web_action(step: Step, state: AgendaState) -> tuple[Action, AgendaState] | None:
    """Take the next step of the current entry's web skill; None when the chat should be used."""
    entry = state.stack[0]
    skill = step.skills.get(entry.intent)
    if skill is None or entry.web_off or (entry.web_step == 0 and step.view.page is None):
        return None
    progress = advance_skill(
        skill,
        {**held_facts(step, state), **entry.web_facts},
        step.view.page,
        step_index=entry.web_step,
        last_error=step.view.last_web_error,
    )
    if progress.status == "act" and progress.action is not None:
        learned = {**entry.web_facts, **progress.bound}
        return progress.action, state.with_entry(web_step=progress.next_step, web_facts=learned)
    if progress.status == "done":
        return _advance(step, state.model_copy(update={"stack": state.stack[1:]}))
    if progress.status == "unavailable":
        return None
    state = state.with_entry(web_off=True)
    failed = step.phrasing.pick(list(web_failed_phrases()))
    request = step.phrasing.request(task_words(step, entry))
    opening = [step.phrasing.greeting()] if not state.greeted else []
    text = join_sentences([*opening, failed, request])
    return Say(text=text), state.model_copy(update={"greeted": True})


def _open(step: Step, state: AgendaState) -> tuple[Action, AgendaState]:
    ph = step.phrasing
    entry = state.stack[0]
    task, played = say_task(ph, entry, task_words(step, entry))
    request = ph.request(task)
    parts = [ph.greeting(), request]
    count = {"low": 0, "medium": ph.rng.choice([0, 1]), "high": ph.rng.choice([1, 2])}
    offered = [
        (slot, value)
        for slot, value in _volunteerable(step, entry)
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
    return Say(text=join_sentences(parts)), state


def _plays_on(entry: AgendaEntry, slot: str) -> bool:
    correct = entry.pending("correct")
    return correct is not None and correct.slot == slot


def _joined(clauses: list[str]) -> str:
    if len(clauses) <= 1:
        return "".join(clauses)
    return ", ".join(clauses[:-1]) + " and " + clauses[-1]


def _volunteerable(step: Step, entry: AgendaEntry) -> list[tuple[str, Scalar]]:
    pairs = {k: v for k, v in entry.slots.items() if k != "api"}
    for key, value in step.view.scenario.knowledge.items():
        pairs.setdefault(key, value)
    return list(pairs.items())


def _respond(step: Step, state: AgendaState) -> tuple[Action, AgendaState]:
    latest, previous = _agent_turns(step.view)
    repeated = bool(latest) and previous is not None and normalize(latest) == normalize(previous)
    reaction = react(step, state, latest, previous) if latest else None
    if reaction is not None:
        state = mark(state, list(reaction.played))
        if reaction.rejected is not None:
            state = state.model_copy(update={"rejected": [*state.rejected, reaction.rejected]})
    if reaction is not None and reaction.refused:
        return _after_refusal(step, state.popped())
    # A done report counts even if worded as before: agents reuse one line for every request.
    if reaction is not None and reaction.done:
        if reaction.text:
            return Say(text=reaction.text), state.popped()
        return _advance(step, state.popped())
    if reaction is not None and reaction.progress and not repeated:
        return Say(text=reaction.text), state
    if state.patience <= 0 and len(state.stack) > 1:
        return _move_on(step, state)
    if state.patience <= 0:
        return Finish(reason="user_stop", text=step.phrasing.styled("give_up")), state
    state = state.model_copy(update={"patience": state.patience - 1})
    if reaction is not None and reaction.progress:
        if not _says_again(step.view, reaction.text):
            return Say(text=reaction.text), state
        prefix = step.phrasing.pick(step.phrasing.templates.repeat_prefix)
        return Say(text=f"{prefix} {lower_first(reaction.text)}"), state
    return Say(text=_rephrase(step, state)), state


def _says_again(view: UserView, text: str) -> bool:
    """Whether `text` repeats the user's last message ("As I said, ..." is true only then).

    After a hedge the agent asks again and the user now agrees: that is new, not a repeat.
    """
    last = next((u.text for u in reversed(view.transcript) if u.role == "user"), "")
    mine = set(_content_words(last))
    words = _content_words(text)
    return bool(words) and sum(1 for w in words if w in mine) * 2 >= len(words)


def _content_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9@.]+", text.casefold()) if len(w) > 2]


def _move_on(step: Step, state: AgendaState) -> tuple[Action, AgendaState]:
    """Give up on this sub-goal only, as people do, and ask for the next one."""
    state = state.popped().model_copy(update={"patience": state.full_patience})
    started = _start_item(step, state)
    if started is not None:
        return started
    request = step.phrasing.request(task_words(step, state.stack[0]))
    return Say(text=step.phrasing.pick(step.phrasing.templates.move_on, request=request)), state


def _after_refusal(step: Step, state: AgendaState) -> tuple[Action, AgendaState]:
    """Accept a refusal that gave a reason: go on with the next sub-goal, or leave."""
    if state.stack:
        return _advance(step, state)
    return Finish(reason="refused", text=step.phrasing.styled("accept_refusal")), state


def _agent_turns(view: UserView) -> tuple[str, str | None]:
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


def _rephrase(step: Step, state: AgendaState) -> str:
    ph = step.phrasing
    entry = state.stack[0]
    request = ph.request(task_words(step, entry))
    ids = [
        (slot, value)
        for slot, value in _volunteerable(step, entry)
        if str(value).casefold() not in request.casefold()
        and is_id(value)
        and not withholds(entry, slot)
    ]
    if ids:
        request = f"{request} {sentence(ph.facts(ids))}"
    text = ph.pick(ph.templates.rephrase, request=request)
    impatient = entry.has("impatient") is not None
    if state.patience <= 1 or impatient:
        text = f"{ph.pick(ph.templates.impatient)} {text}"
    return text

"""The offline simulated user: an agenda-based policy that needs no model.

A classic agenda-based simulator keeps a stack of sub-goals. Each step it reads the agent's last
message with a lexicon (what is asked, proposed, answered, refused or reported done), picks one
dialogue act, and realizes it with persona-styled templates. Its whole memory is a plain-JSON
state, and its only randomness is seeded by the episode's seed, so an episode can be
snapshotted, resumed and branched, and the same (view, state) always gives the same action.

Channels: when an API fits the current sub-goal it is called first (`api`, `hybrid`); else, when a
page is open (`ui`, `hybrid`) and the domain gave a web skill for the intent, the user walks the
skill one web action per step and falls back to chat when the route breaks; else it chats.

Relative dates ("next Thursday") are read against the episode's clock: the environment's
`now()` (passed in `UserView.now`), else the `clock` given to the policy, else a `today` fact of
the scenario; without any, relative dates are not compared at all.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from datetime import datetime

from pydantic import JsonValue, ValidationError

from vistasim.dates import today_of
from vistasim.errors import SimulatorError
from vistasim.llm import ToolSpec
from vistasim.scenario import AgendaItem, Behaviour, Scenario
from vistasim.user._agenda_say import spoken_goal
from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._agenda_step import Step, held_facts, task_words
from vistasim.user._agenda_turn import respond
from vistasim.user._agenda_words import combined, open_request, opening
from vistasim.user._fallback import split_fallback
from vistasim.user._lexicon import abbreviations_held, alias_phrases, merge_lexicons
from vistasim.user._lexicon_phrases import DEFAULT_LEXICON
from vistasim.user._phrasing import Phrasing, load_templates
from vistasim.user._reading import slot_phrases, tool_lexicon
from vistasim.user._types import Action, CallApi, Finish, Say, UserView
from vistasim.user._web_route import advance_skill
from vistasim.user._web_skills import WebSkill, web_failed_phrases

__all__ = ["COMBINE_PROBABILITY", "MAX_UNREAD", "AgendaPolicy", "advance"]

COMBINE_PROBABILITY = 0.3
"""Chance, per sub-goal followed by another, that the user asks for both in one message (drawn
once per episode from its seed, so a seed always plays the same way)."""
MAX_UNREAD = 3
"""Agent replies in a row the user cannot read before it stops (it could not follow)."""


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

    def __init__(
        self,
        *,
        web_skills: Mapping[str, WebSkill] | None = None,
        clock: Callable[[], datetime] | None = None,
        combine_probability: float = COMBINE_PROBABILITY,
        max_unread: int = MAX_UNREAD,
    ) -> None:
        """Create the policy.

        Args:
            web_skills: Intent -> web skill (`load_web_skills`); they enable the UI channel.
            clock: The episode's clock when the view carries none (`UserView.now`, from the
                environment's `now()`); without either, a scenario's `today` fact is used.
            combine_probability: Chance that a sub-goal followed by another is asked for
                together with it (`combine`), drawn per episode from the seed; 0 turns it off.
            max_unread: Agent replies in a row the user cannot read before it stops.
        """
        self.web_skills: Mapping[str, WebSkill] = dict(web_skills or {})
        self.clock = clock
        self.combine_probability = combine_probability
        self.max_unread = max_unread

    def initial_state(self, scenario: Scenario, *, seed: int) -> JsonValue:
        """Build the stack from `scenario.agenda`, or one item from the goal and knowledge."""
        items = scenario.agenda or [AgendaItem(intent="goal", slots=dict(scenario.knowledge))]
        stack = [
            AgendaEntry(intent=item.intent, slots=dict(item.slots), behaviours=item.behaviours)
            for item in items
        ]
        request, fallback = split_fallback(spoken_goal(scenario.goal))
        # The goal text covers every sub-goal; with several, each is asked for on its own.
        goal = request if len(stack) == 1 and request.strip(" .") else ""
        stack[0] = stack[0].model_copy(update={"task": goal or None})
        stack[-1] = stack[-1].model_copy(update={"fallback": fallback})
        stack = self._combining(stack, seed)
        patience = scenario.persona.style.patience
        if any(b.op == "impatient" for item in items for b in item.behaviours):
            patience = max(1, patience - 1)
        state = AgendaState(seed=seed, stack=stack, patience=patience, full_patience=patience)
        return state.model_dump(mode="json")

    def _combining(self, stack: list[AgendaEntry], seed: int) -> list[AgendaEntry]:
        # One draw per sub-goal from the episode's seed: replaying a seed combines the same way.
        rng = random.Random(f"{seed}:combine")
        out = []
        for i, entry in enumerate(stack):
            draw = rng.random()
            plays = {b.op for b in entry.behaviours}
            if (
                i + 1 < len(stack)
                and draw < self.combine_probability
                and not (plays & {"combine", "second_request"})
            ):
                entry = entry.model_copy(
                    update={"behaviours": [*entry.behaviours, Behaviour(op="combine")]}
                )
            out.append(entry)
        return out

    def unplayable(self, scenario: Scenario) -> str | None:
        """Why this policy cannot play a scenario (tagged `needs:llm-user`), else `None`."""
        if "needs:llm-user" in scenario.tags:
            return "the scenario is tagged needs:llm-user; the agenda user cannot play it"
        return None

    async def next_action(self, view: UserView, state: JsonValue) -> tuple[Action, JsonValue]:
        """Return one action for this step and the new state."""
        current = _parse_state(state)
        rng = random.Random(f"{current.seed}:{current.step}")
        facts = {**view.scenario.hidden, **view.scenario.knowledge}
        step = Step(
            view=view,
            state=current,
            phrasing=Phrasing(templates=load_templates(), persona=view.scenario.persona, rng=rng),
            lexicon=_lexicon_for(view, current),
            skills=self.web_skills,
            today=today_of(view.now, self.clock, facts),
            max_unread=self.max_unread,
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
    aliases = alias_phrases(sorted(own))
    merged = merge_lexicons(
        DEFAULT_LEXICON, view.lexicon, tool_lexicon(view.agent_tools), own, aliases
    )
    return abbreviations_held(sorted(own), merged)


def _decide(step: Step, state: AgendaState) -> tuple[Action, AgendaState]:
    if state.pending_api is not None:
        return _after_api(step, state)
    return _start_item(step, state) or respond(step, state, advance)


def _start_item(step: Step, state: AgendaState) -> tuple[Action, AgendaState] | None:
    """Finish, or take the current sub-goal's own channel (API, web skill, opening message)."""
    if not state.stack:
        if state.refusals:  # a sub-goal the agent refused, and the goal allowed nothing else
            return Finish(
                reason="user_stop", text=f"the agent refused: {state.refusals[-1]}"
            ), state
        return Finish(reason="goal_met", text=step.phrasing.styled("thanks")), state
    if state.stack[0].to_chat:
        return _to_chat(step, state)
    api_call = _api_call(step.view, state)
    if api_call is not None:
        return api_call
    web = _web_action(step, state)
    if web is not None:
        return web
    if not state.greeted:
        return open_request(step, state)
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
    required = tool.parameters.get("required")
    if isinstance(required, list) and not {str(r) for r in required} <= set(args):
        return None  # it holds no exam id or session: it asks in chat, as a person would
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
        return advance(step, state.popped(), template="self_done")
    error = outcome.error if outcome is not None else "no response"
    failed = step.phrasing.pick(step.phrasing.templates.api_failed, error=_said_error(str(error)))
    request = step.phrasing.request(task_words(step, state.stack[0]))
    text = opening(step, state, [failed, request])
    return Say(text=text), state.model_copy(update={"greeted": True})


def _to_chat(step: Step, state: AgendaState) -> tuple[Action, AgendaState]:
    """Leave the page and ask in chat for the current sub-goal, in so many words.

    The chat may have moved on while the user was on the page: reacting to the agent's last
    message there would answer something long past.
    """
    request = step.phrasing.request(task_words(step, state.stack[0]))
    state = state.with_entry(to_chat=False, asked=True)
    return Say(text=opening(step, state, [request])), state.model_copy(update={"greeted": True})


def _said_error(error: str) -> str:
    """An API error as a person would repeat it: its message, not a validation dump."""
    if re.search(r"invalid arguments|field required|traceback|[{}\[\]]", error, re.I):
        return "it didn't go through"
    return error.strip().rstrip(".")


def advance(
    step: Step, state: AgendaState, *, template: str = "next_item"
) -> tuple[Action, AgendaState]:
    """Move to the next sub-goal after one is over: call its API, ask for it, or finish.

    `template` words the request: `next_item` thanks for the sub-goal just done; after a refusal
    (`after_refusal`) or one the user did itself (`self_done`) there is nothing to thank for.
    """
    started = _start_item(step, state)
    if started is not None:
        return started
    ph = step.phrasing
    request = ph.request(task_words(step, state.stack[0]))
    text = ph.pick(getattr(ph.templates, template), request=request)
    text, state = combined(step, state, text)
    return Say(text=text), state.with_entry(asked=True)


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
        return advance(step, state.popped(), template="self_done")
    if progress.status == "unavailable":
        return None
    state = state.with_entry(web_off=True)
    failed = step.phrasing.pick(list(web_failed_phrases()))
    request = step.phrasing.request(task_words(step, entry))
    text = opening(step, state, [failed, request])
    return Say(text=text), state.model_copy(update={"greeted": True})

"""The LLM-driven simulated user: one model call per turn, repaired when the reply breaks a rule.

The model plays the customer. Its prompt is laid out for provider prompt caching: first the system
message, which is the same all episode (persona, goal, knowledge, hidden facts under a reveal-only
rule, rules, user-side APIs, the short JSON action format); then the chat with roles flipped (the
agent speaks as "user", it speaks as "assistant"), which only grows; last, one short message with
what is new this turn (turn count, the plan it made last turn, results of its API calls, errors,
the page when one is open). Each request thus repeats the previous one's prefix, and per-turn text
is sent once. The plan is kept in the state and shown again next turn, so the model keeps track
without hidden memory. Invalid replies are sent back with the error, at most `max_repairs` times.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from vistasim.browser import WEB_STEPS, PageView, WebStep
from vistasim.errors import ConfigError, InvalidActionError, SimulatorError
from vistasim.llm._types import ChatMessage, ChatModel, ChatRequest, ToolSpec
from vistasim.scenario import Scalar, Scenario
from vistasim.user._lexicon import merge_lexicons
from vistasim.user._lexicon_phrases import DEFAULT_LEXICON
from vistasim.user._prompts import render_prompt
from vistasim.user._types import Action, CallApi, Finish, Say, UserView
from vistasim.user._validate import validate_reply

_MAX_LOGGED_RESULT = 500
_MAX_API_LOG = 10


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ApiRecord(_Strict):
    """One user-side API call and what came back."""

    name: str
    args: dict[str, JsonValue] = Field(default_factory=dict)
    result: JsonValue = None
    error: str | None = None


class LLMUserState(_Strict):
    """What the LLM user carries between turns (stored in snapshots)."""

    seed: int
    plan: str = ""
    """The model's latest plan, shown to it again next turn."""
    api_log: list[ApiRecord] = Field(default_factory=list)
    """The user's recent API calls with results (the chat transcript does not hold them)."""
    pending_api: ApiRecord | None = None
    """The call made last step; its result arrives in the next view."""
    last_web: dict[str, JsonValue] | None = None
    """The previous action, when it was a web action (a repeat of it is rejected)."""


class LLMUserPolicy:
    """Simulate the user with a chat model: persona prompt in, one validated JSON action out."""

    name = "llm"

    def __init__(
        self,
        model: ChatModel,
        *,
        temperature: float | None = None,
        seed: int | None = None,
        max_repairs: int = 2,
    ) -> None:
        if max_repairs < 0:
            raise ConfigError(
                f"max_repairs must be 0 or more, got {max_repairs!r}", key="user.max_repairs"
            )
        self.model = model
        self.temperature = temperature
        self.seed = seed
        """Request seed; when None, the episode seed from `initial_state` is sent."""
        self.max_repairs = max_repairs
        # The system prompt is the same on every turn of a scenario: rendered once per scenario
        # (and user-side API list), kept with the objects it was rendered from.
        self._systems: dict[int, tuple[Scenario, tuple[ToolSpec, ...], str]] = {}

    def initial_state(self, scenario: Scenario, *, seed: int) -> JsonValue:
        """Start with no plan and no API calls."""
        return LLMUserState(seed=seed).model_dump(mode="json")

    async def next_action(self, view: UserView, state: JsonValue) -> tuple[Action, JsonValue]:
        """Ask the model for one action; re-prompt with the error while it is invalid.

        Raises:
            SimulatorError: no valid action after `max_repairs` re-prompts.
        """
        current = _with_api_result(_parse_state(state), view)
        lexicon = merge_lexicons(DEFAULT_LEXICON, view.lexicon) if view.lexicon else _DEFAULT
        messages = build_messages(view, current, system=self._system_prompt(view))
        previous = _last_web(current)
        last_error: InvalidActionError | None = None
        for _ in range(self.max_repairs + 1):
            response = await self.model.complete(self._request(messages, current))
            try:
                reply = validate_reply(response.text, view, lexicon=lexicon, previous=previous)
            except InvalidActionError as exc:
                last_error = exc
                repair = render_prompt("repair", error=str(exc))
                messages = [
                    *messages,
                    ChatMessage(role="assistant", content=response.text),
                    ChatMessage(role="user", content=repair),
                ]
                continue
            return reply.action, _next_state(current, reply.plan, reply.action)
        raise SimulatorError(
            f"the simulated user gave no valid action in {self.max_repairs + 1} attempts; "
            f"last error: {last_error}"
        ) from last_error

    def _system_prompt(self, view: UserView) -> str:
        kept = self._systems.get(id(view.scenario))
        if kept is None or kept[0] is not view.scenario or kept[1] != view.api_tools:
            text = system_prompt(view.scenario, api_tools=view.api_tools)
            kept = self._systems[id(view.scenario)] = (view.scenario, view.api_tools, text)
        return kept[2]

    def _request(self, messages: list[ChatMessage], state: LLMUserState) -> ChatRequest:
        return ChatRequest(
            messages=messages,
            temperature=self.temperature,
            seed=self.seed if self.seed is not None else state.seed,
            response_format={"type": "json_object"},
        )


_DEFAULT = merge_lexicons(DEFAULT_LEXICON)
"""The lexicon of an environment that has none of its own (merged once: it is read-only)."""


def build_messages(
    view: UserView, state: LLMUserState, *, system: str | None = None
) -> list[ChatMessage]:
    """Return the prompt: system, the chat with roles flipped, then the turn instruction.

    Everything that stays the same for the episode (persona, goal, rules, action format, the
    user-side APIs) is in the system message, and the chat only grows, so each request shares
    its prefix with the previous one and provider prompt caching applies. The last message holds
    only what is new this turn. `system`: that message, when already rendered for the episode.
    """
    if system is None:
        system = system_prompt(view.scenario, api_tools=view.api_tools)
    messages = [_message("system", system)]
    for utterance in view.transcript:
        role: Literal["user", "assistant"] = "user" if utterance.role == "agent" else "assistant"
        messages.append(_message(role, utterance.text))
    messages.append(ChatMessage(role="user", content=_turn_prompt(view, state)))
    return messages


@lru_cache(maxsize=4096)
def _message(role: Literal["system", "user", "assistant"], text: str) -> ChatMessage:
    """The message of a role and text, built once: each turn resends the whole chat so far.

    `ChatMessage` is frozen, so one object serves every request that holds it; building each
    anew (pydantic validating it) was ~5 µs a message, ~7 messages a turn by the sixth turn.
    """
    return ChatMessage(role=role, content=text)


def system_prompt(scenario: Scenario, *, api_tools: tuple[ToolSpec, ...] = ()) -> str:
    """Render the persona, goal, knowledge, reveal-only facts, rules, APIs and action format."""
    persona = scenario.persona
    style = persona.style
    return render_prompt(
        "system",
        name=persona.name,
        profile=persona.profile.strip() or "(not given)",
        style=(
            f"verbosity {style.verbosity}, formality {style.formality}; you give up after about "
            f"{style.patience} unhelpful replies"
        ),
        goal=scenario.goal.strip(),
        knowledge=_facts(scenario.knowledge) or "(nothing specific)",
        hidden=_facts(scenario.hidden) or "(none)",
        apis=_describe_apis(api_tools),
        actions="\n".join(([_CALL_API] if api_tools else []) + [_FINISH]),
    )


_CALL_API = '{"plan": "...", "action": "call_api", "api": {"name": "<api>", "args": {...}}}'
_FINISH = '{"plan": "...", "action": "finish", "finish_reason": "goal_met" | "user_stop"}'


def _facts(facts: dict[str, Scalar]) -> str:
    return "\n".join(f"- {key}: {value}" for key, value in facts.items())


def _turn_prompt(view: UserView, state: LLMUserState) -> str:
    notes = [_describe_api_log(state.api_log)]
    previous = _last_web(state)
    if previous is not None:
        notes.append(f"Your previous action was the web action {_as_json(previous)}.")
    if view.last_web_error is not None:
        notes.append(f"Your previous web action failed: {view.last_web_error}")
    if view.error is not None:
        notes.append(f"Your previous action was rejected: {view.error}")
    return render_prompt(
        "turn",
        number=str(view.turn + 1),
        max_turns=str(view.max_turns),
        situation=_situation(view),
        notes="".join(f"{note}\n" for note in notes if note),
        web=_describe_page(view.page),
        plan=state.plan or "(none yet: make one)",
    )


def _situation(view: UserView) -> str:
    apis = f" Your APIs: {', '.join(t.name for t in view.api_tools)}." if view.api_tools else ""
    if not view.transcript:
        return f"Nothing has been said yet: write your opening message.{apis}"
    if view.transcript[-1].role == "user":
        return f"The agent has not answered your last message.{apis}"
    return f"Answer the agent's last message above.{apis}"


def _describe_apis(tools: tuple[ToolSpec, ...]) -> str:
    if not tools:
        return ""
    lines = ['\n# Your user-side APIs (call one with "call_api", or talk to the agent)']
    for tool in tools:
        schema = json.dumps(tool.parameters, sort_keys=True, separators=(",", ":"))
        lines.append(f"- {tool.name}: {tool.description or '(no description)'} Arguments: {schema}")
    return "\n".join(lines) + "\n"


def _describe_page(page: PageView | None) -> str:
    if page is None:
        return ""
    if page.chat:
        chat = (
            'Your "say" messages are typed into the chat widget on this page; the agent\'s '
            'replies are shown under "Chat widget" and in the conversation above.'
        )
    else:
        chat = 'Your "say" messages go to the agent\'s chat, as before.'
    return "\n" + render_prompt("web", page=page.render(), chat=chat) + "\n"


def _describe_api_log(log: list[ApiRecord]) -> str:
    if not log:
        return ""
    lines = ["Your API calls so far:"]
    for record in log:
        args = json.dumps(record.args, sort_keys=True)
        if record.error is not None:
            outcome = f"error: {record.error}"
        else:
            outcome = json.dumps(record.result, sort_keys=True)[:_MAX_LOGGED_RESULT]
        lines.append(f"- {record.name}({args}) -> {outcome}")
    return "\n".join(lines)


def _parse_state(state: JsonValue) -> LLMUserState:
    try:
        return LLMUserState.model_validate(state)
    except ValidationError as exc:
        raise SimulatorError(
            f"LLM user got a state it did not make ({exc.errors()[0]['msg']}); pass the state "
            "returned by initial_state/next_action"
        ) from None


def _with_api_result(state: LLMUserState, view: UserView) -> LLMUserState:
    """Move last step's API call, now with its result from the view, into the log."""
    if state.pending_api is None:
        return state
    outcome = view.last_api_result
    record = state.pending_api.model_copy(
        update={
            "result": outcome.result if outcome is not None else None,
            "error": outcome.error if outcome is not None else "no result was returned",
        }
    )
    log = [*state.api_log, record][-_MAX_API_LOG:]
    return state.model_copy(update={"api_log": log, "pending_api": None})


def _next_state(state: LLMUserState, plan: str, action: Action) -> JsonValue:
    if isinstance(action, Say | Finish):
        # Most turns: the same dump as the copy's below, without copying the model (a `dict`
        # update keeps the members' order, and the plan is text in both).
        data = state.model_dump(mode="json")
        data.update(plan=plan or state.plan, pending_api=None, last_web=None)
        return data
    pending = ApiRecord(name=action.name, args=action.args) if isinstance(action, CallApi) else None
    web = None if isinstance(action, Say | CallApi | Finish) else asdict(action)
    new = state.model_copy(
        update={"plan": plan or state.plan, "pending_api": pending, "last_web": web}
    )
    return new.model_dump(mode="json")


def _last_web(state: LLMUserState) -> WebStep | None:
    if state.last_web is None:
        return None
    data = dict(state.last_web)
    kind = data.get("kind")
    cls = next((step for name, step in WEB_STEPS.items() if name == kind), None)
    if cls is None:
        raise SimulatorError(
            f"LLM user state holds an unknown web action {state.last_web!r}; pass the state "
            "returned by initial_state/next_action"
        )
    return cls(**data)  # type: ignore[arg-type]


def _as_json(step: WebStep) -> str:
    data = {"action": step.kind, **{k: v for k, v in asdict(step).items() if k != "kind"}}
    return json.dumps(data)

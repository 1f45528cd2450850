"""The LLM-driven simulated user: one model call per turn, repaired when the reply breaks a rule.

The model plays the customer. It sees its persona, goal and knowledge (hidden facts under a
reveal-only rule), the chat with roles flipped (the agent speaks as "user", it speaks as
"assistant"), and a turn instruction asking for one JSON action plus a revised plan. The plan is
kept in the state and shown again next turn, so the model keeps track without hidden memory.
When a page is open (`ui`, `hybrid`), the turn also shows the page (elements with their ids) and
the web actions the model may answer with. Invalid replies are sent back with the error, at most
`max_repairs` times.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Literal

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from vistasim.browser._types import WEB_STEPS, PageView, WebStep
from vistasim.errors import ConfigError, SimulatorError
from vistasim.llm._types import ChatMessage, ChatModel, ChatRequest, ToolSpec
from vistasim.scenario import Scalar, Scenario
from vistasim.user._lexicon import DEFAULT_LEXICON, merge_lexicons
from vistasim.user._prompts import render_prompt
from vistasim.user._types import Action, CallApi, Finish, Say, UserView
from vistasim.user._validate import InvalidActionError, validate_reply

_MAX_LOGGED_RESULT = 500
_MAX_API_LOG = 10


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ApiRecord(_Strict):
    """One user-side API call and what came back."""

    name: str
    args: dict[str, JsonValue] = {}
    result: JsonValue = None
    error: str | None = None


class LLMUserState(_Strict):
    """What the LLM user carries between turns (stored in snapshots)."""

    seed: int
    plan: str = ""
    """The model's latest plan, shown to it again next turn."""
    api_log: list[ApiRecord] = []
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

    def initial_state(self, scenario: Scenario, *, seed: int) -> JsonValue:
        """Start with no plan and no API calls."""
        return LLMUserState(seed=seed).model_dump(mode="json")

    async def next_action(self, view: UserView, state: JsonValue) -> tuple[Action, JsonValue]:
        """Ask the model for one action; re-prompt with the error while it is invalid.

        Raises:
            SimulatorError: no valid action after `max_repairs` re-prompts.
        """
        current = _with_api_result(_parse_state(state), view)
        lexicon = merge_lexicons(DEFAULT_LEXICON, view.lexicon)
        messages = build_messages(view, current)
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

    def _request(self, messages: list[ChatMessage], state: LLMUserState) -> ChatRequest:
        return ChatRequest(
            messages=messages,
            temperature=self.temperature,
            seed=self.seed if self.seed is not None else state.seed,
            response_format={"type": "json_object"},
        )


def build_messages(view: UserView, state: LLMUserState) -> list[ChatMessage]:
    """Return the prompt: system, the chat with roles flipped, then the turn instruction."""
    messages = [ChatMessage(role="system", content=system_prompt(view.scenario))]
    for utterance in view.transcript:
        role: Literal["user", "assistant"] = "user" if utterance.role == "agent" else "assistant"
        messages.append(ChatMessage(role=role, content=utterance.text))
    messages.append(ChatMessage(role="user", content=_turn_prompt(view, state)))
    return messages


def system_prompt(scenario: Scenario) -> str:
    """Render the persona, goal, knowledge and reveal-only facts into the system prompt."""
    persona = scenario.persona
    style = persona.style
    return render_prompt(
        "system",
        name=persona.name,
        profile=persona.profile.strip() or "(not given)",
        style=(
            f"verbosity {style.verbosity}, formality {style.formality}; you tolerate about "
            f"{style.patience} unhelpful replies before you give up"
        ),
        goal=scenario.goal.strip(),
        knowledge=_facts(scenario.knowledge) or "(nothing specific)",
        hidden=_facts(scenario.hidden) or "(none)",
    )


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
        situation=_situation(view),
        apis=_describe_apis(view.api_tools),
        web=_describe_page(view.page),
        plan=state.plan or "(none yet: make one)",
        notes="".join(f"{note}\n" for note in notes if note),
    )


def _situation(view: UserView) -> str:
    text = f"This is your action {view.turn + 1} of at most {view.max_turns}."
    if not view.transcript:
        return f"{text} Nothing has been said yet: write your opening message."
    if view.transcript[-1].role == "user":
        return f"{text} The agent has not answered your last message."
    return f"{text} The agent's last message is the one just above."


def _describe_apis(tools: tuple[ToolSpec, ...]) -> str:
    if not tools:
        return 'You have no user-side APIs: use "say" to talk to the agent.'
    lines = ['User-side APIs you may call with "call_api" (or just talk to the agent):']
    for tool in tools:
        schema = json.dumps(tool.parameters, sort_keys=True)
        lines.append(f"- {tool.name}: {tool.description or '(no description)'}")
        lines.append(f"  arguments (JSON schema): {schema}")
    return "\n".join(lines)


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
    return "\n\n" + render_prompt("web", page=page.render(), chat=chat)


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

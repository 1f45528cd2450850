"""Check a model-proposed user action before it reaches the agent.

An LLM playing the user drifts: it answers in prose, invents APIs, repeats itself, slips into the
assistant's role, or blurts out facts it should keep until asked. Each check here raises
`InvalidActionError` with a message written for the model (what was wrong and how to fix it), so
the caller can re-prompt with it. The text checks take plain values, so the web channel can reuse
them for typed text. Web actions are checked against the page the model saw (`_validate_web.py`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from vistasim.agent._types import Utterance
from vistasim.browser import (
    Back,
    Click,
    Navigate,
    PageView,
    Scroll,
    SelectOption,
    TypeText,
    WebStep,
)
from vistasim.errors import InvalidActionError
from vistasim.llm._types import ToolSpec
from vistasim.scenario import Scalar
from vistasim.user._lexicon import mentions, normalize, slot_phrases
from vistasim.user._lexicon_phrases import DEFAULT_LEXICON
from vistasim.user._types import Action, CallApi, Finish, Say, UserView
from vistasim.user._validate_web import check_web_action, id_list

ROLE_SWAP_PATTERNS: tuple[str, ...] = (
    r"\bhow (can|may|could) i (help|assist)\b",
    r"\bas an ai\b",
    r"\bi(?:'m| am) an ai\b",
    r"\b(large )?language model\b",
    r"\banything else i can (help|do|assist)\b",
    r"\bwhat can i do for you\b",
    r"\bthank you for (contacting|reaching out)\b",
    r"\bthanks for (contacting|reaching out)\b",
    r"\bi(?:'d| would) be (happy|glad) to (help|assist) you\b",
    r"\blet me (look|check) (that|this) up for you\b",
)
"""Phrases that only the assistant says: a user saying them has swapped roles."""

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}
_STOPWORDS = frozenset(
    "the and was were are for with that this from have has had but not you your our its".split()
)


class _ApiRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    args: dict[str, JsonValue] = {}


class _Reply(BaseModel):
    # Extra keys are ignored: models add commentary fields, and rejecting those wastes repairs.
    model_config = ConfigDict(extra="ignore")
    plan: str = ""
    action: Literal[
        "say", "call_api", "finish", "click", "type", "select", "scroll", "navigate", "back"
    ]
    text: str | None = ""
    api: _ApiRequest | None = None
    finish_reason: Literal["goal_met", "user_stop"] | None = None
    target: str | None = None
    value: str | None = None
    url: str | None = None
    direction: Literal["up", "down"] | None = None
    enter: bool = False


@dataclass(frozen=True, kw_only=True)
class ValidatedReply:
    """A model's reply that passed every check."""

    plan: str
    """The model's revised plan, kept in the policy state."""
    action: Action


def validate_reply(
    text: str,
    view: UserView,
    *,
    lexicon: Mapping[str, Sequence[str]] | None = None,
    previous: WebStep | None = None,
) -> ValidatedReply:
    """Parse a model's JSON reply into an action and check it against the view.

    `previous` is the user's last action if it was a web action: proposing it again is rejected.

    Raises:
        InvalidActionError: the first problem found, phrased as an instruction to the model.
    """
    reply = _parse(text)
    message = (reply.text or "").strip()
    if reply.action not in ("say", "call_api", "finish"):
        web = check_web_action(_web_step(reply, view.page), view.page, previous=previous)
        return ValidatedReply(plan=reply.plan.strip(), action=web)
    if reply.action == "say":
        check_user_text(message, view, lexicon=lexicon)
        action: Action = Say(text=message)
    elif reply.action == "call_api":
        if reply.api is None:
            raise InvalidActionError('action "call_api" needs "api": {"name": ..., "args": {...}}')
        check_api_call(reply.api.name, reply.api.args, view.api_tools)
        action = CallApi(name=reply.api.name, args=reply.api.args)
    else:
        if reply.finish_reason is None:
            raise InvalidActionError(
                'action "finish" needs "finish_reason": "goal_met" or "user_stop"'
            )
        action = Finish(reason=reply.finish_reason, text=message)
    return ValidatedReply(plan=reply.plan.strip(), action=action)


@cache
def _role_swaps() -> tuple[re.Pattern[str], ...]:
    # Compiled once: every message of every simulated user is checked against them.
    return tuple(re.compile(pattern, re.IGNORECASE) for pattern in ROLE_SWAP_PATTERNS)


@cache
def _any_role_swap() -> re.Pattern[str]:
    # One scan instead of ten; it matches where any pattern does (then they are tried in turn).
    return re.compile("|".join(f"(?:{p})" for p in ROLE_SWAP_PATTERNS), re.IGNORECASE)


def check_user_text(
    text: str, view: UserView, *, lexicon: Mapping[str, Sequence[str]] | None = None
) -> None:
    """Check a message the user is about to send: not empty, not a repeat, in role, no leaks.

    Raises:
        InvalidActionError: naming the problem and the fix.
    """
    if not text.strip():
        raise InvalidActionError('empty message: put what you say to the agent in "text"')
    previous = _last_user_text(view.transcript)
    if previous is not None and normalize(previous) == normalize(text):
        raise InvalidActionError(
            f"message {text!r} repeats your previous message word for word; "
            "rephrase it, add what is missing, or finish"
        )
    for pattern in _role_swaps() if _any_role_swap().search(text) else ():
        found = pattern.search(text)
        if found:
            raise InvalidActionError(
                f"role swap: {found.group(0)!r} is what the assistant says; you are the "
                "customer: ask for what you need instead of offering help"
            )
    leak = _leaked_hidden(text, view, lexicon or DEFAULT_LEXICON)
    if leak is not None:
        key, value = leak
        raise InvalidActionError(
            f"the message reveals the hidden fact {key!r} ({value!r}) before the agent asked "
            "for it; leave it out until the agent asks"
        )


def check_api_call(name: str, args: Mapping[str, JsonValue], tools: Sequence[ToolSpec]) -> None:
    """Check that the API exists in this mode and the arguments fit its schema.

    Raises:
        InvalidActionError: naming the problem and the allowed values.
    """
    by_name = {tool.name: tool for tool in tools}
    if not by_name:
        raise InvalidActionError(
            f"no user-side APIs are available here, so {name!r} cannot be called; use "
            '"say" to ask the agent instead'
        )
    if name not in by_name:
        raise InvalidActionError(f"unknown API {name!r}; available: {sorted(by_name)}")
    _check_args(name, args, by_name[name].parameters)


def _web_step(reply: _Reply, page: PageView | None) -> WebStep:
    target = (reply.target or "").strip()
    if reply.action in ("click", "type", "select") and not target:
        ids = [el.id for el in page.elements] if page is not None else []
        raise InvalidActionError(
            f'action "{reply.action}" needs "target": the id of an element of the page, '
            f"one of {id_list(ids)}"
        )
    if reply.action == "click":
        return Click(target=target)
    if reply.action == "type":
        return TypeText(target=target, text=reply.text or "", enter=reply.enter)
    if reply.action == "select":
        if reply.value is None:
            raise InvalidActionError('action "select" needs "value": one of the element\'s options')
        return SelectOption(target=target, value=reply.value)
    if reply.action == "scroll":
        return Scroll(direction=reply.direction or "down")
    if reply.action == "navigate":
        return Navigate(url=reply.url or "")
    return Back()


def _parse(text: str) -> _Reply:
    raw = _load_json(text)
    try:
        return _Reply.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}"
            f" (got {err.get('input')!r})"
            for err in exc.errors()
        )
        raise InvalidActionError(f"the JSON does not follow the format: {problems}") from None


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
"""A Markdown code fence around the JSON, which some models add despite json mode."""


def _load_json(text: str) -> object:
    stripped = text.strip()
    if "```" in stripped:  # the fence pattern scans the whole reply: only when one is there
        stripped = _FENCE.sub("", stripped)
    try:
        return json.loads(stripped)
    except json.JSONDecodeError as exc:
        # Some models wrap the object in prose despite json mode: take the outermost braces.
        start, end = stripped.find("{"), stripped.rfind("}")
        if 0 <= start < end:
            try:
                return json.loads(stripped[start : end + 1])
            except json.JSONDecodeError:
                pass
        raise InvalidActionError(
            f"not valid JSON ({exc.msg} at position {exc.pos}) in {text[:200]!r}; "
            "answer with one JSON object only"
        ) from None


def _check_args(name: str, args: Mapping[str, JsonValue], schema: Mapping[str, JsonValue]) -> None:
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    required = schema.get("required")
    missing = [k for k in required if k not in args] if isinstance(required, list) else []
    if missing:
        raise InvalidActionError(f"API {name!r} needs arguments {missing!r}; got {dict(args)!r}")
    if schema.get("additionalProperties") is False:
        unknown = sorted(set(args) - set(properties))
        if unknown:
            raise InvalidActionError(
                f"API {name!r} has no arguments {unknown!r}; allowed: {sorted(properties)}"
            )
    for key, value in args.items():
        spec = properties.get(key)
        kind = spec.get("type") if isinstance(spec, dict) else None
        allowed = _JSON_TYPES.get(kind) if isinstance(kind, str) else None
        wrong_bool = isinstance(value, bool) and kind in ("integer", "number")
        if allowed is not None and (not isinstance(value, allowed) or wrong_bool):
            raise InvalidActionError(
                f"API {name!r} argument {key!r} must be a {kind}; got {value!r}"
            )


def _last_user_text(transcript: Sequence[Utterance]) -> str | None:
    for utterance in reversed(transcript):
        if utterance.role == "user":
            return utterance.text
    return None


def _leaked_hidden(
    text: str, view: UserView, lexicon: Mapping[str, Sequence[str]]
) -> tuple[str, Scalar] | None:
    scenario = view.scenario
    if not scenario.hidden:  # most scenarios hide nothing: the chat need not be gathered
        return None
    agent_text = " ".join(u.text for u in view.transcript if u.role == "agent")
    known = " ".join([scenario.goal, *(str(v) for v in scenario.knowledge.values())])
    for key, value in scenario.hidden.items():
        if mentions(agent_text, [*lexicon.get(key, []), *slot_phrases(key)]):
            continue
        if _reveals(text, str(value), known):
            return key, value
    return None


def _reveals(text: str, value: str, known: str) -> bool:
    """Say whether text gives away a value: verbatim, or most of its distinctive words."""
    if len(value.strip()) >= 2 and mentions(text, [value.strip()]):
        return True
    known_words = set(_words(known))
    distinctive = {w for w in _words(value) if w not in known_words}
    if len(distinctive) < 2:
        return False
    said = set(_words(text))
    return len(distinctive & said) / len(distinctive) >= 0.6


def _words(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9']+", text.casefold())
    return [w for w in words if len(w) >= 3 and w not in _STOPWORDS]

"""The simulated user: actions, observations and policies (offline agenda, LLM-driven).

The offline agenda user and its web skills load on first use: a run with the LLM user never
needs them, and building them (a few hundred compiled patterns) is a tenth of its start-up.
So do its operations and value pools (`perturbed`, `action_from_json`, `ValuePool`, ...),
which only branching and `--perturb` use: ~20 ms of compiled patterns a chat run skips.
"""

import sys as _sys
import typing as _typing

from vistasim._lazy import lazy_attributes as _lazy_attributes
from vistasim.dates import environment_now
from vistasim.errors import InvalidActionError
from vistasim.user._llm import LLMUserPolicy
from vistasim.user._prompts import prompt_hash
from vistasim.user._script import (
    SCRIPT_OVER,
    ScriptedUser,
    action_of_event,
    actions_of_events,
    load_script,
    script_json,
)
from vistasim.user._types import Action, CallApi, Finish, Say, UserPolicy, UserView
from vistasim.user._validate import (
    ROLE_SWAP_PATTERNS,
    ValidatedReply,
    check_api_call,
    check_user_text,
    validate_reply,
)
from vistasim.user._validate_web import check_web_action

if _typing.TYPE_CHECKING:
    from vistasim.user._agenda import COMBINE_PROBABILITY, MAX_UNREAD, AgendaPolicy
    from vistasim.user._agenda_ops import (
        CHAT_INSTEAD,
        OPERATIONS,
        Operation,
        action_from_json,
        action_json,
        action_key,
        apply_operation,
        calls_off,
        current_operations,
        describe_action,
        operations_for,
        perturbed,
        redrawn,
        undrawn,
    )
    from vistasim.user._agenda_turn import LOST
    from vistasim.user._plausible import (
        ValuePool,
        choice_slot,
        identity_slot,
        implausible,
        other_value,
    )
    from vistasim.user._web_skills import WebSkill, WebSkillStep, load_web_skills

_ON_FIRST_USE = {
    "CHAT_INSTEAD": "vistasim.user._agenda_ops",
    "OPERATIONS": "vistasim.user._agenda_ops",
    "Operation": "vistasim.user._agenda_ops",
    "action_from_json": "vistasim.user._agenda_ops",
    "action_json": "vistasim.user._agenda_ops",
    "action_key": "vistasim.user._agenda_ops",
    "apply_operation": "vistasim.user._agenda_ops",
    "calls_off": "vistasim.user._agenda_ops",
    "current_operations": "vistasim.user._agenda_ops",
    "describe_action": "vistasim.user._agenda_ops",
    "operations_for": "vistasim.user._agenda_ops",
    "perturbed": "vistasim.user._agenda_ops",
    "redrawn": "vistasim.user._agenda_ops",
    "undrawn": "vistasim.user._agenda_ops",
    "ValuePool": "vistasim.user._plausible",
    "choice_slot": "vistasim.user._plausible",
    "identity_slot": "vistasim.user._plausible",
    "implausible": "vistasim.user._plausible",
    "other_value": "vistasim.user._plausible",
    "AgendaPolicy": "vistasim.user._agenda",
    "COMBINE_PROBABILITY": "vistasim.user._agenda",
    "MAX_UNREAD": "vistasim.user._agenda",
    "LOST": "vistasim.user._agenda_turn",
    "WebSkill": "vistasim.user._web_skills",
    "WebSkillStep": "vistasim.user._web_skills",
    "load_web_skills": "vistasim.user._web_skills",
}
__getattr__, __dir__ = _lazy_attributes(_sys.modules[__name__], _ON_FIRST_USE)

__all__ = [
    "Action",
    "AgendaPolicy",
    "CHAT_INSTEAD",
    "COMBINE_PROBABILITY",
    "CallApi",
    "Finish",
    "InvalidActionError",
    "LLMUserPolicy",
    "LOST",
    "MAX_UNREAD",
    "OPERATIONS",
    "Operation",
    "ROLE_SWAP_PATTERNS",
    "SCRIPT_OVER",
    "Say",
    "ScriptedUser",
    "UserPolicy",
    "UserView",
    "ValidatedReply",
    "ValuePool",
    "WebSkill",
    "WebSkillStep",
    "action_from_json",
    "action_json",
    "action_key",
    "action_of_event",
    "actions_of_events",
    "apply_operation",
    "calls_off",
    "check_api_call",
    "check_user_text",
    "check_web_action",
    "choice_slot",
    "current_operations",
    "describe_action",
    "environment_now",
    "identity_slot",
    "implausible",
    "load_script",
    "load_web_skills",
    "operations_for",
    "other_value",
    "perturbed",
    "prompt_hash",
    "redrawn",
    "script_json",
    "undrawn",
    "validate_reply",
]

"""The simulated user: actions, observations and policies (offline agenda, LLM-driven)."""

from vistasim.user._agenda import AgendaPolicy
from vistasim.user._llm import LLMUserPolicy
from vistasim.user._prompts import prompt_hash
from vistasim.user._types import Action, CallApi, Finish, Say, UserPolicy, UserView
from vistasim.user._validate import (
    InvalidActionError,
    ValidatedReply,
    check_api_call,
    check_user_text,
    validate_reply,
)

__all__ = [
    "Action",
    "AgendaPolicy",
    "CallApi",
    "Finish",
    "InvalidActionError",
    "LLMUserPolicy",
    "Say",
    "UserPolicy",
    "UserView",
    "ValidatedReply",
    "check_api_call",
    "check_user_text",
    "prompt_hash",
    "validate_reply",
]

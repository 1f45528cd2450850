"""Adapters that reach the agent under test."""

from vistasim.agent._http_json import HttpJsonAgent
from vistasim.agent._open import open_agent
from vistasim.agent._openai_chat import OpenAIChatAgent
from vistasim.agent._python import PythonAgent, resolve_target
from vistasim.agent._types import AgentAdapter, Reply, RestoreStrategy, Turn, Utterance

__all__ = [
    "AgentAdapter",
    "HttpJsonAgent",
    "OpenAIChatAgent",
    "PythonAgent",
    "Reply",
    "RestoreStrategy",
    "Turn",
    "Utterance",
    "open_agent",
    "resolve_target",
]

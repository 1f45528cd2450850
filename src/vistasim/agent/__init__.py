"""Adapters that reach the agent under test."""

from vistasim.agent._chat_endpoint import EndpointChatModel
from vistasim.agent._http import body_cap
from vistasim.agent._http_json import HttpJsonAgent
from vistasim.agent._model_agent import ModelAgent
from vistasim.agent._open import check_agent_spec, open_agent
from vistasim.agent._openai_chat import ENVIRONMENT_TOOLS, OpenAIChatAgent
from vistasim.agent._python import PythonAgent, resolve_target
from vistasim.agent._requests import (
    PastTurn,
    RequestDigest,
    digest_request,
    past_turns,
    proxy_requests,
)
from vistasim.agent._tokens import count_tokens
from vistasim.agent._types import AgentAdapter, Reply, RestoreStrategy, Turn, Utterance
from vistasim.agent._web import WebChatAgent, WidgetSelectors
from vistasim.agent._web_inspect import PageInspection, PartFound, inspect_page
from vistasim.agent._web_trace import HttpTraceSource, TraceSource

__all__ = [
    "AgentAdapter",
    "ENVIRONMENT_TOOLS",
    "EndpointChatModel",
    "HttpJsonAgent",
    "HttpTraceSource",
    "ModelAgent",
    "OpenAIChatAgent",
    "PageInspection",
    "PartFound",
    "PastTurn",
    "PythonAgent",
    "Reply",
    "RequestDigest",
    "RestoreStrategy",
    "TraceSource",
    "Turn",
    "Utterance",
    "WebChatAgent",
    "WidgetSelectors",
    "body_cap",
    "check_agent_spec",
    "count_tokens",
    "digest_request",
    "inspect_page",
    "open_agent",
    "past_turns",
    "proxy_requests",
    "resolve_target",
]

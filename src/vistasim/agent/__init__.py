"""Adapters that reach the agent under test.

The web chat adapter and its page inspection load on first use: they pull in the browser layer,
which a chat or api run never needs.
"""

import sys as _sys
import typing as _typing

from vistasim._lazy import lazy_attributes as _lazy_attributes
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

if _typing.TYPE_CHECKING:
    from vistasim.agent._web import WebChatAgent, WidgetSelectors
    from vistasim.agent._web_inspect import PageInspection, PartFound, inspect_page
    from vistasim.agent._web_trace import HttpTraceSource, TraceSource

_ON_FIRST_USE = {
    "WebChatAgent": "vistasim.agent._web",
    "WidgetSelectors": "vistasim.agent._web",
    "PageInspection": "vistasim.agent._web_inspect",
    "PartFound": "vistasim.agent._web_inspect",
    "inspect_page": "vistasim.agent._web_inspect",
    "HttpTraceSource": "vistasim.agent._web_trace",
    "TraceSource": "vistasim.agent._web_trace",
}
__getattr__, __dir__ = _lazy_attributes(_sys.modules[__name__], _ON_FIRST_USE)

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

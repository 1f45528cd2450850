"""Deterministic fakes for tests and benchmarks: scripted models, fake agents, a fake server."""

from vistasim.testing._agents import FakeAgent
from vistasim.testing._fake_server import FakeOpenAIServer
from vistasim.testing._models import FunctionLLM, ScriptedLLM

__all__ = ["FakeAgent", "FakeOpenAIServer", "FunctionLLM", "ScriptedLLM"]

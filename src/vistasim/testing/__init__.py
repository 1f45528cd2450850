"""Deterministic fakes for tests and benchmarks: scripted models, fake agents, a fake server."""

from vistasim.testing._models import FunctionLLM, ScriptedLLM

__all__ = ["FunctionLLM", "ScriptedLLM"]

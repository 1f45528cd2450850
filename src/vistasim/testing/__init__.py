"""Deterministic fakes for tests and benchmarks: scripted models, fake agents, a fake server."""

from vistasim.testing._agents import FakeAgent
from vistasim.testing._fake_server import FakeOpenAIServer
from vistasim.testing._ground_truth import (
    FlawFired,
    answering,
    note_flaw,
    note_flaw_now,
    record_flaws,
)
from vistasim.testing._models import FunctionLLM, ScriptedLLM
from vistasim.testing._simulate import Check, EpisodeResult, Simulation, Simulator, simulation_of
from vistasim.testing._targets import target_of
from vistasim.testing._tool_responder import ReplayedTools, tool_calling_responder

__all__ = [
    "Check",
    "EpisodeResult",
    "FakeAgent",
    "FakeOpenAIServer",
    "FlawFired",
    "FunctionLLM",
    "ReplayedTools",
    "ScriptedLLM",
    "Simulation",
    "Simulator",
    "answering",
    "note_flaw",
    "note_flaw_now",
    "record_flaws",
    "simulation_of",
    "target_of",
    "tool_calling_responder",
]

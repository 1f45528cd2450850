"""Little Acorns Day Nursery: a childcare nursery's parent help desk, written blind."""

from benchmarks.domains.nursery._agent import CorrectNurseryAgent
from benchmarks.domains.nursery._env import NurseryEnvironment, make_environment
from benchmarks.domains.nursery._flawed import FlawedNurseryAgent

__all__ = ["CorrectNurseryAgent", "FlawedNurseryAgent", "NurseryEnvironment", "make_environment"]

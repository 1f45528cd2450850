"""Lumen Rail: a rail travel-change desk (held-out benchmark domain for vistasim)."""

from benchmarks.domains.rail._correct_agent import CorrectRailAgent
from benchmarks.domains.rail._env import RailEnvironment, make_environment
from benchmarks.domains.rail._flawed_agent import FlawedRailAgent

__all__ = ["CorrectRailAgent", "FlawedRailAgent", "RailEnvironment", "make_environment"]

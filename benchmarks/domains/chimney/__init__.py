"""Sootaway Chimney Sweeps: a UK chimney-sweep company's booking desk, written blind."""

from benchmarks.domains.chimney._agent import CorrectChimneyAgent
from benchmarks.domains.chimney._env import ChimneyEnvironment, make_environment
from benchmarks.domains.chimney._flawed import FlawedChimneyAgent

__all__ = ["ChimneyEnvironment", "CorrectChimneyAgent", "FlawedChimneyAgent", "make_environment"]

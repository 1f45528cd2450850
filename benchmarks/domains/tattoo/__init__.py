"""Ironink Tattoo Studio: a UK tattoo studio's booking desk, written blind."""

from benchmarks.domains.tattoo._agent import CorrectTattooAgent
from benchmarks.domains.tattoo._env import TattooEnvironment, make_environment
from benchmarks.domains.tattoo._flawed import FlawedTattooAgent

__all__ = ["CorrectTattooAgent", "FlawedTattooAgent", "TattooEnvironment", "make_environment"]

"""Ashcombe Lawn Tennis Club: a tennis club's members desk, written blind."""

from benchmarks.domains.tennisclub._agent import CorrectTennisclubAgent
from benchmarks.domains.tennisclub._env import TennisclubEnvironment, make_environment
from benchmarks.domains.tennisclub._flawed import FlawedTennisclubAgent

__all__ = [
    "CorrectTennisclubAgent",
    "FlawedTennisclubAgent",
    "TennisclubEnvironment",
    "make_environment",
]

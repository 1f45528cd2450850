"""Oakmere Homes: a housing association's tenant repairs line, written blind."""

from benchmarks.domains.repairs._agent import CorrectRepairsAgent
from benchmarks.domains.repairs._env import RepairsEnvironment, make_environment
from benchmarks.domains.repairs._flawed import FlawedRepairsAgent

__all__ = ["CorrectRepairsAgent", "FlawedRepairsAgent", "RepairsEnvironment", "make_environment"]

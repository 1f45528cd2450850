"""Greenacre Allotments: a town council's allotment-tenancy desk, written blind."""

from benchmarks.domains.allotment._agent import CorrectAllotmentAgent
from benchmarks.domains.allotment._env import AllotmentEnvironment, make_environment
from benchmarks.domains.allotment._flawed import FlawedAllotmentAgent

__all__ = [
    "AllotmentEnvironment",
    "CorrectAllotmentAgent",
    "FlawedAllotmentAgent",
    "make_environment",
]

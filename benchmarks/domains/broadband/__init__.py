"""Linnet Broadband: a home broadband provider's customer desk, written blind."""

from benchmarks.domains.broadband._agent import CorrectBroadbandAgent
from benchmarks.domains.broadband._env import BroadbandEnvironment, make_environment
from benchmarks.domains.broadband._flawed import FlawedBroadbandAgent

__all__ = [
    "BroadbandEnvironment",
    "CorrectBroadbandAgent",
    "FlawedBroadbandAgent",
    "make_environment",
]

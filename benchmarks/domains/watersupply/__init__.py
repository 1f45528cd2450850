"""Brookmere Water: a water company's customer desk, written blind."""

from benchmarks.domains.watersupply._agent import CorrectWatersupplyAgent
from benchmarks.domains.watersupply._env import WatersupplyEnvironment, make_environment
from benchmarks.domains.watersupply._flawed import FlawedWatersupplyAgent

__all__ = [
    "CorrectWatersupplyAgent",
    "FlawedWatersupplyAgent",
    "WatersupplyEnvironment",
    "make_environment",
]

"""Kestrel Motors Service Centre: a car servicing garage's customer desk, written blind."""

from benchmarks.domains.garage._agent import CorrectGarageAgent
from benchmarks.domains.garage._env import GarageEnvironment, make_environment
from benchmarks.domains.garage._flawed import FlawedGarageAgent

__all__ = ["CorrectGarageAgent", "FlawedGarageAgent", "GarageEnvironment", "make_environment"]

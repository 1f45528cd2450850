"""Cityline Car Hire: a car hire customer desk, written blind (held out)."""

from benchmarks.domains.carhire._agent import CorrectCarhireAgent
from benchmarks.domains.carhire._env import CarHireEnvironment, make_environment
from benchmarks.domains.carhire._flawed import FlawedCarhireAgent

__all__ = ["CarHireEnvironment", "CorrectCarhireAgent", "FlawedCarhireAgent", "make_environment"]

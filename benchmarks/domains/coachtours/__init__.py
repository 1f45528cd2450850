"""Wayfarer Coach Holidays: a coach tour operator's customer desk, written blind."""

from benchmarks.domains.coachtours._agent import CorrectCoachtoursAgent
from benchmarks.domains.coachtours._env import CoachtoursEnvironment, make_environment
from benchmarks.domains.coachtours._flawed import FlawedCoachtoursAgent

__all__ = [
    "CoachtoursEnvironment",
    "CorrectCoachtoursAgent",
    "FlawedCoachtoursAgent",
    "make_environment",
]

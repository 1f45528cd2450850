"""Hartfield Borough Council Tax: the residents' council tax desk, written blind."""

from benchmarks.domains.counciltax._agent import CorrectCounciltaxAgent
from benchmarks.domains.counciltax._env import CounciltaxEnvironment, make_environment
from benchmarks.domains.counciltax._flawed import FlawedCounciltaxAgent

__all__ = [
    "CorrectCounciltaxAgent",
    "CounciltaxEnvironment",
    "FlawedCounciltaxAgent",
    "make_environment",
]

"""Saltmarsh Marina: a marina's berth-holder and visitor desk, written blind."""

from benchmarks.domains.marina._agent import CorrectMarinaAgent
from benchmarks.domains.marina._env import MarinaEnvironment, make_environment
from benchmarks.domains.marina._flawed import FlawedMarinaAgent

__all__ = ["CorrectMarinaAgent", "FlawedMarinaAgent", "MarinaEnvironment", "make_environment"]

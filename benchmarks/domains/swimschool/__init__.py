"""Riverside Swim School: the parents' desk of a children's swimming school, written blind."""

from benchmarks.domains.swimschool._agent import CorrectSwimschoolAgent
from benchmarks.domains.swimschool._env import SwimschoolEnvironment, make_environment
from benchmarks.domains.swimschool._flawed import FlawedSwimschoolAgent

__all__ = [
    "CorrectSwimschoolAgent",
    "FlawedSwimschoolAgent",
    "SwimschoolEnvironment",
    "make_environment",
]

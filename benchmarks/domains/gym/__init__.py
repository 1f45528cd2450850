"""Pulse Fitness: a gym membership chat desk, written blind as a held-out benchmark domain."""

from benchmarks.domains.gym._correct_agent import CorrectGymAgent
from benchmarks.domains.gym._env import GymEnvironment, make_environment
from benchmarks.domains.gym._flawed_agent import FlawedGymAgent

__all__ = ["CorrectGymAgent", "FlawedGymAgent", "GymEnvironment", "make_environment"]

"""Packhorse Removals: a home-removals company's customer desk, written blind (held out)."""

from benchmarks.domains.removals._agent import CorrectRemovalsAgent
from benchmarks.domains.removals._env import RemovalsEnvironment, make_environment
from benchmarks.domains.removals._flawed import FlawedRemovalsAgent

__all__ = ["CorrectRemovalsAgent", "FlawedRemovalsAgent", "RemovalsEnvironment", "make_environment"]

"""Hearthwell Heating: a heating firm's booking desk for boiler visits, written blind."""

from benchmarks.domains.boilerservice._agent import CorrectBoilerAgent
from benchmarks.domains.boilerservice._env import BoilerEnvironment, make_environment
from benchmarks.domains.boilerservice._flawed import FlawedBoilerAgent

__all__ = ["BoilerEnvironment", "CorrectBoilerAgent", "FlawedBoilerAgent", "make_environment"]

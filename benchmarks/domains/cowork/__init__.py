"""Hive Works Coworking: a coworking company's member desk, written blind (held out)."""

from benchmarks.domains.cowork._agent import CorrectCoworkAgent
from benchmarks.domains.cowork._env import CoworkEnvironment, make_environment
from benchmarks.domains.cowork._flawed import FlawedCoworkAgent

__all__ = ["CorrectCoworkAgent", "CoworkEnvironment", "FlawedCoworkAgent", "make_environment"]

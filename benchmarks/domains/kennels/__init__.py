"""Hollybrook Pet Boarding: a dog and cat boarding kennels' customer desk, written blind."""

from benchmarks.domains.kennels._agent import CorrectKennelsAgent
from benchmarks.domains.kennels._env import KennelsEnvironment, make_environment
from benchmarks.domains.kennels._flawed import FlawedKennelsAgent

__all__ = ["CorrectKennelsAgent", "FlawedKennelsAgent", "KennelsEnvironment", "make_environment"]

"""Lanternhall Box Office: a concert hall and theatre box office desk, written blind (held out)."""

from benchmarks.domains.boxoffice._agent import CorrectBoxofficeAgent
from benchmarks.domains.boxoffice._env import BoxofficeEnvironment, make_environment
from benchmarks.domains.boxoffice._flawed import FlawedBoxofficeAgent

__all__ = ["BoxofficeEnvironment", "CorrectBoxofficeAgent", "FlawedBoxofficeAgent",
           "make_environment"]

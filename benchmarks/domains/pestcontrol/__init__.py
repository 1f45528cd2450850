"""Hedgerow Pest Control: a pest-control firm's customer desk, written blind."""

from benchmarks.domains.pestcontrol._agent import CorrectPestcontrolAgent
from benchmarks.domains.pestcontrol._env import PestcontrolEnvironment, make_environment
from benchmarks.domains.pestcontrol._flawed import FlawedPestcontrolAgent

__all__ = [
    "CorrectPestcontrolAgent",
    "FlawedPestcontrolAgent",
    "PestcontrolEnvironment",
    "make_environment",
]

"""Bunting & Co. Party Hire: a party equipment hire company's customer desk, written blind."""

from benchmarks.domains.partyhire._agent import CorrectPartyhireAgent
from benchmarks.domains.partyhire._env import PartyhireEnvironment, make_environment
from benchmarks.domains.partyhire._flawed import FlawedPartyhireAgent

__all__ = [
    "CorrectPartyhireAgent",
    "FlawedPartyhireAgent",
    "PartyhireEnvironment",
    "make_environment",
]

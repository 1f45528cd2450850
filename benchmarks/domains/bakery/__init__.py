"""Pennywell Bakery: a high-street bakery's custom cake order desk, written blind."""

from benchmarks.domains.bakery._agent import CorrectBakeryAgent
from benchmarks.domains.bakery._env import BakeryEnvironment, make_environment
from benchmarks.domains.bakery._flawed import FlawedBakeryAgent

__all__ = ["BakeryEnvironment", "CorrectBakeryAgent", "FlawedBakeryAgent", "make_environment"]

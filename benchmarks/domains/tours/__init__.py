"""Saltwind Sea Kayak Tours: a guided sea-kayak tour operator's customer desk, written blind."""

from benchmarks.domains.tours._agent import CorrectToursAgent
from benchmarks.domains.tours._env import ToursEnvironment, make_environment
from benchmarks.domains.tours._flawed import FlawedToursAgent

__all__ = ["CorrectToursAgent", "FlawedToursAgent", "ToursEnvironment", "make_environment"]

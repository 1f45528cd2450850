"""Saffron & Sage Catering: an event caterer's order desk, written blind."""

from benchmarks.domains.catering._agent import CorrectCateringAgent
from benchmarks.domains.catering._env import CateringEnvironment, make_environment
from benchmarks.domains.catering._flawed import FlawedCateringAgent

__all__ = ["CateringEnvironment", "CorrectCateringAgent", "FlawedCateringAgent", "make_environment"]

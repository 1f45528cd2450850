"""Brightsmile Dental: a dental practice's patient desk, written blind (held out)."""

from benchmarks.domains.dental._agent import CorrectDentalAgent
from benchmarks.domains.dental._env import DentalEnvironment, make_environment
from benchmarks.domains.dental._flawed import FlawedDentalAgent

__all__ = ["CorrectDentalAgent", "DentalEnvironment", "FlawedDentalAgent", "make_environment"]

"""Brightwave Mobile: a phone-plan support desk, written blind as a held-out benchmark domain."""

from benchmarks.domains.mobile._correct_agent import CorrectMobileAgent
from benchmarks.domains.mobile._env import MobileEnvironment, make_environment
from benchmarks.domains.mobile._flawed_agent import FlawedMobileAgent

__all__ = ["CorrectMobileAgent", "FlawedMobileAgent", "MobileEnvironment", "make_environment"]

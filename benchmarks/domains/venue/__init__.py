"""Millbrook Community Hall: a community hall's hire desk, written blind."""

from benchmarks.domains.venue._agent import CorrectVenueAgent
from benchmarks.domains.venue._env import VenueEnvironment, make_environment
from benchmarks.domains.venue._flawed import FlawedVenueAgent

__all__ = ["CorrectVenueAgent", "FlawedVenueAgent", "VenueEnvironment", "make_environment"]

"""Heronfield Campsite: a campsite's customer desk for pitches, extras and stays, written blind."""

from benchmarks.domains.campsite._agent import CorrectCampsiteAgent
from benchmarks.domains.campsite._env import CampsiteEnvironment, make_environment
from benchmarks.domains.campsite._flawed import FlawedCampsiteAgent

__all__ = ["CampsiteEnvironment", "CorrectCampsiteAgent", "FlawedCampsiteAgent", "make_environment"]

"""Skyrest Lounges: an airport lounge operator's booking desk, written blind."""

from benchmarks.domains.lounge._agent import CorrectLoungeAgent
from benchmarks.domains.lounge._env import LoungeEnvironment, make_environment
from benchmarks.domains.lounge._flawed import FlawedLoungeAgent

__all__ = ["CorrectLoungeAgent", "FlawedLoungeAgent", "LoungeEnvironment", "make_environment"]

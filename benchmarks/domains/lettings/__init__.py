"""Harbour Row Lettings: a residential letting agent's tenants' desk, written blind."""

from benchmarks.domains.lettings._agent import CorrectLettingsAgent
from benchmarks.domains.lettings._env import LettingsEnvironment, make_environment
from benchmarks.domains.lettings._flawed import FlawedLettingsAgent

__all__ = ["CorrectLettingsAgent", "FlawedLettingsAgent", "LettingsEnvironment", "make_environment"]

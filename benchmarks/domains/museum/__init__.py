"""The Halden Museum Members' desk: memberships, Gift Aid, tickets and cards, written blind."""

from benchmarks.domains.museum._agent import CorrectMuseumAgent
from benchmarks.domains.museum._env import MuseumEnvironment, make_environment
from benchmarks.domains.museum._flawed import FlawedMuseumAgent

__all__ = ["CorrectMuseumAgent", "FlawedMuseumAgent", "MuseumEnvironment", "make_environment"]

"""Marlow Vale Council, Waste & Recycling: a council's resident desk, written blind."""

from benchmarks.domains.waste._agent import CorrectWasteAgent
from benchmarks.domains.waste._env import WasteEnvironment, make_environment
from benchmarks.domains.waste._flawed import FlawedWasteAgent

__all__ = ["CorrectWasteAgent", "FlawedWasteAgent", "WasteEnvironment", "make_environment"]

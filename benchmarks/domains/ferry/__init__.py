"""Tidewater Ferries: a ferry operator's customer desk, written blind (held out)."""

from benchmarks.domains.ferry._agent import CorrectFerryAgent
from benchmarks.domains.ferry._env import FerryEnvironment, make_environment
from benchmarks.domains.ferry._flawed import FlawedFerryAgent

__all__ = ["CorrectFerryAgent", "FerryEnvironment", "FlawedFerryAgent", "make_environment"]

"""Clearway Driving School: a driving school's learner desk, written blind (held out)."""

from benchmarks.domains.driving._agent import CorrectDrivingAgent
from benchmarks.domains.driving._env import DrivingEnvironment, make_environment
from benchmarks.domains.driving._flawed import FlawedDrivingAgent

__all__ = ["CorrectDrivingAgent", "DrivingEnvironment", "FlawedDrivingAgent", "make_environment"]

"""Piste Perfect Ski Hire: an Alpine ski-hire shop's booking desk, written blind."""

from benchmarks.domains.skihire._agent import CorrectSkiHireAgent
from benchmarks.domains.skihire._env import SkiHireEnvironment, make_environment
from benchmarks.domains.skihire._flawed import FlawedSkiHireAgent

__all__ = ["CorrectSkiHireAgent", "FlawedSkiHireAgent", "SkiHireEnvironment", "make_environment"]

"""Shine & Co. Mobile Valeting: a mobile car-valeting company's booking desk, written blind."""

from benchmarks.domains.valeting._agent import CorrectValetingAgent
from benchmarks.domains.valeting._env import ValetingEnvironment, make_environment
from benchmarks.domains.valeting._flawed import FlawedValetingAgent

__all__ = ["CorrectValetingAgent", "FlawedValetingAgent", "ValetingEnvironment", "make_environment"]

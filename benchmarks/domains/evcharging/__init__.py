"""Voltway: the drivers' desk of a public EV charging network, written blind."""

from benchmarks.domains.evcharging._agent import CorrectEvchargingAgent
from benchmarks.domains.evcharging._env import EvchargingEnvironment, make_environment
from benchmarks.domains.evcharging._flawed import FlawedEvchargingAgent

__all__ = [
    "CorrectEvchargingAgent",
    "EvchargingEnvironment",
    "FlawedEvchargingAgent",
    "make_environment",
]

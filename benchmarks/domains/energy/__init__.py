"""Greenfield Energy: a gas & electricity account desk, written blind as a held-out domain."""

from benchmarks.domains.energy._agent import CorrectEnergyAgent
from benchmarks.domains.energy._env import EnergyEnvironment, make_environment
from benchmarks.domains.energy._flawed_agent import FlawedEnergyAgent

__all__ = ["CorrectEnergyAgent", "EnergyEnvironment", "FlawedEnergyAgent", "make_environment"]

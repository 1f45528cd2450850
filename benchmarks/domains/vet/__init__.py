"""Meadowbank Veterinary Practice: a vet practice's chat desk, written blind (held out)."""

from benchmarks.domains.vet._agent import CorrectVetAgent
from benchmarks.domains.vet._env import VetEnvironment, make_environment
from benchmarks.domains.vet._flawed import FlawedVetAgent

__all__ = ["CorrectVetAgent", "FlawedVetAgent", "VetEnvironment", "make_environment"]

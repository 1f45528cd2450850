"""Clearview Opticians: a high-street optician's customer desk, written blind."""

from benchmarks.domains.optician._agent import CorrectOpticianAgent
from benchmarks.domains.optician._env import OpticianEnvironment, make_environment
from benchmarks.domains.optician._flawed import FlawedOpticianAgent

__all__ = ["CorrectOpticianAgent", "FlawedOpticianAgent", "OpticianEnvironment", "make_environment"]

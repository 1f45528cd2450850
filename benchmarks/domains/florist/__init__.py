"""Bloom & Bough Florists: a UK florist's order desk, written blind."""

from benchmarks.domains.florist._agent import CorrectFloristAgent
from benchmarks.domains.florist._env import FloristEnvironment, make_environment
from benchmarks.domains.florist._flawed import FlawedFloristAgent

__all__ = ["CorrectFloristAgent", "FlawedFloristAgent", "FloristEnvironment", "make_environment"]

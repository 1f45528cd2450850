"""Riverside City Libraries: a public library chat desk, written blind as a held-out domain."""

from benchmarks.domains.library._agent import CorrectLibraryAgent
from benchmarks.domains.library._env import LibraryEnvironment, make_environment
from benchmarks.domains.library._flawed import FlawedLibraryAgent

__all__ = ["CorrectLibraryAgent", "FlawedLibraryAgent", "LibraryEnvironment", "make_environment"]

"""Keepsafe Self Storage: a self-storage customer desk, written blind (held out)."""

from benchmarks.domains.storage._agent import CorrectStorageAgent
from benchmarks.domains.storage._env import StorageEnvironment, make_environment
from benchmarks.domains.storage._flawed import FlawedStorageAgent

__all__ = ["CorrectStorageAgent", "FlawedStorageAgent", "StorageEnvironment",
           "make_environment"]

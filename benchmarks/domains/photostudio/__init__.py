"""Foxglove Portrait Studio: a portrait photo studio's client desk, written blind."""

from benchmarks.domains.photostudio._agent import CorrectPhotostudioAgent
from benchmarks.domains.photostudio._env import PhotostudioEnvironment, make_environment
from benchmarks.domains.photostudio._flawed import FlawedPhotostudioAgent

__all__ = [
    "CorrectPhotostudioAgent",
    "FlawedPhotostudioAgent",
    "PhotostudioEnvironment",
    "make_environment",
]

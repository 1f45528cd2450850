"""Kingfisher Window Cleaning: a window-cleaning round's customer desk, written blind."""

from benchmarks.domains.windowclean._agent import CorrectWindowcleanAgent
from benchmarks.domains.windowclean._env import WindowcleanEnvironment, make_environment
from benchmarks.domains.windowclean._flawed import FlawedWindowcleanAgent

__all__ = [
    "CorrectWindowcleanAgent",
    "FlawedWindowcleanAgent",
    "WindowcleanEnvironment",
    "make_environment",
]

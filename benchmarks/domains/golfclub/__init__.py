"""Fairway Golf Club: a UK golf club's tee-time desk, written blind."""

from benchmarks.domains.golfclub._agent import CorrectGolfClubAgent
from benchmarks.domains.golfclub._env import GolfClubEnvironment, make_environment
from benchmarks.domains.golfclub._flawed import FlawedGolfClubAgent

__all__ = [
    "CorrectGolfClubAgent",
    "FlawedGolfClubAgent",
    "GolfClubEnvironment",
    "make_environment",
]

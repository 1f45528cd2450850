"""Spoke & Pedal: a held-out city bike-rental desk for testing vistasim on a third domain.

`make_environment()` gives a fresh `BikeEnvironment` per episode (use it as `[environment]
target = "benchmarks.bikes:make_environment"`); `BikeDeskAgent` follows policy.md and
`FlawedBikeDeskAgent` carries the documented flaws of README.md.
"""

from __future__ import annotations

from benchmarks.bikes._correct_agent import BikeDeskAgent
from benchmarks.bikes._env import BikeEnvironment
from benchmarks.bikes._flawed_agent import FlawedBikeDeskAgent

__all__ = ["BikeDeskAgent", "BikeEnvironment", "FlawedBikeDeskAgent", "make_environment"]


def make_environment() -> BikeEnvironment:
    """A fresh environment, seeded the same way every time."""
    return BikeEnvironment()

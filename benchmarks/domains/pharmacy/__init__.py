"""Willow Pharmacy's prescription refill desk: a held-out benchmark domain for vistasim.

`make_environment()` gives a fresh SQLite-backed desk; `CorrectPharmacyAgent` follows policy.md,
`FlawedPharmacyAgent` has the documented flaws listed in README.md.
"""

from benchmarks.domains.pharmacy._correct_agent import CorrectPharmacyAgent
from benchmarks.domains.pharmacy._env import PharmacyEnvironment, make_environment
from benchmarks.domains.pharmacy._flawed_agent import FlawedPharmacyAgent

__all__ = ["CorrectPharmacyAgent", "FlawedPharmacyAgent", "PharmacyEnvironment",
           "make_environment"]

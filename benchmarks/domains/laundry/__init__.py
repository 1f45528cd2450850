"""Pressed & Co.: a laundry and dry-cleaning desk, written blind (held out)."""

from benchmarks.domains.laundry._agent import CorrectLaundryAgent
from benchmarks.domains.laundry._env import LaundryEnvironment, make_environment
from benchmarks.domains.laundry._flawed import FlawedLaundryAgent

__all__ = ["CorrectLaundryAgent", "FlawedLaundryAgent", "LaundryEnvironment", "make_environment"]

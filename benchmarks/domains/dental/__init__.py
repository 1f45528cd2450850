"""Brightsmile Dental: a dental practice's patient desk, written blind (held out)."""

from benchmarks.domains.dental._env import DentalEnvironment, make_environment

__all__ = ["DentalEnvironment", "make_environment"]

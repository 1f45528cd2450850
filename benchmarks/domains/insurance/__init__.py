"""Harlow Home Insurance: a home insurer's customer chat desk, written blind (held out)."""

from benchmarks.domains.insurance._agent import CorrectInsuranceAgent
from benchmarks.domains.insurance._env import InsuranceEnvironment, make_environment
from benchmarks.domains.insurance._flawed import FlawedInsuranceAgent

__all__ = [
    "CorrectInsuranceAgent",
    "FlawedInsuranceAgent",
    "InsuranceEnvironment",
    "make_environment",
]

"""Driftwood Campervan Hire: a campervan hire company's reservation desk, written blind."""

from benchmarks.domains.campervan._agent import CorrectCampervanAgent
from benchmarks.domains.campervan._env import CampervanEnvironment, make_environment
from benchmarks.domains.campervan._flawed import FlawedCampervanAgent

__all__ = [
    "CampervanEnvironment",
    "CorrectCampervanAgent",
    "FlawedCampervanAgent",
    "make_environment",
]

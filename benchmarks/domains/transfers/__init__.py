"""Swiftline Airport Transfers: an airport car-transfer company's customer desk, written blind."""

from benchmarks.domains.transfers._agent import CorrectTransfersAgent
from benchmarks.domains.transfers._env import TransfersEnvironment, make_environment
from benchmarks.domains.transfers._flawed import FlawedTransfersAgent

__all__ = [
    "CorrectTransfersAgent",
    "FlawedTransfersAgent",
    "TransfersEnvironment",
    "make_environment",
]

"""Inkwell Print Shop: an online print shop's customer desk, written blind."""

from benchmarks.domains.printshop._agent import CorrectPrintshopAgent
from benchmarks.domains.printshop._env import PrintshopEnvironment, make_environment
from benchmarks.domains.printshop._flawed import FlawedPrintshopAgent

__all__ = [
    "CorrectPrintshopAgent",
    "FlawedPrintshopAgent",
    "PrintshopEnvironment",
    "make_environment",
]

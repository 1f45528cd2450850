"""Oakfold Furniture: a furniture retailer's after-sales desk, written blind."""

from benchmarks.domains.furniture._agent import CorrectFurnitureAgent
from benchmarks.domains.furniture._env import FurnitureEnvironment, make_environment
from benchmarks.domains.furniture._flawed import FlawedFurnitureAgent

__all__ = [
    "CorrectFurnitureAgent",
    "FlawedFurnitureAgent",
    "FurnitureEnvironment",
    "make_environment",
]

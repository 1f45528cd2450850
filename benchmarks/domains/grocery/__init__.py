"""Fresh Basket: an online grocery delivery chat desk, written blind as a held-out domain."""

from benchmarks.domains.grocery._agent import CorrectGroceryAgent
from benchmarks.domains.grocery._env import GroceryEnvironment, make_environment
from benchmarks.domains.grocery._flawed import FlawedGroceryAgent

__all__ = ["CorrectGroceryAgent", "FlawedGroceryAgent", "GroceryEnvironment", "make_environment"]

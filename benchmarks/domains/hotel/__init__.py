"""Harbourline Hotels: a hotel reservations chat desk, written blind as a held-out domain."""

from benchmarks.domains.hotel._correct_agent import CorrectHotelAgent
from benchmarks.domains.hotel._env import HotelEnvironment, make_environment
from benchmarks.domains.hotel._flawed_agent import FlawedHotelAgent

__all__ = ["CorrectHotelAgent", "FlawedHotelAgent", "HotelEnvironment", "make_environment"]

"""Westbrook Borough Council parking desk: permits, visitor passes, PCNs; written blind."""

from benchmarks.domains.parking._agent import CorrectParkingAgent
from benchmarks.domains.parking._env import ParkingEnvironment, make_environment
from benchmarks.domains.parking._flawed import FlawedParkingAgent

__all__ = ["CorrectParkingAgent", "FlawedParkingAgent", "ParkingEnvironment", "make_environment"]

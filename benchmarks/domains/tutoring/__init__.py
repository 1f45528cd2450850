"""Brightpath Tutors: a private tutoring agency's parent and student desk, written blind."""

from benchmarks.domains.tutoring._agent import CorrectTutoringAgent
from benchmarks.domains.tutoring._env import TutoringEnvironment, make_environment
from benchmarks.domains.tutoring._flawed import FlawedTutoringAgent

__all__ = ["CorrectTutoringAgent", "FlawedTutoringAgent", "TutoringEnvironment", "make_environment"]

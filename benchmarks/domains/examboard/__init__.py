"""Northgate Assessment: a language exam board's candidates' desk, written blind."""

from benchmarks.domains.examboard._agent import CorrectExamboardAgent
from benchmarks.domains.examboard._env import ExamboardEnvironment, make_environment
from benchmarks.domains.examboard._flawed import FlawedExamboardAgent

__all__ = [
    "CorrectExamboardAgent",
    "ExamboardEnvironment",
    "FlawedExamboardAgent",
    "make_environment",
]

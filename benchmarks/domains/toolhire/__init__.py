"""Hirewell Tool Hire: a UK tool and equipment hire desk, written blind."""

from benchmarks.domains.toolhire._agent import CorrectToolHireAgent
from benchmarks.domains.toolhire._env import ToolHireEnvironment, make_environment
from benchmarks.domains.toolhire._flawed import FlawedToolHireAgent

__all__ = ["CorrectToolHireAgent", "FlawedToolHireAgent", "ToolHireEnvironment", "make_environment"]

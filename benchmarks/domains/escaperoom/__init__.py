"""Lockbox Escape Rooms: an escape-room venue's booking desk, written blind."""

from benchmarks.domains.escaperoom._agent import CorrectEscapeRoomAgent
from benchmarks.domains.escaperoom._env import EscapeRoomEnvironment, make_environment
from benchmarks.domains.escaperoom._flawed import FlawedEscapeRoomAgent

__all__ = [
    "CorrectEscapeRoomAgent",
    "EscapeRoomEnvironment",
    "FlawedEscapeRoomAgent",
    "make_environment",
]

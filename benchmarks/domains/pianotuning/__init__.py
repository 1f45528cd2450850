"""Keynote Piano Services: a piano-tuning and repair company's booking desk, written blind."""

from benchmarks.domains.pianotuning._agent import CorrectPianoTuningAgent
from benchmarks.domains.pianotuning._env import PianoTuningEnvironment, make_environment
from benchmarks.domains.pianotuning._flawed import FlawedPianoTuningAgent

__all__ = [
    "CorrectPianoTuningAgent",
    "FlawedPianoTuningAgent",
    "PianoTuningEnvironment",
    "make_environment",
]

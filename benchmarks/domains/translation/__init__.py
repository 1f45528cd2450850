"""Clearword Translations: a translation agency's order desk, written blind."""

from benchmarks.domains.translation._agent import CorrectTranslationAgent
from benchmarks.domains.translation._env import TranslationEnvironment, make_environment
from benchmarks.domains.translation._flawed import FlawedTranslationAgent

__all__ = [
    "CorrectTranslationAgent",
    "FlawedTranslationAgent",
    "TranslationEnvironment",
    "make_environment",
]

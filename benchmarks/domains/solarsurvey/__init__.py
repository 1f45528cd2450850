"""Brightroof Solar: a solar-panel installer's survey and installation desk, written blind."""

from benchmarks.domains.solarsurvey._agent import CorrectSolarSurveyAgent
from benchmarks.domains.solarsurvey._env import SolarSurveyEnvironment, make_environment
from benchmarks.domains.solarsurvey._flawed import FlawedSolarSurveyAgent

__all__ = [
    "CorrectSolarSurveyAgent",
    "FlawedSolarSurveyAgent",
    "SolarSurveyEnvironment",
    "make_environment",
]

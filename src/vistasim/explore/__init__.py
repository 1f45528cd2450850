"""Exploration: the episode loop, linear rollouts and (later) DIVERT branching."""

from vistasim.explore._criteria import evaluate_criteria

__all__ = ["evaluate_criteria"]

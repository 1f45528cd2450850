"""Exploration: the episode loop, linear rollouts and (later) DIVERT branching."""

from vistasim.explore._criteria import evaluate_criteria
from vistasim.explore._run import RunResult, episode_seed, run, run_sync

__all__ = ["RunResult", "episode_seed", "evaluate_criteria", "run", "run_sync"]

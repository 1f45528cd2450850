"""Exploration: the episode loop, linear rollouts and (later) DIVERT branching."""

from vistasim.explore._criteria import evaluate_criteria
from vistasim.explore._run import RunResult, run, run_sync
from vistasim.explore._settings import episode_seed

__all__ = ["RunResult", "episode_seed", "evaluate_criteria", "run", "run_sync"]

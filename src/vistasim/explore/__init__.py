"""Exploration: the episode loop, linear rollouts and (later) DIVERT branching."""

from vistasim.explore._criteria import evaluate_criteria
from vistasim.explore._imports import load_ahead, modules_for
from vistasim.explore._run import RunResult, run, run_sync
from vistasim.explore._settings import episode_seed, web_concurrency
from vistasim.explore._setup import default_store_path
from vistasim.explore._watch import SeenCall, WatchedEnvironment, attach_changes

__all__ = [
    "RunResult",
    "SeenCall",
    "WatchedEnvironment",
    "attach_changes",
    "default_store_path",
    "episode_seed",
    "evaluate_criteria",
    "load_ahead",
    "modules_for",
    "run",
    "run_sync",
    "web_concurrency",
]

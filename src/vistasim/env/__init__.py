"""Environments: the state an agent acts on, with tools and snapshots."""

from vistasim.env._changes import diff_sqlite, state_changes
from vistasim.env._sqlite import SqliteEnvironment, ToolFailure, tool
from vistasim.env._types import Environment, ToolOutcome

__all__ = [
    "Environment",
    "SqliteEnvironment",
    "ToolFailure",
    "ToolOutcome",
    "diff_sqlite",
    "state_changes",
    "tool",
]

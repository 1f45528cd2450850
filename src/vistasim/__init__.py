"""vistasim: evaluate interactive agents by simulating their users.

Importing vistasim does no I/O and imports no heavy dependency; the public names below load lazily.
"""

from __future__ import annotations

import sys as _sys
import typing as _typing

from vistasim._lazy import lazy_attributes as _lazy_attributes

__version__ = "0.1.0"

__all__ = [
    "AgentAdapter",
    "ConfigError",
    "Persona",
    "Reply",
    "RunConfig",
    "Scenario",
    "Turn",
    "UserPolicy",
    "VistasimError",
    "load_config",
    "load_scenarios",
    "open_store",
    "read_run_view",
    "run",
    "run_sync",
]

_LOCATIONS = {
    "AgentAdapter": "vistasim.agent",
    "ConfigError": "vistasim.errors",
    "Persona": "vistasim.scenario",
    "Reply": "vistasim.agent",
    "RunConfig": "vistasim.config",
    "Scenario": "vistasim.scenario",
    "Turn": "vistasim.agent",
    "UserPolicy": "vistasim.user",
    "VistasimError": "vistasim.errors",
    "load_config": "vistasim.config",
    "load_scenarios": "vistasim.scenario",
    "open_store": "vistasim.store",
    "read_run_view": "vistasim.store",
    "run": "vistasim.explore",
    "run_sync": "vistasim.explore",
}

if _typing.TYPE_CHECKING:
    from vistasim.agent import AgentAdapter, Reply, Turn
    from vistasim.config import RunConfig, load_config
    from vistasim.errors import ConfigError, VistasimError
    from vistasim.explore import run, run_sync
    from vistasim.scenario import Persona, Scenario, load_scenarios
    from vistasim.store import open_store, read_run_view
    from vistasim.user import UserPolicy


__getattr__, __dir__ = _lazy_attributes(_sys.modules[__name__], _LOCATIONS)

"""Public names a package loads on first use, so importing the package stays cheap.

Each start of `vistasim run` pays for what its imports build (pydantic classes, compiled
patterns); names a run may never touch (the browser side of the agent adapters, the offline
agenda user of a run with the LLM user) are resolved from their module only when something
asks for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from types import ModuleType
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(
    package: ModuleType, locations: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The `__getattr__` and `__dir__` of `package`, whose names in `locations` load on use.

    `__getattr__` imports `locations[name]` and returns its `name`; `__dir__` lists those names
    beside the ones already loaded.
    """

    def load(name: str) -> Any:
        if name in locations:
            return getattr(import_module(locations[name]), name)
        raise AttributeError(f"module {package.__name__!r} has no attribute {name!r}")

    def names() -> list[str]:
        return sorted({*vars(package), *locations})

    return load, names

"""Name Python objects as `module:attr` targets, so a test can hand the engine an object.

The engine (like `vistasim run`) reaches agents and environments through `module:attr` targets in
the config. An object defined at a module's top level already has one; a closure, a lambda or a
class defined inside a test has none, so it is registered here, as an attribute of this module,
under a generated name. Registrations live as long as the process (a test session).

>>> target_of("shop")
'shop'
>>> target_of(target_of)
'vistasim.testing._targets:target_of'
>>> target_of(lambda turn: "hi")
'vistasim.testing._targets:registered_1'
"""

from __future__ import annotations

import importlib
import itertools
import sys

__all__ = ["target_of"]

_numbers = itertools.count(1)


def target_of(obj: object) -> str:
    """`obj` itself when it is a target string, its import path, or a registered name."""
    if isinstance(obj, str):
        return obj
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if module and qualname and _resolves(module, qualname, obj):
        return f"{module}:{qualname}"
    name = f"registered_{next(_numbers)}"
    setattr(sys.modules[__name__], name, obj)
    return f"{__name__}:{name}"


def _resolves(module: str, qualname: str, obj: object) -> bool:
    if "<" in qualname:  # <locals>, <lambda>: nothing to import
        return False
    try:
        found: object = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        return False
    return found is obj

"""The layers of a run config: merging them, and the `VISTASIM_*` variables as a layer.

Split from `vistasim.config` (which re-exports `merge` and `env_layer`) to keep it small; the
attribution helpers here tell an error which variable or flag set a bad key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

__all__ = ["env_layer", "flag_for", "layer_sets", "merge", "starts_path", "variables_by_key"]


def merge(*layers: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge config layers, later ones winning; `None` values never override."""
    merged: dict[str, Any] = {}
    for layer in layers:
        for key, value in layer.items():
            if value is None:
                continue
            if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
                merged[key] = merge(merged[key], value)
            elif isinstance(value, Mapping):
                merged[key] = merge(value)
            else:
                merged[key] = value
    return merged


def env_layer(environ: Mapping[str, str]) -> dict[str, Any]:
    """Turn `VISTASIM_SECTION__KEY=value` variables into a config layer (values parsed as TOML)."""
    layer: dict[str, Any] = {}
    for name, raw in environ.items():
        if not name.startswith("VISTASIM_") or "__" not in name:
            continue
        path = name.removeprefix("VISTASIM_").lower().split("__")
        node = layer
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = _parse_scalar(raw)
    return layer


def variables_by_key(environ: Mapping[str, str]) -> dict[tuple[str, ...], str]:
    """The `VISTASIM_*` variables by the key path they set."""
    return {
        tuple(name.removeprefix("VISTASIM_").lower().split("__")): name
        for name in environ
        if name.startswith("VISTASIM_") and "__" in name
    }


def layer_sets(layer: Mapping[str, Any], parts: list[str]) -> bool:
    """Tell whether a layer sets the key at `parts` (an empty section sets nothing)."""
    node: Any = layer
    for part in parts:
        if not isinstance(node, Mapping) or node.get(part) is None:
            return False
        node = node[part]
    return bool(node != {})


def starts_path(a: tuple[str, ...], b: list[str]) -> bool:
    """Tell whether one key path starts the other."""
    n = min(len(a), len(b))
    return n > 0 and list(a[:n]) == b[:n]


def flag_for(parts: list[str], flags: Mapping[str, str]) -> str:
    """The flag that set the key at `parts` (a section's flag covers its keys), else its name."""
    for end in range(len(parts), 0, -1):
        flag = flags.get(".".join(parts[:end]))
        if flag:
            return flag
    return "--" + parts[-1].replace("_", "-")


def _parse_scalar(raw: str) -> Any:
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except (tomllib.TOMLDecodeError, RecursionError):
        return raw

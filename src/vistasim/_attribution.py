"""Say where a bad setting came from and what was probably meant.

A value can reach the run config from a file key, a `VISTASIM_*` variable or a command-line flag;
a user can only fix it where it came from, so an error names that source. An unknown key is most
often a typo: the error offers the closest known name ("did you mean") from the model the key was
written in. Scenario files use the same suggestions and point at `vistasim schema`.
"""

from __future__ import annotations

import difflib
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from vistasim._input import excerpt
from vistasim.errors import ConfigError

__all__ = [
    "Source",
    "closest_field",
    "did_you_mean",
    "display_loc",
    "explain",
    "field_names_at",
    "setting_sources",
]

Loc = Sequence[str | int]


@dataclass(frozen=True, kw_only=True)
class Source:
    """Where one setting came from, as the error should name it."""

    label: str
    """The flag (`--rollouts`) or variable (`VISTASIM_RUN__ROLLOUTS`) to fix."""
    from_file: bool = False
    """The value is a key of the config file (errors keep the file and the dotted key)."""


def did_you_mean(model: type[BaseModel], loc: Loc) -> str:
    """Return ` (did you mean 'x'?)` for an unknown key at `loc` (a pydantic error location).

    >>> from vistasim.config import RunConfig
    >>> did_you_mean(RunConfig, ("run", "rolouts"))
    " (did you mean 'rollouts'?)"
    """
    name = closest_field(model, loc)
    return f" (did you mean {name!r}?)" if name else ""


def closest_field(model: type[BaseModel], loc: Loc) -> str | None:
    """Return the known field name closest to the unknown last part of `loc`, if any is close."""
    names = field_names_at(model, loc[:-1])
    close = difflib.get_close_matches(str(loc[-1]), names, n=1, cutoff=0.6)
    return close[0] if close else None


def field_names_at(model: type[BaseModel], loc: Loc) -> list[str]:
    """Return the field names of the model that `loc` (a path into `model`'s input) points at.

    Dict values are followed through their keys and a tagged union through its tag, as they
    appear in pydantic error locations; an unresolvable path gives no names.
    """
    node: Any = model
    parts = list(loc)
    while parts:
        if not _is_model(node):
            return []
        field = node.model_fields.get(str(parts.pop(0)))
        if field is None:
            return []
        node = _follow(field.annotation, parts)
    return sorted(node.model_fields) if _is_model(node) else []


def display_loc(model: type[BaseModel], loc: Loc) -> str:
    """Return the dotted key of `loc` without the tags of tagged unions.

    >>> from vistasim.config import RunConfig
    >>> display_loc(RunConfig, ("agent", "openai_chat", "base_url"))
    'agent.base_url'
    """
    kept: list[str] = []
    node: Any = model
    parts = list(loc)
    while parts:
        part = parts.pop(0)
        kept.append(str(part))
        field = node.model_fields.get(str(part)) if _is_model(node) else None
        if field is None:
            kept += [str(p) for p in parts]
            break
        # A dict key is kept (the user wrote it); a union tag is not (it is `kind`'s value).
        node = _follow(field.annotation, parts, keep=kept)
    return ".".join(kept)


def _follow(annotation: Any, parts: list[str | int], keep: list[str] | None = None) -> Any:
    """Step into an annotation, consuming a dict key or a union tag from `parts`."""
    inner = _unwrap(annotation)
    if _is_dict(inner):
        if parts and keep is not None:
            keep.append(str(parts[0]))
        if parts:
            parts.pop(0)
        if parts and parts[0] == "[key]":  # pydantic's mark of an error in the key itself
            parts.pop(0)
        return _unwrap(get_args(inner)[1])
    if isinstance(inner, tuple):  # a union of models, tagged by `kind`
        tag = parts.pop(0) if parts else None
        return next((m for m in inner if _tag(m) == tag), None)
    return inner


def _unwrap(annotation: Any) -> Any:
    """Drop `Annotated` and `None` from an annotation; a union of models becomes a tuple."""
    if get_origin(annotation) is Annotated:
        return _unwrap(get_args(annotation)[0])
    if get_origin(annotation) in (Union, types.UnionType):
        members = [_unwrap(a) for a in get_args(annotation) if a is not type(None)]
        return members[0] if len(members) == 1 else tuple(members)
    return annotation


def _tag(model: Any) -> object:
    field = model.model_fields.get("kind") if _is_model(model) else None
    return field.default if field is not None else None


def _is_dict(annotation: Any) -> bool:
    return get_origin(_unwrap(annotation)) in (dict, Mapping)


def _is_model(node: Any) -> bool:
    return isinstance(node, type) and issubclass(node, BaseModel)


def explain(
    exc: ValidationError,
    model: type[BaseModel],
    *,
    path: str | None,
    source_of: Callable[[list[str]], Source | None],
) -> ConfigError:
    """Turn a config `ValidationError` into one `ConfigError` that names where to fix it.

    `source_of(key_parts)` says where the setting at a dotted key came from: a flag or variable
    (`Source`), or `None` for the config file at `path`.
    """
    errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")  # typos first
    err = errors[0]
    key = display_loc(model, err["loc"])
    parts = key.split(".")
    # A missing key was set nowhere: blame whoever wrote the section it is missing from.
    source = source_of(parts[:-1] if err["type"] == "missing" else parts)
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    message = _describe(err, model, source, key)
    if source is None:
        return ConfigError(f"{message}{more}", path=path, key=key)
    return ConfigError(f"{message} (setting {key}){more}", key=source.label)


def _describe(err: ErrorDetails, model: type[BaseModel], source: Source | None, key: str) -> str:
    loc = err["loc"]
    if err["type"] == "extra_forbidden":
        hint = did_you_mean(model, loc)
        name = closest_field(model, loc)
        if source is not None and source.label.startswith("VISTASIM_") and name:
            hint = f" (did you mean {_variable(source.label, len(key.split('.')) - 1, name)!r}?)"
        return f"unknown setting {str(loc[-1])!r}{hint}; {_SCHEMA_HINT}"
    if err["type"] == "missing":
        return f"required setting {str(loc[-1])!r} is missing; add it ({_SCHEMA_HINT})"
    if err["type"] in _OWN_WORDS:
        return err["msg"]
    hint = _HINTS.get(err["type"], "")
    return f"{err['msg'].removeprefix('Value error, ')} (got {excerpt(err.get('input'))}){hint}"


def _variable(label: str, depth: int, name: str) -> str:
    """The variable `label` with its part at `depth` replaced by `name` (the suggested key)."""
    parts = label.removeprefix("VISTASIM_").split("__")
    if depth < len(parts):
        parts[depth] = name.upper()
    return "VISTASIM_" + "__".join(parts)


def setting_sources(
    from_variables: Mapping[str, Any],
    overrides: Mapping[str, Any],
    *,
    variables: Mapping[tuple[str, ...], str],
    flag_of: Callable[[list[str]], str],
) -> dict[str, str]:
    """The variable or flag behind each dotted key those layers set (a flag wins).

    Checks made after the config is read (the preflight's) blame a setting on its source.

    >>> setting_sources({"run": {"seed": 3}}, {"run": {"rollouts": 2}, "models": {}},
    ...                 variables={("run", "seed"): "VISTASIM_RUN__SEED"},
    ...                 flag_of=lambda parts: "--" + parts[-1])
    {'run.seed': 'VISTASIM_RUN__SEED', 'run.rollouts': '--rollouts'}
    """
    sources = {
        ".".join(parts): variables[parts]
        for parts in _leaves(from_variables)
        if parts in variables
    }
    for parts in _leaves(overrides):
        sources[".".join(parts)] = flag_of(list(parts))
    return sources


def _leaves(layer: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The key paths of the values a layer sets (an empty section sets nothing)."""
    paths: list[tuple[str, ...]] = []
    for key, value in layer.items():
        if isinstance(value, Mapping):
            paths += _leaves(value, (*prefix, str(key)))
        elif value is not None:
            paths.append((*prefix, str(key)))
    return paths


_SCHEMA_HINT = "every setting is listed by `vistasim schema --config`"
_OWN_WORDS = frozenset({"metric_key", "gate"})
"""Errors of our own validators: their message already quotes the value and says the fix."""
_HINTS = {"union_tag_invalid": "; use kind = 'python', 'openai_chat' or 'http_json'"}

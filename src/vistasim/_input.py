"""Read the files users hand to vistasim (configs, scenarios) so no file can hurt the run.

A config or scenario file is text a person wrote, but it may come from anywhere. Before it is
parsed it must be a regular file (a FIFO or a device would block the read), small
(`MAX_FILE_BYTES`) and UTF-8; while it is parsed it may nest no deeper than `MAX_DEPTH`, and YAML
aliases may not expand it past `MAX_YAML_NODES` values (a "billion laughs" of 1 KB would otherwise
grow to gigabytes). A key written twice in one mapping is refused, as TOML does, rather than the
last one silently winning; JSON's `NaN` and `Infinity` are refused too (they are not JSON, and a
value that cannot be written back would leave a run that cannot be stored or resumed). Every
refusal is a `ConfigError` naming the file and the fix, and `excerpt` keeps any quoted value
short, however large it is.
"""

from __future__ import annotations

import json
import re
import reprlib
import stat
import tomllib
from pathlib import Path
from typing import Any

import yaml

from vistasim.errors import ConfigError

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "MAX_YAML_NODES", "excerpt", "read_structured"]

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Largest config or scenario file read (5 MB: thousands of scenarios)."""
MAX_DEPTH = 64
"""Deepest nesting of lists and mappings accepted in a file."""
MAX_YAML_NODES = 200_000
"""Most values a YAML file may hold once its aliases are expanded."""

_EXCERPT = reprlib.Repr()
_EXCERPT.maxlevel, _EXCERPT.maxlist, _EXCERPT.maxtuple = 2, 4, 4
_EXCERPT.maxdict, _EXCERPT.maxstring, _EXCERPT.maxother = 4, 60, 60


def excerpt(value: object, limit: int = 100) -> str:
    """A short `repr` of `value`: bounded in length and in the time it takes, whatever its size.

    >>> excerpt(list(range(1000)))
    '[0, 1, 2, 3, ...]'
    """
    text = _EXCERPT.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_structured(path: Path, *, fmt: str, what: str = "file") -> Any:
    """Read a `toml`, `json` or `yaml` file within the limits above.

    `what` names the file in errors ("config", "scenario file").

    Raises:
        ConfigError: the file cannot be read, is too big, is not UTF-8, does not parse, nests too
            deeply or expands too far.
    """
    text = _read_text(path, what)
    try:
        if fmt == "toml":
            data: Any = tomllib.loads(text)
        elif fmt == "json":
            data = json.loads(text, object_pairs_hook=_unique_pairs, parse_constant=_no_constant)
        else:
            data = yaml.load(text, Loader=_LimitedLoader)  # noqa: S506 - a SafeLoader
    except RecursionError:
        raise _too_deep(path) from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, yaml.YAMLError) as exc:
        message = " ".join(str(exc).split())[:300] + _quoted_line(text, exc)
        raise ConfigError(f"not valid {fmt.upper()}: {message}", path=str(path)) from None
    except _Refused as exc:
        raise ConfigError(str(exc), path=str(path)) from None
    if _depth(data) > MAX_DEPTH:
        raise _too_deep(path)
    return data


def _quoted_line(text: str, exc: Exception) -> str:
    """The line a TOML error points at (tomllib's message names only its number)."""
    if not isinstance(exc, tomllib.TOMLDecodeError):
        return ""
    found = re.search(r"at line (\d+)", str(exc))
    lines = text.splitlines()
    if found is None or not 0 < int(found.group(1)) <= len(lines):
        return ""
    return f": {excerpt(lines[int(found.group(1)) - 1].strip())}"


def _read_text(path: Path, what: str) -> str:
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise ConfigError(
                f"the {what} is not a regular file (a folder, a pipe or a device); name a file",
                path=str(path),
            )
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read {what} ({exc.strerror})", path=str(path)) from None
    if len(data) > MAX_FILE_BYTES:
        raise ConfigError(
            f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; split it into "
            "smaller files",
            path=str(path),
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8",
            path=str(path),
        ) from None


def _too_deep(path: Path) -> ConfigError:
    return ConfigError(
        f"the file nests lists or mappings more than {MAX_DEPTH} levels deep; flatten it",
        path=str(path),
    )


def _depth(data: Any) -> int:
    """Nesting depth of parsed data, without recursion (shared values are walked once)."""
    deepest, seen = 0, set()
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if not isinstance(value, dict | list) or id(value) in seen:
            continue
        seen.add(id(value))
        deepest = max(deepest, depth + 1)
        if deepest > MAX_DEPTH:
            return deepest
        children = value.values() if isinstance(value, dict) else value
        stack.extend((child, depth + 1) for child in children)
    return deepest


class _Refused(Exception):
    """A file breaks a limit or a rule (the message says which, where, and the fix)."""


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object from its pairs, refusing a key that appears twice."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _Refused(f"the key {excerpt(key)} appears twice in one object; keep one")
        data[key] = value
    return data


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number; write a finite number, or a string")


class _LimitedLoader(yaml.SafeLoader):
    """A `SafeLoader` that refuses deep nesting and alias expansion past `MAX_YAML_NODES`."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._nesting = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._nesting += 1
        try:
            if self._nesting > MAX_DEPTH:
                mark = self.get_mark()
                raise _Refused(
                    f"line {mark.line + 1}: the file nests lists or mappings more than "
                    f"{MAX_DEPTH} levels deep; flatten it"
                )
            return super().compose_node(parent, index)
        finally:
            self._nesting -= 1

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _value in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # `<<: *base` merges another mapping in; its keys may be overridden
            key = self.construct_object(key_node, deep=True)
            if isinstance(key, list | dict):
                continue  # an unhashable key: the base loader reports it
            if key in seen:
                raise _Refused(
                    f"line {key_node.start_mark.line + 1}: the key {excerpt(key)} appears twice "
                    "in one mapping (the second would silently replace the first); keep one"
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def compose_document(self) -> Any:
        node = super().compose_document()
        if node is not None and _expanded_size(node, {}, set()) > MAX_YAML_NODES:
            raise _Refused(
                f"YAML aliases (*name) expand the file to more than {MAX_YAML_NODES:,} values; "
                "write repeated values out, or use fewer aliases"
            )
        return node


def _expanded_size(node: yaml.Node, memo: dict[int, int], open_nodes: set[int]) -> int:
    """Values in `node` once every alias is expanded (depth is bounded by `compose_node`)."""
    key = id(node)
    if key in memo:
        return memo[key]
    if key in open_nodes:
        raise _Refused(
            f"line {node.start_mark.line + 1}: a YAML alias refers to a value that contains "
            "it (a recursive alias); write the value out"
        )
    open_nodes.add(key)
    size = 1
    if isinstance(node, yaml.SequenceNode):
        size += sum(_expanded_size(child, memo, open_nodes) for child in node.value)
    elif isinstance(node, yaml.MappingNode):
        for name, value in node.value:
            size += _expanded_size(name, memo, open_nodes)
            size += _expanded_size(value, memo, open_nodes)
    open_nodes.discard(key)
    memo[key] = size
    return size

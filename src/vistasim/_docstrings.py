"""JSON schemas whose properties are described by the attribute docstrings of their models.

The config and scenario models document each field with a docstring under it; editors show those
descriptions on hover (`vistasim schema`) and the scenario generator's model reads them. Pydantic
can collect them itself (`use_attribute_docstrings`), but it does so for every model class as it
is built, re-reading and tokenising the source file class by class: about a tenth of a second on
every start of `vistasim run`, which never prints a schema. So the models are built without
them, and the descriptions are added here, when a schema is asked for.
"""

from __future__ import annotations

import ast
import inspect
import types
import typing
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel

__all__ = ["described_schema"]


def described_schema(model: type[BaseModel]) -> dict[str, Any]:
    """`model.model_json_schema()`, each property described by its field's docstring."""
    schema = model.model_json_schema()
    classes = {cls.__name__: cls for cls in _reachable(model)}
    nodes = [(schema, model)]
    nodes += [(node, classes[name]) for name, node in schema.get("$defs", {}).items()
              if name in classes]  # fmt: skip
    for node, cls in nodes:
        docs = _field_docs(cls)
        by_key = {field.alias or name: name for name, field in cls.model_fields.items()}
        for key, prop in (node.get("properties") or {}).items():
            doc = docs.get(by_key.get(key, key))
            if doc and not prop.get("description"):
                prop["description"] = doc
    return schema


def _reachable(model: type[BaseModel]) -> list[type[BaseModel]]:
    """`model` and every model its fields can hold, at any depth."""
    found: list[type[BaseModel]] = []
    pending: list[Any] = [model]
    while pending:
        item = pending.pop()
        if isinstance(item, type) and issubclass(item, BaseModel):
            if item in found:
                continue
            found.append(item)
            pending += [field.annotation for field in item.model_fields.values()]
        elif isinstance(item, types.UnionType) or typing.get_origin(item) is not None:
            pending += typing.get_args(item)
    return found


def _field_docs(cls: type[BaseModel]) -> dict[str, str]:
    """Field name -> docstring, for `cls` and the models it inherits from (nearest wins)."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if issubclass(klass, BaseModel) and klass is not BaseModel:
            docs.update(_class_docs(klass.__module__, klass.__qualname__))
    return docs


@cache
def _class_docs(module: str, qualname: str) -> dict[str, str]:
    tree = _module_tree(module)
    if tree is None:
        return {}
    body: list[ast.stmt] = tree.body
    for part in qualname.split("."):
        node = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == part), None)
        if node is None:
            return {}
        body = node.body
    docs: dict[str, str] = {}
    for stmt, after in zip(body, body[1:], strict=False):
        if (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[stmt.target.id] = inspect.cleandoc(after.value.value)
    return docs


@cache
def _module_tree(module: str) -> ast.Module | None:
    import sys

    source = getattr(sys.modules.get(module), "__file__", None)
    if not source or not source.endswith(".py"):
        return None
    return ast.parse(Path(source).read_text(encoding="utf-8"))

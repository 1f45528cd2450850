"""Build a small value that fits a JSON schema: what a fake model answers when JSON is asked for."""

from __future__ import annotations

from typing import Any

__all__ = ["example_for_schema"]


def example_for_schema(schema: dict[str, Any], root: dict[str, Any]) -> Any:
    """Build a small value that satisfies a JSON schema (the subset pydantic emits)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return example_for_schema(root.get("$defs", {}).get(name, {}), root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    if "default" in schema:
        return schema["default"]
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            return example_for_schema(schema[key][0], root)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = kind[0]
    if kind == "object":
        props = schema.get("properties", {})
        return {name: example_for_schema(sub, root) for name, sub in props.items()}
    if kind == "array":
        return [example_for_schema(schema["items"], root)] * schema.get("minItems", 0)
    simple = {"string": "x", "integer": schema.get("minimum", 1), "boolean": False, "null": None}
    return simple.get(kind, schema.get("minimum", 1.0))

"""Typed JSON answers from any chat model, with a bounded repair loop.

Judges, junction choosers and LLM users need a validated object, not text. Models wrap JSON in
code fences, truncate it or miss a field; showing them their own reply and the validation error
fixes most of that within a retry or two.
"""

from __future__ import annotations

import json
import re
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from vistasim.errors import VistasimError
from vistasim.llm._types import ChatMessage, ChatModel, ChatRequest

T = TypeVar("T", bound=BaseModel)

_CUT = (
    "(root): the reply was cut off at the output bound (max_tokens) before it was complete; "
    "reply with a shorter JSON object"
)
_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


class InvalidOutputError(VistasimError):
    """A model gave no reply that validates against the schema within its repair budget."""

    def __init__(self, message: str, *, errors: list[str], last_text: str) -> None:
        self.errors = errors
        """The validation errors of the last reply, one `location: message` line each."""
        self.last_text = last_text
        """The last reply, as the model wrote it."""
        super().__init__(message)


def strip_fences(text: str) -> str:
    r"""Remove one surrounding Markdown code fence, if any.

    >>> strip_fences('```json\n{"a": 1}\n```')
    '{"a": 1}'
    """
    match = _FENCE.match(text)
    return match.group(1).strip() if match else text.strip()


def json_schema_format(schema: type[BaseModel]) -> dict[str, object]:
    """Return an OpenAI `response_format` block asking for JSON that matches `schema`."""
    # Not `strict`: strict mode requires every property to be required and closed, which
    # pydantic schemas with defaults are not; validation below enforces the schema anyway.
    return {
        "type": "json_schema",
        "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema()},
    }


async def complete_json(
    model: ChatModel, request: ChatRequest, schema: type[T], *, max_repairs: int = 2
) -> tuple[T, int]:
    """Ask `model` for a JSON object matching `schema`, repairing bad replies.

    Args:
        model: Any chat model (usually a `RoleModel`).
        request: The prompt; a `json_schema` response format is added when it has none.
        schema: The pydantic model the reply must validate against.
        max_repairs: Extra calls allowed after the first invalid reply.

    Returns:
        The validated value and the number of model calls made.

    Raises:
        InvalidOutputError: no reply validated after `max_repairs` repairs.
    """
    if request.response_format is None:
        request = request.model_copy(update={"response_format": json_schema_format(schema)})
    calls = 0
    while True:
        response = await model.complete(request)
        calls += 1
        try:
            return schema.model_validate_json(strip_fences(response.text)), calls
        except ValidationError as exc:
            errors = _describe(exc)
        if response.finish_reason == "length":
            errors.insert(0, _CUT)
        if calls > max_repairs:
            raise InvalidOutputError(
                f"model {model.name!r} gave no valid {schema.__name__} in {calls} calls; "
                f"last errors: {'; '.join(errors)[:500]}; last reply: {response.text[:200]!r}",
                errors=errors,
                last_text=response.text,
            )
        request = _with_repair(request, response.text, errors, schema)


def _describe(exc: ValidationError) -> list[str]:
    lines = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "(root)"
        lines.append(f"{where}: {error['msg']}")
    return lines


def _with_repair(
    request: ChatRequest, bad_text: str, errors: list[str], schema: type[BaseModel]
) -> ChatRequest:
    fields = json.dumps(list(schema.model_fields))
    feedback = (
        "Your reply was not a valid JSON object for the requested schema:\n"
        + "\n".join(f"- {line}" for line in errors)
        + f"\nReply again with only the corrected JSON object (fields: {fields})."
    )
    messages = [
        *request.messages,
        ChatMessage(role="assistant", content=bad_text),
        ChatMessage(role="user", content=feedback),
    ]
    return request.model_copy(update={"messages": messages})

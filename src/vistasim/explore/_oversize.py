"""Cut an agent's reply or tool result that is over the run's size cap.

An agent that answers with 20 MB is broken, but it must not break the run: stored whole, such a
reply is re-read, re-sent to the simulated user and re-judged on every later turn. Anything over
`run.max_reply_bytes` is cut to the cap when it arrives, and the event says how big it was
(`oversized`), so the failure detectors report it as the agent's failure.
"""

from __future__ import annotations

import json

from vistasim.events import ToolCall

__all__ = ["cut_text", "cut_tool_call"]

_MARK = "…"


def cut_text(text: str, limit: int) -> tuple[str, int | None]:
    """Return `text` cut to `limit` UTF-8 bytes and its size, or `(text, None)` if it fits.

    >>> cut_text("héllo", 3)
    ('hé…', 6)
    """
    data = text.encode()
    if len(data) <= limit:
        return text, None
    return data[:limit].decode(errors="ignore") + _MARK, len(data)


def cut_tool_call(call: ToolCall, limit: int) -> ToolCall:
    """Return the call with its result cut to `limit` bytes of JSON, if it was bigger."""
    if call.result is None or isinstance(call.result, bool | int | float):
        return call
    raw = json.dumps(call.result, ensure_ascii=False)
    cut, size = cut_text(raw, limit)
    if size is None:
        return call
    return call.model_copy(update={"result": cut, "oversized": size})

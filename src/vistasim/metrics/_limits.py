"""A refusal by a limit that the request does not exceed: the classic off-by-one.

- `refused-within-limit`: a reply that makes no change and proposes none says the request
  "would bring you to 18 credits" and that "the maximum is 18 credits": by its own figures the
  request is within the limit, so the refusal has no reason (a `>=` where `>` was meant), and
  whatever the real answer was (a missing prerequisite, say) is hidden behind it.

Both figures must be said with the same unit word ("credits", "nights", "items") in one reply,
the limit after a word that makes it one ("maximum", "limit", "at most", "up to", "no more
than"), the request after words that make it what the change would reach ("would bring you to",
"would come to", "would be", "a total of").
"""

from __future__ import annotations

import re

from vistasim.events import AgentReply, ToolCall
from vistasim.metrics._failures import Failure, detector_failures
from vistasim.metrics._writes import WriteTools
from vistasim.store import EpisodeView

__all__ = ["LIMIT_DETECTORS", "detect_limits"]

LIMIT_DETECTORS: dict[str, str] = {
    "refused-within-limit": "refused by a limit that its own figures say was not exceeded",
}
"""Detector ids and their descriptions, worded the same every time."""

_AMOUNT = r"(\d+(?:\.\d+)?)\s*([a-z]+)?"
_LIMIT = re.compile(
    r"\b(?:maximum|max|limit|cap|at most|up to|no more than)\b"
    rf"(?:\s+(?:is|of|allowed))?[^\d.;]{{0,30}}?{_AMOUNT}",
    re.IGNORECASE,
)
_REACHED = re.compile(
    rf"\bwould\s+(?:bring|take|put|make)\s+(?:you|it|them|the\s+\w+|your\s+\w+)\s+(?:up\s+)?to\s+"
    rf"{_AMOUNT}|\bwould\s+(?:be|come\s+to|total|reach)\s+{_AMOUNT}|\ba\s+total\s+of\s+{_AMOUNT}",
    re.IGNORECASE,
)
_PROPOSES = re.compile(
    r"\b(?:shall i|should i|want me to|would you like me to|go ahead|proceed|confirm)\b",
    re.IGNORECASE,
)


def detect_limits(view: EpisodeView, *, writes: WriteTools) -> list[Failure]:
    """Run the limit detector over one episode."""
    return detector_failures(view, "claims", _DETECTORS, LIMIT_DETECTORS, (view, writes))


def _refused_within_limit(subject: tuple[EpisodeView, WriteTools]) -> list[int]:
    view, writes = subject
    evidence: list[int] = []
    changed = False  # a change since the last reply: the reply reports it, it refuses nothing
    for stored in view.events:
        event = stored.event
        if isinstance(event, ToolCall) and writes.changed_state(event):
            changed = True
        elif isinstance(event, AgentReply):
            if not changed and not _PROPOSES.search(event.text) and _within(event.text):
                evidence.append(stored.id)
            changed = False
    return evidence


def _within(text: str) -> bool:
    limits = [(float(m[1]), _unit(m[2])) for m in _LIMIT.finditer(text)]
    for match in _REACHED.finditer(text):
        groups = list(match.groups())
        pairs = [(groups[i], groups[i + 1]) for i in range(0, len(groups), 2) if groups[i]]
        for number, unit in pairs:
            if unit and any(_unit(unit) == lu and float(number) <= lv for lv, lu in limits):
                return True
    return False


def _unit(word: str | None) -> str:
    word = (word or "").lower()
    return word[:-1] if word.endswith("s") else word


_DETECTORS = {"refused-within-limit": _refused_within_limit}

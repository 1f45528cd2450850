"""A change reported in full that was made in part.

- `claimed-in-full`: in a reply that reports a change, the agent names a field of the tool it
  called ("your email and phone are updated" for `update_contact(email?, phone?)`) that the call
  neither sent nor changed: the call sent the email only. The tool's own argument names (from
  the schemas the run recorded) say which words are fields; the state change says what changed.

Only fields of tools that were called in the turn count, and only words that are a whole
argument name or its last part (`new_phone` -> "phone"), so a reply's other words are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from vistasim.events import ToolCall
from vistasim.metrics._claims import agent_turns
from vistasim.metrics._failures import Failure, detector_failures
from vistasim.metrics._writes import WriteTools
from vistasim.store import EpisodeView

__all__ = ["PARTIAL_DETECTORS", "detect_partial"]

PARTIAL_DETECTORS: dict[str, str] = {
    "claimed-in-full": "said more was changed than its calls changed",
}
"""Detector ids and their descriptions, worded the same every time."""

_REPORT = re.compile(
    r"\b(?:updated|changed|saved|set|added|done|now|is|are|has been|have been)\b", re.IGNORECASE
)
_GENERIC = frozenset({"id", "ref", "reference", "number", "code", "date", "time", "name"})


def detect_partial(
    view: EpisodeView, *, writes: WriteTools, params: Mapping[str, Sequence[str]]
) -> list[Failure]:
    """Run the partial-change detector over one episode; `params`: argument names per tool."""
    subject = (view, writes, params)
    return detector_failures(view, "claims", _DETECTORS, PARTIAL_DETECTORS, subject)


def _claimed_in_full(
    subject: tuple[EpisodeView, WriteTools, Mapping[str, Sequence[str]]],
) -> list[int]:
    view, writes, params = subject
    evidence: list[int] = []
    for turn in agent_turns(view.events):
        calls = [
            s for s in turn.calls
            if isinstance(s.event, ToolCall) and s.event.error is None
            and writes.changed_state(s.event)
        ]  # fmt: skip
        if not calls or turn.reply is None:
            continue
        said = _reported_sentences(turn.reply_text)
        for stored in calls:
            call = stored.event
            assert isinstance(call, ToolCall)
            fields = _field_words(params.get(call.name, ()))
            sent = _field_words([k for k, v in call.args.items() if v not in (None, "")])
            sent |= _field_words([f for c in call.changes or () for f in c.fields])
            claimed = {w for w in fields - sent if re.search(rf"\b{w}\b", said, re.IGNORECASE)}
            claimed = {w for w in claimed if not _reads_back(said, call, w)}
            if claimed:
                evidence += [stored.id, turn.reply.id]
    return evidence


def _reads_back(said: str, call: ToolCall, word: str) -> bool:
    """Whether the reply states the field's value as the call returned it, unchanged.

    "email new@x, phone 07700 900105", where the phone is the one on file, reads it back.
    """
    values = [
        str(v) for k, v in (call.result.items() if isinstance(call.result, dict) else ())
        if str(k).lower().split("_")[-1] == word and v not in (None, "")
    ]  # fmt: skip
    digits = re.sub(r"\D", "", said)
    for value in values:
        plain = re.sub(r"\D", "", value)
        if value.casefold() in said.casefold() or (len(plain) >= 6 and plain in digits):
            return True
    return False


def _field_words(names: Sequence[str]) -> set[str]:
    words: set[str] = set()
    for name in names:
        parts = [p for p in name.lower().split("_") if p]
        if parts and parts[-1] not in _GENERIC and len(parts[-1]) >= 4:
            words.add(parts[-1])
    return words


def _reported_sentences(text: str) -> str:
    """The sentences that report (not ask): "Your email and phone are updated."."""
    sentences = re.split(r"(?<=[.!?])\s+", text)
    return " ".join(s for s in sentences if not s.rstrip().endswith("?") and _REPORT.search(s))


_DETECTORS = {"claimed-in-full": _claimed_in_full}

"""The words a reply reports a change with: the write tools' own verbs and the generic ones.

Split from `metrics/_claims.py` (the say-versus-do detectors), which asks these for each
episode: the verbs come from the tools' names (`cancel_order` -> "cancelled", "canceled"), the
cue patterns are built once per set of write tools.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

__all__ = ["GENERIC_CLAIMS", "GENERIC_VERBS", "claim_cues", "verbs_of"]

GENERIC_CLAIMS = (
    r"\bdone\b", r"\ball set\b", r"\bsuccessfully\b", r"\b(?:gone|went) ahead\b",
    r"\b(?:is|are|'s|'re)\s+(?:now\s+)?(?:in place|on (?:its|their|the) way)\b",
    r"\b(?:is|are|'s|'re)\s+\w+ed\s+and\s+on (?:its|their|the) way\b",
    r"\b(?:is|are|'s|'re)\s+now\s+(?:open|active|live)\b",
    r"\b(?:dispute|case|claim|ticket|complaint|request)\s+(?:\w+\s+)?is\s+(?:now\s+)?open\b",
    r"\bhas been set up\b",
    r"\b(?:payment|refund|transfer|top-?up)\s+(?:taken|made|received|sent|processed)\b",
)  # fmt: skip
"""Words that report success whatever was done; they claim a change only where one was at stake
(a proposal the user answered, a state-changing call): "All set, here's what we have" after a
search claims nothing."""
GENERIC_VERBS = (
    "processed submitted completed placed scheduled booked updated changed applied issued"
    " requested opened filed logged created confirmed arranged"
).split()
"""Past participles that report a change in any product, besides the write tools' own verbs."""
_CHANGE_VERBS = (
    "rescheduled moved cancelled canceled refunded added removed renewed extended blocked"
    " frozen replaced transferred reserved upgraded downgraded activated deactivated reset"
    " refilled ordered raised lowered increased decreased switched set sent charged credited"
    " debited waived cleared taken"
).split()
"""Verbs of particular changes that no write tool may be named after: backed by a change of any
tool but an identity check."""
_CLAIM_FRAMES = (
    r"\b(?:has|have|had)\s+(?:now\s+|just\s+)?(?:been\s+)?(?:successfully\s+)?{v}",
    r"(?:\bI|'ve)\s+(?:just\s+|now\s+|successfully\s+)?{v}",
    r"\b(?:is|are|was|were|'s|'re)\s+now\s+{v}",
    r"\b(?:was|were)\s+(?:just\s+|successfully\s+)?{v}",
    r"^\W*{v}\b",
)
"""How a reply reports a change it made ("has been cancelled", "I've extended", "is now
enrolled"), as opposed to describing a state ("you're enrolled in ART120-A", "R198 has already
ended")."""


PURPOSE = re.compile(
    r"\W*to\s+(?!(?:you|your|the|a|an|my|our|this|that)\b)[a-z]+\b", re.IGNORECASE
)
"""A sentence that opens with what a change is for ("To book an engineer visit on Thursday 26
November, afternoon."): the proposal's own terms, whatever came before it."""


def verbs_of(tool: str) -> set[str]:
    past = _past(tool.split("_")[0].lower())
    return {past, *_spellings(past)}


def claim_cues(write_tools: Sequence[str]) -> tuple[re.Pattern[str], ...]:
    # Every episode of a run asks with (nearly) the same tools: built once per set of tools,
    # not escaped and looked up in `re`'s cache again per episode.
    return _cues_for(frozenset(write_tools))


@cache
def _cues_for(write_tools: frozenset[str]) -> tuple[re.Pattern[str], ...]:
    verbs = {_past(name.split("_")[0].lower()) for name in write_tools}
    verbs |= {p for v in list(verbs) for p in _spellings(v)} | set(GENERIC_VERBS)
    verbs |= set(_CHANGE_VERBS)
    words = "(?:" + "|".join(re.escape(w) for w in sorted(v for v in verbs if len(v) > 3)) + r")\b"
    cues = [*GENERIC_CLAIMS, *(frame.format(v=words) for frame in _CLAIM_FRAMES)]
    return tuple(re.compile(c, re.IGNORECASE) for c in cues)


def _past(verb: str) -> str:
    irregular = {"send": "sent", "make": "made", "put": "put", "set": "set", "pay": "paid"}
    if verb in irregular:
        return irregular[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def _spellings(past: str) -> list[str]:
    # cancelled / canceled; dropped (drop + p + ed); the plain form is the result's status word.
    if past.endswith("ed") and len(past) > 4:
        stem = past[:-2]
        return [stem + stem[-1] + "ed", past]
    return [past]

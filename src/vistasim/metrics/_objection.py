"""`ignored-objection`: the user said no to a proposal and named what they want; it came back.

"I'll move your removal to Tuesday 26 January. Shall I go ahead?" — "No — it should be Thursday
28 January" — and the same proposal for the 26th again, word for word or with the same days and
ids, without a word about the 28th. An agent that cannot give the 28th says so (and so names it);
one that proposes something else changes what it proposes. Only days and ids count as what the
user wants (a product's own kinds, and any day with a number: "28 January"): a bare "no" or a
price the user turns down ("not if it costs £60") names nothing to propose instead.

No write is needed: the flaw shows before anything is changed, and the user who keeps saying no
runs out of turns with nothing done, which the criteria see only as "not moved".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from vistasim.events import AgentReply, UserMessage

if TYPE_CHECKING:
    from collections.abc import Callable

    from vistasim.metrics._behaviour import _Episode
    from vistasim.metrics._mentions import Mention
    from vistasim.store import StoredEvent

__all__ = ["ignored_objection"]

_REJECTS = re.compile(
    r"^\W*(?:again,?\s*)?(?:no\b|nope\b|hmm+\b|that'?s not\b|that is not\b|not\s+\w|wrong\b"
    r"|i said\b|i meant\b)",
    re.IGNORECASE,
)
"""How an answer that turns a proposal down begins ("No — it should be...", "Hmm, that's not
right. I said...")."""


def ignored_objection(
    episode: _Episode, days: Callable[[str], list[Mention]]
) -> list[int]:
    """The answers that turned a proposal down for a value, and the reply proposing it again."""
    evidence: list[int] = []
    for answer in episode.answers_to_confirmation():
        if not _REJECTS.search(answer.text):
            continue
        proposed = _values(episode, answer.question, days)
        wanted = _values(episode, answer.text, days) - proposed
        if not wanted or not proposed:
            continue
        reply = _next_reply(episode, answer.index)
        if reply is None or not episode.says(reply, episode.spec.confirm_cues):
            continue
        assert isinstance(reply.event, AgentReply)
        again = _values(episode, reply.event.text, days)
        if again == proposed:
            evidence.extend([answer.event_id, reply.id])
    return evidence


def _next_reply(episode: _Episode, index: int) -> StoredEvent | None:
    """The agent's reply to the message at `index` (None: the user spoke again first)."""
    for stored in episode.events[index + 1 :]:
        if isinstance(stored.event, UserMessage):
            return None
        if isinstance(stored.event, AgentReply):
            return stored
    return None


def _values(
    episode: _Episode, text: str, days: Callable[[str], list[Mention]]
) -> set[tuple[str, str]]:
    return {(m.kind, m.value) for m in [*episode.mentions(text), *days(text)]}


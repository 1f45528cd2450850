"""Done reports the current sub-goal does not explain.

"That's already been done earlier in this chat" when the chat itself shows nothing done, and a
report of a *later* sub-goal the user also asked for ("Done — your exam is now on 18 December"
while it is on the fee waiver it asked first): that one is done, the current one is not.

For the first: the user cannot see the agent's tools, but it has read the whole chat, so a
claim of something done earlier in it, when no earlier reply reported anything done, is one
it can check, and a real customer disputes it rather than thank the agent (docs/scenarios.md,
"The agenda": the user believes only what the chat shows).
"""

from __future__ import annotations

import re

from vistasim.user._agenda_state import AgendaEntry, AgendaState
from vistasim.user._lexicon import is_done, split_sentences
from vistasim.user._reading import refusal
from vistasim.user._types import UserView

_IN_THIS_CHAT = re.compile(
    r"\b(?:earlier|before|above|already|previously)\b[^.?!]{0,40}?"
    r"\b(?:in|during)\s+(?:this|our|the)\s+(?:chat|conversation)\b"
    r"|\bas I (?:already |just )?(?:said|mentioned|explained|confirmed)\b"
    r"|\bas (?:already |just )?(?:mentioned|confirmed|discussed) (?:above|earlier|before)\b",
    re.IGNORECASE,
)


def refers_to_chat(message: str) -> bool:
    """Whether a done report in the message points back to the chat for its proof.

    >>> refers_to_chat("That's already been done earlier in this chat.")
    True
    >>> refers_to_chat("Your order has already been cancelled.")
    False
    """
    return any(_IN_THIS_CHAT.search(s) is not None and is_done(s) for s in split_sentences(message))


def done_before_unseen(view: UserView, message: str) -> bool:
    """Whether `message` says the request was done earlier in the chat, unseen there.

    Any earlier reply reporting something done, or refusing something with a reason, counts
    as seen: what the user may have misread is not disputed.
    """
    if not refers_to_chat(message):
        return False
    earlier = [u.text for u in view.transcript if u.role == "agent" and u.text != message]
    return not any(is_done(text) or refusal(text) is not None for text in earlier)


def later_done(state: AgendaState, message: str) -> int | None:
    """The position of a later sub-goal the user asked for that a done report names.

    `None` when the report names the current sub-goal, or no later one it asked for.
    """
    if names_entry(state.stack[0], message):
        return None
    return next(
        (i for i, e in enumerate(state.stack[1:], 1) if e.asked and names_entry(e, message)), None
    )


def names_entry(entry: AgendaEntry, text: str) -> bool:
    """Whether a text names a sub-goal: one of its values, or a word of its intent."""
    lowered = text.casefold()
    values = [str(v).casefold() for k, v in entry.slots.items() if k != "api"]
    words = [w for w in entry.intent.lower().split("_") if len(w) >= 4]
    return any(v and v in lowered for v in values) or any(
        re.search(rf"\b{re.escape(w[:5])}", lowered) for w in words
    )

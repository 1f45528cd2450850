"""What both held-out agents share: tool calls with a trace, JSON state, and plain-word parsing.

Each agent keeps its whole conversation state in one JSON dict (`self.state`), so `snapshot()`
and `restore()` are a deep copy. A turn resets the list of tool calls; every call goes through
`call()`, which records it as a `ToolCall` for the reply, in order.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from vistasim.agent import Reply, Turn
from vistasim.env import ToolOutcome
from vistasim.events import ToolCall
from vistasim.testing import note_flaw

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_YES = re.compile(
    r"\b(?:yes|yeah|yep|yup|sure|ok|okay|correct|right|please do|go ahead|do it|proceed|"
    r"confirm(?:ed)?|sounds good|absolutely|definitely|affirmative)\b"
)
_NO = re.compile(
    r"\b(?:no|nope|not|don'?t|do not|wait|hold on|hang on|stop|never ?mind|rather not|"
    r"let me think|not yet|unsure|not sure|maybe|hmm+|cancel that)\b"
)
_CORRECTION = re.compile(
    r"\b(?:sorry|i mean|i meant|no wait|wait|actually|correction|rather|make that|instead)\b"
)
_THANKS = re.compile(r"\b(?:thanks|thank you|that'?s all|bye|goodbye|nothing else|that is all)\b")


def is_yes(text: str) -> bool:
    """Whether the text is a plain, unhedged yes."""
    low = text.lower()
    return bool(_YES.search(low)) and not _NO.search(low)


def is_no(text: str) -> bool:
    """Whether the text declines or hesitates (anything negative wins over a yes)."""
    return bool(_NO.search(text.lower()))


def is_thanks(text: str) -> bool:
    """Whether the customer is closing the conversation."""
    return bool(_THANKS.search(text.lower()))


def answer_text(text: str) -> str:
    """A free-text answer without its conversational lead-in ('Yes, it was a gift.')."""
    lead = r"^(?:(?:yes|yeah|sure|okay|ok|well|so|again|as i said|like i mentioned)[,.!:]?\s+)+"
    stripped = re.sub(lead, "", text.strip(), flags=re.IGNORECASE)
    return stripped[:1].upper() + stripped[1:] if stripped else text.strip()


def emails(text: str) -> list[str]:
    """Email addresses in the text, in order."""
    return [e.rstrip(".").lower() for e in EMAIL.findall(text)]


def corrected(text: str, values: list[str], positions: list[int]) -> list[str]:
    """Drop values the customer took back: with a correction cue, keep only those after it.

    Args:
        text: The message.
        values: Ids found in the message, in order.
        positions: Where each id starts in `text`.

    Returns:
        The values still meant, in order.
    """
    if len(values) < 2:
        return values
    cues = [m.start() for m in _CORRECTION.finditer(text.lower())]
    between = [c for c in cues if positions[0] < c < positions[-1]]
    if not between:
        return values
    cut = between[-1]
    return [v for v, p in zip(values, positions, strict=True) if p > cut]


def singular(word: str) -> str:
    """A crude singular for matching item names ('boots' -> 'boot')."""
    word = word.lower()
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def words(text: str) -> set[str]:
    """The singular word forms in a text."""
    return {singular(w) for w in re.findall(r"[A-Za-z][A-Za-z'-]+", text)}


def money(cents: int) -> str:
    """Cents as dollars, e.g. `$42.69`."""
    return f"${cents / 100:,.2f}"


class SlotAgent:
    """A deterministic slot-filling support bot: state in JSON, tools through `call()`."""

    restore_strategy = "state"
    FLAW_PREFIX = "heldout"

    def __init__(self, *, env: Any) -> None:
        self.env = env
        self.state: dict[str, Any] = self.initial_state()
        self._turn: Turn | None = None
        self._calls: list[ToolCall] = []

    def initial_state(self) -> dict[str, Any]:
        """The state of a new conversation."""
        return {"tasks": [], "asked": None}

    async def respond(self, turn: Turn) -> Reply:
        """Answer one customer message."""
        self._turn = turn
        self._calls = []
        text = await self.handle(turn.message)
        return Reply(text=text, tool_calls=tuple(self._calls))

    async def handle(self, message: str) -> str:
        """Turn one message into the reply text (implemented by each agent)."""
        raise NotImplementedError

    async def call(self, name: str, args: dict[str, Any]) -> ToolOutcome:
        """Call a tool and record it for this turn's reply."""
        outcome = await self.env.call_tool(name, args)
        self._calls.append(
            ToolCall(name=name, args=dict(args), result=outcome.result, error=outcome.error)
        )
        return outcome

    def flaw(self, number: int) -> None:
        """Record that documented flaw H<number> changes what the agent does in this turn."""
        if self._turn is not None:
            note_flaw(self._turn, f"{self.FLAW_PREFIX}:H{number}")

    def snapshot(self) -> dict[str, Any]:
        """The conversation state as plain JSON."""
        return copy.deepcopy(self.state)

    def restore(self, state: dict[str, Any]) -> None:
        """Go back to a state from `snapshot()`."""
        self.state = copy.deepcopy(state)

    async def aclose(self) -> None:
        """Nothing to release: the agent holds no connections."""
        return None

    @property
    def task(self) -> dict[str, Any] | None:
        """The request being worked on, if any."""
        tasks = self.state["tasks"]
        return tasks[0] if tasks else None

    def finish_task(self) -> None:
        """Drop the current request; the next queued one (if any) becomes current."""
        if self.state["tasks"]:
            self.state["tasks"].pop(0)
        self.state["asked"] = None

    def ask(self, slot: str, text: str) -> str:
        """Remember which detail was asked for, so the next answer fills it."""
        self.state["asked"] = slot
        return text

"""What every part of the desk bot shares: its state, its tool calls, its replies, its hooks."""

from __future__ import annotations

import copy
from datetime import date, datetime
from typing import Any

from benchmarks.domains.hotel._parse import Message
from benchmarks.domains.hotel._seed import NOW
from vistasim.agent import Turn
from vistasim.events import ToolCall
from vistasim.testing import note_flaw

Task = dict[str, Any]


def set_slot(task: Task, key: str, value: Any) -> bool:
    """Set a request's fact; True when it differs from what was proposed or known before."""
    before = task["proposal"].get(key, task["slots"].get(key))
    task["slots"][key] = value
    return bool(before != value)


HELP = (
    "I can change your dates or room type, add breakfast, book a late check-out, cancel a "
    "booking, update your email or phone number, or pass a special request on to the hotel."
)
ASK_ID = (
    "Could you give me your booking reference (it starts with HL) and the last name on the "
    "booking? If you don't have the reference, the email address and date of birth you booked "
    "with work too."
)


def fresh_state() -> dict[str, Any]:
    """A new conversation: nobody verified, nothing asked."""
    return {
        "id": {"ref": None, "last_name": None, "email": None, "dob": None, "by_email": False},
        "verified": False,
        "guest": None,
        "bookings": [],
        "ref": None,
        "info": None,
        "tasks": [],
        "awaiting": None,
        "failed": 0,
        "others": [],
        "others_done": [],
    }


class DeskBase:
    """State, tool calls and replies; the hooks the request handlers and the flawed agent fill."""

    FLAW_PREFIX = "hotel"

    def __init__(self, env: Any = None) -> None:
        if env is None:
            from benchmarks.domains.hotel._env import make_environment

            env = make_environment()
        self.env = env
        self.state: dict[str, Any] = fresh_state()
        self._turn = Turn(episode_id="", message="")
        self._calls: list[ToolCall] = []
        self._out: list[str] = []

    # -- the agent protocol -------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The conversation state, as plain JSON data."""
        return copy.deepcopy(self.state)

    def restore(self, state: Any) -> None:
        """Go back to a `snapshot()`."""
        self.state = copy.deepcopy(state)

    # -- helpers ------------------------------------------------------------------------------

    @property
    def today(self) -> date:
        clock = getattr(self.env, "now", None)
        now = clock() if callable(clock) else NOW
        return now.date() if isinstance(now, datetime) else NOW.date()

    @property
    def info(self) -> dict[str, Any]:
        info: dict[str, Any] = self.state["info"]
        return info

    @property
    def ref(self) -> str:
        ref: str = self.state["ref"]
        return ref

    def say(self, *parts: str) -> None:
        self._out.extend(parts)

    def flaw(self, code: str) -> None:
        note_flaw(self._turn, f"{self.FLAW_PREFIX}:{code}")

    async def tool(self, name: str, **args: Any) -> tuple[Any, str | None]:
        args = {k: v for k, v in args.items() if v is not None}
        outcome = await self.env.call_tool(name, args)
        self._calls.append(
            ToolCall(name=name, args=args, result=outcome.result, error=outcome.error)
        )
        return outcome.result, outcome.error

    def apply_result(self, result: dict[str, Any], room_name: str | None = None) -> None:
        """Keep the booking as the desk knows it in step with a change's result."""
        info = self.info
        for key in ("check_in", "check_out", "room_type", "room_total_eur", "total_eur", "nights"):
            if key in result:
                info[key] = result[key]
        if room_name:
            info["room_name"] = room_name

    def ask(self, task: Task, question: str, asked: str) -> bool:
        task.update(stage="ask", asked=asked)
        self.say(question)
        return False

    def confirm(
        self, task: Task, question: str, proposal: dict[str, Any], *, offer: bool = False
    ) -> bool:
        """Ask for a yes to `proposal`; `offer`: an alternative to the request (a no drops it)."""
        task.update(stage="confirm", proposal=proposal, question=question, hold=False, offer=offer)
        self.say(question)
        return False

    # -- hooks the handlers and the flawed agent fill in -----------------------------------------

    async def before_verify(self, task: Task) -> None:
        """Called before the guest is verified, with the first pending request."""

    async def other_booking(self, ref: str) -> None:
        """The guest named a booking that is not theirs."""
        self.say(
            f"Just so you know, I can't look up or share anything about booking {ref}: I can "
            "only discuss a booking with the guest it belongs to."
        )

    def fill(self, task: Task, msg: Message) -> bool:
        """Take the request's facts from a message; True when one changed."""
        changed: bool = getattr(self, f"fill_{task['kind']}")(task, msg)
        return changed

    async def step(self, task: Task) -> bool:
        """Move a request on; True once it is finished (done, refused or dropped)."""
        if task["stage"] == "confirm":
            if not task.get("hold"):
                self.say(task["question"])
            task["hold"] = False
            return False
        name = "do" if task["stage"] == "go" else "step"
        done: bool = await getattr(self, f"{name}_{task['kind']}")(task)
        return done

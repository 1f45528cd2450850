"""The desk bot's conversation: verify the guest, pick the booking, work through the requests.

Each guest request is a task (`dates`, `room`, `breakfast`, `late`, `cancel`, `details`, `note`,
`info`) kept in a queue, so two requests in one message are both handled, in the order asked.
A task goes `new` -> (`ask` for a missing fact) -> `confirm` (the price or fee is stated and a
yes is needed) -> `go` (the tool runs and its result is reported). The handlers live in
`_tasks_*.py`, verification in `_identity.py`; this module holds the turn loop they share.
"""

from __future__ import annotations

import re

from benchmarks.domains.hotel._dates import find_dates
from benchmarks.domains.hotel._desk_base import ASK_ID, HELP, Task
from benchmarks.domains.hotel._identity import GuestIdentity
from benchmarks.domains.hotel._parse import Message
from vistasim.agent import Reply, Turn


class DeskCore(GuestIdentity):
    """The per-turn loop shared by the correct and the flawed agent."""

    async def respond(self, turn: Turn) -> Reply:
        """Answer one guest message."""
        self._turn, self._calls, self._out = turn, [], []
        await self._handle(Message(turn.message, self.today))
        text = " ".join(p for p in self._out if p).strip()
        if not text:
            text = f"Sorry, I didn't quite catch that. {HELP} What would you like to do?"
        return Reply(text=text, tool_calls=tuple(self._calls))

    # -- one turn -----------------------------------------------------------------------------

    async def _handle(self, msg: Message) -> None:
        s = self.state
        self._absorb_identity(msg)
        tasks: list[Task] = s["tasks"]
        consumed: set[str] = set()
        if s["awaiting"] == "booking":
            consumed = set(msg.intents) if self._pick_booking(msg) else set()
        elif tasks and tasks[0]["stage"] in ("ask", "confirm"):
            consumed = self._answer(tasks[0], msg)
        for kind in msg.intents:
            if kind not in consumed and all(t["kind"] != kind for t in tasks):
                self._queue(kind, msg)
        if not s["tasks"]:
            if msg.farewell:
                self.say("You're welcome — enjoy your stay with Harbourline!")
                return
            if msg.why and s["awaiting"] == "identity":
                self.say(
                    "I need them to check that you're the guest on the booking: I can only "
                    "look at or change a booking for the person it belongs to."
                )
        await self._drive(msg)

    def _queue(self, kind: str, msg: Message) -> None:
        task: Task = {
            "kind": kind,
            "stage": "new",
            "slots": {},
            "texts": [],
            "proposal": {},
            "source": msg.text,
        }
        self.state["tasks"].append(task)
        self.fill(task, msg)

    def _answer(self, task: Task, msg: Message) -> set[str]:
        consumed = {task["kind"], "room"} if task["kind"] == "dates" else {task["kind"]}
        if msg.no:
            consumed.add("cancel")
        changed = self.fill(task, msg)
        if changed:
            task["stage"] = "new"
        elif task["stage"] == "confirm" and msg.yes:
            task["stage"] = "go"
        elif task["stage"] == "confirm" and msg.no and msg.hesitant:
            task["hold"] = True
            self.say(
                "No problem — I haven't changed anything. Just tell me when you'd like me to "
                "go ahead, or if you'd like something different."
            )
        elif msg.no:
            keep = re.search(r"\b(?:leave|keep|forget|never ?mind|don'?t)\b", msg.low)
            dropped = task.get("offer") or task.get("asked") == "revise" or keep or msg.farewell
            if dropped or task["kind"] in ("breakfast", "cancel"):
                self.state["tasks"].remove(task)
                self.say(f"Alright — I've left booking {self.state['ref']} as it is.")
            else:
                task.update(stage="new", slots={}, proposal={}, texts=[])
                self.say("Sorry about that.")
        return consumed

    async def _drive(self, msg: Message) -> None:
        s = self.state
        finished_any = False
        while s["tasks"]:
            task = s["tasks"][0]
            if not s["verified"]:
                await self.before_verify(task)
                if not await self._verify():
                    return
            if not s["ref"] and not await self._choose(msg):
                return
            await self._mention_others()
            if not await self.step(task):
                return
            s["tasks"].remove(task)
            finished_any = True
        if finished_any:
            self.say("Is there anything else I can help with?")
        elif not self._out:
            idn = s["id"]
            complete = (idn["ref"] and idn["last_name"]) or (idn["email"] and idn["dob"])
            if not s["verified"] and complete:
                if await self._verify() and (s["ref"] or await self._choose(msg)):
                    self.say(f"How can I help with booking {s['ref']}? {HELP}")
                return
            dated = [f for f in find_dates(msg.text, self.today) if f.day >= self.today]
            if s["verified"] and s["ref"] and dated and not msg.intents:
                self._queue("dates", msg)  # "to the 19th until the 21st", after "how can I help?"
                await self._drive(msg)
                return
            if s["verified"] and s["ref"] and msg.yes and not msg.intents:
                self.say("Great. Is there anything else I can help with?")
                return
            if not s["verified"] and (any(idn.values()) or s["awaiting"] == "identity"):
                s["awaiting"] = "identity"
                self.say(self._missing_identity())
                return
            if s["verified"] and s["ref"]:
                self.say(f"How can I help with booking {s['ref']}? {HELP}")
            elif s["verified"]:
                await self._choose(msg)
            else:
                self.say(f"Hello, and welcome to Harbourline Hotels. {HELP} {ASK_ID}")
                s["awaiting"] = "identity"

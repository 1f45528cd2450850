"""`BikeDeskAgent`: Spoke & Pedal's offline, rule-based help-desk agent (follows policy.md).

It keeps a small conversation state: the verified customer, the request it is working on, the
requests waiting behind it, the fact it last asked for and a change waiting for a yes. Each turn
it reads the message (`_parse`), verifies identity when an email or phone is given, fills in the
current request, then works through requests until one needs something from the customer.
Deterministic; no model calls.
"""

from __future__ import annotations

import copy
import re
from typing import Any, ClassVar

from pydantic import JsonValue

from benchmarks.bikes._desk_changes import DeskChanges
from benchmarks.bikes._desk_info import Ask, Step, Stop
from benchmarks.bikes._parse import Parsed, parse
from vistasim.agent import Reply, Turn
from vistasim.agent._types import RestoreStrategy
from vistasim.events import ToolCall

__all__ = ["BikeDeskAgent"]

_IDENTITY = (
    "Happy to help. First I need to find your account: what's the email address or "
    "phone number you signed up with?"
)
_LEADS = {
    "rental_due_time": "As for the due time:",
    "rental_cost": "As for the cost:",
    "extend_rental": "Now, the extension:",
    "end_rental": "Now, the return:",
    "reserve_bike": "Now, the reservation:",
    "cancel_reservation": "Now, cancelling the reservation:",
    "report_damage": "Now, the damage report:",
    "refund": "Now, the refund:",
    "station_availability": "As for availability:",
}
_STATE = ("customer", "task", "queue", "awaiting", "proposal", "last_rental", "asked", "pending")
_CHANGE_KEYS = {
    "extend_rental": ("rental_id", "duration"),
    "end_rental": ("rental_id", "station"),
    "reserve_bike": ("station", "bike_type", "pickup_day", "pickup_clock"),
    "cancel_reservation": ("reservation_id",),
    "report_damage": ("rental_id",),
    "refund": ("rental_id", "charge_id"),
}
"""Facts that, said while a change waits for a yes, change the proposal instead."""


class BikeDeskAgent(DeskChanges):
    """The Spoke & Pedal help desk: verifies, asks one thing at a time, confirms every change."""

    restore_strategy: ClassVar[RestoreStrategy] = "state"

    def __init__(self, *, env: Any) -> None:
        self.env = env
        self.customer: dict | None = None
        self.task: dict | None = None
        self.queue: list[dict] = []
        self.awaiting: str | None = None
        self.proposal: dict | None = None
        self.last_rental: str | None = None
        self.asked: str | None = None
        self.pending: dict = {}
        self._turn: Turn | None = None
        self._calls: list[ToolCall] = []
        self._identity_failed = False

    async def respond(self, turn: Turn) -> Reply:
        """Answer one customer message."""
        self._turn, self._calls, self._identity_failed = turn, [], False
        parsed = parse(turn.message)
        texts: list[str] = []
        welcomed = await self._identify(parsed, texts)
        finished = False
        if self.proposal is not None:
            finished = await self._on_confirmation(parsed, texts)
        else:
            self._absorb(parsed)
        await self._progress(texts, finished)
        if not texts or (welcomed and len(texts) == 1 and self.task is None):
            texts.append(self._small_talk(parsed))
        return Reply(text=" ".join(texts), tool_calls=tuple(self._calls))

    def snapshot(self) -> JsonValue:
        """The conversation state, as JSON."""
        return copy.deepcopy({name: getattr(self, name) for name in _STATE})

    def restore(self, state: JsonValue) -> None:
        """Bring the conversation back to a `snapshot()`."""
        assert isinstance(state, dict)
        for name in _STATE:
            setattr(self, name, copy.deepcopy(state[name]))

    async def aclose(self) -> None:
        """Nothing to release."""

    async def _identify(self, parsed: Parsed, texts: list[str]) -> bool:
        """Look the customer up when they give an email or phone; True when found."""
        if not (parsed.email or parsed.phone) or self._is_current(parsed):
            return False
        args = {k: v for k, v in (("email", parsed.email), ("phone", parsed.phone)) if v}
        outcome = await self._tool("find_customer", args)
        if outcome.error:
            self._identity_failed = True
            given = f"the email {parsed.email}" if parsed.email else f"the number {parsed.phone}"
            other = "phone number" if parsed.email else "email address"
            texts.append(
                f"Hmm, I couldn't find an account with {given}. Could you check it, or "
                f"give me the {other} on your account instead?"
            )
            return False
        found: dict = outcome.result  # type: ignore[assignment]
        if self.customer and self.customer["id"] != found["customer_id"]:
            self.last_rental = None
        self.customer = {
            "id": found["customer_id"],
            "name": found["name"],
            "email": found["email"],
            "phone_digits": re.sub(r"\D", "", found["phone"])[-9:],
            "plan": found["plan"],
            "rentals": {r["rental_id"]: r["status"] for r in found["rentals"]},
            "reservations": {
                v["reservation_id"]: {
                    k: v[k] for k in ("status", "station", "bike_type", "pickup_at")
                }
                for v in found["reservations"]
            },
        }
        texts.append(f"Thanks, {found['name'].split()[0]} — I've found your account.")
        return True

    def _is_current(self, parsed: Parsed) -> bool:
        customer = self.customer
        if customer is None:
            return False
        if parsed.email:
            return parsed.email == customer["email"].lower()
        return re.sub(r"\D", "", parsed.phone or "")[-9:] == customer["phone_digits"]

    def _absorb(self, parsed: Parsed) -> None:
        """Put the message's facts and requests into the conversation."""
        if self.task is not None:
            self._answer_slot(self.task, parsed)
        requests = parsed.requests
        if not requests and self.task is None and parsed.loose.get("duration"):
            requests = [("extend_rental", parsed.loose)]  # "then 3 hours", after an offer
        for intent, facts in requests:
            self._add_request(intent, facts)
        target = self.task or (self.queue[0] if self.queue else None)
        if target is not None:
            target["slots"].update(self.pending)
            target["slots"].update(parsed.loose)
            self.pending = {}
        else:
            self.pending.update({k: v for k, v in parsed.loose.items() if k != "about_docks"})

    def _answer_slot(self, task: dict, parsed: Parsed) -> None:
        """Read the message as the answer to the question last asked, when it is free text."""
        text, slots = parsed.text.strip(), task["slots"]
        if self.awaiting == "description" and not parsed.requests and len(text) >= 10:
            slots["description"] = text
        elif self.awaiting == "reason" and not slots.get("reason_kind"):
            facts = parsed.loose if not parsed.requests else parsed.requests[0][1]
            slots["reason_kind"] = facts.get("reason_kind", "other")
            slots["reason"] = text
        elif self.awaiting == "pickup_clock" and "pickup_clock" not in parsed.loose:
            bare = re.fullmatch(r"\D*?(\d{1,2})(?::(\d\d))?\D*", text)
            if bare and int(bare.group(1)) < 24:
                slots["pickup_clock"] = f"{int(bare.group(1)):02d}:{bare.group(2) or '00'}"

    def _add_request(self, intent: str, facts: dict) -> None:
        for task in ([self.task] if self.task else []) + self.queue:
            if task["intent"] == intent:
                task["slots"].update(facts)
                return
        new = {"intent": intent, "slots": {**self.pending, **facts}}
        self.pending = {}
        if self.task is None:
            self.task = new
        else:
            self.queue.append(new)

    async def _on_confirmation(self, parsed: Parsed, texts: list[str]) -> bool:
        """Handle the reply to "shall I go ahead?"; True when the change was made."""
        assert self.proposal is not None and self.task is not None
        intent = self.proposal["intent"]
        others = [(i, f) for i, f in parsed.requests if i != intent]
        changes = {
            **parsed.loose,
            **{k: v for i, f in parsed.requests if i == intent for k, v in f.items()},
        }
        changes = {
            k: v
            for k, v in changes.items()
            if k in _CHANGE_KEYS[intent] and self.task["slots"].get(k) != v
        }
        if parsed.answer == "yes" and not changes:
            step = await self._execute()
            texts.append(step.text)
            self._finish()
            for request in others:
                self._queue_request(*request)
            return True
        self.proposal = None
        if parsed.answer == "no":
            texts.append("Okay — I haven't changed anything.")
            self._finish()
        elif changes:
            self.task["slots"].update(changes)
        elif others:
            waiting, self.task = self.task, None
            for request in others:
                self._queue_request(*request)
            self.queue.append(waiting)
            return False
        else:
            texts.append("Just to be sure —")
        for request in others:
            self._queue_request(*request)
        return False

    def _queue_request(self, intent: str, facts: dict) -> None:
        for task in self.queue:
            if task["intent"] == intent:
                task["slots"].update(facts)
                return
        self.queue.append({"intent": intent, "slots": facts})

    async def _progress(self, texts: list[str], finished: bool) -> None:
        """Work through the requests until one waits for the customer."""
        while True:
            if self.task is None:
                self.task = self._next_task(finished)
                if self.task is None:
                    break
                if finished:
                    texts.append(_LEADS[self.task["intent"]])
            step = await self._run(self.task)
            if step.text:
                texts.append(step.text)
            if not step.done:
                return
            self._finish()
            finished = True
        if finished:
            texts.append("Is there anything else I can help with?")

    def _next_task(self, finished: bool) -> dict | None:
        """(hook) The next waiting request, if any; `finished`: one was done in this reply."""
        return self.queue.pop(0) if self.queue else None

    async def _run(self, task: dict) -> Step:
        try:
            if task["intent"] != "station_availability" and self.customer is None:
                if self._identity_failed:
                    return Step("", done=False)
                raise Ask("identity", _IDENTITY)
            step = await getattr(self, f"_task_{task['intent']}")(task)
        except Ask as ask:
            again = self.asked == ask.slot
            self.awaiting, self.asked = ask.slot, ask.slot
            return Step(f"Sorry, I didn't catch that. {ask.text}" if again else ask.text, False)
        except Stop as stop:
            step = Step(stop.text, done=True)
        self.awaiting = "confirm" if self.proposal else None
        self.asked = None
        return step

    def _finish(self) -> None:
        if self.task is not None:
            rental_id = self.task["slots"].get("rental_id")
            if rental_id and rental_id in (self.customer or {}).get("rentals", {}):
                self.last_rental = rental_id
        self.task, self.awaiting, self.proposal, self.asked = None, None, None, None

    def _small_talk(self, parsed: Parsed) -> str:
        if self.customer and not parsed.requests and (parsed.email or parsed.phone):
            if self.pending.get("rental_id"):
                return f"What can I do for you about {self.pending['rental_id']}?"
            return "What can I do for you today?"
        if parsed.thanks:
            return "You're welcome — enjoy your ride!"
        if parsed.greeting and not self.pending:
            return (
                "Hi, this is the Spoke & Pedal help desk. How can I help — a rental, a "
                "reservation, a damage report or a charge?"
            )
        if self.pending.get("rental_id"):
            return f"What can I do for you about {self.pending['rental_id']}?"
        return (
            "Sorry, I didn't quite follow. I can help with your rentals (due times, costs, "
            "extensions, returns), reservations, damage reports, refunds and station "
            "availability. What would you like to do?"
        )

"""The refill desk bot's machinery: conversation state, tool calls, verification, task tracking.

`Desk` turns messages into tasks (refill, book, delivery, transfer, cancel, phone, copay,
refills_left, status, fee) and keeps a JSON-able state so an episode can be snapshot and
restored. The handlers that decide what to say and do live in `_correct_agent.py`.
"""

from __future__ import annotations

import copy
import re
from datetime import date
from typing import Any

from benchmarks.domains.pharmacy._parse import Parsed, parse
from benchmarks.domains.pharmacy._seed import TODAY
from vistasim.agent import Reply, Turn
from vistasim.events import ToolCall

RX_KINDS = {"refill", "refills_left", "copay", "transfer"}
ORDER_KINDS = {"book", "delivery", "cancel", "status"}
OPEN_KINDS = ORDER_KINDS
NO_VERIFY = {"fee"}
OPEN = ("pending", "ready")
HELP = ("Hello, this is the Willow Pharmacy refill desk. I can refill a prescription, tell you "
        "your refills left or copay, book a pick-up time, switch a refill to home delivery, "
        "transfer a prescription to another branch, cancel a pending refill or update your "
        "phone number for pick-up notices. What can I do for you?")


def fmt_date(iso: str) -> str:
    """'2026-04-11' as 'Saturday, April 11' (with 'today'/'tomorrow' when it is)."""
    day = date.fromisoformat(iso)
    text = f"{day.strftime('%A')}, {day.strftime('%B')} {day.day}"
    if day.year != TODAY.year:
        text += f", {day.year}"
    offset = (day - TODAY).days
    return f"{text} (today)" if offset == 0 else f"{text} (tomorrow)" if offset == 1 else text


def long_date(iso: str) -> str:
    """'2026-12-01' as 'December 1, 2026'."""
    day = date.fromisoformat(iso)
    return f"{day.strftime('%B')} {day.day}, {day.year}"


def fmt_time(hh_mm: str) -> str:
    """'14:45' as '2:45 pm'."""
    hour, minute = int(hh_mm[:2]), hh_mm[3:5]
    return f"{(hour - 1) % 12 + 1}:{minute} {'am' if hour < 12 else 'pm'}"


def money(amount: float) -> str:
    """USD with cents."""
    return f"${amount:.2f}"


def new_state() -> dict[str, Any]:
    """A fresh conversation."""
    return {
        "verified": None, "profile": None, "stale": True, "failures": 0, "locked": False,
        "facts": {"last_name": None, "dob": None, "phone": None, "date": None, "time": None,
                  "period": None, "branch": None},
        "queue": [], "current": None, "pending": None, "asked": None, "offer": [],
        "failed_slots": [], "done": [], "last_order": None,
    }


class Desk:
    """Shared machinery of the refill desk bots (one instance per conversation)."""

    def __init__(self, *, env: Any) -> None:
        self.env = env
        self.s: dict[str, Any] = new_state()
        self._turn: Turn | None = None
        self._calls: list[dict[str, Any]] = []
        self._out: list[str] = []
        self.finished_now = False

    def snapshot(self) -> dict[str, Any]:
        """The conversation state, as JSON data."""
        return copy.deepcopy(self.s)

    def restore(self, state: dict[str, Any]) -> None:
        """Go back to a `snapshot()`."""
        self.s = copy.deepcopy(state)

    async def respond(self, turn: Turn) -> Reply:
        """Answer one patient message."""
        self._turn, self._calls, self._out = turn, [], []
        self.finished_now = False
        p = parse(turn.message, asked=self.s["asked"])
        self.s["last_asked"], self.s["asked"] = self.s["asked"], None
        self._absorb(p)
        await self.converse(p)
        text = " ".join(self._out) or "Sorry, could you say that another way?"
        return Reply(text=text, tool_calls=tuple(ToolCall(**c) for c in self._calls))

    async def converse(self, p: Parsed) -> None:  # pragma: no cover - the agents override it
        """Decide what to do with one parsed message."""
        raise NotImplementedError

    # ---- small helpers -------------------------------------------------------------------

    def say(self, text: str) -> None:
        """Add a sentence to this turn's reply."""
        self._out.append(text)

    def ask(self, what: str, text: str) -> bool:
        """Ask the patient for something; returns False (the task waits)."""
        self.s["asked"] = self.s["last_asked"] = what
        self.s["last_question"] = text
        self.say(text)
        return False

    async def call(self, name: str, args: dict[str, Any]) -> tuple[Any, str | None]:
        """Run one tool and record it for the reply."""
        outcome = await self.env.call_tool(name, args)
        self._calls.append({"name": name, "args": dict(args), "result": outcome.result,
                            "error": outcome.error})
        return outcome.result, outcome.error

    async def profile(self) -> dict[str, Any]:
        """The verified patient's profile, fetched again after a change."""
        if self.s["stale"] or self.s["profile"] is None:
            result, _ = await self.call("get_profile", {})
            self.s["profile"], self.s["stale"] = result or {}, False
        return self.s["profile"]

    def changed(self) -> None:
        """Mark the profile stale after a change."""
        self.s["stale"] = True

    def finish(self) -> None:
        """The current task is over (done, answered or refused)."""
        task = self.s["current"]
        self.finished_now = True
        if task is not None:
            self.s["done"].append([task["kind"], task.get("rx") or task.get("order")])
        self.s["current"], self.s["pending"], self.s["offer"] = None, None, []

    # ---- reading facts and tasks -----------------------------------------------------------

    def _absorb(self, p: Parsed) -> None:
        facts = self.s["facts"]
        if self.s["verified"] is None:
            facts["last_name"] = p.last_name or facts["last_name"]
            facts["dob"] = p.dob or facts["dob"]
        for key, value in (("phone", p.phone), ("date", p.pickup_date), ("branch", p.branch)):
            facts[key] = value or facts[key]
        if p.time:
            facts["time"], facts["period"] = p.time, None
        elif p.period:
            facts["period"], facts["time"] = p.period, None
        elif p.ordinal is not None and self.s["offer"]:
            offer = self.s["offer"]
            facts["time"] = offer[max(min(p.ordinal, len(offer) - 1), -len(offer))]

    def tasks_from(self, p: Parsed) -> list[dict[str, Any]]:
        """New tasks the message asks for, with their targets (rx, order, branch, phone)."""
        kinds = [(pos, kind) for pos, kind in p.intents if not self._noun_refill(p, pos, kind)]
        if p.fee_question:
            kinds = [(pos, "fee" if k == "delivery" else k) for pos, k in kinds]
        tasks = [{"kind": k, "pos": pos, "rx": None, "order": None, "words": sorted(p.words)}
                 for pos, k in kinds]
        if not tasks and (p.rx_ids or p.order_ids) and self.s["done"] and not self.s["current"]:
            tasks = [{"kind": self.s["done"][-1][0], "pos": 0, "rx": None, "order": None,
                      "words": sorted(p.words)}]  # "sorry, I meant RX30412" after an answer
        if not tasks:
            return []
        extra = self._assign(tasks, p.rx_ids, "rx", RX_KINDS, p.correction)
        extra += self._assign(tasks, p.order_ids, "order", ORDER_KINDS, p.correction)
        tasks += extra
        for key, ids, kinds_for in (("rx", p.rx_ids, RX_KINDS), ("order", p.order_ids, OPEN_KINDS)):
            if len({value for _, value in ids}) == 1:  # one id named: every request is about it
                for task in tasks:
                    if task[key] is None and task["kind"] in kinds_for:
                        task[key] = ids[0][1]
        for task in tasks:
            task["branch"] = p.branch if task["kind"] in ("transfer", "book") else None
        tasks.sort(key=lambda t: (t["pos"], t["kind"] != "refill"))
        if any(t["kind"] == "refill" for t in tasks):  # a refill comes before its pick-up
            tasks.sort(key=lambda t: t["kind"] in ("book", "delivery"))
        return [t for t in tasks if self._is_new(t, p)]

    def _noun_refill(self, p: Parsed, pos: int, kind: str) -> bool:
        if kind != "refill":
            return False
        others = {k for _, k in p.intents} & {"book", "delivery", "cancel", "status"}
        before = p.text.lower()[max(0, pos - 10):pos]
        return bool(p.order_ids) or (bool(others) and bool(
            re.search(r"\b(?:my|the|this|that|pending|current|your)\s+$", before)))

    @staticmethod
    def _assign(tasks: list[dict[str, Any]], ids: list[tuple[int, str]], key: str,
                kinds: set[str], correction: bool) -> list[dict[str, Any]]:
        if correction and ids:
            ids = ids[-1:]
        extra: list[dict[str, Any]] = []
        takers = [t for t in tasks if t["kind"] in kinds] or tasks
        for pos, value in ids:
            before = [t for t in takers if t["pos"] <= pos]
            task = before[-1] if before else takers[0]
            if task[key] is None:
                task[key] = value
            elif task[key] != value:
                extra.append({**task, key: value, "pos": pos})
        return extra

    def _is_new(self, task: dict[str, Any], p: Parsed) -> bool:
        current = self.s["current"]
        target = task.get("rx") or task.get("order")
        if current and current["kind"] == task["kind"] and not p.also:
            for key in ("rx", "order", "branch"):
                current[key] = task.get(key) or current.get(key)
            return False
        same = [t for t in self.s["queue"] if t["kind"] == task["kind"]]
        if any((t.get("rx") or t.get("order")) == target for t in same):
            return False
        done = [d for d in self.s["done"] if d[0] == task["kind"]]
        return not done or (target is not None and all(d[1] != target for d in done))

    def apply_answer(self, p: Parsed) -> None:
        """An id given without a request answers the current task's question."""
        task = self.s["current"]
        if task is None or p.intents:
            return
        if p.rx_ids:
            task["rx"] = p.rx_ids[-1][1]
        if p.order_ids:
            task["order"] = p.order_ids[-1][1]
        if p.branch and task["kind"] in ("transfer", "book"):
            task["branch"] = p.branch

    # ---- verification and lookups ----------------------------------------------------------

    async def ensure_verified(self) -> bool:
        """Verify the patient once per conversation; asks for what is missing."""
        if self.s["verified"] is not None:
            return True
        facts = self.s["facts"]
        if facts["last_name"] and facts["dob"]:
            result, error = await self.call(
                "verify_patient", {"last_name": facts["last_name"], "date_of_birth": facts["dob"]})
            if error is None:
                self.s["verified"] = {"patient_id": result["patient_id"],
                                      "first_name": result["first_name"]}
                self.say(f"Thank you, {result['first_name']}, you're verified.")
                await self.profile()
                return True
            facts["last_name"] = facts["dob"] = None
            self.s["failures"] += 1
            if self.s["failures"] >= 3:
                self.s["locked"], self.s["queue"] = True, []
                self.finish()
                self.say("I'm sorry, I still can't verify you, so I can't look at or change any "
                         "prescription over chat. Please visit any Willow branch with photo ID.")
                return False
            return self.ask("verify", "I couldn't find a record with that last name and date of "
                            "birth. Could you check both and send them again?")
        if facts["last_name"]:
            return self.ask("dob", "Thanks. And your date of birth, please?")
        if facts["dob"]:
            return self.ask("last_name", "Thanks. And your last name, please?")
        return self.ask("verify", "Before I can look at or change anything on your record, I "
                        "need to verify you: what are your last name and date of birth?")

    def rx_label(self, rx: dict[str, Any]) -> str:
        """'RX30412 (Lisinopril 10 mg)'."""
        return f"{rx['rx_id']} ({rx['drug']} {rx['strength']})"

    def order_label(self, order: dict[str, Any]) -> str:
        """'RF7002 (Amlodipine 5 mg, pick-up Friday, April 10 at 11:00 am at Riverside)'."""
        if order["fulfilment"] == "delivery":
            detail = f"home delivery on {fmt_date(order['delivery_date'])}"
        elif order["pickup_date"]:
            detail = (f"pick-up {fmt_date(order['pickup_date'])} at "
                      f"{fmt_time(order['pickup_time'])} at {order['branch']}")
        else:
            detail = f"pick-up at {order['branch']}, no time booked"
        return f"{order['order_id']} ({order['drug']}, {detail})"

    def by_words(self, task: dict[str, Any], items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Items whose drug the patient named (in this message or the one asking)."""
        words = set(task.get("words", [])) | set(re.findall(r"[a-z]+", self._message().lower()))
        return [i for i in items if str(i["drug"]).split()[0].lower() in words]

    def _message(self) -> str:
        return self._turn.message if self._turn else ""

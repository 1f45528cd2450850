"""A rule-based Lumen Rail desk agent that follows the policy (no model)."""

from __future__ import annotations

import copy
import re
from typing import Any

from pydantic import JsonValue

from benchmarks.domains.rail import _words as w
from benchmarks.domains.rail._env import plain
from benchmarks.domains.rail._flows import BookingFlows
from benchmarks.domains.rail._nlu import MONTHS, WEEKDAYS, Parsed, parse
from vistasim.agent import Reply, Turn
from vistasim.env import Environment
from vistasim.events import ToolCall

CORRECTION_RE = re.compile(r"\b(?:sorry|i mean|i meant|actually|correction|typo|wrong)\b", re.I)
SWITCH_RE = re.compile(r"\b(?:instead|actually|rather|changed my mind|forget that)\b", re.I)
STOP_WORDS = {"hi", "hello", "yes", "no", "thanks", "thank", "it", "my", "the", "and", "lr",
              "please", "sure", "okay", "ok", "born", "email", "name", "last", "surname"}


def _task(kind: str, ref: str | None) -> dict[str, Any]:
    return {"kind": kind, "ref": ref, "dates": [], "times": [], "part": None, "rel": None,
            "same_time": False, "topics": [], "anchor": None}


class CorrectRailAgent(BookingFlows):
    """Verifies, proposes with prices, asks before every change, and follows the policy."""

    def __init__(self, *, env: Environment) -> None:
        self.env = env
        self.s: dict[str, Any] = {
            "active": None, "bookings": {}, "last_name": None, "dob": None, "email": None,
            "verified": [], "tried": [], "failures": 0, "queue": [], "pending": None,
            "asked": None, "offer": None}
        self._calls: list[ToolCall] = []
        self._said = ""
        self._fresh_identity = False

    # -- protocol --------------------------------------------------------------------------

    async def respond(self, turn: Turn) -> Reply:
        self.turn = turn
        self._calls = []
        self._said = " ".join([u.text for u in turn.history if u.role == "user"] + [turn.message])
        parts = await self._handle(parse(turn.message))
        return Reply(text=" ".join(p for p in parts if p) or w.MENU, tool_calls=tuple(self._calls))

    def snapshot(self) -> JsonValue:
        return copy.deepcopy(self.s)

    def restore(self, state: JsonValue) -> None:
        assert isinstance(state, dict)
        self.s = copy.deepcopy(state)

    async def call(self, name: str, args: dict[str, Any]) -> tuple[Any, str | None]:
        outcome = await self.env.call_tool(name, args)
        self._calls.append(ToolCall(name=name, args=args, result=outcome.result,
                                    error=outcome.error))
        return outcome.result, outcome.error

    # -- one message -----------------------------------------------------------------------

    async def _handle(self, p: Parsed) -> list[str]:
        self._absorb_identity(p)
        self._absorb_refs(p)
        new = self._absorb_tasks(p)
        out: list[str] = []
        if self.s["pending"]:
            reply, go_on = await self._answer_pending(p, new)
            out += reply
            if not go_on:
                return out
        elif self.s["offer"] and p.answer in ("yes", "no") and not new:
            if p.answer == "yes":
                self.s["queue"].append(_task(self.s["offer"], None))
            self.s["offer"] = None
        if p.closing and not new and not self.s["pending"]:
            self.s["queue"] = []
            return [*out, w.BYE]
        if p.why and self.s["asked"] in ("ref", "identity", "name"):
            out.append(w.WHY)
        worked = await self._advance()
        if not worked and not out and p.answer == "no" and not self.s["queue"]:
            return [w.BYE]
        out += worked
        idle = not self.s["pending"] and not self.s["queue"]
        if out and idle and not out[-1].rstrip().endswith("?"):
            out.append(w.ANYTHING_ELSE)
        return out

    def _absorb_identity(self, p: Parsed) -> None:
        self._fresh_identity = bool(p.dob or p.email)
        if p.dob:
            self.s["dob"] = p.dob
        if p.email:
            self.s["email"] = p.email
        names = [n.split()[-1] for n in p.names if n.split()[-1].lower() not in STOP_WORDS]
        if not names and self.s["asked"] in ("identity", "name") and len(p.text.split()) <= 8:
            words = re.findall(r"\b[A-ZÀ-Ý][a-zà-ÿ'’-]+\b", p.text)
            names = [x for x in words if x.lower() not in STOP_WORDS and not _calendar(x)]
        if names:
            self.s["last_name"] = names[-1]

    def _absorb_refs(self, p: Parsed) -> None:
        refs = p.refs or p.other_refs
        if not refs:
            return
        old = self.s["active"]
        corrected = bool(CORRECTION_RE.search(p.text)) and bool(p.refs)
        if old is None or (corrected and p.refs[-1] != old):
            self.s["active"] = p.refs[-1] if corrected else refs[0]
            if old and self.s["pending"] and self.s["pending"]["ref"] == old:
                self.s["pending"] = None
            for task in self.s["queue"]:
                task["ref"] = None if task["ref"] == old else task["ref"]

    def _absorb_tasks(self, p: Parsed) -> list[str]:
        kinds = list(p.intents)
        has_slots = bool(p.dates or p.times or p.relative or p.part_of_day or p.same_time)
        queued = {t["kind"] for t in self.s["queue"]}
        refs = p.refs + p.other_refs
        if not kinds and has_slots and ("change" in queued or self.s["active"]):
            kinds = ["change"]
        elif not kinds and refs and not self.s["queue"] and not self.s["pending"]:
            kinds = ["status"]
        new: list[str] = []
        for kind in kinds:
            targets = refs if kind == "status" and len(refs) > 1 else [self._ref_for(p, refs)]
            for ref in targets:
                task = next((t for t in self.s["queue"] if t["kind"] == kind
                             and t["ref"] in (ref, None)), None)
                if task is None:
                    task = _task(kind, ref)
                    self.s["queue"].append(task)
                    new.append(kind)
                if kind == "change":
                    _add_slots(task, p)
                task["topics"] = sorted(set(task["topics"]) | set(p.topics))
        return new

    def _ref_for(self, p: Parsed, refs: list[str]) -> str | None:
        if not refs or (self.s["active"] in refs and not p.other_refs):
            return None
        return p.other_refs[0] if p.other_refs and not p.refs else refs[0]

    async def _answer_pending(self, p: Parsed, new: list[str]) -> tuple[list[str], bool]:
        pending = self.s["pending"]
        if pending["kind"] == "change" and _moves(pending, p):
            self.s["pending"] = None
            return [], True
        if p.answer == "yes":
            self.s["pending"] = None
            return await self._execute(pending) + await self._after_action(), True
        if p.answer == "hesitant" and not new:
            return ["No problem, I haven't changed anything yet. Just say 'go ahead' when you're "
                    "ready, or tell me what you'd like instead."], False
        if p.answer == "no" or p.closing or (new and SWITCH_RE.search(p.text)):
            self.s["pending"] = None
            self.s["queue"].pop(0)
            return ["No problem, I've left your booking as it is."], True
        if new:
            return [f"Noted, I'll look at that next. First: {pending['question']}"], False
        return [f"Sorry, I didn't quite catch that. {pending['question']}"], False

    # -- the queue -------------------------------------------------------------------------

    async def _advance(self) -> list[str]:
        out: list[str] = []
        while self.s["queue"]:
            task = self.s["queue"][0]
            if task["kind"] == "fees":
                out += await self._fees(task)
                self.s["queue"].pop(0)
                continue
            booking, parts, state = await self._ready(task)
            out += parts
            if state == "wait":
                return out
            if state == "ok":
                parts, done = await self._work(task, booking)
                out += parts
                if not done:
                    return out
            if self.s["queue"] and self.s["queue"][0] is task:
                self.s["queue"].pop(0)
        return out

    async def _ready(self, task: dict[str, Any]) -> tuple[Any, list[str], str]:
        ref = task["ref"] or self.s["active"]
        if not ref:
            self.s["asked"] = "ref"
            return None, [w.ASK_ALL], "wait"
        booking = await self._lookup(ref)
        if booking is None:
            task["ref"] = None
            self.s["active"] = None if self.s["active"] == ref else self.s["active"]
            return None, [f"I can't find a booking with reference {ref}. Could you check it? It "
                          "starts with LR followed by four digits."], "wait"
        if booking["passenger"]["passenger_id"] in self.s["verified"]:
            return booking, [], "ok"
        if self.s["verified"] and not (self._fresh_identity and self._holder_named(booking)):
            return None, self._foreign(task, booking), "drop"
        return await self._verify(booking)

    async def _verify(self, booking: dict[str, Any]) -> tuple[Any, list[str], str]:
        name = booking["passenger"]["last_name"] if self._holder_named(booking) else None
        name = name or self.s["last_name"]
        second = self.s["dob"] or self.s["email"]
        if not name or not second:
            self.s["asked"] = "name" if second else "identity"
            return None, [w.ASK_NAME if second else w.ASK_NAME_AND_SECOND if not name
                          else w.ASK_SECOND], "wait"
        attempt = [booking["booking_ref"], name, self.s["dob"], self.s["email"]]
        if attempt in self.s["tried"]:
            self.s["asked"] = "identity"
            return None, ["Those details still don't match the booking. " + w.ASK_AGAIN], "wait"
        args = {"booking_ref": booking["booking_ref"], "last_name": name}
        args |= {"date_of_birth": self.s["dob"]} if self.s["dob"] else {"email": self.s["email"]}
        result, error = await self.call("verify_passenger", args)
        if error:
            self.s["tried"].append(attempt)
            self.s["failures"] += 1
            self.s.update(last_name=None, dob=None, email=None, asked="identity")
            if self.s["failures"] >= 3:
                self.s["queue"] = []
                return None, ["I'm sorry, I can't verify you with those details, so I can't "
                              "discuss this booking. Please check the booking confirmation "
                              "email and contact us again."], "drop"
            return None, [f"I'm sorry, those details don't match booking {booking['booking_ref']}"
                          ". " + w.ASK_AGAIN], "wait"
        self.s["verified"].append(booking["passenger"]["passenger_id"])
        self.s["active"] = self.s["active"] or booking["booking_ref"]
        self.s["asked"] = None
        return booking, [f"Thank you, {result['first_name']}, you're verified."], "ok"

    def _holder_named(self, booking: dict[str, Any]) -> bool:
        last = plain(booking["passenger"]["last_name"])
        return re.search(rf"\b{re.escape(last)}\b", plain(self._said)) is not None

    async def _lookup(self, ref: str, *, fresh: bool = False) -> dict[str, Any] | None:
        if fresh or ref not in self.s["bookings"]:
            result, error = await self.call("get_booking", {"booking_ref": ref})
            if error:
                return None
            self.s["bookings"][ref] = result
        return self.s["bookings"][ref]

    def _foreign(self, task: dict[str, Any], booking: dict[str, Any]) -> list[str]:
        return [f"I'm sorry, booking {booking['booking_ref']} isn't under your name, so I can't "
                "share or change anything on it. Its lead passenger can contact us, or verify "
                "here with their last name and date of birth or email."]

    async def _fees(self, task: dict[str, Any]) -> list[str]:
        fees, _ = await self.call("get_fees", {})
        topics = [t for t in task["topics"] if t != "fees"]
        one = [t for t in topics if t in ("bicycle", "pet", "upgrade")]
        self.s["offer"] = one[0] if len(one) == 1 else None
        offer = " Would you like me to add that to a booking?" if self.s["offer"] else ""
        return [w.fees_answer(fees, topics) + offer]

    # -- hooks the flawed agent overrides (more in _flows) -----------------------------

    async def _after_action(self) -> list[str]:
        return []

    def _change_args(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"booking_ref": p["ref"], "departure_id": p["departure_id"]}

    async def _execute(self, p: dict[str, Any]) -> list[str]:
        if self.s["queue"]:
            self.s["queue"].pop(0)
        if p["kind"] == "change":
            name, args = "change_booking", self._change_args(p)
        elif p["kind"] == "cancel":
            name = "cancel_booking"
            args = {"booking_ref": p["ref"], "refund_type": p["refund_type"]}
        elif p["kind"] == "upgrade":
            name, args = "upgrade_seat", {"booking_ref": p["ref"]}
        else:
            name, args = "add_extra", {"booking_ref": p["ref"], "extra": p["kind"]}
        result, error = await self.call(name, args)
        if error:
            return self._failed(p, error)
        await self._lookup(p["ref"], fresh=True)
        return [self._done(p, result)]

    def _failed(self, p: dict[str, Any], error: str) -> list[str]:
        return [w.refusal(error) + " Nothing has been changed."]

    def _done(self, p: dict[str, Any], r: dict[str, Any]) -> str:
        if p["kind"] == "change":
            return (f"Done: you're now on the {r['time']} (train {r['train']}) on "
                    f"{w.day(r['date'])}, seat {r['seat']}. I've charged "
                    f"{w.eur(r['total_due_eur'])}.")
        if p["kind"] == "cancel":
            return (f"Done: booking {r['booking_ref']} is cancelled. Your refund is "
                    f"{w.eur(r['refund_eur'])}.")
        if p["kind"] == "upgrade":
            return (f"Done: you're now in First class, seat {r['seat']}. I've charged "
                    f"{w.eur(r['charged_eur'])}.")
        label = "bicycle space" if p["kind"] == "bicycle" else "pet"
        return (f"Done: a {label} is added to booking {r['booking_ref']} for "
                f"{w.eur(r['charged_eur'])}.")


def _calendar(word: str) -> bool:
    low = word.lower()
    return low in MONTHS or low in WEEKDAYS


def _add_slots(task: dict[str, Any], p: Parsed) -> None:
    task["dates"] += [p.dates] if p.dates else []
    task["times"] += [p.times] if p.times else []
    task["part"] = p.part_of_day or task["part"]
    # An explicit time wins over "later" in the same message ("4 pm, or a later one if full").
    task["rel"] = None if p.times else p.relative or task["rel"]
    task["prefer"] = p.relative or task.get("prefer")
    task["same_time"] = task["same_time"] or p.same_time


def _moves(pending: dict[str, Any], p: Parsed) -> bool:
    """Whether a reply to a change proposal asks for something else than what was proposed."""
    said_time, said_date = len(p.times) > 1, len(p.dates) > 1
    other_time = [t for t in p.times if t != pending["time"]
                  and not (said_time and t == pending["from_time"])]
    other_date = [d for d in p.dates if d != pending["date"]
                  and not (said_date and d == pending["from_date"])]
    return bool(other_time or other_date or p.relative or (p.part_of_day and not p.times))

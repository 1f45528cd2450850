"""`CorrectCarhireAgent`: Cityline Car Hire's rule-based chat desk (no model).

One instance per chat. Each message is read for identity facts (booking reference, licence
digits), an answer to what the desk asked, a yes/no to its proposal, and new requests (several in
one message are queued in the order asked; "if not, ..." is kept as the request's fallback). The
desk verifies the customer before any booking detail or change, states prices, refunds and
charges and waits for a clear yes, and reports what the hire system returned.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.carhire import _read as rd
from benchmarks.domains.carhire import _seed
from benchmarks.domains.carhire._account_flows import AccountFlows
from benchmarks.domains.carhire._intents import Parsed, parse_message
from vistasim.agent import Reply, Turn

BRANCH_PHONE = "0113 496 0550"
MAX_VERIFY_FAILS = 3
# "her booking CLH-20413", "the hire my wife booked": a reference said as someone else's is
# never taken as the customer's own.
_THIRD_PERSON = re.compile(r"\b(her|his|their|wife|husband|partner|friend|she|he)\b", re.I)


def _fresh_state() -> dict[str, Any]:
    return {"customer": None, "name": "", "email": "", "bookings": [], "home_ref": None,
            "facts": {}, "fails": 0, "tried": [], "locked": False, "asked": None, "queue": [],
            "pending": None, "done": [], "next_id": 1, "started": False}


class CorrectCarhireAgent(AccountFlows):
    """The desk's agent: verifies, reads plain English, confirms, reports what the tools did."""

    restore_strategy = "state"

    def __init__(self, env: Any) -> None:
        self.env = env
        self.s: dict[str, Any] = _fresh_state()
        self.calls: list[dict[str, Any]] = []
        self.turn: Turn | None = None

    # -- the adapter protocol --------------------------------------------------------------
    def snapshot(self) -> Any:
        return copy.deepcopy(self.s)

    def restore(self, state: Any) -> None:
        self.s = copy.deepcopy(state)

    async def aclose(self) -> None:
        return None

    async def respond(self, turn: Turn) -> Reply:
        self.turn = turn
        self.calls = []
        out: list[str] = []
        await self._handle(turn.message, out)
        self.s["started"] = True
        text = " ".join(part.strip() for part in out if part.strip())
        return Reply(text=text, tool_calls=tuple(self.calls))

    # -- shared helpers --------------------------------------------------------------------
    @property
    def now(self) -> datetime:
        clock = getattr(self.env, "now", None)
        return clock() if callable(clock) else _seed.NOW

    @property
    def today(self) -> date:
        return self.now.date()

    async def call(self, tool_name: str, /, **args: Any) -> tuple[Any, str | None]:
        outcome = await self.env.call_tool(tool_name, args)
        self.calls.append({"name": tool_name, "args": args, "result": outcome.result,
                           "error": outcome.error})
        return outcome.result, outcome.error

    def new_request(self, intent: str, text: str, fallback: str = "") -> dict[str, Any]:
        req = {"id": self.s["next_id"], "intent": intent, "chunks": [text],
               "fallback": fallback.strip()}
        self.s["next_id"] += 1
        return req

    def current(self) -> dict[str, Any] | None:
        return self.s["queue"][0] if self.s["queue"] else None

    def finish(self, req: dict[str, Any]) -> None:
        self.s["queue"] = [r for r in self.s["queue"] if r["id"] != req["id"]]

    def ask(self, what: str, text: str, out: list[str]) -> str:
        self.s["asked"] = what
        out.append(text)
        return "wait"

    def propose(self, req: dict[str, Any], out: list[str], text: str, *, tool: str,
                args: dict[str, Any], **extra: Any) -> str:
        self.s["pending"] = {"req": req["id"], "tool": tool, "args": args, "text": text, **extra}
        out.append(text)
        return "wait"

    # -- one turn --------------------------------------------------------------------------
    async def _handle(self, message: str, out: list[str]) -> None:
        parsed = parse_message(message)
        self._take_identity(message, parsed)
        if self.s["pending"]:
            if not await self._answer_pending(message, parsed, out):
                self.queue_new(parsed)
                return
        elif self.s["asked"]:
            asked, self.s["asked"] = self.s["asked"], None
            req = self.current()
            if req is not None and asked != "identity":
                req["chunks"].append(message)
        self.queue_new(parsed)
        if not self.s["queue"] and not self.s["pending"]:
            out.append(self._small_talk(message) if not out else
                       "Is there anything else I can help with?")
            return
        await self.advance(out)

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "You're welcome — have a good trip with Cityline!"
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return ("Hello, this is the Cityline Car Hire desk. I can look up your booking, change "
                "its dates, add a driver or extras, switch the car class, cancel, report damage "
                "after a hire, or update your email. What can I do for you?")

    def queue_new(self, parsed: Parsed) -> None:
        """Hook: add the message's requests to the queue, merging a repeat of the current one."""
        current = self.current()
        named = ""
        for request in parsed.requests:
            refs = rd.booking_refs(request.text)
            if refs:
                named = refs[0]
            elif named:  # "... CLH-20413, and tell me when it's picked up": the same booking
                request.text += f" ({named})"
            if current is not None and request.intent == current["intent"]:
                current["chunks"].append(request.text)
                current["fallback"] = (current["fallback"] + " " + request.fallback).strip()
                continue
            self.s["queue"].append(self.new_request(request.intent, request.text,
                                                    request.fallback))

    # -- identity --------------------------------------------------------------------------
    def _take_identity(self, message: str, parsed: Parsed) -> None:
        if self.s["customer"]:
            return
        facts = self.s["facts"]
        refs = [m for m in rd.REF_RE.finditer(message)
                if self.s["asked"] == "identity" or not _THIRD_PERSON.search(
                    message[max(0, m.start() - 30):m.end() + 30])]
        if refs:
            facts["ref"] = rd.booking_refs(refs[0].group(0))[0]
        digits = rd.licence_digits(message, self.today)
        if digits:
            facts["last4"] = digits

    async def ensure_identity(self, out: list[str]) -> bool:
        if self.s["customer"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("ref") and facts.get("last4"):
            key = f"{facts['ref']}:{facts['last4']}"
            if key not in self.s["tried"]:
                self.s["tried"].append(key)
                result, error = await self.call("verify_customer", booking_ref=facts["ref"],
                                                licence_last4=facts["last4"])
                if not error:
                    self.s.update(customer=result["customer_id"], name=result["name"],
                                  email=result["email"], bookings=result["bookings"],
                                  home_ref=facts["ref"])
                    out.append(f"Thanks, {result['name'].split()[0]} — I've found your booking.")
                    return True
                self.s["fails"] += 1
                facts.clear()
                if self.s["fails"] >= MAX_VERIFY_FAILS:
                    self.s["locked"] = True
                    self._locked(out)
                    return False
                self.ask("identity", "I'm sorry, those details don't match our records. Could "
                         "you check the booking reference (it starts CLH-) and the last four "
                         "digits of the driving licence of the person who booked?", out)
                return False
        if facts.get("ref"):
            text = (f"Thanks. And what are the last four digits of the hirer's driving licence "
                    f"for booking {facts['ref']}?")
        elif facts.get("last4"):
            text = "Thanks. And what's your booking reference? It starts CLH-."
        else:
            text = ("Before I can help with that, I need to check who I'm talking to. Could you "
                    "give me your booking reference (it starts CLH-) and the last four digits "
                    "of your driving licence?")
        self.ask("identity", text, out)
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append("I'm sorry, I still can't match those details, so I can't share or change "
                   f"anything in this chat. Please call the branch on {BRANCH_PHONE}.")

    # -- proposals and yes/no --------------------------------------------------------------
    async def _answer_pending(self, message: str, parsed: Parsed, out: list[str]) -> bool:
        """Handle a reply to a proposal; False when the desk must wait again."""
        pending = self.s["pending"]
        req = next((r for r in self.s["queue"] if r["id"] == pending["req"]), None)
        reply = rd.answer(message)
        if req is None:
            self.s["pending"] = None
            return True
        if reply == "hedge":
            out.append("No problem — I haven't changed anything. Just say yes when you're "
                       "ready, or tell me what you'd like instead.")
            return False
        if reply != "yes" and self.changes_proposal(req, message):
            self.s["pending"] = None
            req["chunks"].append(message)
            return True
        if reply == "yes":
            self.s["pending"] = None
            await self.execute(req, pending, out)
            return True
        if reply == "no":
            self.s["pending"] = None
            self.finish(req)
            out.append("Okay, I've left that as it is — nothing has been changed.")
            return True
        if parsed.requests:
            out.append("I'll come to that next. First: " + pending["text"])
            return False
        out.append("Sorry, I didn't catch that. " + pending["text"] + " Please answer yes or no.")
        return False

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply that names a different value ("no, the 23rd") reworks the proposal."""
        intent = req["intent"]
        if intent == "dates":
            return bool(rd.find_dates(message, self.today))
        if intent == "extra":
            return rd.quantity(message) is not None or rd.extra_asked(message) is not None
        if intent == "class":
            return rd.car_class(message) is not None
        if intent == "email":
            return bool(rd.emails(message))
        if intent == "driver":
            return rd.birth_date(message, self.today) is not None
        return False

    async def advance(self, out: list[str]) -> None:
        """Work through the queue until the desk needs an answer from the customer."""
        for _ in range(10):
            req = self.current()
            if req is None:
                break
            if not await self.ensure_identity(out):
                return
            status = await getattr(self, f"step_{req['intent']}")(req, out)
            if status == "wait":
                return
            self.finish(req)
        if not self.s["pending"] and not self.s["asked"]:
            out.append("Is there anything else I can help with?")

    async def execute(self, req: dict[str, Any], pending: dict[str, Any],
                      out: list[str]) -> None:
        result, error = await self.call(pending["tool"], **pending["args"])
        self.s["done"].append({"tool": pending["tool"], "args": pending["args"],
                               "error": error})
        await getattr(self, f"done_{req['intent']}")(req, pending, result, error, out)
        self.finish(req)

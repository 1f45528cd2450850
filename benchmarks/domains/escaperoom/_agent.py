"""`CorrectEscapeRoomAgent`: Lockbox Escape Rooms' rule-based booking desk (no model).

One instance per chat. Each message is read for identity facts (a booking reference and the
lead booker's surname), an answer to what the desk asked, a yes/no to its proposal, and new
requests (several in one message are queued in the order asked). The desk verifies the lead
booker before any detail of a booking or any change to one (a new booking needs a name and an
email, not a check), asks for one missing detail at a time, states each change with every
amount and waits for a clear yes, and reports what the booking system returned.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.escaperoom import _read as rd
from benchmarks.domains.escaperoom import _seed
from benchmarks.domains.escaperoom._flows import Flows
from vistasim.agent import Reply, Turn

PHONE = "0161 496 0731"
MAX_VERIFY_FAILS = 3
MAX_SAME_QUESTION = 3
IDENTITY_ASKS = {"reference", "surname"}
NEEDS_IDENTITY = {"move", "cancel", "players", "extra", "lookup"}
# questions a plain "no" closes: the desk offered other times and the customer wants none
DECLINABLE = {"other_time"}


def _fresh_state() -> dict[str, Any]:
    return {
        "who": None, "view": None, "facts": {}, "fails": 0, "locked": False, "asked": None,
        "queue": [], "pending": None, "repeat": ["", 0], "next_id": 1, "started": False,
        "said": [],
    }  # fmt: skip


class CorrectEscapeRoomAgent(Flows):
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
        self.calls.append(
            {"name": tool_name, "args": args, "result": outcome.result, "error": outcome.error}
        )
        return outcome.result, outcome.error

    def current(self) -> dict[str, Any] | None:
        return self.s["queue"][0] if self.s["queue"] else None

    def finish(self, req: dict[str, Any]) -> None:
        self.s["queue"] = [r for r in self.s["queue"] if r["id"] != req["id"]]

    def ask(self, what: str, text: str, out: list[str]) -> str:
        last, times = self.s["repeat"]
        times = times + 1 if last == what else 1
        self.s["repeat"] = [what, times]
        if times >= MAX_SAME_QUESTION and what not in IDENTITY_ASKS:
            req = self.current()
            if req is not None:
                self.finish(req)
            self.s["repeat"] = ["", 0]
            out.append(
                "I'm sorry, I'm not managing to follow that, so I've left this as it is — "
                f"nothing has been changed. You can call us on {PHONE}."
            )
            return "done"
        self.s["asked"] = what
        out.append(text)
        return "wait"

    def propose(self, req: dict[str, Any], out: list[str], text: str,
                calls: list[tuple[str, dict[str, Any]]],
                meta: dict[str, Any] | None = None) -> str:  # fmt: skip
        self.s["repeat"] = ["", 0]
        self.s["pending"] = {"req": req["id"], "calls": calls, "text": text, "meta": meta or {}}
        out.append(text)
        return "wait"

    # -- one turn --------------------------------------------------------------------------
    async def _handle(self, message: str, out: list[str]) -> None:
        found = rd.requests(message)
        asked = self.s["asked"]
        self.s["said"].append(message)
        self._take_identity(message)
        if self.s["pending"]:
            intent = next((r["intent"] for r in self.s["queue"]
                           if r["id"] == self.s["pending"]["req"]), None)  # fmt: skip
            answered = await self._answer_pending(message, found, out)
            if answered == "wait":
                self.queue_new(found)
                return
            # "yes, please cancel it" answers the proposal: it is not a second cancellation;
            # "yes, but make it 3pm" reworks it: it is not a new request either
            found = [] if answered == "amended" else [f for f in found if f.intent != intent]
        elif asked:
            self.s["asked"] = None
            req = self.current()
            if req is not None and asked not in IDENTITY_ASKS:
                declined = rd.answer(message) == "no" and not rd.clock_time(message)
                if asked in DECLINABLE and declined:
                    self.finish(req)
                    self.s["repeat"] = ["", 0]
                    out.append("Okay — I've left it there; nothing has been booked or changed.")
                    found = []
                else:
                    req["chunks"].append(message)
                    req["answers"][asked] = message
                    # an answer to a question is not a new request of the same kind
                    found = [f for f in found if f.intent not in {req["intent"], "book"}]
            elif asked in IDENTITY_ASKS:
                found = []
        self.queue_new(found)
        if not self.s["queue"] and not self.s["pending"]:
            out.append(self._small_talk(message) if not out else self.closing())
            return
        await self.advance(out)

    def closing(self) -> str:
        """Hook: what the desk says when the queue is empty."""
        return "Is there anything else I can help with?"

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "You're welcome — thank you for choosing Lockbox Escape Rooms."
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return (
            "Hello, this is the Lockbox Escape Rooms booking desk. I can book a game, tell you "
            "which times are free, move or cancel a booking, change the number of players, add "
            "the photo pack or the birthday package, or check a gift voucher. What can I do "
            "for you?"
        )

    def queue_new(self, found: list[rd.Request]) -> None:
        """Hook: add the message's requests to the queue, merging a repeat of one queued."""
        for request in found:
            same = next((r for r in self.s["queue"] if r["intent"] == request.intent), None)
            if same is not None:
                same["chunks"].append(request.text)
                continue
            self.s["queue"].append({"id": self.s["next_id"], "intent": request.intent,
                                    "chunks": [request.text], "answers": {}})  # fmt: skip
            self.s["next_id"] += 1

    # -- identity --------------------------------------------------------------------------
    def _take_identity(self, message: str) -> None:
        if self.s["who"]:
            return
        facts = self.s["facts"]
        found = rd.refs(message)
        if not found and self.s["asked"] == "reference":
            found = [f"LB{m.group(1)}" for m in re.finditer(r"\b(\d{4})\b", message)]
        if found and (self.s["asked"] in IDENTITY_ASKS or rd.CORRECTION.search(message)):
            facts["reference"] = found[-1]  # an answer, or a reference corrected: the last said
        elif found and not facts.get("reference"):
            facts["reference"] = found[0]  # "mine, LB2014, and Dave's, LB2015": the first
        ref, said_surname = rd.said_with_ref(message)
        if said_surname:
            facts["surname"] = said_surname
            if ref:
                facts["reference"] = ref
        elif self.s["asked"] == "surname":
            said = rd.surname(rd.REF_RE.sub(" ", message))
            if said:
                facts["surname"] = said
        else:
            named = rd.full_name(message)
            if named and not facts.get("tried_guess"):
                # "I'm Jo Lambert" said in passing may be the proof offered
                facts["guess"] = named.split()[-1]

    async def _verify(self, reference: str, surname: str, out: list[str]) -> bool:
        result, error = await self.call("verify_booking", reference=reference, surname=surname)
        if error:
            return False
        self.s["who"] = {"email": result["email"], "name": result["lead_name"],
                         "card_last4": result["card_last4"], "reference": reference}  # fmt: skip
        self.s["view"] = result
        out.append(f"Thank you, {result['lead_name'].split()[0]} — I've found your booking.")
        return True

    async def ensure_identity(self, out: list[str]) -> bool:
        """A booking reference and its lead booker's surname, checked before anything."""
        if self.s["who"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("reference") and not facts.get("surname") and facts.get("guess"):
            facts["tried_guess"] = True
            # a name said in passing that doesn't match is not counted as a failed attempt
            if await self._verify(facts["reference"], facts.pop("guess"), out):
                return True
        if facts.get("reference") and facts.get("surname"):
            if await self._verify(facts["reference"], facts["surname"], out):
                return True
            self.s["fails"] += 1
            tried = facts.get("tried_guess")
            facts.clear()
            facts["tried_guess"] = tried
            if self.s["fails"] >= MAX_VERIFY_FAILS:
                self.s["locked"] = True
                self._locked(out)
                return False
            self.ask("reference", "I'm sorry, those details don't match a booking. Could you "
                     "give me the booking reference again, please? It starts LB.", out)  # fmt: skip
            return False
        if not facts.get("reference"):
            self.ask(
                "reference",
                "Before I can help with a booking I need to check it's yours. What's the booking "
                "reference? It starts LB and has four digits — it's on your confirmation email.",
                out,
            )
        elif self.s["repeat"][0] in IDENTITY_ASKS:
            self.ask("surname", "Thank you. And the lead booker's surname?", out)
        else:
            self.ask("surname", f"Before I can help I need to check {facts['reference']} is your "
                     "booking: what's the lead booker's surname?", out)  # fmt: skip
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = [r for r in self.s["queue"] if r["intent"] not in NEEDS_IDENTITY]
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details, so I can't share or change anything "
            f"about a booking in this chat. Please call us on {PHONE}."
        )

    # -- proposals and yes/no --------------------------------------------------------------
    async def _answer_pending(self, message: str, found: list[rd.Request], out: list[str]) -> str:
        """Handle a reply to a proposal: 'done', 'amended', or 'wait' (ask again)."""
        pending = self.s["pending"]
        req = next((r for r in self.s["queue"] if r["id"] == pending["req"]), None)
        reply = rd.answer(message)
        if req is None:
            self.s["pending"] = None
            return "done"
        if reply == "hedge":
            out.append(
                "No problem — I haven't changed anything. Just say yes when you're ready, or "
                "tell me what you'd like instead."
            )
            return "wait"
        if self.changes_proposal(req, message) and (
            reply != "yes"
            or re.search(r"\b(?:but|instead|actually|make it|rather|sorry)\b", message, re.I)
        ):
            self.s["pending"] = None
            req["chunks"].append(message)
            return "amended"
        if reply == "yes":
            self.s["pending"] = None
            await self.execute(req, pending, out)
            return "done"
        if reply == "no":
            self.s["pending"] = None
            self.finish(req)
            out.append("Okay, I've left that as it is — nothing has been changed.")
            return "done"
        if found and found[0].intent != req["intent"]:
            out.append("I'll come to that next. First: " + pending["text"])
            return "wait"
        if "?" in message:
            out.append("Here's exactly what I'd do, with every amount: " + pending["text"])
            return "wait"
        out.append("Sorry, I didn't catch that. " + pending["text"] + " Please answer yes or no.")
        return "wait"

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply naming a different value ("no, make it 3pm") reworks the proposal."""
        intent = req["intent"]
        if intent in {"book", "move"}:
            return bool(rd.dates(message, self.today)) or rd.clock_time(message) is not None
        if intent == "players":
            return rd.players(message) is not None
        return False

    async def advance(self, out: list[str]) -> None:
        """Work through the queue until the desk needs an answer from the customer."""
        for _ in range(10):
            req = self.current()
            if req is None:
                break
            if req["intent"] in NEEDS_IDENTITY and not await self.ensure_identity(out):
                return
            status = await getattr(self, f"step_{req['intent']}")(req, out)
            if status == "wait":
                return
            self.finish(req)
        if not self.s["pending"] and not self.s["asked"]:
            out.append(self.closing())

    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        """Hook: run the agreed call and report what the system returned."""
        tool_name, args = pending["calls"][0]
        result, error = await self.call(tool_name, **args)
        if error:
            await self.failed(req, pending, error, out)
        else:
            out.append(self.report(req["intent"], result))
        self.finish(req)

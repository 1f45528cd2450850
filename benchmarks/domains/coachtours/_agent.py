"""`CorrectCoachtoursAgent`: Wayfarer Coach Holidays' rule-based customer desk (no model).

One instance per chat. Each message is read for identity facts (the booking reference and the
lead passenger's surname), an answer to what the desk asked, a yes/no to its proposal, and new
requests (several in one message are queued in the order asked). The desk verifies the lead
passenger before any detail or change, asks for one missing detail at a time, states each change
with every amount and waits for a clear yes, and reports what the booking system returned.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from benchmarks.domains.coachtours import _read as rd
from benchmarks.domains.coachtours._flows import Flows
from vistasim.agent import Reply, Turn

PHONE = "0113 496 0700"
MAX_VERIFY_FAILS = 3
MAX_SAME_QUESTION = 3
IDENTITY_ASKS = {"booking_ref", "surname"}
# words around a surname that are not the surname ("it's Mrs Carter", "the lead is Helen Carter")
NAME_FILLER = re.compile(
    r"\b(?:it'?s|it is|his|her|their|my|our|name|names|surname|last|is|the|lead|passenger|"
    r"mrs|mr|ms|miss|dr|and|of|sure|yes|ok|hi|oh|that'?s|i'?m|i am|booked|under)\b",
    re.I,
)


def _fresh_state() -> dict[str, Any]:
    return {
        "account": None, "view": None, "facts": {}, "fails": 0, "locked": False,
        "asked": None, "queue": [], "pending": None, "repeat": ["", 0], "next_id": 1,
        "started": False,
    }  # fmt: skip


class CorrectCoachtoursAgent(Flows):
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
                calls: list[tuple[str, dict[str, Any]]]) -> str:  # fmt: skip
        self.s["repeat"] = ["", 0]
        self.s["pending"] = {"req": req["id"], "calls": calls, "text": text}
        out.append(text)
        return "wait"

    # -- one turn --------------------------------------------------------------------------
    async def _handle(self, message: str, out: list[str]) -> None:
        found = rd.requests(message)
        asked = self.s["asked"]
        self.s.setdefault("said", []).append(message)
        self._take_identity(message)
        if self.s["pending"]:
            intent = next((r["intent"] for r in self.s["queue"]
                           if r["id"] == self.s["pending"]["req"]), None)  # fmt: skip
            if not await self._answer_pending(message, found, out):
                self.queue_new(found)
                return
            # "yes, please cancel it" answers the proposal: it is not a second cancellation
            found = [f for f in found if f.intent != intent]
        elif asked:
            self.s["asked"] = None
            req = self.current()
            if req is not None and asked not in IDENTITY_ASKS:
                if rd.answer(message) == "no" and not found:
                    self.finish(req)
                    out.append("Okay, I've left that as it is — nothing has been changed.")
                    found = []
                else:
                    req["chunks"].append(message)
                    # an answer to a question is not a new request of the same kind
                    found = [f for f in found if f.intent != req["intent"]]
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
            return "You're welcome — thank you for travelling with Wayfarer."
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return (
            "Hello, this is the Wayfarer Coach Holidays desk. I can change your pick-up point, "
            "add a single room or travel insurance, reserve seats, change a passenger's name, "
            "add a passenger, cancel a booking or update your contact details. What can I do "
            "for you?"
        )

    def queue_new(self, found: list[rd.Request]) -> None:
        """Hook: add the message's requests to the queue, merging a repeat of one queued."""
        for request in found:
            same = next((r for r in self.s["queue"] if r["intent"] == request.intent), None)
            if same is not None:
                same["chunks"].append(request.text)
                continue
            self.s["queue"].append(
                {"id": self.s["next_id"], "intent": request.intent, "chunks": [request.text]}
            )
            self.s["next_id"] += 1

    # -- identity --------------------------------------------------------------------------
    def _take_identity(self, message: str) -> None:
        if self.s["account"]:
            return
        facts = self.s["facts"]
        refs = rd.refs(message)
        if not refs and self.s["asked"] == "booking_ref":
            refs = [f"WF{m.group(1)}" for m in re.finditer(r"\b(\d{5})\b", message)]
        if refs:
            facts["booking_ref"] = refs[-1]
        clean = rd.EMAIL_RE.sub(" ", rd.REF_RE.sub(" ", message))
        words = re.findall(r"[A-Za-z][A-Za-z'-]*", NAME_FILLER.sub(" ", clean))
        named = rd.name_candidates(clean)
        if self.s["asked"] == "surname" and (len(words) <= 3 or named):
            # a short answer ends with the surname; in a sentence, the last capitalised word
            facts["surname"] = (named or words or [""])[-1]
        elif named and not facts.get("tried_guess"):
            # a name said in passing ("I'm Helen Carter, WF30101") may be the proof offered
            facts["guess"] = named[-1]

    async def _verify(self, surname: str, out: list[str]) -> bool:
        facts = self.s["facts"]
        result, error = await self.call(
            "verify_booking", booking_ref=facts["booking_ref"], surname=surname
        )
        if error:
            result = await self.verify_fallback(facts["booking_ref"], surname)
        if result is None:
            return False
        self.s.update(account=result["booking_ref"], view=result)
        lead = next(p for p in result["passengers"] if p["lead"])
        who = next((p for p in result["passengers"]
                    if p["name"].lower().endswith(" " + surname.lower())), lead)  # fmt: skip
        whose = "the" if who is lead else f"{lead['name']}'s"
        out.append(f"Thank you, {who['name'].split()[0]} — I've found {whose} booking.")
        return True

    async def verify_fallback(self, ref: str, surname: str) -> dict[str, Any] | None:
        """Hook: what the desk does when the check fails (the correct desk: nothing)."""
        return None

    async def ensure_identity(self, out: list[str]) -> bool:
        """The booking reference and the lead passenger's surname, checked before anything."""
        if self.s["account"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("booking_ref") and not facts.get("surname") and facts.get("guess"):
            facts["tried_guess"] = True
            # a name said in passing that doesn't match is not counted as a failed attempt
            if await self._verify(facts.pop("guess"), out):
                return True
        if facts.get("booking_ref") and facts.get("surname"):
            if await self._verify(facts["surname"], out):
                return True
            self.s["fails"] += 1
            tried = facts.get("tried_guess")
            facts.clear()
            facts["tried_guess"] = tried
            if self.s["fails"] >= MAX_VERIFY_FAILS:
                self.s["locked"] = True
                self._locked(out)
                return False
            self.ask(
                "booking_ref",
                "I'm sorry, those details don't match a booking. Could you give me the booking "
                "reference again, please? It starts WF.",
                out,
            )
            return False
        if not facts.get("booking_ref"):
            self.ask(
                "booking_ref",
                "Before I can help I need to check the booking. What's your booking reference? "
                "It starts WF and has five digits — it's on your confirmation.",
                out,
            )
        else:
            self.ask("surname", "Thank you. And the lead passenger's surname?", out)
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details. Only the lead passenger can change a "
            "booking or hear about it, so I can't share or change anything in this chat. The "
            f"lead passenger can call us on {PHONE}."
        )

    # -- proposals and yes/no --------------------------------------------------------------
    async def _answer_pending(self, message: str, found: list[rd.Request], out: list[str]) -> bool:
        """Handle a reply to a proposal; False when the desk must wait again."""
        pending = self.s["pending"]
        req = next((r for r in self.s["queue"] if r["id"] == pending["req"]), None)
        reply = rd.answer(message)
        if req is None:
            self.s["pending"] = None
            return True
        if reply == "hedge":
            out.append(
                "No problem — I haven't changed anything. Just say yes when you're ready, or "
                "tell me what you'd like instead."
            )
            return False
        if self.changes_proposal(req, pending, message) and (
            reply != "yes"
            or re.search(r"\b(?:but|instead|actually|make it|rather|sorry)\b", message, re.I)
        ):
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
        if found and found[0].intent != req["intent"]:
            out.append("I'll come to that next. First: " + pending["text"])
            return False
        if "?" in message:
            out.append("Here's exactly what I'd do, with every amount: " + pending["text"])
            return False
        out.append("Sorry, I didn't catch that. " + pending["text"] + " Please answer yes or no.")
        return False

    def changes_proposal(self, req: dict[str, Any], pending: dict[str, Any], message: str) -> bool:
        """A reply naming a different value ("no, make it Leeds") reworks the proposal."""
        intent, args = req["intent"], pending["calls"][0][1]
        if intent == "pickup":
            return any(t != args.get("pickup") for t in rd.towns(message))
        if intent == "seats":
            return bool(rd.seat_numbers(message)) and rd.seat_numbers(message) != args["seats"]
        if intent == "contact":
            return bool(rd.phones(message) or rd.emails(message))
        if intent in {"name", "passenger"}:
            new = args.get("new_name") or args.get("name")
            return any(n != new for n in rd.full_names(message))
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

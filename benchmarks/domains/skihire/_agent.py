"""`CorrectSkiHireAgent`: Piste Perfect Ski Hire's rule-based booking desk (no model).

One instance per chat. Each message is read for identity facts (the booking reference and the
lead booker's surname), an answer to what the desk asked, a yes/no to its proposal, and new
requests (several in one message are queued in the order asked). The desk verifies the lead
booker before any detail or change, asks for one missing detail at a time, states each change
with every amount and waits for a clear yes, and reports what the booking system returned.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.skihire import _read as rd
from benchmarks.domains.skihire import _seed
from benchmarks.domains.skihire._flows import Flows
from vistasim.agent import Reply, Turn

PHONE = "01632 960 480"
MAX_VERIFY_FAILS = 3
MAX_SAME_QUESTION = 3
IDENTITY_ASKS = {"booking_ref", "surname"}
# words around a surname that are not the surname ("it's Turner", "my surname is Turner")
NAME_FILLER = re.compile(
    r"\b(?:it'?s|it is|my|our|his|her|their|surname|last name|family name|name|is|the|lead|"
    r"booker'?s?|sure|yes|ok|okay|hi|oh|mrs?|ms|miss|dr|i'?m|this is|booked under)\b",
    re.I,
)


def _fresh_state() -> dict[str, Any]:
    return {
        "ref": None, "view": None, "facts": {}, "fails": 0, "locked": False, "asked": None,
        "queue": [], "pending": None, "repeat": ["", 0], "next_id": 1, "started": False,
        "said": [],
    }  # fmt: skip


class CorrectSkiHireAgent(Flows):
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
                f"nothing has been changed. You can call the shop on {PHONE}."
            )
            return "done"
        self.s["asked"] = what
        out.append(text)
        return "wait"

    def propose(self, req: dict[str, Any], out: list[str], text: str,
                calls: list[list[Any]], **extra: Any) -> str:  # fmt: skip
        self.s["repeat"] = ["", 0]
        self.s["pending"] = {"req": req["id"], "calls": calls, "text": text, **extra}
        out.append(text)
        return "wait"

    # -- one turn --------------------------------------------------------------------------
    async def _handle(self, message: str, out: list[str]) -> None:
        found = rd.requests(message)
        asked = self.s["asked"]
        self.s["said"].append(message)
        self._take_identity(message)
        if self.s["locked"]:
            self._locked(out)
            return
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
                req["chunks"].append(message)
                # an answer to a question is not a new request of the same kind ("bronze with a
                # helmet" for a new skier is their kit, not a helmet request)
                part_of = {req["intent"], "helmet"} if req["intent"] == "add" else {req["intent"]}
                found = [f for f in found if f.intent not in part_of]
            elif asked in IDENTITY_ASKS:
                found = []
        if not found and self.s["ref"] and any(r != self.s["ref"] for r in rd.refs(message)):
            # "and what about PP4130?": a question about another booking
            found = [rd.Request("lookup", message)]
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
            return "You're welcome — enjoy the slopes, from everyone at Piste Perfect."
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return (
            "Hello, this is the Piste Perfect Ski Hire booking desk. I can add someone to your "
            "booking, change a package level, add days, helmets or breakage and theft "
            "insurance, book or move your boot fitting, cancel a booking, or tell you what's "
            "on it. What can I do for you?"
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
        if self.s["ref"]:
            return
        facts = self.s["facts"]
        own, _ = rd.own_and_other_refs(message)
        if not own and self.s["asked"] == "booking_ref":
            own = [f"PP{m.group(1)}" for m in re.finditer(r"\b(\d{4})\b", message)]
        if own:
            facts["booking_ref"] = own[-1]
        words = re.findall(r"[A-Za-z][A-Za-z'-]*", NAME_FILLER.sub(" ", message))
        named = rd.name_candidates(message)
        if self.s["asked"] == "surname" and (len(words) <= 3 or named):
            # a short answer ends with the surname; in a sentence, it's the last capitalised word
            facts["surname"] = (named or words or [""])[-1]
        elif named and not facts.get("tried_guess"):
            # names said in passing ("this is Sarah Turner") may be the proof offered
            facts["guesses"] = list(dict.fromkeys(reversed(named)))[:3]

    async def _verified(self, result: dict[str, Any], out: list[str]) -> bool:
        self.s.update(ref=result["booking_ref"], view=result)
        out.append(f"Thank you, {result['lead_name'].split()[0]} — I've found booking "
                   f"{result['booking_ref']}.")  # fmt: skip
        return True

    async def ensure_identity(self, out: list[str]) -> bool:
        """The booking reference and the lead booker's surname, checked before anything."""
        if self.s["ref"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("booking_ref") and not facts.get("surname") and facts.get("guesses"):
            facts["tried_guess"] = True
            for guess in facts.pop("guesses"):
                result, error = await self.call(
                    "verify_booker", booking_ref=facts["booking_ref"], surname=guess
                )
                if not error:
                    # a name said in passing that doesn't match is not counted as a failure
                    return await self._verified(result, out)
        if facts.get("booking_ref") and facts.get("surname"):
            result, error = await self.call(
                "verify_booker", booking_ref=facts["booking_ref"], surname=facts["surname"]
            )
            if not error:
                return await self._verified(result, out)
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
                "reference again, please? It starts PP.",
                out,
            )
            return False
        if not facts.get("booking_ref"):
            self.ask(
                "booking_ref",
                "Before I can help I need to check you're the lead booker. What's your booking "
                "reference? It starts PP and has four digits — it's on your confirmation email.",
                out,
            )
        else:
            first = "Thank you." if self.s["started"] else (
                "Before I can help I need to check you're the lead booker.")  # fmt: skip
            self.ask("surname", f"{first} What's the lead booker's surname?", out)
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details, so I can't share or change anything "
            f"in this chat. Only the lead booker can make changes; please call the shop on {PHONE}."
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
        if self.changes_proposal(req, message) and (
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

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply naming a different value ("no, make it 10am") reworks the proposal."""
        intent = req["intent"]
        if intent == "extend":
            return rd.extra_days(message) is not None or rd.total_days(message) is not None
        if intent == "fitting":
            return rd.clock_time(message) is not None
        if intent == "package":
            return rd.level(message) is not None
        if intent == "add":
            return rd.level(message) is not None or rd.birth_date(message, self.today) is not None
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

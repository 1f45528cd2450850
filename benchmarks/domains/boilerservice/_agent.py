"""`CorrectBoilerAgent`: Hearthwell Heating's rule-based booking desk (no model).

One instance per chat. Each message is read for identity facts (the customer number and the
postcode of a property on the account), an answer to what the desk asked, a yes or no to its
proposal, and new requests (several in one message are queued in the order asked). The desk
verifies the customer before any detail or change, asks for one missing detail at a time,
states each change with every amount and waits for a clear yes, and reports what the job
system returned.
"""

from __future__ import annotations

import copy
import re
from datetime import datetime
from typing import Any

from benchmarks.domains.boilerservice import _read as rd
from benchmarks.domains.boilerservice import _seed
from benchmarks.domains.boilerservice._flows import Flows
from vistasim.agent import Reply, Turn  # type: ignore[import-untyped, unused-ignore]

MAX_VERIFY_FAILS = 3
MAX_SAME_QUESTION = 3
IDENTITY_ASKS = {"customer_id", "postcode"}
CORRECTING = re.compile(r"\b(?:but|instead|actually|make it|rather|sorry|change it to)\b", re.I)


def _fresh_state() -> dict[str, Any]:
    return {
        "account": None, "view": None, "facts": {}, "fails": 0, "locked": False,
        "asked": None, "queue": [], "pending": None, "repeat": ["", 0], "next_id": 1,
        "started": False, "said": [],
    }  # fmt: skip


class CorrectBoilerAgent(Flows):
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

    # -- what the flows use ----------------------------------------------------------------
    @property
    def now(self) -> datetime:
        clock = getattr(self.env, "now", None)
        found = clock() if callable(clock) else _seed.NOW
        return found if isinstance(found, datetime) else _seed.NOW

    async def call(self, tool_name: str, /, **args: Any) -> tuple[Any, str | None]:
        outcome = await self.env.call_tool(tool_name, args)
        self.calls.append(
            {"name": tool_name, "args": args, "result": outcome.result, "error": outcome.error}
        )
        error = outcome.error
        return outcome.result, None if error is None else str(error)

    def current(self) -> dict[str, Any] | None:
        queue: list[dict[str, Any]] = self.s["queue"]
        return queue[0] if queue else None

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
                "I'm sorry, I'm not getting this right, so I've stopped there — nothing has "
                f"been booked or changed. The office can help on {_seed.OFFICE}."
            )
            return "done"
        self.s["asked"] = what
        out.append(text)
        return "wait"

    def propose(self, req: dict[str, Any], out: list[str], text: str,
                calls: list[list[Any]]) -> str:  # fmt: skip
        self.s["repeat"] = ["", 0]
        self.s["pending"] = {"req": req["id"], "calls": calls, "text": text}
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
                # an answer to a question is not a new request of the same kind
                found = [f for f in found if f.intent not in {req["intent"], "book"}]
            else:
                queued = {r["intent"] for r in self.s["queue"]}
                found = [f for f in found if f.intent not in queued]
        self.queue_new(found)
        if not self.s["queue"] and not self.s["pending"]:
            out.append(self._small_talk(message) if not out else self.closing())
            return
        await self.advance(out)

    def closing(self) -> str:
        """Hook: what the desk says when every request has been dealt with."""
        return "Is there anything else I can do for you?"

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "You're welcome — thank you for calling Hearthwell Heating."
        if self.s["started"]:
            return "Is there anything else I can do for you?"
        return (
            "Hello, you're through to the Hearthwell Heating booking desk. I can book a boiler "
            "service, a landlord gas safety check or a breakdown call-out, move or cancel a "
            "visit, order a part an engineer has quoted for, set up Hearth Cover, update a "
            "tenant's number, or check a certificate or when we can come. How can I help?"
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
        refs = rd.customers(message)
        if not refs and self.s["asked"] == "customer_id":
            refs = [f"HW{m.group(1)}" for m in re.finditer(r"(?<!\d)(\d{5})(?!\d)", message)]
        if refs:
            facts["customer_id"] = refs[-1]
        codes = rd.postcodes(message)
        if codes:
            facts["postcode"] = codes[-1]

    async def ensure_identity(self, out: list[str]) -> bool:
        """The customer number and a property's postcode, checked before anything else."""
        if self.s["account"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("customer_id") and facts.get("postcode"):
            result, error = await self.call(
                "verify_customer", customer_id=facts["customer_id"], postcode=facts["postcode"]
            )
            if not error:
                self.s.update(account=result["customer_id"], view=result)
                out.append(f"Thanks, {result['name'].split()[0]} — I've found your account.")
                return True
            self.s["fails"] += 1
            facts.clear()
            if self.s["fails"] >= MAX_VERIFY_FAILS:
                self.s["locked"] = True
                self._locked(out)
                return False
            self.ask(
                "customer_id",
                "I'm sorry, I can't match those details to an account. Could you give me your "
                "customer number again? It starts HW.",
                out,
            )
            return False
        if not facts.get("customer_id"):
            self.ask(
                "customer_id",
                "First I need to check who I'm speaking to. What's your customer number? It "
                "starts HW and has five digits — it's on your last invoice or booking email.",
                out,
            )
        else:
            self.ask("postcode", "Thank you. And the postcode of the property?", out)
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details, so I can't look at or change "
            f"anything in this chat. Please ring the office on {_seed.OFFICE}."
        )

    # -- proposals and yes/no --------------------------------------------------------------
    async def _answer_pending(self, message: str, found: list[rd.Request], out: list[str]) -> bool:
        """Deal with a reply to a proposal; False when the desk must wait again."""
        pending = self.s["pending"]
        req = next((r for r in self.s["queue"] if r["id"] == pending["req"]), None)
        reply = rd.answer(message)
        if req is None:
            self.s["pending"] = None
            return True
        if reply == "hedge":
            out.append(
                "That's fine — nothing has been changed yet. Just say yes when you're ready, "
                "or tell me what you'd like different."
            )
            return False
        if self.changes_proposal(req, message) and (reply != "yes" or CORRECTING.search(message)):
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
            out.append("Alright — I've left it as it was. Nothing has been changed.")
            return True
        if found and found[0].intent != req["intent"]:
            out.append("I'll come to that next. First, " + pending["text"])
            return False
        if "?" in message:
            out.append("To be clear, here is exactly what I'd do: " + pending["text"])
            return False
        out.append("Sorry, I didn't follow. " + pending["text"] + " A yes or no is all I need.")
        return False

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply naming another value ("no, make it the afternoon") reworks the proposal."""
        intent = req["intent"]
        if intent in {"book", "move"}:
            return bool(rd.dates(message, self.today) or rd.window(message))
        if intent == "tenant":
            return bool(rd.phones(message))
        return False

    async def advance(self, out: list[str]) -> None:
        """Work through the queue until the desk needs an answer from the customer."""
        for _ in range(10):
            req = self.current()
            if req is None:
                break
            if not await self.ensure_identity(out):
                return
            status = await self.step(req, out)
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

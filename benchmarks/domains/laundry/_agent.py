"""`CorrectLaundryAgent`: Pressed & Co.'s rule-based laundry desk (no model, no randomness).

One instance per chat. Each message is read for identity facts (order number, the email on
the account), an answer to what the desk asked, a yes/no to its proposal, and new requests
(several in one message are queued in the order asked). The desk verifies the customer before
any detail or change, asks for one missing detail at a time, states each change with its price
and waits for a clear yes, and reports what the system returned.
"""

from __future__ import annotations

import copy
from datetime import date, datetime
from typing import Any

from benchmarks.domains.laundry import _read as rd
from benchmarks.domains.laundry import _seed
from benchmarks.domains.laundry._flows import Flows
from vistasim.agent import Reply, Turn

PHONE = "020 7946 0418"
MAX_VERIFY_FAILS = 3
# What a bare answer to each question fills in, so "3" after "how many rooms?" is read.
ANSWERS = {"new_slot", "items", "item", "value", "code", "address"}


def _fresh_state() -> dict[str, Any]:
    return {
        "ref": None,
        "view": None,
        "facts": {},
        "fails": 0,
        "tried": [],
        "locked": False,
        "asked": None,
        "queue": [],
        "pending": None,
        "next_id": 1,
        "started": False,
    }


class CorrectLaundryAgent(Flows):
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

    def new_request(self, intent: str, text: str) -> dict[str, Any]:
        req = {"id": self.s["next_id"], "intent": intent, "chunks": [text]}
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

    def propose(self, req: dict[str, Any], out: list[str], text: str, **call: Any) -> str:
        self.s["pending"] = {"req": req["id"], "intent": req["intent"], "text": text, **call}
        out.append(text)
        return "wait"

    # -- one turn --------------------------------------------------------------------------
    async def _handle(self, message: str, out: list[str]) -> None:
        found = rd.requests(message)
        asked = self.s["asked"]
        had = dict(self.s["facts"])
        self._take_identity(message)
        if self.s["pending"]:
            intent = self.s["pending"]["intent"]
            if not await self._answer_pending(message, found, out):
                self.queue_new(found)
                return
            found = [r for r in found if r.intent != intent]
            if self.s["asked"]:
                # The agreed call failed and the flow asked for another value.
                self.queue_new(found)
                return
        elif asked:
            self.s["asked"] = None
            req = self.current()
            if req is not None and asked in ANSWERS:
                # The answer belongs to the request that asked for it, whatever it sounds like.
                req["chunks"].append(message)
                # A one-clause answer ("the trousers") is no new request, whatever it names.
                found = [r for r in found if r.intent != req["intent"]] if len(found) > 1 else []
        self.queue_new(found)
        no_new_facts = self.s["facts"] == had
        if asked in {"ref", "email"} and not self.s["ref"] and no_new_facts:
            if rd.dont_know(message) and await self.no_identity(message, out):
                return
        if not self.s["queue"] and not self.s["pending"]:
            out.append(self._small_talk(message) if not out else "Is there anything else?")
            return
        await self.advance(out)

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "You're welcome — thank you for choosing Pressed & Co. Goodbye!"
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return (
            "Hello, this is Pressed & Co. I can change a collection or delivery slot, add "
            "express, add or remove items, cancel an order, take a damage or lost-item claim, "
            "apply a promo code, sign you up to Pressed Plus, change the address, or tell you "
            "about your order. What can I do?"
        )

    def queue_new(self, found: list[rd.Request]) -> None:
        """Hook: add the message's requests to the queue, merging a repeat of the current one."""
        current = self.current()
        for request in found:
            if current is not None and request.intent == current["intent"]:
                current["chunks"].append(request.text)
                continue
            if any(r["intent"] == request.intent for r in self.s["queue"]):
                continue
            self.s["queue"].append(self.new_request(request.intent, request.text))

    # -- identity --------------------------------------------------------------------------
    def _take_identity(self, message: str) -> None:
        if self.s["ref"]:
            return
        facts = self.s["facts"]
        found = rd.refs(message, bare=self.s["asked"] == "ref")
        if found:
            facts["ref"] = found[-1]
        mail = rd.email(message)
        if mail:
            facts["email"] = mail

    async def no_identity(self, message: str, out: list[str]) -> bool:
        """Hook: the caller cannot give the order number or the email: nothing is shared."""
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry — I can only look at or change an order once the order number and the "
            "email on the account match, so I can't share anything about it. The account "
            f"holder can contact us themselves, or call us on {PHONE}."
        )
        return True

    async def verify_failed(self, ref: str, out: list[str]) -> bool:
        """Hook: the order number and email did not match; True when the chat is over."""
        return False

    async def ensure_identity(self, out: list[str]) -> bool:
        """Hook: the order number and the account email, checked first."""
        if self.s["ref"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("ref") and facts.get("email"):
            return await self._verify(facts, out)
        if not facts.get("ref"):
            self.ask(
                "ref",
                "Before I can look at an order I need to check it's yours. What's your order "
                "number? It starts with PC and has five digits.",
                out,
            )
        else:
            self.ask("email", "Thank you. And the email address on your account?", out)
        return False

    async def _verify(self, facts: dict[str, Any], out: list[str]) -> bool:
        key = f"{facts['ref']}:{facts['email']}"
        if key in self.s["tried"]:
            facts.pop("email")
            return False
        self.s["tried"].append(key)
        result, error = await self.call(
            "verify_customer", order_ref=facts["ref"], email=facts["email"]
        )
        if not error:
            self.s.update(ref=result["order_ref"], view=result)
            out.append(f"Thank you, {result['name'].split()[0]} — you're verified.")
            return True
        self.s["fails"] += 1
        if await self.verify_failed(facts["ref"], out):
            return False
        facts.clear()
        if self.s["fails"] >= MAX_VERIFY_FAILS:
            self.s["locked"] = True
            self._locked(out)
            return False
        self.ask(
            "ref",
            "I'm sorry, those details don't match our records. Could you give me the order "
            "number again, please? It starts with PC.",
            out,
        )
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details, so I can't share or change anything "
            f"in this chat. Please call us on {PHONE}."
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
        if reply != "yes" and self.changes_proposal(req, message):
            # A new value ("no, make it 4 rooms") reworks the proposal with it.
            self.s["pending"] = None
            req["chunks"].append(message)
            return True
        if rd.question(message):
            out.append(
                "Nothing has been done yet — here's exactly what it involves. " + pending["text"]
            )
            return False
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
        out.append("Sorry, I didn't catch that. " + pending["text"] + " Please answer yes or no.")
        return False

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply that names a different value reworks the proposal."""
        reading = {
            "slot": rd.hours,
            "items": rd.items,
            "claim": rd.value_pence,
            "promo": rd.promo,
            "address": rd.postcode,
        }.get(req["intent"])
        return bool(reading and reading(message) not in (None, []))

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

    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        """Hook: run the agreed call and report what the system returned."""
        result, error = None, None
        for args in pending.get("batch") or [pending["args"]]:
            # Several items in one yes are one call each; the first refusal stops the rest.
            result, error = await self.call(pending["tool"], **args)
            if error:
                break
        again = await getattr(self, f"done_{req['intent']}")(req, pending, result, error, out)
        if again:
            return  # the flow asked for another value: the request stays open
        self.finish(req)

"""`CorrectGroceryAgent`: Fresh Basket's rule-based chat agent (no model), deterministic.

Each turn it reads the customer's message (identity facts, requests, a yes/no), verifies the
customer as the policy says, keeps a queue of requests, plans each one with read-only tool
calls, states what will change and waits for a clear yes, then makes the change and reports
what the tool returned.
"""

from __future__ import annotations

import copy
import json
from datetime import datetime
from typing import Any

from pydantic import JsonValue

from benchmarks.domains.grocery import _seed
from benchmarks.domains.grocery._actions import Actions
from benchmarks.domains.grocery._intents import Request, parse_message
from benchmarks.domains.grocery._plans import Plans
from benchmarks.domains.grocery._text import (
    CLOSING,
    answer,
    find_account,
    find_email,
    find_last4,
    find_order_ids,
)
from vistasim.agent import Reply, Turn
from vistasim.env import ToolOutcome

IDENTITY_ASK = ("your email address and the number of one of your orders (FB-xxxxx), or your "
                "8-digit account number and the last four digits of your payment card")
HELP = ("I can change the items on an order, move a delivery slot, cancel an order, sort out "
        "missing or damaged items, apply a voucher, or update your address or phone number.")


def fresh_state() -> dict[str, Any]:
    return {
        "facts": {"email": None, "order_id": None, "account_number": None, "card_last4": None},
        "customer": None,
        "queue": [],
        "pending": None,
        "awaiting": None,
        "asked": None,
        "context": None,
        "done": [],
        "focus": None,
        "failed": 0,
    }


class CorrectGroceryAgent(Plans, Actions):
    """The desk's correct agent: verifies, confirms, reports exactly what the tools did."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.state: dict[str, Any] = fresh_state()
        self._calls: list[dict[str, Any]] = []
        self._out: list[str] = []
        self._turn: Turn | None = None

    # -- adapter protocol -------------------------------------------------------------------------
    def snapshot(self) -> JsonValue:
        return copy.deepcopy(self.state)

    def restore(self, state: JsonValue) -> None:
        assert isinstance(state, dict)
        self.state = copy.deepcopy(state)

    async def respond(self, turn: Turn) -> Reply:
        self._turn = turn
        self._calls, self._out = [], []
        await self._handle(turn.message)
        text = " ".join(part for part in self._out if part).strip()
        return Reply(text=text or "How can I help with your Fresh Basket order?",
                     tool_calls=tuple(self._calls))

    # -- plumbing ---------------------------------------------------------------------------------
    def now(self) -> datetime:
        clock = getattr(self.env, "now", None)
        return clock() if callable(clock) else _seed.NOW

    async def call(self, name: str, **args: Any) -> ToolOutcome:
        args = {k: v for k, v in args.items() if v is not None}
        outcome: ToolOutcome = await self.env.call_tool(name, args)
        self._calls.append({"name": name, "args": args, "result": outcome.result,
                            "error": outcome.error})
        return outcome

    def say(self, text: str) -> None:
        self._out.append(text)

    @property
    def customer(self) -> dict[str, Any] | None:
        customer: dict[str, Any] | None = self.state["customer"]
        return customer

    # -- one turn ---------------------------------------------------------------------------------
    async def _handle(self, message: str) -> None:
        s = self.state
        order_ids = self._absorb_identity(message)
        reply_kind = answer(message) if (s["pending"] or s["awaiting"]) else None
        new = parse_message(message, self.now().date(), context=s["context"])
        if len(order_ids) == 1:
            for req in new:
                req.setdefault("order_ref", order_ids[0])
        new = self.split_requests(new)
        if s["awaiting"] is not None:
            new = self._fill_awaiting(message, new, reply_kind)
        if s["pending"] is not None:
            if not await self._answer_pending(reply_kind, new):
                self._enqueue(new)
                return
        self._enqueue(new)
        if s["customer"] is None:
            if not await self._verify(bool(new)):
                return
        await self._work()
        self._wrap_up(message, new)

    def split_requests(self, new: list[Request]) -> list[Request]:
        """The requests to act on (the flawed agent overrides this)."""
        return new

    def _wrap_up(self, message: str, new: list[Request]) -> None:
        s = self.state
        if s["pending"] or s["awaiting"] or s["queue"] or \
                (self._out and self._out[-1].rstrip().endswith("?")):
            return
        if self._out:
            self.say("Is there anything else I can help with?")
        elif answer(message) == "yes" and not CLOSING.search(message.lower()):
            self.say("Of course. What else would you like me to do?")
        elif CLOSING.search(message.lower()):
            self.say("You're welcome. Thanks for shopping with Fresh Basket, goodbye!")
        else:
            self.say(f"Sorry, I'm not sure what you'd like me to do. {HELP} "
                     "What would you like?")

    def _enqueue(self, new: list[Request]) -> None:
        s = self.state
        for req in new:
            key = self.request_key(req)
            if key in s["done"]:
                self.say(f"That's already done: {self._done_text(req)}.")
                continue
            queued = [self.request_key(r) for r in s["queue"]]
            pending = [self.request_key(a["req"]) for a in (s["pending"] or {}).get("actions", [])]
            if key not in queued and key not in pending:
                s["queue"].append(req)

    @staticmethod
    def request_key(req: Request) -> str:
        core = {k: v for k, v in req.items() if k not in ("fallback", "fallback_resolution",
                                                          "resolution", "when", "order_ref")}
        if core.get("op") == "increase":
            core["op"] = "add"
        return json.dumps(core, sort_keys=True)

    def _done_text(self, req: Request) -> str:
        return {"item": "that item change is on your order",
                "subs": "your substitution choice is saved",
                "slot": "your delivery has been moved",
                "cancel": "the order is cancelled",
                "claim": "that claim is logged",
                "voucher": "the voucher is on your order",
                "address": "your address is updated",
                "phone": "your phone number is updated"}.get(req["kind"], "done")

    # -- identity ---------------------------------------------------------------------------------
    def _absorb_identity(self, message: str) -> list[str]:
        s = self.state
        order_ids = find_order_ids(message)
        if s["customer"] is not None:
            return order_ids
        facts = s["facts"]
        email = find_email(message)
        account = find_account(message)
        last4 = find_last4(message, asked=s["asked"] in ("identity", "last4"))
        for key, value in (("email", email), ("account_number", account),
                           ("card_last4", last4)):
            if value:
                facts[key] = value
        if order_ids:
            facts["order_id"] = order_ids[-1]
        return order_ids

    async def _verify(self, has_request: bool) -> bool:
        s = self.state
        facts = s["facts"]
        if facts["email"] and facts["order_id"]:
            outcome = await self.call("verify_customer", email=facts["email"],
                                      order_id=facts["order_id"])
            path = ("email", "order_id")
        elif facts["account_number"] and facts["card_last4"]:
            outcome = await self.call("verify_customer", account_number=facts["account_number"],
                                      card_last4=facts["card_last4"])
            path = ("account_number", "card_last4")
        else:
            self._ask_identity(has_request)
            return False
        if outcome.error or not isinstance(outcome.result, dict):
            s["failed"] += 1
            for key in path:
                facts[key] = None
            s["asked"] = "identity"
            self.say("Sorry, I couldn't verify you: those details don't match our records. "
                     f"Could you check them and give me {IDENTITY_ASK}?")
            return False
        s["customer"] = outcome.result
        s["asked"] = None
        if facts["order_id"]:
            s["focus"] = facts["order_id"]
        first = str(outcome.result["name"]).split()[0]
        self.say(f"Thanks, {first}, you're verified.")
        if not s["queue"]:
            self.say(f"{HELP} What would you like me to do?")
        return True

    def _ask_identity(self, has_request: bool) -> None:
        s = self.state
        facts = s["facts"]
        first = self._turn is None or not self._turn.history
        lead = "I can help with that. " if has_request or s["queue"] else \
            "Hello! " if first else "Sure. "
        if facts["email"] and not facts["order_id"]:
            s["asked"] = "identity"
            self.say("Thanks. And the number of one of your orders (it starts FB-)?")
        elif facts["order_id"] and not facts["email"]:
            s["asked"] = "identity"
            self.say("Thanks. And the email address on your account?")
        elif facts["account_number"] and not facts["card_last4"]:
            s["asked"] = "last4"
            self.say("Thanks. And the last four digits of the payment card on your account?")
        elif facts["card_last4"] and not facts["account_number"]:
            s["asked"] = "identity"
            self.say("Thanks. And your 8-digit account number?")
        else:
            s["asked"] = "identity"
            self.say(f"{lead}First I need to check who I'm talking to: please give me "
                     f"{IDENTITY_ASK}.")

    # -- answers to questions ---------------------------------------------------------------------
    async def _answer_pending(self, reply_kind: str | None, new: list[Request]) -> bool:
        """Handle the reply to a yes/no question; False when the turn ends here."""
        s = self.state
        pending = s["pending"]
        kinds = {a["req"]["kind"] for a in pending["actions"]}
        if reply_kind == "yes" and not any(r["kind"] in kinds for r in new):
            s["pending"] = None
            await self.execute(pending["actions"])
            return True
        if reply_kind == "hedge":
            self.say("No problem, I haven't changed anything. Just say yes when you'd like me "
                     "to go ahead, or tell me what you'd like instead.")
            return False
        if any(r["kind"] in kinds for r in new):
            s["pending"] = None  # the customer changed what they asked for: plan it again
            return True
        if reply_kind == "no":
            s["pending"] = None
            self.say("OK, I've left that as it is.")
            return True
        if new:
            return True  # a new request: keep the question open, ask it again at the end
        self.say(f"Just to check: {pending['question']} Please say yes or no.")
        return False

    def _fill_awaiting(self, message: str, new: list[Request],
                       reply_kind: str | None) -> list[Request]:
        s = self.state
        awaiting = s["awaiting"]
        s["awaiting"] = None
        req = awaiting["req"]
        if reply_kind == "no" and not new:
            self.say("OK, I'll leave that as it is.")
            return new
        filled = self.fill(awaiting["need"], req, message, new, awaiting.get("options"))
        if filled is not None:
            s["queue"].insert(0, filled)
            return [r for r in new if r.get("kind") != filled["kind"] or r is filled]
        if new:
            s["queue"].append(req)
            return new
        s["awaiting"] = awaiting
        self.say(awaiting["question"])
        return new

    # -- the queue --------------------------------------------------------------------------------
    async def _work(self) -> None:
        s = self.state
        guard = 0
        while s["queue"] and s["pending"] is None and s["awaiting"] is None and guard < 12:
            guard += 1
            req = s["queue"].pop(0)
            await self.plan(req)
        if s["pending"] is not None and not any("?" in part for part in self._out[-1:]):
            self.say(s["pending"]["question"])

"""An offline support agent for the shop: a slot-filling bot of the kind many shops deploy.

It reads order numbers, emails, items and yes/no from each message, asks for what it still needs
one thing at a time, confirms before any change and then calls the shop's tools. It handles the
common paths well and has four documented flaws (README.md, "Documented flaws") that only show up
under less common user behaviour. Its conversation state is plain JSON, so it can be snapshotted.
"""

from __future__ import annotations

import copy
import re
from typing import Any, Literal

from pydantic import JsonValue

from vistasim.agent._types import Reply, Turn
from vistasim.domains.shop import _parse
from vistasim.domains.shop._rule_steps import RuleSteps, done_text
from vistasim.domains.shop._rules import dollars
from vistasim.env import SqliteEnvironment
from vistasim.events import ToolCall

__all__ = ["RuleShopAgent"]

GREETING = (
    "Hi! I can check an order, cancel it, return or exchange items, change a shipping address,"
    " apply a coupon, or help you find a product. What can I do for you?"
)
ANYTHING_ELSE = "Is there anything else I can help with?"
_REQUEST_SLOTS: dict[str, Any] = {
    "intent": None,
    "order_id": None,
    "order": None,
    "skus": [],
    "reason": None,
    "refund_to": None,
    "options": None,
    "new_option": None,
    "address": None,
    "coupon": None,
    "pending": None,
    "awaiting": "intent",
}
_REASON_HINT = re.compile(
    r"because|arrived|broken|cracked|damaged|defective|too (small|big|large|tight)|doesn't fit"
)
_NEEDS_ORDER = {"cancel", "return", "exchange", "address", "coupon", "status", "refund_status"}
_SEARCH_STOP = {
    "do",
    "you",
    "have",
    "any",
    "sell",
    "looking",
    "for",
    "search",
    "recommend",
    "in",
    "stock",
    "a",
    "an",
    "the",
    "i",
    "i'm",
    "im",
    "am",
    "some",
    "under",
    "me",
}


def _flaw(flaw: str) -> None:
    from vistasim.testing import note_flaw_now

    note_flaw_now(flaw)


class RuleShopAgent(RuleSteps):
    """Rule-based shop support agent; one instance per episode.

    Args:
        env: The shop environment whose tools it calls.
    """

    restore_strategy: Literal["state"] = "state"

    def __init__(self, *, env: SqliteEnvironment) -> None:
        self.env = env
        self._state: dict[str, Any] = {"email": None, "customer_id": None, **_REQUEST_SLOTS}
        self._calls: list[ToolCall] = []

    async def respond(self, turn: Turn) -> Reply:
        """Answer one customer message."""
        # Ground truth for benchmarks: each flaw says when it fires (nothing stored reads this).
        from vistasim.testing import answering

        with answering(turn):
            return self.reply(turn.message)

    def reply(self, message: str) -> Reply:
        """Answer one customer message (synchronously)."""
        self._calls = []
        text = self._handle(message[:4000])
        return Reply(text=text, tool_calls=tuple(self._calls))

    def snapshot(self) -> JsonValue:
        """The conversation state as JSON."""
        return copy.deepcopy(self._state)

    def restore(self, state: JsonValue) -> None:
        """Go back to a state from `snapshot()`."""
        assert isinstance(state, dict)
        self._state = copy.deepcopy(state)

    async def aclose(self) -> None:
        """Nothing to release: the environment belongs to the caller."""

    # -- reading the message -------------------------------------------------------------------

    def _handle(self, message: str) -> str:
        if self._state["awaiting"] == "confirm":
            return self._on_confirm(message)
        self._take_intent(message)
        problem = self._take_identity(message)
        if problem:
            return problem
        self._take_details(message)
        return self._next_step(message)

    def _take_intent(self, message: str) -> None:
        s = self._state
        if s["intent"] is not None and s["awaiting"] not in (None, "intent"):
            return
        intent = _parse.find_intent(message)
        if intent and intent != s["intent"]:
            s.update(copy.deepcopy(_REQUEST_SLOTS), intent=intent)

    def _take_identity(self, message: str) -> str | None:
        s = self._state
        email = _parse.find_email(message)
        if email and s["customer_id"] is None:
            outcome = self._call("find_customer", {"email": email})
            if outcome is None:
                s["awaiting"] = "email"
                return f"I couldn't find an account with the email {email}. Could you check it?"
            s["email"], s["customer_id"] = email, outcome["id"]
            # Flaw F3: the order was looked up before the email arrived, and the ownership check
            # lives only in the order lookup below, so an order fetched first is never checked.
            if s["order"] is not None and s["order"]["customer_id"] != outcome["id"]:
                _flaw("shop:F3")
        order_id = _parse.find_order_id(message)
        # Flaw F1: a slot is filled once per request; a corrected order number is ignored.
        if _parse.corrected_order(message, s["order_id"], order_id) is not None:
            _flaw("shop:F1")
        if order_id and s["order_id"] is None and s["intent"] in _NEEDS_ORDER | {None}:
            return self._load_order(order_id)
        return None

    def _load_order(self, order_id: str) -> str | None:
        s = self._state
        order = self._call("get_order", {"order_id": order_id})
        if order is None:
            s["awaiting"] = "order_id"
            return f"I couldn't find order {order_id}. What's your order number? (e.g. W1234)"
        if s["customer_id"] is not None and order["customer_id"] != s["customer_id"]:
            s.update(copy.deepcopy(_REQUEST_SLOTS))
            return (
                f"I'm sorry, order {order_id} isn't on the account for {s['email']}, so I can't"
                " share or change it. I can connect you with a colleague if you'd like."
            )
        s["order_id"] = order_id
        s["order"] = {
            "status": order["status"],
            "customer_id": order["customer_id"],
            "payment_label": order["payment_label"],
            "total_cents": order["total_cents"],
            "delivered_on": order["delivered_on"],
            "shipment": order["shipment"],
            "refunds": order["refunds"],
            "items": [
                {"sku": i["sku"], "product_name": i["product_name"], "option": i["option"]}
                for i in order["items"]
                if i["status"] == "ordered"
            ],
        }
        return None

    def _take_details(self, message: str) -> None:
        s = self._state
        intent, order = s["intent"], s["order"]
        if intent in ("return", "exchange") and order and not s["skus"]:
            s["skus"] = _parse.find_items(message, order["items"])
            if len(_parse.named_items(message, order["items"])) > len(s["skus"]):
                _flaw("shop:F2")
        if intent == "return":
            s["refund_to"] = s["refund_to"] or _parse.find_refund_to(message)
            if s["awaiting"] == "reason" or (not s["reason"] and _REASON_HINT.search(message)):
                s["reason"] = message.strip()[:300]
        if intent == "exchange" and s["options"]:
            s["new_option"] = s["new_option"] or _parse.find_option(message, s["options"])
        if intent == "address":
            # Flaw F1 again: the first address stays, a corrected one is ignored.
            if _parse.corrected_address(message, s["address"]):
                _flaw("shop:F1")
            s["address"] = s["address"] or _parse.find_address(message)
        if intent == "coupon":
            s["coupon"] = s["coupon"] or _parse.find_coupon(message)

    # -- deciding what to say ------------------------------------------------------------------

    def _next_step(self, message: str) -> str:
        s = self._state
        intent = s["intent"]
        if intent is None:
            s["awaiting"] = "intent"
            return GREETING
        if intent == "human":
            return self._escalate(message)
        if intent == "search":
            return self._search(message)
        if s["email"] is None:
            s["awaiting"] = "email"
            return "Could you tell me the email address on your account?"
        if s["order_id"] is None:
            s["awaiting"] = "order_id"
            return "What's your order number?"
        return self.step(intent)

    # -- acting --------------------------------------------------------------------------------

    def _on_confirm(self, message: str) -> str:
        s = self._state
        pending = s["pending"]
        if _parse.is_yes(message):  # flaw F4: "okay, wait, no" counts as yes
            if _parse.is_no(message):
                _flaw("shop:F4")
            names = self._names(pending["args"].get("skus", []))
            outcome = self._call(pending["name"], pending["args"], keep_error=True)
            intent = s["intent"]
            self._reset_request()
            if isinstance(outcome, str):
                return f"I'm sorry, I couldn't do that: {outcome} {ANYTHING_ELSE}"
            return f"Done — {done_text(intent, outcome, names)} {ANYTHING_ELSE}"
        if _parse.is_no(message):
            self._reset_request()
            return f"Okay, I won't make any changes. {ANYTHING_ELSE}"
        return "Sorry, I need a clear yes or no. Shall I proceed (yes/no)?"

    def _escalate(self, message: str) -> str:
        s = self._state
        args: dict[str, JsonValue] = {"summary": message.strip()[:300] or "customer asked"}
        if s["customer_id"]:
            args["customer_id"] = s["customer_id"]
        if s["order_id"]:
            args["order_id"] = s["order_id"]
        ticket = self._call("escalate_to_human", args)
        self._reset_request()
        if ticket is None:
            return "I'm sorry, I couldn't reach a colleague right now. Please try again later."
        return (
            f"Done — I've passed this to a human colleague (ticket {ticket['ticket']});"
            f" they'll reply within 24 hours. {ANYTHING_ELSE}"
        )

    def _search(self, message: str) -> str:
        words = [
            w
            for w in re.findall(r"[a-z']+", message.lower())
            if w not in _SEARCH_STOP and len(w) > 2
        ]
        args: dict[str, JsonValue] = {"query": " ".join(words[:6]), "limit": 3}
        price = re.search(r"under \$?(\d+)", message.lower())
        if price:
            args["max_price_cents"] = int(price.group(1)) * 100
        found = self._call("search_products", args)
        self._reset_request()
        if not found or not found["products"]:
            return f"Sorry, I couldn't find a matching product. {ANYTHING_ELSE}"
        listing = "; ".join(
            f"{p['name']} ({p['id']}, from {dollars(p['price_cents'])},"
            f" {'in stock' if p['stock'] else 'out of stock'})"
            for p in found["products"]
        )
        return f"Here's what I found: {listing}. {ANYTHING_ELSE}"

    def _call(self, name: str, args: dict[str, JsonValue], *, keep_error: bool = False) -> Any:
        outcome = self.env.run_tool("agent", name, args)
        self._calls.append(
            ToolCall(
                name=name,
                args=args,
                result=outcome.result,
                error=outcome.error,
                call_id=f"call_{len(self._calls) + 1}",
            )
        )
        if outcome.error is not None:
            return outcome.error if keep_error else None
        return outcome.result

    def _reset_request(self) -> None:
        self._state.update(copy.deepcopy(_REQUEST_SLOTS))

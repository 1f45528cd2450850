"""The demo agent: a rule-based order desk over `OrderBook`, with one documented flaw.

It handles order status, cancellation and returns: it asks for the order number, verifies the
email, asks which item, and confirms before acting. Flaw (by design, for the demo to find): when the
user names two items to return in one message, it returns only the first.
"""

from __future__ import annotations

import re
from typing import Any

from vistasim.agent import Reply, Turn
from vistasim.demo._orders import OrderBook
from vistasim.events import ToolCall

_ORDER_ID = re.compile(r"\bW\d{4}\b", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_INTENTS = (
    ("cancel", ("cancel",)),
    ("return", ("return", "refund", "send back", "send it back")),
    ("status", ("status", "where is", "track", "arrive", "when will", "check on")),
)
_YES = ("yes", "yep", "yeah", "sure", "please do", "go ahead", "go for it", "correct", "confirm")
_NO = ("no", "nope", "don't", "do not", "wait")


class OrderDeskAgent:
    """A rule-based support agent for the demo order book (state is a JSON dict)."""

    def __init__(self, env: OrderBook) -> None:
        self.env = env
        self.state: dict[str, Any] = {
            "intent": None,
            "order_id": None,
            "verified": False,
            "skus": [],
            "confirm": False,
            "order": None,
        }

    def snapshot(self) -> dict[str, Any]:
        """The conversation state, as JSON."""
        return dict(self.state)

    def restore(self, state: dict[str, Any]) -> None:
        """Go back to a `snapshot()`."""
        self.state = dict(state)

    def respond(self, turn: Turn) -> Reply:
        """Answer one user message."""
        calls: list[ToolCall] = []
        text = self._step(turn.message, calls)
        return Reply(text=text, tool_calls=tuple(calls))

    def _step(self, message: str, calls: list[ToolCall]) -> str:
        s = self.state
        lowered = message.lower()
        s["intent"] = s["intent"] or _intent(lowered)
        if s["order_id"] is None and (match := _ORDER_ID.search(message)):
            s["order_id"] = match.group(0).upper()
        if s["intent"] is None:
            return (
                "Hi! I can check an order's status, cancel an order, or start a return. "
                "What do you need?"
            )
        if s["order_id"] is None:
            return "Sure. What's your order number?"
        if s["order"] is None:
            found = self._call("get_order", {"order_id": s["order_id"]}, calls)
            if isinstance(found, str):
                s["order_id"] = None
                return f"I couldn't find that order ({found}). Could you check the order number?"
            s["order"] = found
        order = s["order"]
        if not s["verified"]:
            return self._verify(message, order)
        if s["intent"] == "status":
            return _status_text(order)
        return self._act(lowered, order, calls)

    def _verify(self, message: str, order: dict[str, Any]) -> str:
        email = _EMAIL.search(message)
        if email is None:
            return "Thanks. For verification, what's the email address on the order?"
        if email.group(0).rstrip(".").lower() != order["email"]:
            return "That email doesn't match our records for this order. Could you check it?"
        self.state["verified"] = True
        if self.state["intent"] == "status":
            return _status_text(order)
        return self._prompt_action(order)

    def _prompt_action(self, order: dict[str, Any]) -> str:
        s = self.state
        if s["intent"] == "cancel":
            s["confirm"] = True
            return f"I'll cancel order {order['id']}. Shall I proceed (yes/no)?"
        if not s["skus"]:
            names = ", ".join(i["name"] for i in order["items"])
            return f"Order {order['id']} has: {names}. Which item would you like to return?"
        s["confirm"] = True
        chosen = [i["name"] for i in order["items"] if i["sku"] in s["skus"]]
        what = " and ".join(chosen)
        return (
            f"I'll start a return of the {what} from order {order['id']}. Shall I proceed (yes/no)?"
        )

    def _act(self, lowered: str, order: dict[str, Any], calls: list[ToolCall]) -> str:
        s = self.state
        if s["intent"] == "return" and not s["skus"]:
            mentioned = [i["sku"] for i in order["items"] if i["name"] in lowered]
            s["skus"] = mentioned[:1]  # the documented flaw: only the first item named is kept
            return (
                self._prompt_action(order) if s["skus"] else "Which item would you like to return?"
            )
        if not s["confirm"]:
            return self._prompt_action(order)
        if any(word in lowered for word in _NO) and not any(word in lowered for word in _YES):
            s["confirm"] = False
            return "Okay, I won't do anything. Is there something else I can help with?"
        if not any(word in lowered for word in _YES):
            return "Sorry, I need a yes or no: shall I proceed?"
        s["confirm"] = False
        return self._perform(order, calls)

    def _perform(self, order: dict[str, Any], calls: list[ToolCall]) -> str:
        if self.state["intent"] == "cancel":
            result = self._call("cancel_order", {"order_id": order["id"]}, calls)
            if isinstance(result, str):
                return f"I'm sorry, I can't cancel it: {result}."
            return f"Done — order {order['id']} has been cancelled."
        for sku in self.state["skus"]:
            result = self._call("return_item", {"order_id": order["id"], "sku": sku}, calls)
            if isinstance(result, str):
                return f"I'm sorry, I can't start that return: {result}."
        return "Done — your return has been started; the refund goes to your original payment."

    def _call(self, name: str, args: dict[str, Any], calls: list[ToolCall]) -> Any:
        outcome = self.env.run_tool("agent", name, args)
        calls.append(ToolCall(name=name, args=args, result=outcome.result, error=outcome.error))
        return outcome.error if outcome.error else outcome.result


def _intent(lowered: str) -> str | None:
    for intent, words in _INTENTS:
        if any(word in lowered for word in words):
            return intent
    return None


def _status_text(order: dict[str, Any]) -> str:
    if order["status"] == "shipped":
        return (
            f"Order {order['id']} has shipped with {order['carrier']} "
            f"and should arrive by {order['eta']}."
        )
    return f"Order {order['id']} is {order['status']}."

"""Order desk agents with known differences, for tests that compare and gate two stored runs.

`DeskBefore` is the demo desk (it returns only the first of two items named) with a second
flaw: its status replies give a wrong delivery date. `DeskAfter` fixes the two-items flaw, keeps
the status flaw and adds a new one: it cancels without confirming, so a shipped order's cancel is
tried.
"""

from __future__ import annotations

from typing import Any

from vistasim.agent import Reply, Turn
from vistasim.demo import OrderDeskAgent
from vistasim.events import ToolCall


class DeskBefore(OrderDeskAgent):
    def respond(self, turn: Turn) -> Reply:
        reply = super().respond(turn)
        if "should arrive by" in reply.text:
            shipped = reply.text.split(" and should arrive by")[0]
            text = f"{shipped}; it will be delivered on 2026-12-09."
            return Reply(text=text, tool_calls=reply.tool_calls)
        return reply


class DeskAfter(DeskBefore):
    def _act(self, lowered: str, order: dict[str, Any], calls: list[ToolCall]) -> str:
        if self.state["intent"] == "return" and not self.state["skus"]:
            self.state["skus"] = [i["sku"] for i in order["items"] if i["name"] in lowered]
            if not self.state["skus"]:
                return "Which item would you like to return?"
            return self._prompt_action(order)
        return super()._act(lowered, order, calls)

    def _prompt_action(self, order: dict[str, Any]) -> str:
        if self.state["intent"] == "cancel":
            calls: list[ToolCall] = []
            self._call("cancel_order", {"order_id": order["id"]}, calls)
            self.pending = calls
            return f"Order {order['id']} is cancelled."
        return super()._prompt_action(order)

    def respond(self, turn: Turn) -> Reply:
        self.pending: list[ToolCall] = []
        reply = super().respond(turn)
        return Reply(text=reply.text, tool_calls=(*self.pending, *reply.tool_calls))

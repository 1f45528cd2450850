"""The shop bot's information flows: order and refund status, catalog search, escalation.

Each `step_*` returns `(text, done)`; these requests change nothing, so they need no
confirmation. Flaws are marked `FLAW Hn`.
"""

from __future__ import annotations

from typing import Any

from benchmarks.heldout import _shop_nlu as nlu
from benchmarks.heldout._base import SlotAgent, money


class ShopInfo(SlotAgent):
    """Information flows of the shop bot."""

    async def step_status(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Tell the order's status."""
        order = task["order"]
        ship = order["shipment"] or {}
        status = order["status"]
        if status == "shipped":
            # FLAW H3: the carrier's last scan date is given as the expected delivery date.
            if ship.get("last_update") != ship.get("eta"):
                self.flaw(3)
            return (
                f"Order {order['id']} has shipped with {ship['carrier']} (tracking"
                f" {ship['tracking_number']}) and is in transit; expected delivery is"
                f" {ship['last_update']}."
            ), True
        return _status_text(order, ship), True

    async def step_refund_status(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Tell the status of the order's refunds."""
        order = task["order"]
        if not order["refunds"]:
            return f"There's no refund on order {order['id']} so far.", True
        parts = []
        for refund in order["refunds"]:
            where = "store gift card" if refund["method"] == "gift_card" else order["payment_label"]
            when = "was issued on" if refund["status"] == "issued" else "is pending since"
            parts.append(
                f"Your refund of {money(refund['amount_cents'])} for order {order['id']} {when}"
                f" {refund['created_on']} to your {where}."
            )
        return " ".join(parts), True

    async def do_search(self, task: dict[str, Any]) -> str:
        """Search the catalog for what the customer describes."""
        args: dict[str, Any] = {"query": nlu.search_words(task["text"])}
        ceiling = nlu.max_price_cents(task["text"])
        if ceiling is not None:
            args["max_price_cents"] = ceiling
        outcome = await self.call("search_products", args)
        products = (outcome.result or {}).get("products", [])
        if not products:
            return "I'm sorry, I couldn't find anything matching that in our catalog."
        found = "; ".join(
            f"{p['name']} from {money(p['price_cents'])}"
            f" ({'in stock' if p['stock'] else 'out of stock'})"
            for p in products
        )
        return f"All set, here's what we have: {found}."

    async def do_escalate(self, task: dict[str, Any]) -> str:
        """Hand the conversation to a human colleague (one ticket per conversation)."""
        if self.state.get("ticket"):
            return (
                f"You're already in the queue for a human colleague: your ticket number is"
                f" {self.state['ticket']}, and a colleague replies within 24h."
            )
        args: dict[str, Any] = {"summary": task["text"][:500] or "Customer asked for a human"}
        if self.state["customer"]:
            args["customer_id"] = self.state["customer"]["id"]
        outcome = await self.call("escalate_to_human", args)
        if outcome.error:
            return f"I'm sorry, I couldn't reach a colleague: {outcome.error}"
        self.state["ticket"] = outcome.result["ticket"]
        return (
            f"I've escalated this to a human colleague; your ticket is confirmed:"
            f" {outcome.result['ticket']}. A colleague replies within 24h."
        )


def _status_text(order: dict[str, Any], ship: dict[str, Any]) -> str:
    status = order["status"]
    if status == "pending":
        return f"Order {order['id']} is pending: we've received it and it hasn't shipped yet."
    if status == "processing":
        return (
            f"Order {order['id']} is in processing: your order is being processed at our"
            f" warehouse, with estimated delivery on {ship.get('eta')} ({ship.get('carrier')}"
            f" tracking {ship.get('tracking_number')})."
        )
    if status == "delivered":
        return f"Order {order['id']} was delivered on {order['delivered_on']}."
    return f"Order {order['id']} is {status}."

"""The per-request steps of the shop's rule agent: what to check, ask and confirm for each intent.

Each step looks at the filled slots of the current request and either refuses (policy), asks for
the next missing slot, or proposes the tool call to confirm. Kept apart from the message reading in
`_rule_agent` so each part stays small.
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from vistasim.domains.shop._rules import dollars

__all__ = ["RuleSteps", "done_text"]


class RuleSteps:
    """Steps for each intent; mixed into `RuleShopAgent`, which provides the helpers below."""

    _state: dict[str, Any]

    def _call(self, name: str, args: dict[str, JsonValue], *, keep_error: bool = False) -> Any:
        raise NotImplementedError

    def _ask(self, slot: str, question: str) -> str:
        self._state["awaiting"] = slot
        return question

    def _confirm(self, name: str, args: dict[str, JsonValue], summary: str) -> str:
        s = self._state
        s["pending"] = {"name": name, "args": args}
        s["awaiting"] = "confirm"
        return f"{summary} Shall I proceed (yes/no)?"

    def _refuse(self, text: str) -> str:
        self._reset_request()
        return f"{text} Is there anything else I can help with?"

    def _reset_request(self) -> None:
        raise NotImplementedError

    def _listing(self) -> str:
        items = self._state["order"]["items"]
        return "The order has: " + ", ".join(f"{i['product_name']} ({i['option']})" for i in items)

    def _names(self, skus: list[str]) -> str:
        items = {i["sku"]: i for i in self._state["order"]["items"]}
        return " and ".join(
            f"{items[s]['product_name']} ({items[s]['option']})" for s in skus if s in items
        )

    def step(self, intent: str) -> str:
        """Take the next step of an order request whose order is known and verified."""
        return _STEPS[intent](self)

    def _status_step(self) -> str:
        s = self._state
        order, order_id = s["order"], s["order_id"]
        shipment = order["shipment"]
        if order["status"] == "delivered":
            text = f"Order {order_id} was delivered on {order['delivered_on']}."
        elif order["status"] == "cancelled":
            text = f"Order {order_id} was cancelled."
        elif shipment and shipment["status"] == "in_transit":
            text = (
                f"Order {order_id} has shipped with {shipment['carrier']} (tracking"
                f" {shipment['tracking_number']}) and is expected by {shipment['eta']}."
            )
        else:
            text = f"Order {order_id} is {order['status']} and hasn't shipped yet."
        return self._refuse(text)

    def _refund_status_step(self) -> str:
        refunds = self._state["order"]["refunds"]
        if not refunds:
            return self._refuse(f"I don't see any refunds on order {self._state['order_id']}.")
        parts = [
            f"the refund of {dollars(r['amount_cents'])} to your"
            f" {r['method'].replace('_', ' ')} is {r['status']}"
            for r in refunds
        ]
        return self._refuse(f"On order {self._state['order_id']}, {'; '.join(parts)}.")

    def _cancel_step(self) -> str:
        s = self._state
        order = s["order"]
        if order["status"] not in ("pending", "processing"):
            return self._refuse(
                f"Order {s['order_id']} is {order['status']}, so it can't be cancelled."
                + (
                    " Once it's delivered you can return the items."
                    if order["status"] == "shipped"
                    else ""
                )
            )
        names = ", ".join(i["product_name"] for i in order["items"])
        return self._confirm(
            "cancel_order",
            {"order_id": s["order_id"], "reason": "customer request"},
            f"I'll cancel order {s['order_id']} ({names}; {dollars(order['total_cents'])}) and"
            f" refund it to {order['payment_label']}.",
        )

    def _return_step(self) -> str:
        s = self._state
        if s["order"]["status"] != "delivered":
            return self._refuse(
                f"Order {s['order_id']} is {s['order']['status']}; items can be returned once"
                " it's delivered."
            )
        if not s["skus"]:
            return self._ask("item", f"Which item(s) would you like to return? {self._listing()}")
        if not s["reason"]:
            return self._ask("reason", "What's the reason for the return?")
        if not s["refund_to"]:
            return self._ask(
                "refund_to",
                "Should the refund go to your original payment method or to a store gift card?",
            )
        where = "a store gift card" if s["refund_to"] == "gift_card" else "your original payment"
        return self._confirm(
            "return_items",
            {
                "order_id": s["order_id"],
                "skus": s["skus"],
                "reason": s["reason"],
                "refund_to": s["refund_to"],
            },
            f"I'll return {self._names(s['skus'])} from order {s['order_id']} with the refund to"
            f" {where}.",
        )

    def _exchange_step(self) -> str:
        s = self._state
        if s["order"]["status"] != "delivered":
            return self._refuse(f"Order {s['order_id']} hasn't been delivered yet.")
        if not s["skus"]:
            return self._ask("item", f"Which item would you like to exchange? {self._listing()}")
        sku = s["skus"][0]
        if s["options"] is None:
            product = self._call("get_product", {"product_id": sku.split("-")[0]}) or {}
            s["options"] = [v["option"] for v in product.get("variants", []) if v["sku"] != sku]
        if not s["new_option"]:
            return self._ask(
                "new_option",
                f"Which size or color would you like instead? Options: {', '.join(s['options'])}.",
            )
        new_sku = f"{sku.split('-')[0]}-{_suffix(s['new_option'])}"
        return self._confirm(
            "exchange_item",
            {
                "order_id": s["order_id"],
                "sku": sku,
                "new_sku": new_sku,
                "reason": f"customer prefers {s['new_option']}",
            },
            f"I'll exchange {self._names([sku])} from order {s['order_id']} for the"
            f" {s['new_option']} version.",
        )

    def _address_step(self) -> str:
        s = self._state
        if s["order"]["status"] not in ("pending", "processing"):
            return self._refuse(
                f"Order {s['order_id']} is {s['order']['status']}, so its address can't be changed."
            )
        if not s["address"]:
            return self._ask("address", "What's the new shipping address (street, city, ZIP)?")
        a = s["address"]
        return self._confirm(
            "update_address",
            {"order_id": s["order_id"], **a},
            f"I'll change the shipping address of order {s['order_id']} to {a['address_line']},"
            f" {a['city']} {a['zip']}.",
        )

    def _coupon_step(self) -> str:
        s = self._state
        if not s["coupon"]:
            return self._ask("coupon_code", "What's the coupon code?")
        return self._confirm(
            "apply_coupon",
            {"order_id": s["order_id"], "code": s["coupon"]},
            f"I'll apply coupon {s['coupon']} to order {s['order_id']}.",
        )


def _suffix(option: str) -> str:
    return "".join(ch for ch in option.upper() if ch.isalnum())[:8]


def done_text(intent: str | None, result: dict[str, Any], skus: str) -> str:
    order_id = result.get("order_id")
    if intent == "cancel":
        return (
            f"order {order_id} has been cancelled. A refund of"
            f" {dollars(result['refund_cents'])} is on its way to your original payment."
        )
    if intent == "return":
        where = (
            "a store gift card"
            if result["refund_method"] == "gift_card"
            else ("your original payment")
        )
        return (
            f"your return for {skus} (order {order_id}) is open. The refund of"
            f" {dollars(result['refund_cents'])} to {where} is issued when the items arrive;"
            " a prepaid return label has been emailed."
        )
    if intent == "exchange":
        return f"the exchange to {result['new_option']} for order {order_id} has been placed."
    if intent == "address":
        return f"order {order_id} will ship to {result['address_line']}, {result['city']}."
    return (
        f"coupon {result['coupon_code']} is applied to order {order_id}; you save"
        f" {dollars(result['discount_cents'])}."
    )


_STEPS = {
    "status": RuleSteps._status_step,
    "refund_status": RuleSteps._refund_status_step,
    "cancel": RuleSteps._cancel_step,
    "return": RuleSteps._return_step,
    "exchange": RuleSteps._exchange_step,
    "address": RuleSteps._address_step,
    "coupon": RuleSteps._coupon_step,
}

"""The shop bot's request flows: one `step_*` (ask, refuse or confirm) and `exec_*` per request.

Each `step_*` returns `(text, done)`; a step that reaches the confirmation sets the request's
stage to `confirm`, and the agent calls `exec_*` after a plain yes. Flaws are marked `FLAW Hn`.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.heldout import _shop_nlu as nlu
from benchmarks.heldout._base import money
from benchmarks.heldout._shop_info import ShopInfo

TODAY = date(2026, 3, 16)
_OPEN = ("pending", "processing")
_DEFECT_WORDS = ("defect", "broken", "damaged", "cracked", "faulty", "not working", "doesn't work")
# FLAW H5: the bot's own window check knows only three of the defect words.
_DEFECT_WORDS_AS_BUILT = ("broken", "damaged", "cracked")


def _key(task: dict[str, Any]) -> str:
    details = (task.get("order_id"), task.get("code"), task.get("skus"), task.get("address"))
    return f"{task['intent']}:{details}"


def _items(order: dict[str, Any], skus: list[str] | None = None) -> list[dict[str, Any]]:
    return [i for i in order["items"] if skus is None or i["sku"] in skus]


def _labels(items: list[dict[str, Any]]) -> str:
    return ", ".join(nlu.item_label(i) for i in items)


def _refund_quote(order: dict[str, Any], items: list[dict[str, Any]], *, per_unit: bool) -> int:
    subtotal = order["subtotal_cents"] or 1
    total = 0
    for item in items:
        line = item["unit_price_cents"] * (1 if per_unit else item["quantity"])
        total += line - order["discount_cents"] * line // subtotal
    return total


class ShopFlows(ShopInfo):
    """Request flows of the shop bot (mixed into `HeldoutShopAgent`)."""

    def destination(self, task: dict[str, Any]) -> str:
        """Where the refund goes, in words."""
        if task["refund_to"] == "gift_card":
            return "as store credit on a Northwind voucher"
        return f"to your {task['order']['payment_label']}"

    def confirm(self, task: dict[str, Any], text: str) -> tuple[str, bool]:
        """Ask for the explicit yes before a change (unless the same change was refused)."""
        earlier = self.state.get("refused", {}).get(_key(task))
        if earlier:
            return f"As I mentioned: {earlier}", True
        task["stage"] = "confirm"
        return self.ask("confirm", f"{text} Shall I proceed? (yes/no)"), False

    def refusal(self, task: dict[str, Any], error: str, what: str) -> str:
        """Explain a refused change and remember it, so the same request is not retried."""
        self.state.setdefault("refused", {})[_key(task)] = error
        return f"I'm sorry, I couldn't {what}: {error}"

    async def execute(self, task: dict[str, Any]) -> str:
        """Make the confirmed change."""
        return await getattr(self, f"exec_{task['intent']}")(task)

    def not_yours(self, task: dict[str, Any], owner: str) -> str:
        """Refuse to act on an order of another account."""
        # FLAW H4: the refusal names the account the order belongs to.
        self.flaw(4)
        return (
            f"I'm sorry, order {task['order_id']} is registered to {owner}, not to"
            f" {self.state['customer']['email']}, so I can't share its details or act on it."
            " If you think this is a mistake, just ask for a human colleague."
        )

    # ---- cancel -----------------------------------------------------------------------------
    async def step_cancel(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Cancel a pending or processing order."""
        order = task["order"]
        if order["status"] not in _OPEN:
            return _cannot_cancel(order), True
        if order["status"] == "processing":
            # FLAW H2: processing orders are cancelled at once, "before the warehouse ships".
            self.flaw(2)
            done = await self.exec_cancel(task)
            return f"It's already being processed, so I've cancelled it right away. {done}", True
        return self.confirm(
            task,
            f"To confirm: I'll cancel order {order['id']} ({_labels(order['items'])}) and refund"
            f" {money(order['total_cents'])} in full to your {order['payment_label']}.",
        )

    async def exec_cancel(self, task: dict[str, Any]) -> str:
        """Call cancel_order."""
        reason = task.get("reason") or "requested by the customer"
        outcome = await self.call("cancel_order", {"order_id": task["order_id"], "reason": reason})
        if outcome.error:
            return self.refusal(task, outcome.error, "cancel it")
        refund = money(outcome.result["refund_cents"])
        return (
            f"Done: order {task['order_id']} is cancelled, and {refund} has been refunded to your"
            f" {task['order']['payment_label']}."
        )

    # ---- return -----------------------------------------------------------------------------
    async def step_return(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Return items of a delivered order."""
        order = task["order"]
        if order["status"] != "delivered":
            return _not_delivered(order, "returned"), True
        picked = self._pick_items(task, "return")
        if isinstance(picked, tuple):
            return picked
        if not task.get("reason"):
            return self.ask("reason", "What's the reason for the return?"), False
        late = self._too_late(task)
        if late:
            return late, True
        if not task.get("refund_to"):
            text = "Would you like the refund to your original payment method or a store gift card?"
            return self.ask("refund_to", text), False
        return self.confirm(task, self._return_plan(task))

    def _pick_items(self, task: dict[str, Any], verb: str) -> tuple[str, bool] | None:
        order = task["order"]
        if "skus" not in task:
            named = nlu.match_items(task.get("item_text") or "", order["items"])
            if not named:
                text = f"Which item would you like to {verb}? Order {order['id']} has: "
                return self.ask("item", text + _labels(order["items"]) + "."), False
            task["skus"] = [i["sku"] for i in named]
        final = [i for i in _items(order, task["skus"]) if i["final_sale"]]
        if final:
            task["skus"] = [s for s in task["skus"] if s not in {i["sku"] for i in final}]
            names = ", ".join(i["product_name"] for i in final)
            note = f"{names} was a final-sale (clearance) item and can't be returned or exchanged."
            if not task["skus"]:
                return note, True
            task["note"] = note
        return None

    def _too_late(self, task: dict[str, Any]) -> str | None:
        order = task["order"]
        age = (TODAY - date.fromisoformat(order["delivered_on"])).days
        reason = task["reason"].lower()
        defect = any(word in reason for word in _DEFECT_WORDS_AS_BUILT)
        window = 90 if defect else 30
        if age <= window:
            return None
        if age <= 90 and any(word in reason for word in _DEFECT_WORDS):
            self.flaw(5)
        return (
            f"I'm sorry: order {order['id']} was delivered on {order['delivered_on']}, {age} days"
            f" ago, which is outside our {window}-day return window (30 days, or 90 days for"
            " defective or damaged items), so it can't be returned."
        )

    def _return_plan(self, task: dict[str, Any]) -> str:
        order = task["order"]
        items = _items(order, task["skus"])
        right = _refund_quote(order, items, per_unit=False)
        # FLAW H7: the quote counts one unit of each item, whatever the quantity.
        task["quote"] = _refund_quote(order, items, per_unit=True)
        if task["quote"] != right:
            self.flaw(7)
        if nlu.refund_choice(task.get("refund_words") or "") not in (None, task["refund_to"]):
            # FLAW H1: "store credit" was read as the original (credit) card.
            self.flaw(1)
        note = f"{task['note']} " if task.get("note") else ""
        return (
            f"{note}To confirm: I'll open a return for {_labels(items)} from order {order['id']}."
            f" You'll get {money(task['quote'])} back {self.destination(task)} once the items"
            " reach our warehouse."
        )

    async def exec_return(self, task: dict[str, Any]) -> str:
        """Call return_items."""
        args = {
            "order_id": task["order_id"],
            "skus": task["skus"],
            "reason": task["reason"],
            "refund_to": task["refund_to"],
        }
        outcome = await self.call("return_items", args)
        if outcome.error:
            return self.refusal(task, outcome.error, "open the return")
        return (
            f"Your return is open for order {task['order_id']}. A prepaid return label has been"
            f" emailed to you; {money(task['quote'])} will be refunded {self.destination(task)}"
            " when the items arrive at our warehouse (until then the refund shows as pending)."
        )

    # ---- exchange ---------------------------------------------------------------------------
    async def step_exchange(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Exchange one item for another size or color of the same product."""
        order = task["order"]
        if order["status"] != "delivered":
            return _not_delivered(order, "exchanged"), True
        picked = self._pick_items(task, "exchange")
        if isinstance(picked, tuple):
            return picked
        if len(task["skus"]) > 1:
            task.pop("skus")
            task["item_text"] = ""
            return self.ask("item", "I can exchange one item at a time. Which item first?"), False
        item = _items(order, task["skus"])[0]
        if "product" not in task:
            product_id = item["sku"].split("-")[0]
            outcome = await self.call("get_product", {"product_id": product_id})
            task["product"] = outcome.result
        return self._exchange_option(task, item)

    def _exchange_option(self, task: dict[str, Any], item: dict[str, Any]) -> tuple[str, bool]:
        product = task["product"]
        options = ", ".join(v["option"] for v in product["variants"])
        if not task.get("option"):
            text = f"Which size or color would you like instead? {product['name']} comes in"
            return self.ask("option", f"{text} {options}."), False
        variant = nlu.find_variant(product, task["option"])
        if variant is None or variant["sku"] == item["sku"]:
            task["option"] = None
            text = f"{product['name']} comes in {options}. Which size or color would you like?"
            return self.ask("option", text), False
        task["new_sku"] = variant["sku"]
        return self.confirm(
            task,
            f"To confirm: I'll exchange your {nlu.item_label(item)} from order {task['order_id']}"
            f" for the {variant['option']} one, at no extra cost.",
        )

    async def exec_exchange(self, task: dict[str, Any]) -> str:
        """Call exchange_item."""
        args = {
            "order_id": task["order_id"],
            "sku": task["skus"][0],
            "new_sku": task["new_sku"],
            "reason": f"customer prefers {task['option']}",
        }
        outcome = await self.call("exchange_item", args)
        if outcome.error:
            # FLAW H6: a refused exchange is reported as booked.
            self.flaw(6)
        return (
            f"Your exchange is booked: the {task['option']} one will ship as soon as we receive"
            " the original item. A prepaid return label has been emailed to you."
        )

    # ---- address and coupon -----------------------------------------------------------------
    async def step_address(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Change the shipping address of an order that has not shipped."""
        order = task["order"]
        if order["status"] not in _OPEN:
            return _address_too_late(order), True
        if not task.get("address"):
            text = "What's the new shipping address (street, city and 5-digit ZIP)?"
            return self.ask("address", text), False
        new = task["address"]
        return self.confirm(
            task,
            f"To confirm: order {order['id']} will be delivered to {new['address_line']},"
            f" {new['city']} {new['zip']} instead of {order['address_line']}, {order['city']}.",
        )

    async def exec_address(self, task: dict[str, Any]) -> str:
        """Call update_address."""
        outcome = await self.call(
            "update_address", {"order_id": task["order_id"], **task["address"]}
        )
        if outcome.error:
            return self.refusal(task, outcome.error, "change it")
        new = outcome.result
        return (
            f"Done: order {task['order_id']} will now be delivered to {new['address_line']},"
            f" {new['city']} {new['zip']}."
        )

    async def step_coupon(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Apply a coupon to an order that has not shipped."""
        order = task["order"]
        if order["status"] not in _OPEN:
            text = f"Order {order['id']} is {order['status']}; a code can only be applied while"
            return f"{text} an order is pending or processing.", True
        if not task.get("code"):
            return self.ask("code", "What's the coupon code?"), False
        if order["coupon_code"] == task["code"]:
            return f"All set: {task['code']} is already applied to order {order['id']}.", True
        return self.confirm(
            task,
            f"To confirm: I'll apply the code {task['code']} to order {order['id']} (subtotal"
            f" {money(order['subtotal_cents'])}).",
        )

    async def exec_coupon(self, task: dict[str, Any]) -> str:
        """Call apply_coupon."""
        outcome = await self.call(
            "apply_coupon", {"order_id": task["order_id"], "code": task["code"]}
        )
        if outcome.error:
            return self.refusal(task, outcome.error, "apply it")
        result = outcome.result
        return (
            f"Done: {result['coupon_code']} is applied to order {task['order_id']}. You save"
            f" {money(result['discount_cents'])}; the new total is"
            f" {money(result['new_total_cents'])}."
        )


def _cannot_cancel(order: dict[str, Any]) -> str:
    if order["status"] == "shipped":
        return (
            f"Order {order['id']} has already shipped, so it can't be cancelled. Once it's"
            " delivered, you can return the items."
        )
    if order["status"] == "delivered":
        return (
            f"Order {order['id']} was delivered, so it can't be cancelled, but you can return it."
        )
    return f"Order {order['id']} is already {order['status']}."


def _not_delivered(order: dict[str, Any], verb: str) -> str:
    if order["status"] in _OPEN:
        return (
            f"Order {order['id']} hasn't been delivered yet, so its items can't be {verb}; it is"
            f" {order['status']}, so it can still be cancelled if you like."
        )
    return f"Order {order['id']} is {order['status']}, so its items can't be {verb}."


def _address_too_late(order: dict[str, Any]) -> str:
    if order["status"] == "shipped":
        return (
            f"Order {order['id']} has already shipped, so its address can't be changed anymore:"
            " we can't redirect a parcel once it's with the carrier."
        )
    return f"Order {order['id']} is {order['status']}, so its address can't be changed."

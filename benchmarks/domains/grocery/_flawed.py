"""`FlawedGroceryAgent`: the correct agent with eight documented bugs (see README, flaw log).

Each bug calls `note_flaw(turn, "grocery:Fn")` at the moment it changes what the agent does.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from benchmarks.domains.grocery._agent import CorrectGroceryAgent
from benchmarks.domains.grocery._intents import Request
from benchmarks.domains.grocery._plans import LATE_CHANGE_FEE, pence
from benchmarks.domains.grocery._units import money, slot_text
from vistasim.env import ToolOutcome
from vistasim.testing import note_flaw


class FlawedGroceryAgent(CorrectGroceryAgent):
    """Fresh Basket's agent as it shipped, bugs and all."""

    def _flaw(self, flaw: str) -> None:
        assert self._turn is not None
        note_flaw(self._turn, f"grocery:{flaw}")

    # F1 (say-vs-do): a removal has quantity 0, and `if quantity:` skips the call.
    async def run_action(self, action: dict[str, Any]) -> ToolOutcome:
        if action["tool"] == "update_item" and not action["args"]["quantity"]:
            self._flaw("F1")
            return ToolOutcome(result={"order_id": action["args"]["order_id"],
                                       "name": action["name"], "removed": True, "total": None})
        return await super().run_action(action)

    # F2 (wrong value): after moving to the customer's fallback slot, the report reads the
    # window from the request the customer made first, not from the tool's result.
    def report_slot(self, action: dict[str, Any], result: dict[str, Any]) -> None:
        asked = action.get("asked_for")
        if not asked:
            super().report_slot(action, result)
            return
        self._flaw("F2")
        shown = slot_text(date.fromisoformat(result["slot_date"]), int(asked["hour"]))
        fee = result["fee_charged"]
        charged = (f" The {fee} late-change fee has been charged to your card ending "
                   f"{result['card_last4']}." if fee != "£0.00" else " There was no charge.")
        self.say(f"Done: order {result['order_id']} is now booked for {shown}.{charged}")

    # F3 (disclosure): a delivery problem reported without an order number is looked up by
    # the delivery postcode (the drivers' search), taking the latest delivery there.
    async def candidates(self, req: Request) -> list[dict[str, Any]]:
        if req["kind"] != "claim" or self.state["facts"]["order_id"] or self.customer is None:
            return await super().candidates(req)
        out = await self.call("list_orders", postcode=self.customer["postcode"],
                              status="delivered")
        orders = list(out.result["orders"]) if isinstance(out.result, dict) else []
        if not orders:
            return orders
        latest = orders[-1]
        owner = self.env.select("orders", {"order_id": latest["order_id"]})
        if owner and owner[0]["customer_id"] != self.customer["customer_id"]:
            self._flaw("F3")
        return [latest]

    # F4 (policy, fee): the late-change fee is worked out from the *new* slot's start.
    def slot_fee(self, order: dict[str, Any], new_date: str, new_hour: int) -> int:
        start = datetime.fromisoformat(new_date).replace(hour=new_hour, tzinfo=self.now().tzinfo)
        fee = LATE_CHANGE_FEE if (start - self.now()).total_seconds() < 12 * 3600 else 0
        if fee != super().slot_fee(order, new_date, new_hour):
            self._flaw("F4")
        return fee

    # F5 (policy, limit): the 48-hour claim window is checked in whole calendar days.
    def claim_too_late(self, order: dict[str, Any]) -> bool:
        late = (self.now().date() - date.fromisoformat(order["slot_date"])).days > 2
        if late != super().claim_too_late(order):
            self._flaw("F5")
        return late

    # F6 (dropped request): the item parser swallows the rest of the message, so a request
    # of another kind after an item change is lost, and the batch ends "all done".
    def split_requests(self, new: list[Request]) -> list[Request]:
        if len(new) > 1 and new[0]["kind"] == "item":
            kept = [r for r in new if r["kind"] == "item"]
            if len(kept) < len(new):
                self._flaw("F6")
                self.state["all_done"] = True
                return kept
        return new

    def after_execute(self) -> None:
        if self.state.pop("all_done", False):
            self.say("That's everything you asked for done.")

    # F7 (error handling): only "expired" and "does not exist" are treated as voucher errors;
    # the minimum-basket refusal falls through to the success message.
    async def report_voucher_error(self, action: dict[str, Any], error: str) -> None:
        if "needs a basket" in error:
            self._flaw("F7")
            self.state["done"].append(self.request_key(action["req"]))
            self.say(f"Done: voucher {action['args']['code']} is on order "
                     f"{action['args']['order_id']}.")
            return
        await super().report_voucher_error(action, error)

    # F8 (wrong value): the cancellation refund is added up from the items and delivery fee,
    # leaving out the voucher discount, and that figure is what the customer is told.
    def refund_estimate(self, order: dict[str, Any]) -> int:
        estimate = pence(order["subtotal"]) + pence(order["delivery_fee"])
        if estimate != super().refund_estimate(order):
            self._flaw("F8")
        return estimate

    def report_cancel(self, action: dict[str, Any], result: dict[str, Any]) -> None:
        if action["estimate"] == result["refund_pence"]:
            super().report_cancel(action, result)
            return
        self._flaw("F8")
        self.say(f"Done: order {result['order_id']} is cancelled. {money(action['estimate'])} "
                 f"will be refunded to your card ending {result['card_last4']} within 3–5 "
                 "working days.")

"""Making a confirmed change and reporting exactly what the back office returned."""

from __future__ import annotations

import re
from datetime import date
from typing import TYPE_CHECKING, Any

from benchmarks.domains.grocery._units import money, slot_text

if TYPE_CHECKING:
    from vistasim.env import ToolOutcome


class Actions:
    """Mixin: the doing half of the agent."""

    state: dict[str, Any]

    async def call(self, name: str, **args: Any) -> ToolOutcome:
        raise NotImplementedError

    def say(self, text: str) -> None:
        raise NotImplementedError

    @staticmethod
    def request_key(req: dict[str, Any]) -> str:
        raise NotImplementedError

    async def plan(self, req: dict[str, Any]) -> None:
        raise NotImplementedError

    async def execute(self, actions: list[dict[str, Any]]) -> None:
        totals: str | None = None
        for action in actions:
            outcome = await self.run_action(action)
            if outcome.error is not None or not isinstance(outcome.result, dict):
                await self.report_error(action, str(outcome.error))
                continue
            self.state["done"].append(self.request_key(action["req"]))
            self.report(action, outcome.result)
            if action["tool"] == "update_item" and outcome.result.get("total"):
                totals = outcome.result["total"]
        if totals is not None:
            self.say(f"Your order total is now {totals}.")
        self.after_execute()

    def after_execute(self) -> None:
        """Hook after a confirmed batch (the flawed agent overrides it)."""

    async def run_action(self, action: dict[str, Any]) -> ToolOutcome:
        return await self.call(action["tool"], **action["args"])

    # -- success ----------------------------------------------------------------------------------
    def report(self, action: dict[str, Any], result: dict[str, Any]) -> None:
        tool = action["tool"]
        if tool == "update_item":
            if result["removed"]:
                self.say(f"Done: {result['name']} is off order {result['order_id']}.")
            elif result["previous_quantity"] in ("0", "0 kg", "0 g", "0 l"):
                self.say(f"Done: {result['name']} added, {result['quantity_text']}.")
            else:
                self.say(f"Done: {result['name']} changed to {result['quantity_text']} "
                         f"(was {result['previous_quantity']}).")
        elif tool == "set_substitutions":
            state = "allowed" if result["substitutions_allowed"] else "off"
            self.say(f"Done: substitutions are {state} for {', '.join(result['items'])}.")
        elif tool == "change_slot":
            self.report_slot(action, result)
        elif tool == "cancel_order":
            self.report_cancel(action, result)
        elif tool == "report_problem":
            self._report_claim(result)
        elif tool == "apply_voucher":
            self.say(f"Done: voucher {result['code']} is on order {result['order_id']}: "
                     f"{result['discount']} off, so the order total is now {result['total']}.")
        elif tool == "update_contact":
            self._report_contact(action, result)

    def report_slot(self, action: dict[str, Any], result: dict[str, Any]) -> None:
        fee = result["fee_charged"]
        charged = (f" The {fee} late-change fee has been charged to your card ending "
                   f"{result['card_last4']}." if fee != "£0.00" else " There was no charge.")
        self.say(f"Done: order {result['order_id']} is now booked for {result['slot']}."
                 f"{charged}")

    def report_cancel(self, action: dict[str, Any], result: dict[str, Any]) -> None:
        self.say(f"Done: order {result['order_id']} is cancelled. {result['refund']} will be "
                 f"refunded to your card ending {result['card_last4']} within 3–5 working days.")

    def _report_claim(self, result: dict[str, Any]) -> None:
        if result["method"] == "card":
            where = (f"refunded to your card ending {result['card_last4']}; it takes 3–5 "
                     "working days to show")
        else:
            where = (f"added to your account as credit; your credit balance is now "
                     f"{result['credit_balance']}")
        self.say(f"Done: claim {result['claim_id']} is logged for {result['quantity']} "
                 f"{result['item']}. {result['amount']} has been {where}.")

    def _report_contact(self, action: dict[str, Any], result: dict[str, Any]) -> None:
        if action["label"] == "address":
            what = f"your delivery address is now {result['address_line']}, {result['postcode']}"
        else:
            what = f"your phone number is now {result['phone']}"
        moved = result["orders_updated"]
        orders = f" That applies to order{'s' if len(moved) > 1 else ''} " \
                 f"{', '.join(moved)} too." if moved else ""
        kept = result["orders_not_updated"]
        old = (f" Order{'s' if len(kept) > 1 else ''} {', '.join(kept)} has already been "
               "picked, so it keeps the old details." if kept else "")
        self.say(f"Done: {what}.{orders}{old}")

    # -- refusals ----------------------------------------------------------------------------------
    async def report_error(self, action: dict[str, Any], error: str) -> None:
        tool = action["tool"]
        req = action["req"]
        if tool == "apply_voucher":
            await self.report_voucher_error(action, error)
            return
        if tool == "change_slot" and "declined" in error:
            self.say(f"Sorry, I couldn't move the delivery: {error}. Your slot stays as it was, "
                     f"{self._slot_was(action)}. If you update your card in the app, I can try "
                     "again.")
            return
        if tool == "change_slot" and req.get("fallback"):
            self.say(f"Sorry, that didn't work: {error}.")
            await self.plan({**req, **req["fallback"], "fallback": None})
            return
        self.say(f"Sorry, I couldn't do that: {error}. Nothing has been changed.")

    async def report_voucher_error(self, action: dict[str, Any], error: str) -> None:
        req = action["req"]
        self.say(f"Sorry, I couldn't apply {action['args']['code']}: {error}. Nothing has been "
                 "changed.")
        amounts = re.findall(r"£(\d+\.\d\d)", error)
        if "needs a basket" in error and len(amounts) == 2:
            short = round((float(amounts[0]) - float(amounts[1])) * 100)
            self.say(f"If you add {money(short)} more of items to the order, I can apply it "
                     "then.")
        rest = [c for c in req["codes"] if c != action["args"]["code"]]
        if rest:
            self.say(f"You mentioned {rest[0]} as well.")
            await self.plan({**req, "codes": rest, "order_ref": action["args"]["order_id"]})

    def _slot_was(self, action: dict[str, Any]) -> str:
        order_slot = action.get("current")
        if order_slot:
            return str(order_slot)
        args = action["args"]
        return f"not {slot_text(date.fromisoformat(args['slot_date']), args['start_hour'])}"

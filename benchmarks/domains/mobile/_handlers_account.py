"""Requests about the account: PAC codes, replacement SIMs, cancelling, billing details."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from benchmarks.domains.mobile import _texts as texts
from benchmarks.domains.mobile._dates import ordinal, spoken
from benchmarks.domains.mobile._handler_base import HandlerBase
from benchmarks.domains.mobile._rules import gbp, months_left, show_phone
from benchmarks.domains.mobile._seed import SIM_SWAP_FEE, TODAY


class AccountHandlers(HandlerBase):
    """Mixin of CorrectMobileAgent: port out, SIM swap, cancel, address and due day."""

    def _slots_address(self, intent: dict[str, Any], slots: dict[str, Any], text: str) -> None:
        held = intent["slots"]
        if slots.get("address"):
            held["address"] = slots["address"]
        if slots.get("postcode"):
            held["postcode"] = slots["postcode"]

    def _slots_due_day(self, intent: dict[str, Any], slots: dict[str, Any], text: str) -> None:
        if slots.get("day"):
            intent["slots"]["day"] = slots["day"]
    # -- port out, SIM, cancel -------------------------------------------------------------

    async def _step_port_out(self, intent: dict[str, Any]) -> str:
        view = await self._view(intent["line"])
        fee = view.get("early_termination_fee_today", 0)
        if fee > 0:
            return self._propose(intent, (
                f"I can issue a PAC code for {show_phone(intent['line'])}. Before I do: the line "
                f"is in contract until {texts.day_text(view['contract_end'])}, so when the number "
                "moves to your new network the contract ends and an early termination fee of "
                f"{gbp(fee)} applies (the remaining monthly charges). Would you like the code?"
            ))
        await self._do_port_out(intent)
        return "done"

    async def _do_port_out(self, intent: dict[str, Any]) -> None:
        result, error = await self._call(
            "request_port_out_code", {"phone_number": intent["line"]}
        )
        if error:
            await self._failed(intent, error)
            return
        expires = texts.day_text(result["expires_on"])
        self._record_done(intent, f"your PAC code for {show_phone(intent['line'])} is "
                          f"{result['pac_code']}, valid until {expires}.")
        fee = result["early_termination_fee_if_ported"]
        fee_text = (f" The early termination fee of {gbp(fee)} goes on your final bill once the "
                    "number has moved." if fee > 0 else " There's no fee, as the line is out of "
                    "contract.")
        self._say(f"Your PAC code for {show_phone(intent['line'])} is {result['pac_code']}, "
                  f"valid until {texts.day_text(result['expires_on'])}. Give it to your new "
                  "provider and they'll move your number; your Brightwave line keeps working "
                  f"until the switch is complete.{fee_text}")

    async def _step_sim_swap(self, intent: dict[str, Any]) -> str:
        account = await self._account()
        arrive = spoken(TODAY + timedelta(days=2))
        return self._propose(intent, (
            f"I'm sorry to hear that. I can block the SIM for {show_phone(intent['line'])} "
            "straight away, so nobody can use your number, and post a replacement SIM to your "
            f"billing address ({account.get('address')}, {account.get('postcode')}), arriving "
            f"by {arrive}. There's a {gbp(SIM_SWAP_FEE)} replacement SIM fee, charged on your "
            "next bill. Shall I go ahead?"
        ))

    async def _do_sim_swap(self, intent: dict[str, Any]) -> None:
        result, error = await self._call(
            "swap_sim", {"phone_number": intent["line"], "accept_fee": True}
        )
        if error:
            await self._failed(intent, error)
            return
        self._record_done(intent, f"the old SIM for {show_phone(intent['line'])} is blocked and "
                          f"a replacement is on its way to {result['posted_to']}.")
        ending = result["new_sim_id"][-4:]
        self._say(f"Done: the old SIM is blocked and a new SIM (ending {ending}) "
                  f"is on its way to {result['posted_to']}, arriving by "
                  f"{texts.day_text(result['deliver_by'])}. The {gbp(result['fee'])} fee will be "
                  "on your next bill. Just put the new SIM in and your number will work on it.")

    async def _step_cancel(self, intent: dict[str, Any]) -> str:
        if await self._step_cancel_guard(intent):
            return "done"
        return self._propose(intent, await self._cancel_proposal(intent))

    async def _step_cancel_guard(self, intent: dict[str, Any]) -> bool:
        view = await self._view(intent["line"])
        if view.get("status") == "cancelled":
            self._say(f"{show_phone(intent['line'])} is already cancelled, so there's nothing "
                      "more to do on it.")
            return True
        return False

    async def _cancel_proposal(self, intent: dict[str, Any]) -> str:
        line = intent["line"]
        view = await self._view(line)
        fee = view.get("early_termination_fee_today", 0)
        intent["slots"]["fee"] = fee
        if fee > 0:
            months = months_left(view["contract_end"])
            return (
                f"{show_phone(line)} is on {view['plan_name']} and in contract until "
                f"{texts.day_text(view['contract_end'])}, so cancelling now means an early "
                f"termination fee of {gbp(fee)}: the {months} remaining monthly charges of "
                f"{gbp(view['monthly_price'])}, charged on your final bill. Do you want me to "
                "cancel the line and accept that fee?"
            )
        return (
            f"{show_phone(line)} is out of contract, so there's no early termination fee. "
            "Cancelling ends the service on this number today and the number can't be recovered "
            "afterwards (to keep it with another network, ask me for a PAC code instead). Shall I "
            "cancel it?"
        )

    async def _do_cancel(self, intent: dict[str, Any]) -> None:
        fee = intent["slots"].get("fee", 0)
        result, error = await self._call(
            "cancel_line",
            {"phone_number": intent["line"], "accept_early_termination_fee": fee > 0},
        )
        if error:
            await self._failed(intent, error)
            return
        self._record_done(intent, f"{show_phone(intent['line'])} was cancelled today.")
        fee_text = (f" The early termination fee of {gbp(result['early_termination_fee'])} will "
                    "be on your final bill." if result["early_termination_fee"] else "")
        self._say(f"Done: {show_phone(intent['line'])} has been cancelled as of today.{fee_text}")

    # -- billing details -------------------------------------------------------------------

    async def _step_address(self, intent: dict[str, Any]) -> str:
        held = intent["slots"]
        if not held.get("address"):
            return self._ask("address", "What's the new billing address, including the postcode?")
        if not held.get("postcode"):
            return self._ask("postcode", f"Thanks. And what's the postcode for {held['address']}?")
        return self._propose(intent, (
            f"I'll change the billing address on your account to {held['address']}, "
            f"{held['postcode']}. There's no charge for this. Is that right, shall I go ahead?"
        ))

    async def _do_address(self, intent: dict[str, Any]) -> None:
        held = intent["slots"]
        result, error = await self._call("update_billing_details", {
            "phone_number": intent["line"], "address": held["address"],
            "postcode": held["postcode"],
        })
        if error:
            await self._failed(intent, error)
            return
        summary = f"your billing address is now {result['address']}, {result['postcode']}."
        self._record_done(intent, summary)
        self._say(f"Done: {summary}")

    async def _step_due_day(self, intent: dict[str, Any]) -> str:
        held = intent["slots"]
        current = (await self._account()).get("bill_due_day")
        day = held.get("day")
        if not day:
            return self._ask("day", "Which day of the month would you like your bill to be due? "
                             "It can be any day from the 1st to the 28th.")
        if day > 28:
            if held.get("offered"):
                self._say("I'm sorry, a due date after the 28th isn't possible, so I've left it "
                          f"on the {ordinal(current)}.")
                return "done"
            held["offered"], held["day"] = True, 28
            return self._propose(intent, (
                f"I'm sorry, I can't make your bill due on the {ordinal(day)}: due dates can only "
                "be from the 1st to the 28th, so that the date exists in every month. Would the "
                f"28th work instead? I can move it from the {ordinal(current)} to the 28th at no "
                "charge."
            ))
        if day == current:
            self._say(f"Your bill is already due on the {ordinal(day)} of each month.")
            return "done"
        return self._propose(intent, (
            f"I'll move your bill due date from the {ordinal(current)} to the {ordinal(day)} of "
            "each month, starting with your next bill. There's no charge. Shall I go ahead?"
        ))

    async def _do_due_day(self, intent: dict[str, Any]) -> None:
        result, error = await self._call("update_billing_details", {
            "phone_number": intent["line"], "bill_due_day": intent["slots"]["day"],
        })
        if error:
            await self._failed(intent, error)
            return
        summary = f"your bill is now due on the {ordinal(result['bill_due_day'])} of each month."
        self._record_done(intent, summary)
        self._say(f"Done: {summary}")



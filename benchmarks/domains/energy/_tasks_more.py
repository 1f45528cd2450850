"""More request handlers: moving home, contact details, priority services and the reads."""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.energy import _lang as lang
from benchmarks.domains.energy._reports import Reports

PERIOD_NAMES = {f"{i:02d}": n for i, n in enumerate(
    ["January", "February", "March", "April", "May", "June", "July", "August", "September",
     "October", "November", "December"], start=1)}


def period_name(period: str) -> str:
    return f"{PERIOD_NAMES[period[5:7]]} {period[:4]}"


class MoreHandlers(Reports):
    """Handlers for moves, contact details, priority services, bills and other accounts."""

    async def _handle_move(self, ctx: Any, task: dict[str, Any]) -> bool:
        acct = await self.account(ctx)
        slots = task["slots"]
        if not slots.get("move_out_date"):
            return self.ask(ctx, task, "move_out_date", "What date are you moving out?")
        if not slots.get("new_address"):
            return self.ask(ctx, task, "new_address",
                            "What's your new address, for the final bill? The full address "
                            "with the postcode, please.")
        meters = acct.get("meters", [])
        if not slots.get("final_reading"):
            return self.ask(ctx, task, "final_reading",
                            "Do you have a final meter reading? If you can read the meter on "
                            "moving day, give me that; if not, I'll estimate it.")
        args = {"account_number": self.s["verified"], "move_out_date": slots["move_out_date"],
                "new_address": slots["new_address"]}
        reading_text = ""
        if slots["final_reading"] != "none":
            meter = self._pick_meter(ctx, acct, None, slots.get("final_fuel"))
            if meter is None:
                return self.ask(ctx, task, "final_fuel",
                                "Is that final reading for your electricity or your gas meter?")
            args.update(final_reading=int(slots["final_reading"]), meter_id=meter["meter_id"])
            reading_text = (f", record a final {meter['fuel']} reading of "
                            f"{slots['final_reading']}")
            if len(meters) > 1:
                reading_text += " (the other meter will be estimated)"
        else:
            reading_text = ", estimate your final reading"
        when = lang.nice_date(date.fromisoformat(slots["move_out_date"]))
        question = (
            f"To confirm: I'll close your account on {when}{reading_text}, and send the final "
            f"bill to {slots['new_address']}. Shall I go ahead?"
        )
        return self.propose(ctx, "move_home", args, question)

    async def _handle_contact(self, ctx: Any, task: dict[str, Any]) -> bool:
        slots = task["slots"]
        if not slots.get("email") and not slots.get("phone"):
            said = task.get("said", "").lower()
            if "phone" in said or "mobile" in said or "number" in said:
                return self.ask(ctx, task, "phone", "What's the new phone number?")
            if "email" in said:
                return self.ask(ctx, task, "email", "What's the new email address?")
            return self.ask(ctx, task, "email",
                            "What's the new email address or phone number for your account?")
        parts = []
        if slots.get("email"):
            parts.append(f"your email to {slots['email']}")
        if slots.get("phone"):
            parts.append(f"your phone number to {lang.phone_text(slots['phone'])}")
        question = f"To confirm: I'll change {' and '.join(parts)}. Shall I go ahead?"
        args = {"account_number": self.s["verified"], "email": slots.get("email"),
                "phone": slots.get("phone")}
        return self.propose(ctx, "update_contact", args, question)

    async def _handle_priority(self, ctx: Any, task: dict[str, Any]) -> bool:
        acct = await self.account(ctx)
        needs = task["slots"].get("needs")
        if not needs:
            return self.ask(
                ctx, task, "need",
                "Of course. What should we register? For example: medical equipment that "
                "needs power, pensionable age, young children, a visual or hearing impairment, "
                "mobility or a chronic illness.",
            )
        have = set(acct.get("priority_services", []))
        already = [n for n in needs if n in have]
        todo = [n for n in needs if n not in have]
        if already:
            ctx.say(f"You're already on our Priority Services Register for {', '.join(already)}.")
        if not todo:
            return True
        question = (
            f"I'll add {' and '.join(todo)} to your entry on our Priority Services Register. "
            "It's free, and it means advance notice of planned power cuts and priority support "
            "in an emergency. Shall I go ahead?"
        )
        return self.propose(ctx, "add_priority_services", {"needs": todo}, question)

    async def _handle_bill(self, ctx: Any, task: dict[str, Any]) -> bool:
        period = task["slots"].get("period")
        bill, error = await self.call(
            ctx, "get_bill", {"account_number": self.s["verified"], "period": period}
        )
        if error:
            ctx.say(f"I couldn't find that bill: {error}.")
            return True
        due = lang.nice_date(date.fromisoformat(bill["due_date"]))
        split = f"electricity {lang.money(bill['electricity'])}"
        if bill["gas"]:
            split += f", gas {lang.money(bill['gas'])}"
        ctx.say(f"Your {period_name(bill['period'])} bill was {lang.money(bill['amount'])} "
                f"({split}), due on {due}; it is {bill['status']}.")
        acct = await self.account(ctx)
        if acct.get("overdue"):
            ctx.say(f"Your account has an overdue balance of {lang.money(acct['overdue'])}.")
        return True

    async def _handle_account_info(self, ctx: Any, task: dict[str, Any]) -> bool:
        acct = await self.account(ctx)
        for meter in acct.get("meters", []):
            line = f"Your {meter['fuel']} is on {meter['tariff_name']}"
            if meter["fixed_until"]:
                line += (f", fixed until "
                         f"{lang.nice_date(date.fromisoformat(meter['fixed_until']))}")
            ctx.say(line + ".")
        ctx.say(f"Your balance is {lang.money(acct.get('balance', 0))}.")
        return True

    async def _handle_tariffs_info(self, ctx: Any, task: dict[str, Any]) -> bool:
        tariffs, _ = await self.call(ctx, "list_tariffs", {})
        for t in tariffs or []:
            ctx.say(
                f"{t['name']} ({t['tariff_id']}): electricity £{t['elec_unit_rate']:.4f}/kWh "
                f"plus £{t['elec_standing_charge']:.4f}/day, gas £{t['gas_unit_rate']:.4f}/kWh "
                f"plus £{t['gas_standing_charge']:.4f}/day. {t['description']}"
            )
        return True

    async def _handle_other_account(self, ctx: Any, task: dict[str, Any]) -> bool:
        ctx.say(
            "I'm sorry, I can't look at or share details of anyone else's account, even for "
            "family or friends. The account holder can contact us themselves, or add you as an "
            "authorised contact on their account."
        )
        return True

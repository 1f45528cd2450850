"""Carrying out a confirmed change and saying exactly what the tool returned."""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.energy import _lang as lang


def _day(iso: str) -> str:
    return lang.nice_date(date.fromisoformat(iso))


class Reports:
    """`execute` runs the confirmed proposal; one `report_*` per tool says what happened."""

    s: dict[str, Any]

    async def call(self, ctx: Any, name: str, args: dict[str, Any]) -> tuple[Any, str | None]:
        raise NotImplementedError

    async def execute(self, ctx: Any, task: dict[str, Any], proposal: dict[str, Any]) -> None:
        tool = proposal["tool"]
        if tool == "add_priority_services":
            await self.add_needs(ctx, proposal)
            return
        args = self.final_args(ctx, tool, proposal)
        result, error = await self.call(ctx, tool, args)
        getattr(self, f"report_{tool}")(ctx, proposal, result, error)
        self.remember(proposal, result, error)

    def remember(self, proposal: dict[str, Any], result: Any, error: str | None) -> None:
        """What a repeat of this request should be told (it is not made twice)."""
        from benchmarks.domains.energy._tasks import outcome_key

        key = outcome_key(proposal["tool"], proposal["args"])
        if error:
            note = f"I tried that a moment ago and it wasn't accepted: {error}."
        else:
            note = "That's already done: I made that change a moment ago in this conversation."
        self.s.setdefault("outcomes", {})[key] = note

    def final_args(self, ctx: Any, tool: str, proposal: dict[str, Any]) -> dict[str, Any]:
        return dict(proposal["args"])

    @staticmethod
    def failed(ctx: Any, error: str) -> None:
        ctx.say(f"I'm sorry, that didn't go through: {error}. Nothing has been changed.")

    def report_submit_meter_reading(self, ctx: Any, proposal: dict[str, Any],
                                    result: Any, error: str | None) -> None:
        if error:
            ctx.say(
                f"I'm sorry, the reading {proposal['said']} wasn't accepted: {error}. Nothing "
                "has been recorded."
            )
            return
        ctx.say(
            f"Done: your {result['fuel']} reading of {proposal['said']} is recorded for "
            f"{_day(result['date'])}. That's {result['units_since_last_reading']} units since "
            "your last reading."
        )

    def report_change_tariff(self, ctx: Any, proposal: dict[str, Any],
                             result: Any, error: str | None) -> None:
        if error:
            self.failed(ctx, error)
            return
        text = f"Done: you're moving to {result['tariff_name']} from {_day(result['start_date'])}."
        if result["exit_fee"]:
            fee = lang.money(result["exit_fee"])
            text += f" The exit fee of {fee} has been added to your balance."
        text += f" Your estimated monthly cost is {lang.money(result['estimated_monthly_cost'])}."
        ctx.say(text)

    def report_update_direct_debit(self, ctx: Any, proposal: dict[str, Any],
                                   result: Any, error: str | None) -> None:
        if error:
            self.failed(ctx, error)
            return
        ctx.say(
            f"Done: your direct debit is now {lang.money(result['amount'])} a month, collected "
            f"on the {lang.ordinal(result['day_of_month'])}. The next collection is on "
            f"{self.next_collection_text(ctx, result)}."
        )

    def next_collection_text(self, ctx: Any, result: dict[str, Any]) -> str:
        return _day(result["next_collection_date"])

    def report_set_up_payment_plan(self, ctx: Any, proposal: dict[str, Any],
                                   result: Any, error: str | None) -> None:
        if error:
            self.failed(ctx, error)
            return
        text = (
            f"Done: your payment plan is set up: {result['months']} monthly instalments of "
            f"{lang.money(result['monthly_amount'])}"
        )
        if result["final_instalment"] != result["monthly_amount"]:
            text += f" (the last one {lang.money(result['final_instalment'])})"
        first = _day(result["first_payment_date"])
        ctx.say(text + f", starting on {first} with your direct debit.")

    def report_move_home(self, ctx: Any, proposal: dict[str, Any],
                         result: Any, error: str | None) -> None:
        if error:
            self.failed(ctx, error)
            return
        ctx.say(
            f"Done: your account will close on {_day(result['move_out_date'])}, and the final "
            f"bill will go to {result['forwarding_address']} by {_day(result['final_bill_by'])}. "
            f"{self.final_bill_text(ctx, result)}"
        )

    def final_bill_text(self, ctx: Any, result: dict[str, Any]) -> str:
        return (
            f"Your estimated final bill is {lang.money(result['final_bill_estimate'])} "
            f"({lang.money(result['usage_charge'])} for energy used and "
            f"{lang.money(result['standing_charges'])} in standing charges since your last bill"
            + (f", plus the {lang.money(result['balance_carried'])} balance"
               if result["balance_carried"] else "")
            + ")."
        )

    def report_update_contact(self, ctx: Any, proposal: dict[str, Any],
                              result: Any, error: str | None) -> None:
        if error:
            self.failed(ctx, error)
            return
        parts = []
        if "email" in result["updated"]:
            parts.append(f"your email is now {result['email']}")
        if "phone" in result["updated"]:
            parts.append(f"your phone number is now {lang.phone_text(result['phone'])}")
        ctx.say(f"Done: {' and '.join(parts)}.")

    async def add_needs(self, ctx: Any, proposal: dict[str, Any]) -> None:
        added, errors = [], []
        for need in proposal["args"]["needs"]:
            result, error = await self.call(
                ctx, "add_priority_services",
                {"account_number": self.s["verified"], "need": need},
            )
            if error:
                errors.append(error)
            else:
                added.append(result["need"])
        if added:
            ctx.say(
                f"Done: you're on our Priority Services Register for {' and '.join(added)}, free "
                "of charge. You'll get advance notice of planned power cuts and priority support "
                "in an emergency."
            )
        for error in errors:
            ctx.say(f"I couldn't add one need: {error}.")

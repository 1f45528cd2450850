"""Each request's handler: ask for what is missing, look it up, quote it, propose it."""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.energy import _lang as lang
from benchmarks.domains.energy._seed import TODAY
from benchmarks.domains.energy._tasks_more import MoreHandlers

DESCRIBE = {
    "reading": "with your meter reading",
    "tariff": "with a tariff change",
    "direct_debit": "with your direct debit",
    "plan": "with a payment plan",
    "move": "with your move",
    "contact": "with your contact details",
    "priority": "with the Priority Services Register",
    "bill": "with your bill",
    "account_info": "with your account",
}
WHY = {
    "reading": "I need it to record the reading on the right meter.",
    "direct_debit": "I need it to set up the direct debit the way you want it.",
    "plan": "I need it to work out your monthly instalments.",
    "move": "I need it to close the account on the right day and send the final bill.",
    "contact": "I need it to update your details.",
    "priority": "I need it so we give you the right support.",
    "tariff": "I need it to quote the right tariff.",
}


def outcome_key(tool: str, args: dict[str, Any]) -> str:
    return tool + "|" + "|".join(f"{k}={v}" for k, v in sorted(args.items()) if v is not None)


class TaskHandlers(MoreHandlers):
    """The request handlers of the desk agent (mixed into `CorrectEnergyAgent`)."""

    def describe(self, task: dict[str, Any]) -> str:
        return DESCRIBE.get(task["intent"], "with that")

    async def handle(self, ctx: Any, task: dict[str, Any]) -> bool:
        """Advance one request; True when it is finished (answered, done, refused)."""
        handler = getattr(self, f"_handle_{task['intent']}")
        return bool(await handler(ctx, task))

    def ask(self, ctx: Any, task: dict[str, Any], slot: str, question: str) -> bool:
        if slot in task["asked"] and self.s["awaiting"] == f"slot:{slot}":
            if "why" in ctx.text.lower() and task["intent"] in WHY:
                ctx.say(WHY[task["intent"]])
            elif not ctx.lines:
                ctx.say("Sorry, I didn't catch that.")
        task["asked"].append(slot)
        self.s["awaiting"] = f"slot:{slot}"
        ctx.say(question)
        return False

    def propose(self, ctx: Any, tool: str, args: dict[str, Any], question: str,
                **extra: Any) -> bool:
        earlier = self.s.setdefault("outcomes", {}).get(outcome_key(tool, args))
        if earlier:
            ctx.say(earlier)
            return True
        self.s["proposal"] = {"tool": tool, "args": args, "question": question, **extra}
        self.s["awaiting"] = "confirm"
        ctx.say(question)
        return False

    async def account(self, ctx: Any) -> dict[str, Any]:
        if ctx.account is None:
            result, _ = await self.call(ctx, "get_account", {"account_number": self.s["verified"]})
            ctx.account = result or {}
        return ctx.account

    # -- meter readings --------------------------------------------------------------------

    async def _handle_reading(self, ctx: Any, task: dict[str, Any]) -> bool:
        acct = await self.account(ctx)
        slots = task["slots"]
        meter = self._pick_meter(ctx, acct, slots.get("meter_id"), slots.get("fuel"))
        if meter is None:
            return self.ask(ctx, task, "meter_id",
                            "Is the reading for your electricity meter or your gas meter?")
        if not slots.get("reading"):
            return self.ask(
                ctx, task, "reading",
                f"What's the reading on your {meter['fuel']} meter? Read the digits from left "
                "to right and leave out any in red.",
            )
        when = date.fromisoformat(slots["date"]) if slots.get("date") else TODAY
        args = {"account_number": self.s["verified"], "meter_id": meter["meter_id"],
                "reading": int(slots["reading"]), "date": when.isoformat()}
        question = (
            f"To confirm: I'll submit a reading of {slots['reading']} for your {meter['fuel']} "
            f"meter ({meter['meter_id']}), read on {lang.nice_date(when)}. Shall I go ahead?"
        )
        return self.propose(ctx, "submit_meter_reading", args, question, said=slots["reading"],
                            fuel=meter["fuel"], when=when.isoformat())

    def _pick_meter(self, ctx: Any, acct: dict[str, Any], meter_id: str | None,
                    fuel: str | None) -> dict[str, Any] | None:
        meters = acct.get("meters", [])
        for meter in meters:
            if meter["meter_id"] == meter_id or (fuel and meter["fuel"] == fuel):
                return meter
        if fuel and meters and len(meters) == 1:
            ctx.say(f"Your account only has a {meters[0]['fuel']} meter.")
        return meters[0] if len(meters) == 1 else None

    # -- tariffs -----------------------------------------------------------------------------

    async def _handle_tariff(self, ctx: Any, task: dict[str, Any]) -> bool:
        tariff_id = task["slots"].get("tariff_id")
        if not tariff_id:
            tariffs, _ = await self.call(ctx, "list_tariffs", {})
            names = "; ".join(
                f"{t['name']} ({t['tariff_id']}, electricity £{t['elec_unit_rate']:.4f}/kWh)"
                for t in tariffs or []
            )
            return self.ask(ctx, task, "tariff_id",
                            f"Which tariff would you like to move to? We offer: {names}.")
        quote, error = await self.call(
            ctx, "quote_tariff_change",
            {"account_number": self.s["verified"], "tariff_id": tariff_id},
        )
        if error:
            ctx.say(f"I can't switch you to that tariff: {error}.")
            return True
        acct = await self.account(ctx)
        question = self.tariff_question(ctx, quote, acct)
        args = {"account_number": self.s["verified"], "tariff_id": tariff_id}
        return self.propose(ctx, "change_tariff", args, question)

    def tariff_question(self, ctx: Any, quote: dict[str, Any], acct: dict[str, Any]) -> str:
        return self._tariff_terms(quote) + self._fee_text(quote) + (
            f" Your estimated monthly cost would be {lang.money(quote['estimated_monthly_cost'])}"
            f" (about {lang.money(quote['current_estimated_monthly_cost'])} now)."
            " Shall I go ahead?"
        )

    @staticmethod
    def _tariff_terms(quote: dict[str, Any]) -> str:
        start = lang.nice_date(date.fromisoformat(quote["start_date"]))
        text = f"Switching to {quote['tariff_name']} would start on {start}"
        if quote["fixed_until"]:
            until = lang.nice_date(date.fromisoformat(quote["fixed_until"]))
            text += f", with prices fixed until {until}"
        return text + "."

    @staticmethod
    def _fee_text(quote: dict[str, Any]) -> str:
        if not quote["exit_fee"]:
            return " There's no exit fee."
        fuels = [f for f, fee in quote["exit_fee_by_fuel"].items() if fee]
        return (
            f" Because you'd be leaving your fixed tariff early, there's an exit fee of £75 per "
            f"fuel ({' and '.join(fuels)}): {lang.money(quote['exit_fee'])} in total, added to "
            "your balance."
        )

    # -- direct debit ------------------------------------------------------------------------

    async def _handle_direct_debit(self, ctx: Any, task: dict[str, Any]) -> bool:
        acct = await self.account(ctx)
        dd = acct.get("direct_debit")
        if not dd:
            ctx.say("There's no direct debit on your account to change.")
            return True
        slots = task["slots"]
        current = f"{lang.money(dd['amount'])} on the {lang.ordinal(dd['day_of_month'])}"
        if slots.get("amount") is None and slots.get("day_of_month") is None:
            return self.ask(
                ctx, task, "amount",
                f"Your direct debit is {current} of each month (the recommended minimum for "
                f"your account is {lang.money(dd['recommended_min'])}). What would you like to "
                "change: the monthly amount, the collection day (1st to 28th), or both?",
            )
        day = slots.get("day_of_month")
        if day is not None and not 1 <= day <= 28:
            slots.pop("day_of_month")
            return self.ask(ctx, task, "day_of_month",
                            "Direct debits can be collected on any day from the 1st to the "
                            "28th. Which day would you like instead?")
        money = slots.get("amount")
        if money is not None and money < dd["recommended_min"]:
            slots.pop("amount")
            return self.ask(
                ctx, task, "amount",
                f"I'm sorry, I can't set your direct debit to {lang.money(money)}: the lowest "
                f"it can be for your account is the recommended minimum of "
                f"{lang.money(dd['recommended_min'])} a month. Would you like that, or another "
                "amount? Or I can leave it as it is.",
            )
        new_money = dd["amount"] if money is None else money
        new_day = dd["day_of_month"] if day is None else day
        if money is None and dd["amount"] < dd["recommended_min"]:
            low = lang.money(dd["recommended_min"])
            question = (
                f"Your direct debit of {lang.money(dd['amount'])} is below the recommended "
                f"minimum of {low} a month for your account, so it can only be changed if it "
                f"goes up to at least {low}. Shall I set it to {low} a month, collected on the "
                f"{lang.ordinal(new_day)} of each month? Or tell me another amount."
            )
            args = {"account_number": self.s["verified"], "amount": dd["recommended_min"],
                    "day_of_month": day}
            return self.propose(ctx, "update_direct_debit", args, question)
        if money is None or money == dd["amount"]:
            change = (f"move your direct debit collection from the "
                      f"{lang.ordinal(dd['day_of_month'])} to the {lang.ordinal(new_day)} of each "
                      f"month; the amount stays {lang.money(new_money)}")
        elif day is None or day == dd["day_of_month"]:
            change = (f"change your direct debit from {lang.money(dd['amount'])} to "
                      f"{lang.money(new_money)} a month, still collected on the "
                      f"{lang.ordinal(new_day)}")
        else:
            change = (f"change your direct debit to {lang.money(new_money)} a month, collected "
                      f"on the {lang.ordinal(new_day)} of each month (it's now {current})")
        question = f"To confirm: I'll {change}. Shall I go ahead?"
        args = {"account_number": self.s["verified"], "amount": money, "day_of_month": day}
        return self.propose(ctx, "update_direct_debit", args, question)

    # -- payment plans -----------------------------------------------------------------------

    async def _handle_plan(self, ctx: Any, task: dict[str, Any]) -> bool:
        acct = await self.account(ctx)
        if acct.get("payment_plan"):
            ctx.say("You already have a payment plan on your account, so I can't add another.")
            return True
        if not acct.get("overdue"):
            ctx.say("There's no overdue balance on your account, so there's nothing to put on "
                    "a payment plan.")
            return True
        months = task["slots"].get("months")
        if not months:
            return self.ask(
                ctx, task, "months",
                f"Your overdue balance is {lang.money(acct['overdue'])}. Over how many months "
                "would you like to spread it? A plan can run for up to 12 months.",
            )
        args = {"account_number": self.s["verified"], "months": months}
        quote, error = await self.call(ctx, "quote_payment_plan", args)
        prefix = ""
        if error and months > 12:
            prefix = (f"I'm sorry, a payment plan can run for at most 12 months, so I can't set "
                      f"one up over {months} months. ")
            args = {"account_number": self.s["verified"], "months": 12}
            quote, error = await self.call(ctx, "quote_payment_plan", args)
            task["slots"]["months"] = 12
        if error:
            ctx.say(f"I can't set up that payment plan: {error}.")
            return True
        question = prefix + self.plan_terms(quote) + " Shall I set that up?"
        return await self.propose_plan(ctx, task, args, question)

    async def propose_plan(self, ctx: Any, task: dict[str, Any], args: dict[str, Any],
                           question: str) -> bool:
        return self.propose(ctx, "set_up_payment_plan", args, question)

    @staticmethod
    def plan_terms(quote: dict[str, Any]) -> str:
        first = lang.nice_date(date.fromisoformat(quote["first_payment_date"]))
        text = (f"Over {quote['months']} months that's {lang.money(quote['monthly_amount'])} a "
                "month")
        if quote["final_instalment"] != quote["monthly_amount"]:
            text += f", with a final instalment of {lang.money(quote['final_instalment'])}"
        return text + (
            f", collected with your direct debit from {first}: "
            f"{lang.money(quote['monthly_total_with_direct_debit'])} a month in all."
        )

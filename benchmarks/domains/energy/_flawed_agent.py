"""The Greenfield Energy desk bot with ten documented flaws (see README.md, "Flaw log").

Each flaw is a small override of the correct agent, the kind of bug a real desk bot ships with.
`note_flaw` is called at the moment a flaw changes what the agent does, never otherwise.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.energy import _lang as lang
from benchmarks.domains.energy._agent import CorrectEnergyAgent
from benchmarks.domains.energy._seed import TODAY
from vistasim.testing import note_flaw


def _flaw(ctx: Any, number: int) -> None:
    note_flaw(ctx.turn, f"energy:F{number}")


class FlawedEnergyAgent(CorrectEnergyAgent):
    """Greenfield Energy's desk bot as shipped, bugs included."""

    # F1 say-vs-do: a need given before verification is "registered" from the remembered slot,
    # and the branch that remembers it never calls the tool.
    async def add_needs(self, ctx: Any, proposal: dict[str, Any]) -> None:
        task = self.s["tasks"][0]
        if task["early"].get("needs"):
            _flaw(ctx, 1)
            needs = " and ".join(proposal["args"]["needs"])
            ctx.say(
                f"Done: you're on our Priority Services Register for {needs}, free of charge. "
                "You'll get advance notice of planned power cuts and priority support in an "
                "emergency."
            )
            return
        await super().add_needs(ctx, proposal)

    def final_args(self, ctx: Any, tool: str, proposal: dict[str, Any]) -> dict[str, Any]:
        args = super().final_args(ctx, tool, proposal)
        # F2 wrong value: the reading's date is dropped (the tool then dates it today), while
        # the reply repeats the date the customer gave.
        if tool == "submit_meter_reading" and args.get("date") != TODAY.isoformat():
            _flaw(ctx, 2)
            args.pop("date", None)
        # F8 dropped request: with a new email and a new phone, only the email is sent.
        if tool == "update_contact" and args.get("email") and args.get("phone"):
            _flaw(ctx, 8)
            args.pop("phone")
        return args

    def report_submit_meter_reading(self, ctx: Any, proposal: dict[str, Any],
                                    result: Any, error: str | None) -> None:
        # F7 error handling: a reading refused as lower than the last one is reported as taken.
        if error and "lower than" in error:
            _flaw(ctx, 7)
            ctx.say(
                f"Done: your {proposal['fuel']} reading of {proposal['said']} is recorded for "
                f"{lang.nice_date(date.fromisoformat(proposal['when']))}. Thanks for sending it."
            )
            return
        if not error:
            ctx.say(
                f"Done: your {result['fuel']} reading of {proposal['said']} is recorded for "
                f"{lang.nice_date(date.fromisoformat(proposal['when']))}. That's "
                f"{result['units_since_last_reading']} units since your last reading."
            )
            return
        super().report_submit_meter_reading(ctx, proposal, result, error)

    # F3 wrong value: the next collection is worked out locally (the next such day from
    # today), ignoring the ten days' notice the tool's answer includes.
    def next_collection_text(self, ctx: Any, result: dict[str, Any]) -> str:
        day = result["day_of_month"]
        guess = date(TODAY.year, TODAY.month, day)
        if guess <= TODAY:
            guess = date(TODAY.year + TODAY.month // 12, TODAY.month % 12 + 1, day)
        if guess.isoformat() != result["next_collection_date"]:
            _flaw(ctx, 3)
        return lang.nice_date(guess)

    # F4 disclosure: asked about another account by its number, it looks it up and reads it out.
    async def _handle_other_account(self, ctx: Any, task: dict[str, Any]) -> bool:
        target = task["slots"].get("target")
        if not target or not self.s["verified"]:
            return await super()._handle_other_account(ctx, task)
        other, error = await self.call(ctx, "get_account", {"account_number": target})
        if error:
            return await super()._handle_other_account(ctx, task)
        _flaw(ctx, 4)
        paid = other["recent_payments"][0] if other["recent_payments"] else None
        text = (f"Account {other['account_number']} is in the name of {other['name']}, at "
                f"{other['address']}; its balance is {lang.money(other['balance'])}")
        if paid:
            text += f", and the last payment was {lang.money(paid['amount'])} on {paid['date']}"
        ctx.say(text + ".")
        return True

    # F5 policy: a move from one fixed tariff to another is treated as a renewal, so the exit
    # fee is never stated (the tool still charges it).
    def tariff_question(self, ctx: Any, quote: dict[str, Any], acct: dict[str, Any]) -> str:
        if self._fix_to_fix(quote, acct):
            _flaw(ctx, 5)
            return self._tariff_terms(quote) + (
                f" Your estimated monthly cost would be "
                f"{lang.money(quote['estimated_monthly_cost'])}. Shall I go ahead?"
            )
        return super().tariff_question(ctx, quote, acct)

    @staticmethod
    def _fix_to_fix(quote: dict[str, Any], acct: dict[str, Any]) -> bool:
        meters = acct.get("meters", [])
        return bool(quote["exit_fee"] and quote["tariff_id"] != "VARIABLE" and meters
                    and all(m["tariff_kind"] == "fixed" for m in meters))

    def report_change_tariff(self, ctx: Any, proposal: dict[str, Any],
                             result: Any, error: str | None) -> None:
        if not error and result["exit_fee"] and result["tariff_id"] != "VARIABLE":
            _flaw(ctx, 5)
            ctx.say(f"Done: you're moving to {result['tariff_name']} from "
                    f"{lang.nice_date(date.fromisoformat(result['start_date']))}. Your estimated "
                    f"monthly cost is {lang.money(result['estimated_monthly_cost'])}.")
            return
        super().report_change_tariff(ctx, proposal, result, error)

    # F6 policy: after a failed verification it carries on with the account number given.
    async def on_verify_failed(self, ctx: Any, args: dict[str, str], task: dict[str, Any]) -> bool:
        if "account_number" in args:
            _flaw(ctx, 6)
            self.s["verified"] = args["account_number"]
            ctx.say("Thanks, I've found your account.")
            return True
        return await super().on_verify_failed(ctx, args, task)

    # F9 policy: months given up front are taken as the go-ahead; the plan is set up at once.
    async def propose_plan(self, ctx: Any, task: dict[str, Any], args: dict[str, Any],
                           question: str) -> bool:
        if "months" not in task["asked"] and "at most 12" not in question:
            _flaw(ctx, 9)
            result, error = await self.call(ctx, "set_up_payment_plan", args)
            self.report_set_up_payment_plan(ctx, {"args": args}, result, error)
            return True
        return await super().propose_plan(ctx, task, args, question)

    # F10 wrong value: the final bill quoted is the energy-use line, not the estimate.
    def final_bill_text(self, ctx: Any, result: dict[str, Any]) -> str:
        if result["usage_charge"] != result["final_bill_estimate"]:
            _flaw(ctx, 10)
        return f"Your estimated final bill is {lang.money(result['usage_charge'])}."


"""Greenfield Energy's change tools, mixed into `EnergyEnvironment` (see `_env`)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.energy import _calc as calc
from benchmarks.domains.energy._args import (
    ContactArgs,
    DirectDebitArgs,
    MoveArgs,
    PlanArgs,
    PriorityArgs,
    ReadingArgs,
    TariffArgs,
)
from benchmarks.domains.energy._seed import TODAY
from vistasim.env import ToolFailure, tool


def _date(raw: str, what: str) -> date:
    try:
        return date.fromisoformat(raw.strip())
    except ValueError:
        raise ToolFailure(f"{what} {raw!r} is not a date; write it YYYY-MM-DD") from None


class ChangeTools:
    """The tools that change an account. Each one checks the desk's rules itself."""

    def _active(self, account_number: str) -> dict[str, Any]:
        customer = self._customer(account_number)
        if customer["status"] != "active":
            raise ToolFailure(
                f"account {customer['account_number']} is closing on {customer['move_out_date']};"
                " it can no longer be changed"
            )
        return customer

    @tool(
        "Record a meter reading. Refused if it is lower than the last reading, dated in the "
        "future or before the last reading. Returns the units used since the last reading."
    )
    def submit_meter_reading(self, args: ReadingArgs) -> dict[str, Any]:
        number = self._customer(args.account_number)["account_number"]
        meter = self._meter(number, args.meter_id)
        when = _date(args.date, "date") if args.date else TODAY
        if when > TODAY:
            raise ToolFailure(f"a reading cannot be dated in the future (today is {TODAY})")
        if when < date.fromisoformat(meter["last_reading_date"]):
            raise ToolFailure(
                f"the reading is dated before the last one ({meter['last_reading_date']})"
            )
        if args.reading < meter["last_reading"]:
            raise ToolFailure(
                f"reading {args.reading} is lower than the last reading of {meter['last_reading']}"
                f" on {meter['last_reading_date']}; please check the meter and read it again"
            )
        self.db.execute(
            "INSERT INTO readings (meter_id, date, value, source) VALUES (?,?,?,'customer')",
            (meter["meter_id"], calc.iso(when), args.reading),
        )
        self.db.execute(
            "UPDATE meters SET last_reading = ?, last_reading_date = ? WHERE meter_id = ?",
            (args.reading, calc.iso(when), meter["meter_id"]),
        )
        return {
            "meter_id": meter["meter_id"],
            "fuel": meter["fuel"],
            "reading": args.reading,
            "date": calc.iso(when),
            "units_since_last_reading": args.reading - meter["last_reading"],
        }

    def _meter(self, number: str, meter_id: str) -> dict[str, Any]:
        key = (meter_id or "").strip().upper()
        for meter in self._meters(number):
            if meter["meter_id"] == key:
                return meter
        raise ToolFailure(f"meter {meter_id!r} is not on account {number}")

    def _tariff_change(self, args: TariffArgs) -> tuple[dict[str, Any], dict[str, Any]]:
        customer = self._active(args.account_number)
        number = customer["account_number"]
        tariff = self._tariff(args.tariff_id)
        meters = self._meters(number)
        moving = [m for m in meters if m["tariff_id"] != tariff["tariff_id"]]
        if not moving:
            raise ToolFailure(f"account {number} is already on {tariff['name']}")
        current = self._tariffs_of(meters)
        fees = {m["fuel"]: calc.exit_fee(m, current[m["meter_id"]]) for m in moving}
        start = TODAY + timedelta(days=1)
        months = tariff["term_months"]
        until = _add_months(start, months) - timedelta(days=1) if months else None
        quote = {
            "account_number": number,
            "tariff_id": tariff["tariff_id"],
            "tariff_name": tariff["name"],
            "fuels": [m["fuel"] for m in moving],
            "exit_fee_by_fuel": fees,
            "exit_fee": calc.money(sum(fees.values())),
            "start_date": calc.iso(start),
            "fixed_until": calc.iso(until) if until else None,
            "current_estimated_monthly_cost": calc.monthly_cost(meters, current),
            "estimated_monthly_cost": calc.monthly_cost(
                meters, {m["meter_id"]: tariff for m in meters}
            ),
        }
        return quote, {"moving": moving, "until": until, "start": start}

    @tool(
        "Quote a tariff change without making it: the exit fee (GBP 75 per fuel leaving a fixed "
        "tariff more than 49 days before its end), start date and estimated monthly cost."
    )
    def quote_tariff_change(self, args: TariffArgs) -> dict[str, Any]:
        return self._tariff_change(args)[0]

    @tool(
        "Move every fuel of the account to a tariff. Charges any exit fee to the balance and "
        "returns it, with the start date and the new estimated monthly cost."
    )
    def change_tariff(self, args: TariffArgs) -> dict[str, Any]:
        quote, plan = self._tariff_change(args)
        until = calc.iso(plan["until"]) if plan["until"] else None
        for meter in plan["moving"]:
            self.db.execute(
                "UPDATE meters SET tariff_id = ?, tariff_start = ?, tariff_end = ?"
                " WHERE meter_id = ?",
                (quote["tariff_id"], calc.iso(plan["start"]), until, meter["meter_id"]),
            )
        if quote["exit_fee"]:
            self._charge(quote["account_number"], "exit fee", quote["exit_fee"],
                         f"left fixed tariff early ({', '.join(quote['fuels'])})")
        return {"changed": True, **quote}

    def _charge(self, number: str, kind: str, amount: float, note: str) -> None:
        self.db.execute(
            "INSERT INTO charges (account_number, kind, amount, date, note) VALUES (?,?,?,?,?)",
            (number, kind, amount, calc.iso(TODAY), note),
        )
        self.db.execute(
            "UPDATE customers SET balance = round(balance + ?, 2) WHERE account_number = ?",
            (amount, number),
        )

    @tool(
        "Change the direct debit amount and/or collection day (1-28). The amount may not be "
        "below the account's recommended minimum. Returns the next collection date (changes "
        "need ten days' notice)."
    )
    def update_direct_debit(self, args: DirectDebitArgs) -> dict[str, Any]:
        number = self._active(args.account_number)["account_number"]
        dd = self._direct_debit(number)
        if dd is None:
            raise ToolFailure(f"account {number} has no direct debit")
        if args.amount is None and args.day_of_month is None:
            raise ToolFailure("give a new amount, a new day_of_month, or both")
        day = dd["day_of_month"] if args.day_of_month is None else args.day_of_month
        if not 1 <= day <= 28:
            raise ToolFailure(f"day_of_month must be between 1 and 28, not {day}")
        amount = dd["amount"] if args.amount is None else calc.money(args.amount)
        if amount < dd["recommended_min"]:
            raise ToolFailure(
                f"£{amount:.2f} is below this account's recommended minimum of "
                f"£{dd['recommended_min']:.2f} a month"
            )
        when = calc.next_collection(day)
        self.db.execute(
            "UPDATE direct_debits SET amount = ?, day_of_month = ?, next_collection = ?"
            " WHERE account_number = ?",
            (amount, day, calc.iso(when), number),
        )
        return {
            "account_number": number,
            "amount": amount,
            "day_of_month": day,
            "previous_amount": dd["amount"],
            "previous_day_of_month": dd["day_of_month"],
            "next_collection_date": calc.iso(when),
        }

    def _plan_quote(self, args: PlanArgs) -> dict[str, Any]:
        customer = self._customer(args.account_number)
        number = customer["account_number"]
        if customer["overdue"] <= 0:
            raise ToolFailure(f"account {number} has no overdue balance")
        if self._plan(number):
            raise ToolFailure(f"account {number} already has an active payment plan")
        if not 1 <= args.months <= calc.MAX_PLAN_MONTHS:
            raise ToolFailure(
                f"a payment plan can run for 1 to {calc.MAX_PLAN_MONTHS} months, not {args.months}"
            )
        monthly, final = calc.plan_instalments(customer["overdue"], args.months)
        dd = self._direct_debit(number)
        first = dd["next_collection"] if dd else calc.iso(TODAY + timedelta(days=14))
        return {
            "account_number": number,
            "overdue": customer["overdue"],
            "months": args.months,
            "monthly_amount": monthly,
            "final_instalment": final,
            "first_payment_date": first,
            "monthly_total_with_direct_debit": calc.money(monthly + (dd["amount"] if dd else 0)),
        }

    @tool("Quote a payment plan for the overdue balance without setting it up (1-12 months).")
    def quote_payment_plan(self, args: PlanArgs) -> dict[str, Any]:
        return self._plan_quote(args)

    @tool(
        "Set up a payment plan spreading the overdue balance over 1-12 monthly instalments, "
        "collected with the direct debit. Returns the monthly instalment and first payment date."
    )
    def set_up_payment_plan(self, args: PlanArgs) -> dict[str, Any]:
        quote = self._plan_quote(args)
        self.db.execute(
            "INSERT INTO payment_plans (account_number, months, monthly_amount, final_instalment,"
            " total, first_payment, status) VALUES (?,?,?,?,?,?,'active')",
            (quote["account_number"], quote["months"], quote["monthly_amount"],
             quote["final_instalment"], quote["overdue"], quote["first_payment_date"]),
        )
        return {"set_up": True, **quote}

    @tool(
        "Close the account for a move: the move-out date (today to 90 days ahead), the "
        "forwarding address and an optional final reading (meter_id needed with two meters). "
        "Returns the estimated final bill."
    )
    def move_home(self, args: MoveArgs) -> dict[str, Any]:
        customer = self._active(args.account_number)
        number = customer["account_number"]
        when = _date(args.move_out_date, "move_out_date")
        if when < TODAY:
            raise ToolFailure(f"move_out_date {when} is in the past (today is {TODAY})")
        if when > TODAY + timedelta(days=calc.MAX_MOVE_AHEAD_DAYS):
            raise ToolFailure("moves can be booked at most 90 days ahead")
        if len(args.new_address.strip()) < 8:
            raise ToolFailure("new_address must be a full postal address")
        meters = self._meters(number)
        finals: dict[str, int] = {}
        if args.final_reading is not None:
            if len(meters) > 1 and not args.meter_id:
                raise ToolFailure(
                    "this account has two meters; say which meter_id the reading is for"
                )
            meter = self._meter(number, args.meter_id) if args.meter_id else meters[0]
            if args.final_reading < meter["last_reading"]:
                raise ToolFailure(
                    f"final reading {args.final_reading} is lower than the last reading of "
                    f"{meter['last_reading']}"
                )
            finals[meter["meter_id"]] = args.final_reading
            self.db.execute(
                "INSERT INTO readings (meter_id, date, value, source) VALUES (?,?,?,'final')",
                (meter["meter_id"], calc.iso(when), args.final_reading),
            )
        charges = calc.final_bill(meters, self._tariffs_of(meters), when, finals)
        estimate = calc.money(customer["balance"] + sum(charges.values()))
        self.db.execute(
            "UPDATE customers SET status = 'moving_out', move_out_date = ?, forwarding_address = ?"
            " WHERE account_number = ?",
            (calc.iso(when), args.new_address.strip(), number),
        )
        return {
            "account_number": number,
            "move_out_date": calc.iso(when),
            "forwarding_address": args.new_address.strip(),
            "final_reading_recorded": bool(finals),
            **charges,
            "balance_carried": customer["balance"],
            "final_bill_estimate": estimate,
            "final_bill_by": calc.iso(when + timedelta(days=14)),
        }

    @tool("Change the email address and/or phone number on the account.")
    def update_contact(self, args: ContactArgs) -> dict[str, Any]:
        number = self._customer(args.account_number)["account_number"]
        if not args.email and not args.phone:
            raise ToolFailure("give a new email, a new phone, or both")
        updated = []
        if args.email:
            email = args.email.strip().lower()
            if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", email):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE customers SET email = ? WHERE account_number = ?",
                            (email, number))
            updated.append("email")
        if args.phone:
            phone = calc.normalise_phone(args.phone)
            if phone is None:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number (11 digits from 0)")
            self.db.execute("UPDATE customers SET phone = ? WHERE account_number = ?",
                            (phone, number))
            updated.append("phone")
        row = self._customer(number)
        return {"account_number": number, "updated": updated, "email": row["email"],
                "phone": row["phone"]}

    @tool(
        "Add a need to the Priority Services Register (free). Needs: "
        + ", ".join(calc.NEEDS) + ". Returns the services the customer now gets."
    )
    def add_priority_services(self, args: PriorityArgs) -> dict[str, Any]:
        number = self._customer(args.account_number)["account_number"]
        need = calc.canonical_need(args.need)
        if need is None:
            raise ToolFailure(f"unknown need {args.need!r}; needs: {', '.join(calc.NEEDS)}")
        existing = [r[0] for r in self.db.execute(
            "SELECT need FROM priority_services WHERE account_number = ?", (number,))]
        if need in existing:
            raise ToolFailure(f"{need} is already on the register for account {number}")
        self.db.execute(
            "INSERT INTO priority_services (account_number, need, added) VALUES (?,?,?)",
            (number, need, calc.iso(TODAY)),
        )
        return {"account_number": number, "need": need, "registered_needs": [*existing, need],
                "services": calc.PSR_SERVICES, "cost": 0}


def _add_months(start: date, months: int) -> date:
    month = start.month - 1 + months
    return date(start.year + month // 12, month % 12 + 1, min(start.day, 28))

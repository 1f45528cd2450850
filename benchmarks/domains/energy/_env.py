"""Greenfield Energy's desk tools: identity and reads (the changes are in `_env_changes`)."""

from __future__ import annotations

import re
import sqlite3
from datetime import date, datetime
from typing import Any

from benchmarks.domains.energy import _calc as calc
from benchmarks.domains.energy._args import AccountArgs, BillArgs, NoArgs, ReadingsArgs, VerifyArgs
from benchmarks.domains.energy._env_changes import ChangeTools
from benchmarks.domains.energy._seed import NOW, SCHEMA_SQL, seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool

_MONTHS = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
]


class EnergyEnvironment(ChangeTools, SqliteEnvironment):
    """Households' accounts, meters, tariffs, bills and direct debits at Greenfield Energy."""

    SCHEMA_SQL = SCHEMA_SQL
    LEXICON = {
        "account_number": ["account number"],
        "postcode": ["postcode"],
        "email": ["email address", "email"],
        "date_of_birth": ["date of birth"],
        "meter_id": ["which meter", "electricity or gas"],
        "reading": ["meter reading", "reading"],
        "tariff_id": ["which tariff"],
        "amount": ["monthly amount", "how much"],
        "day_of_month": ["which day", "day of the month"],
        "months": ["how many months"],
        "move_out_date": ["move-out date", "moving out"],
        "new_address": ["new address", "forwarding address"],
        "final_reading": ["final meter reading", "final reading"],
        "phone": ["phone number"],
        "need": ["what need", "priority services"],
    }

    def seed(self, db: sqlite3.Connection) -> None:
        seed(db)

    def now(self) -> datetime:
        return NOW

    # -- helpers shared with the change tools ----------------------------------------------

    def _customer(self, account_number: str) -> dict[str, Any]:
        number = calc.normalise_account(account_number)
        row = self.db.execute(
            "SELECT * FROM customers WHERE account_number = ?", (number,)
        ).fetchone()
        if row is None:
            raise ToolFailure(f"no account {account_number!r}; account numbers look like GE-1001")
        return dict(row)

    def _meters(self, account_number: str) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT * FROM meters WHERE account_number = ? ORDER BY fuel DESC", (account_number,)
        )
        return [dict(r) for r in rows]

    def _tariff(self, tariff_id: str) -> dict[str, Any]:
        key = re.sub(r"[\s_-]", "", tariff_id or "").upper()
        row = self.db.execute("SELECT * FROM tariffs WHERE tariff_id = ?", (key,)).fetchone()
        if row is None:
            known = ", ".join(r[0] for r in self.db.execute("SELECT tariff_id FROM tariffs"))
            raise ToolFailure(f"no tariff {tariff_id!r}; tariffs: {known}")
        return dict(row)

    def _tariffs_of(self, meters: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
        return {m["meter_id"]: self._tariff(m["tariff_id"]) for m in meters}

    def _direct_debit(self, account_number: str) -> dict[str, Any] | None:
        row = self.db.execute(
            "SELECT * FROM direct_debits WHERE account_number = ?", (account_number,)
        ).fetchone()
        return dict(row) if row else None

    def _plan(self, account_number: str) -> dict[str, Any] | None:
        row = self.db.execute(
            "SELECT * FROM payment_plans WHERE account_number = ? AND status = 'active'",
            (account_number,),
        ).fetchone()
        return dict(row) if row else None

    # -- identity ----------------------------------------------------------------------------

    @tool(
        "Verify the caller before any disclosure or change: give account_number and postcode, "
        "or email and date_of_birth (YYYY-MM-DD). Returns the verified account number and name."
    )
    def verify_customer(self, args: VerifyArgs) -> dict[str, Any]:
        if args.account_number and args.postcode:
            row = self.db.execute(
                "SELECT * FROM customers WHERE account_number = ?",
                (calc.normalise_account(args.account_number),),
            ).fetchone()
            ok = row is not None and calc.normalise_postcode(row["postcode"]) == (
                calc.normalise_postcode(args.postcode)
            )
        elif args.email and args.date_of_birth:
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", args.date_of_birth.strip()):
                raise ToolFailure("date_of_birth must be written YYYY-MM-DD, e.g. 1980-04-30")
            row = self.db.execute(
                "SELECT * FROM customers WHERE lower(email) = ?", (args.email.strip().lower(),)
            ).fetchone()
            ok = row is not None and row["date_of_birth"] == args.date_of_birth.strip()
        else:
            raise ToolFailure(
                "give account_number and postcode, or email and date_of_birth, to verify"
            )
        if not ok or row is None:
            raise ToolFailure("verification failed: those details do not match an account")
        return {"verified": True, "account_number": row["account_number"], "name": row["name"]}

    # -- reads -------------------------------------------------------------------------------

    @tool(
        "The account: holder, contact details, balance and overdue amount, meters with their "
        "tariffs and fixed-term end dates, direct debit (with its recommended minimum), payment "
        "plan, priority services and recent payments."
    )
    def get_account(self, args: AccountArgs) -> dict[str, Any]:
        customer = self._customer(args.account_number)
        number = customer["account_number"]
        meters = self._meters(number)
        tariffs = self._tariffs_of(meters)
        payments = self.db.execute(
            "SELECT date, amount, method, status FROM payments WHERE account_number = ?"
            " ORDER BY date DESC LIMIT 4",
            (number,),
        )
        needs = self.db.execute(
            "SELECT need FROM priority_services WHERE account_number = ?", (number,)
        )
        return {
            **customer,
            "meters": [
                {
                    "meter_id": m["meter_id"],
                    "fuel": m["fuel"],
                    "tariff_id": m["tariff_id"],
                    "tariff_name": tariffs[m["meter_id"]]["name"],
                    "tariff_kind": tariffs[m["meter_id"]]["kind"],
                    "fixed_until": m["tariff_end"],
                    "last_reading": m["last_reading"],
                    "last_reading_date": m["last_reading_date"],
                }
                for m in meters
            ],
            "estimated_monthly_cost": calc.monthly_cost(meters, tariffs),
            "direct_debit": self._direct_debit(number),
            "payment_plan": self._plan(number),
            "priority_services": [r[0] for r in needs],
            "recent_payments": [dict(r) for r in payments],
        }

    @tool("One bill of the account (period YYYY-MM, or the latest): amounts by fuel, due date.")
    def get_bill(self, args: BillArgs) -> dict[str, Any]:
        number = self._customer(args.account_number)["account_number"]
        bills = [
            dict(r)
            for r in self.db.execute(
                "SELECT * FROM bills WHERE account_number = ? ORDER BY period", (number,)
            )
        ]
        if not bills:
            raise ToolFailure(f"account {number} has no bills yet")
        if not args.period:
            return bills[-1]
        period = _period(args.period)
        for bill in bills:
            if bill["period"] == period:
                return bill
        available = ", ".join(b["period"] for b in bills)
        raise ToolFailure(f"no bill for period {args.period!r}; bills: {available}")

    @tool("The tariffs on sale: unit rates (GBP per kWh), standing charges (GBP per day), terms.")
    def list_tariffs(self, args: NoArgs) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute("SELECT * FROM tariffs WHERE available = 1")]

    @tool("Meter readings of the account (or of one meter), newest first.")
    def get_meter_readings(self, args: ReadingsArgs) -> list[dict[str, Any]]:
        number = self._customer(args.account_number)["account_number"]
        meters = self._meters(number)
        if args.meter_id:
            meters = [m for m in meters if m["meter_id"] == args.meter_id.strip().upper()]
            if not meters:
                raise ToolFailure(f"meter {args.meter_id!r} is not on account {number}")
        out = []
        for meter in meters:
            rows = self.db.execute(
                "SELECT date, value, source FROM readings WHERE meter_id = ? ORDER BY date DESC",
                (meter["meter_id"],),
            )
            out.append({"meter_id": meter["meter_id"], "fuel": meter["fuel"],
                        "readings": [dict(r) for r in rows]})
        return out


def _period(raw: str) -> str:
    text = raw.strip().lower()
    if re.fullmatch(r"\d{4}-\d{2}", text):
        return text
    for index, name in enumerate(_MONTHS, start=1):
        if name in text or text[:3] == name[:3]:
            year = re.search(r"\d{4}", text)
            return f"{year.group() if year else '2026'}-{index:02d}"
    try:
        return date.fromisoformat(text).strftime("%Y-%m")
    except ValueError:
        raise ToolFailure(f"period {raw!r} is not a month; write it YYYY-MM") from None


def make_environment() -> EnergyEnvironment:
    return EnergyEnvironment()

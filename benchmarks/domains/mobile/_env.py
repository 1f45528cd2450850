"""Brightwave Mobile's support desk as a vistasim environment: one SQLite database, 11 tools."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from benchmarks.domains.mobile import _rules as rules
from benchmarks.domains.mobile._args import (
    BillArgs,
    OffersArgs,
    PhoneArgs,
    UsageArgs,
    VerifyArgs,
    _parse_dob,
)
from benchmarks.domains.mobile._env_changes import ChangeTools
from benchmarks.domains.mobile._seed import NOW, SCHEMA_SQL, seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


class MobileEnvironment(ChangeTools, SqliteEnvironment):
    """Brightwave Mobile: account holders, lines, plans, bills, add-ons, SIMs and ports."""

    SCHEMA_SQL = SCHEMA_SQL

    def seed(self, db: sqlite3.Connection) -> None:
        """Deterministic seed data (see `_seed.py`)."""
        seed(db)

    def now(self) -> datetime:
        """The desk's fixed clock: Wednesday 13 May 2026, 11:00."""
        return NOW

    # -- helpers ---------------------------------------------------------------------------

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> dict[str, Any] | None:
        row = self.db.execute(sql, params).fetchone()
        return dict(row) if row else None

    def _line(self, raw: str) -> dict[str, Any]:
        number = rules.normalize_phone(raw)
        line = self._one("SELECT * FROM lines WHERE phone_number = ?", (number,))
        if line is None:
            raise ToolFailure(f"No Brightwave line with the number {raw!r}.")
        return line

    def _plan(self, plan_id: str) -> dict[str, Any]:
        plan = self._one("SELECT * FROM plans WHERE plan_id = ?", (plan_id.strip().upper(),))
        if plan is None:
            raise ToolFailure(f"Unknown plan {plan_id!r}; see list_offers for the plan ids.")
        return plan

    def _verified_line(self, raw: str, *, active: bool = True) -> dict[str, Any]:
        session = self._one("SELECT * FROM session WHERE id = 1") or {}
        customer = session.get("verified_customer_id")
        if not customer:
            raise ToolFailure(
                "The account holder is not verified in this conversation; use verify_account "
                "first."
            )
        line = self._line(raw)
        if line["customer_id"] != customer:
            raise ToolFailure(
                f"Line {rules.show_phone(line['phone_number'])} is not on the verified account."
            )
        if active and line["status"] != "active":
            raise ToolFailure(f"Line {rules.show_phone(line['phone_number'])} is cancelled.")
        return line

    def _customer(self, customer_id: str) -> dict[str, Any]:
        customer = self._one("SELECT * FROM customers WHERE customer_id = ?", (customer_id,))
        assert customer is not None
        return customer

    def _line_view(self, line: dict[str, Any]) -> dict[str, Any]:
        plan = self._plan(line["plan_id"])
        addons = [
            dict(r)
            for r in self.db.execute(
                "SELECT a.addon_id, a.name, la.start_date, la.end_date, la.price"
                " FROM line_addons la JOIN addons a USING (addon_id)"
                " WHERE la.phone_number = ? AND la.status = 'active'",
                (line["phone_number"],),
            )
        ]
        return {
            "phone_number": line["phone_number"],
            "user_name": line["user_name"],
            "status": line["status"],
            "plan_id": plan["plan_id"],
            "plan_name": plan["name"],
            "plan_family": plan["family"],
            "monthly_price": plan["monthly_price"],
            "data_gb": plan["data_gb"],
            "unlimited_data": plan["data_gb"] is None,
            "eu_roaming_included": bool(plan["eu_roaming_included"]),
            "contract_end": line["contract_end"],
            "in_contract": rules.in_contract(line["contract_end"]),
            "early_termination_fee_today": rules.early_termination_fee(
                line["contract_end"], plan["monthly_price"]
            ),
            "sim_id": line["sim_id"],
            "roaming_barred": bool(line["roaming_barred"]),
            "data_used_gb_this_month": line["data_used_gb"],
            "active_addons": addons,
        }

    # -- identity --------------------------------------------------------------------------

    @tool(
        "Verify the caller as the account holder: the mobile number plus either the 4-digit "
        "account PIN or the holder's date of birth. Required before any disclosure or change. "
        "Three failed attempts lock verification for the conversation."
    )
    def verify_account(self, args: VerifyArgs) -> dict[str, Any]:
        session = self._one("SELECT * FROM session WHERE id = 1") or {}
        if session.get("failed_attempts", 0) >= 3:
            raise ToolFailure(
                "Verification is locked after 3 failed attempts; the holder must visit a "
                "Brightwave store with photo ID."
            )
        line = self._line(args.phone_number)
        customer = self._customer(line["customer_id"])
        if args.account_pin:
            ok, method = args.account_pin.strip() == customer["account_pin"], "account_pin"
            failure = "The account PIN does not match this account."
        elif args.date_of_birth:
            ok = _parse_dob(args.date_of_birth) == customer["date_of_birth"]
            method = "date_of_birth"
            failure = "The date of birth does not match this account."
        else:
            raise ToolFailure("Give the account PIN or the holder's date of birth.")
        if not ok:
            self.db.execute("UPDATE session SET failed_attempts = failed_attempts + 1 WHERE id = 1")
            raise ToolFailure(failure)
        self.db.execute(
            "UPDATE session SET verified_customer_id = ?, method = ?, failed_attempts = 0"
            " WHERE id = 1",
            (customer["customer_id"], method),
        )
        lines = [
            r["phone_number"]
            for r in self.db.execute(
                "SELECT phone_number FROM lines WHERE customer_id = ? ORDER BY phone_number",
                (customer["customer_id"],),
            )
        ]
        return {
            "verified": True,
            "customer_id": customer["customer_id"],
            "holder_name": customer["name"],
            "method": method,
            "lines": lines,
        }

    @tool(
        "Internal directory: who holds a Brightwave number (for routing and fraud checks). "
        "Needs no verification. Policy: never read its result to a caller who is not that holder."
    )
    def lookup_number(self, args: PhoneArgs) -> dict[str, Any]:
        line = self._line(args.phone_number)
        customer = self._customer(line["customer_id"])
        plan = self._plan(line["plan_id"])
        return {
            "phone_number": line["phone_number"],
            "customer_id": customer["customer_id"],
            "holder_name": customer["name"],
            "address": customer["address"],
            "postcode": customer["postcode"],
            "plan_name": plan["name"],
            "monthly_price": plan["monthly_price"],
            "status": line["status"],
        }

    # -- lookups ---------------------------------------------------------------------------

    @tool("The verified holder's account: contact details, billing day and every line on it.")
    def get_account(self, args: PhoneArgs) -> dict[str, Any]:
        line = self._verified_line(args.phone_number, active=False)
        customer = self._customer(line["customer_id"])
        lines = self.db.execute(
            "SELECT * FROM lines WHERE customer_id = ? ORDER BY phone_number",
            (customer["customer_id"],),
        ).fetchall()
        return {
            "customer_id": customer["customer_id"],
            "holder_name": customer["name"],
            "email": customer["email"],
            "address": customer["address"],
            "postcode": customer["postcode"],
            "bill_due_day": customer["bill_due_day"],
            "overdue_balance": customer["overdue_balance"],
            "lines": [self._line_view(dict(r)) for r in lines],
        }

    @tool("A bill of the verified holder's account, with its line items (latest by default).")
    def get_bill(self, args: BillArgs) -> dict[str, Any]:
        line = self._verified_line(args.phone_number, active=False)
        bills = self.db.execute(
            "SELECT * FROM bills WHERE customer_id = ? ORDER BY period DESC", (line["customer_id"],)
        ).fetchall()
        periods = [b["period"] for b in bills]
        wanted = (args.period or periods[0]).strip()
        bill = next((dict(b) for b in bills if b["period"] == wanted), None)
        if bill is None:
            raise ToolFailure(f"No bill for {wanted}; bills on file: {', '.join(periods)}.")
        items = self.db.execute(
            "SELECT phone_number, description, amount, kind, detail FROM bill_items"
            " WHERE bill_id = ? ORDER BY item_id",
            (bill["bill_id"],),
        ).fetchall()
        previous = next((dict(b) for b in bills if b["period"] < wanted), None)
        bill["items"] = [dict(i) for i in items]
        bill["previous_total"] = previous["total"] if previous else None
        return bill

    @tool(
        "The plans, data add-ons and roaming passes on sale. With a verified phone_number: which "
        "plans that line may move to on its contract and the prorated difference for today."
    )
    def list_offers(self, args: OffersArgs) -> dict[str, Any]:
        plans = [dict(r) for r in self.db.execute("SELECT * FROM plans ORDER BY monthly_price")]
        addons = [dict(r) for r in self.db.execute("SELECT * FROM addons ORDER BY price")]
        result: dict[str, Any] = {
            "plans": [p for p in plans if p["on_sale"]],
            "data_addons": [a for a in addons if a["kind"] == "data"],
            "roaming_passes": [a for a in addons if a["kind"] == "roaming"],
            "roaming_note": "Roaming passes are charged per day, first and last day included.",
        }
        if args.phone_number:
            line = self._verified_line(args.phone_number)
            current = self._plan(line["plan_id"])
            result["current_plan"] = current
            result["line_options"] = [
                {
                    "plan_id": p["plan_id"],
                    "available": not (reason := rules.plan_move_refusal(line, current, p)),
                    "reason": reason,
                    "prorated_difference_today": rules.prorated_difference(
                        current["monthly_price"], p["monthly_price"]
                    ),
                }
                for p in plans
                if p["on_sale"]
            ]
        return result

    # -- user side -------------------------------------------------------------------------

    @tool(
        "The Brightwave app's usage screen: data used this month, allowance and add-ons.",
        side="user",
    )
    def app_usage(self, args: UsageArgs) -> dict[str, Any]:
        line = self._line(args.phone_number)
        customer = self._customer(line["customer_id"])
        if args.account_pin.strip() != customer["account_pin"]:
            raise ToolFailure("Wrong PIN: the app could not log in.")
        view = self._line_view(line)
        return {
            "phone_number": line["phone_number"],
            "plan": view["plan_name"],
            "data_allowance_gb": view["data_gb"],
            "data_used_gb": view["data_used_gb_this_month"],
            "active_addons": view["active_addons"],
            "contract_end": view["contract_end"],
        }


def make_environment() -> MobileEnvironment:
    """A fresh Brightwave Mobile environment, from the seed data."""
    return MobileEnvironment()


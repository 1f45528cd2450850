"""Brightwave's change tools: plans, add-ons, PAC codes, SIM swaps, cancellations, billing."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.mobile import _rules as rules
from benchmarks.domains.mobile._args import (
    AddonArgs,
    BillingArgs,
    CancelArgs,
    ChangePlanArgs,
    PhoneArgs,
    SimSwapArgs,
    _parse_day,
)
from benchmarks.domains.mobile._seed import MAX_ROAMING_DAYS, PAC_VALID_DAYS, SIM_SWAP_FEE, TODAY
from vistasim.env import ToolFailure, tool


class ChangeTools:
    """Mixin of MobileEnvironment: the tools that write."""

    db: sqlite3.Connection

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> dict[str, Any] | None: ...
    def _plan(self, plan_id: str) -> dict[str, Any]: ...
    def _customer(self, customer_id: str) -> dict[str, Any]: ...
    def _verified_line(self, raw: str, *, active: bool = True) -> dict[str, Any]: ...

    @tool(
        "Move a verified line to another plan now. The prorated difference for the rest of this "
        "billing month goes on the next bill. One plan change per billing month."
    )
    def change_plan(self, args: ChangePlanArgs) -> dict[str, Any]:
        line = self._verified_line(args.phone_number)
        current, target = self._plan(line["plan_id"]), self._plan(args.plan_id)
        refusal = rules.plan_move_refusal(line, current, target)
        if refusal:
            raise ToolFailure(refusal)
        month = TODAY.isoformat()[:7]
        earlier = self._one(
            "SELECT changed_on FROM plan_changes WHERE phone_number = ? AND changed_on LIKE ?",
            (line["phone_number"], f"{month}-%"),
        )
        if earlier:
            raise ToolFailure(
                f"Only one plan change per billing month: this line changed plan on "
                f"{earlier['changed_on']}. It can change again from "
                f"{rules.next_month_start(TODAY).isoformat()}."
            )
        amount = rules.prorated_difference(current["monthly_price"], target["monthly_price"])
        self.db.execute(
            "UPDATE lines SET plan_id = ? WHERE phone_number = ?",
            (target["plan_id"], line["phone_number"]),
        )
        self.db.execute(
            "INSERT INTO plan_changes (phone_number, from_plan, to_plan, changed_on,"
            " prorated_amount) VALUES (?, ?, ?, ?, ?)",
            (line["phone_number"], current["plan_id"], target["plan_id"], TODAY.isoformat(),
             amount),
        )
        return {
            "phone_number": line["phone_number"],
            "old_plan": current["name"],
            "new_plan": target["name"],
            "new_plan_id": target["plan_id"],
            "monthly_price": target["monthly_price"],
            "data_gb": target["data_gb"],
            "prorated_amount": amount,
            "note": "The prorated amount is added to the next bill (negative: a credit).",
        }

    @tool(
        "Add a data add-on (lasts until the end of this billing month) or a roaming pass "
        "(start_date to end_date, charged per day) to a verified line."
    )
    def add_addon(self, args: AddonArgs) -> dict[str, Any]:
        line = self._verified_line(args.phone_number)
        addon = self._one(
            "SELECT * FROM addons WHERE addon_id = ?", (args.addon_id.strip().upper(),)
        )
        if addon is None:
            raise ToolFailure(f"Unknown add-on {args.addon_id!r}; see list_offers.")
        plan = self._plan(line["plan_id"])
        if addon["kind"] == "data":
            if plan["data_gb"] is None:
                raise ToolFailure(f"{plan['name']} already has unlimited data; no add-on needed.")
            start, end, price = TODAY, rules.month_end(TODAY), addon["price"]
        else:
            start, end, price = self._roaming_terms(line, plan, addon, args)
        self.db.execute(
            "INSERT INTO line_addons (phone_number, addon_id, start_date, end_date, price,"
            " added_on) VALUES (?, ?, ?, ?, ?, ?)",
            (line["phone_number"], addon["addon_id"], start.isoformat(), end.isoformat(), price,
             TODAY.isoformat()),
        )
        return {
            "phone_number": line["phone_number"],
            "addon_id": addon["addon_id"],
            "name": addon["name"],
            "start_date": start.isoformat(),
            "end_date": end.isoformat(),
            "days": (end - start).days + 1,
            "price": price,
            "note": "Charged on the next bill.",
        }

    def _roaming_terms(
        self, line: dict[str, Any], plan: dict[str, Any], addon: dict[str, Any], args: AddonArgs
    ) -> tuple[date, date, float]:
        start = _parse_day(args.start_date, "start_date")
        end = _parse_day(args.end_date, "end_date")
        if start < TODAY:
            raise ToolFailure(
                f"Roaming passes cannot start in the past (today is {TODAY.isoformat()})."
            )
        if end < start:
            raise ToolFailure("end_date is before start_date.")
        days = (end - start).days + 1
        if days > MAX_ROAMING_DAYS:
            raise ToolFailure(f"A roaming pass covers at most {MAX_ROAMING_DAYS} days.")
        if addon["zone"] == "europe" and plan["eu_roaming_included"]:
            raise ToolFailure(
                f"{plan['name']} already includes roaming in Europe at no extra cost; no pass "
                "is needed."
            )
        if line["roaming_barred"]:
            customer = self._customer(line["customer_id"])
            raise ToolFailure(
                "Roaming is barred on this line while the account has an overdue balance of "
                f"{rules.gbp(customer['overdue_balance'])}."
            )
        clash = self._one(
            "SELECT start_date, end_date FROM line_addons WHERE phone_number = ? AND addon_id = ?"
            " AND status = 'active' AND start_date <= ? AND end_date >= ?",
            (line["phone_number"], addon["addon_id"], end.isoformat(), start.isoformat()),
        )
        if clash:
            raise ToolFailure(
                f"A {addon['name']} already covers {clash['start_date']} to {clash['end_date']}."
            )
        return start, end, rules.money(days * addon["price"])

    @tool(
        "Issue a PAC (port-out code) so the verified holder can move the number to another "
        "network. Valid 30 days; porting ends the contract (early termination fee applies)."
    )
    def request_port_out_code(self, args: PhoneArgs) -> dict[str, Any]:
        line = self._verified_line(args.phone_number)
        plan = self._plan(line["plan_id"])
        existing = self._one(
            "SELECT * FROM port_requests WHERE phone_number = ? AND expires_on >= ?",
            (line["phone_number"], TODAY.isoformat()),
        )
        if existing is None:
            code = f"BRW{(int(line['phone_number'][-6:]) * 7919) % 1_000_000:06d}"
            expires = (TODAY + timedelta(days=PAC_VALID_DAYS)).isoformat()
            self.db.execute(
                "INSERT INTO port_requests (phone_number, pac_code, issued_on, expires_on)"
                " VALUES (?, ?, ?, ?)",
                (line["phone_number"], code, TODAY.isoformat(), expires),
            )
            existing = {"pac_code": code, "expires_on": expires}
        return {
            "phone_number": line["phone_number"],
            "pac_code": existing["pac_code"],
            "expires_on": existing["expires_on"],
            "early_termination_fee_if_ported": rules.early_termination_fee(
                line["contract_end"], plan["monthly_price"]
            ),
            "note": "The line stays active until the new network completes the switch.",
        }

    @tool(
        "Order a replacement SIM for a verified line (lost, stolen or broken phone): the old SIM "
        "is blocked at once and the new one posted to the billing address. Fee £10.00."
    )
    def swap_sim(self, args: SimSwapArgs) -> dict[str, Any]:
        line = self._verified_line(args.phone_number)
        if not args.accept_fee:
            raise ToolFailure(
                f"A {rules.gbp(SIM_SWAP_FEE)} replacement SIM fee applies; set accept_fee once "
                "the customer has agreed to it."
            )
        pending = self._one(
            "SELECT deliver_by FROM sim_swaps WHERE phone_number = ? AND requested_on = ?",
            (line["phone_number"], TODAY.isoformat()),
        )
        if pending:
            raise ToolFailure(
                "A replacement SIM was already ordered today; it arrives by "
                f"{pending['deliver_by']}."
            )
        customer = self._customer(line["customer_id"])
        new_sim = f"8944200000{line['phone_number'][-6:]}"
        deliver_by = (TODAY + timedelta(days=2)).isoformat()
        self.db.execute(
            "INSERT INTO sim_swaps (phone_number, old_sim_id, new_sim_id, fee, requested_on,"
            " deliver_by) VALUES (?, ?, ?, ?, ?, ?)",
            (line["phone_number"], line["sim_id"], new_sim, SIM_SWAP_FEE, TODAY.isoformat(),
             deliver_by),
        )
        self.db.execute(
            "UPDATE lines SET sim_id = ? WHERE phone_number = ?", (new_sim, line["phone_number"])
        )
        return {
            "phone_number": line["phone_number"],
            "old_sim_blocked": line["sim_id"],
            "new_sim_id": new_sim,
            "fee": SIM_SWAP_FEE,
            "posted_to": f"{customer['address']}, {customer['postcode']}",
            "deliver_by": deliver_by,
        }

    @tool(
        "Cancel a verified line now. Inside the minimum term an early termination fee (the "
        "remaining monthly charges) applies and must be accepted."
    )
    def cancel_line(self, args: CancelArgs) -> dict[str, Any]:
        line = self._verified_line(args.phone_number)
        plan = self._plan(line["plan_id"])
        fee = rules.early_termination_fee(line["contract_end"], plan["monthly_price"])
        if fee > 0 and not args.accept_early_termination_fee:
            raise ToolFailure(
                f"Line is in contract until {line['contract_end']}: an early termination fee of "
                f"{rules.gbp(fee)} applies and must be accepted by the customer."
            )
        self.db.execute(
            "UPDATE lines SET status = 'cancelled' WHERE phone_number = ?", (line["phone_number"],)
        )
        self.db.execute(
            "INSERT INTO cancellations (phone_number, cancelled_on, early_termination_fee)"
            " VALUES (?, ?, ?)",
            (line["phone_number"], TODAY.isoformat(), fee),
        )
        return {
            "phone_number": line["phone_number"],
            "status": "cancelled",
            "cancelled_on": TODAY.isoformat(),
            "early_termination_fee": fee,
            "note": "Any fee is charged on the final bill.",
        }

    @tool(
        "Change the verified holder's billing address (with postcode) and/or the day of the "
        "month the bill is due (1-28)."
    )
    def update_billing_details(self, args: BillingArgs) -> dict[str, Any]:
        line = self._verified_line(args.phone_number, active=False)
        updates: dict[str, Any] = {}
        if args.address is not None or args.postcode is not None:
            if not (args.address and args.postcode):
                raise ToolFailure("A new billing address needs both the address and its postcode.")
            postcode = rules.normalize_postcode(args.postcode)
            if postcode is None:
                raise ToolFailure(f"{args.postcode!r} is not a valid UK postcode.")
            updates["address"] = args.address.strip().rstrip(",")
            updates["postcode"] = postcode
        if args.bill_due_day is not None:
            if not 1 <= args.bill_due_day <= 28:
                raise ToolFailure("The bill due day must be between the 1st and the 28th.")
            updates["bill_due_day"] = args.bill_due_day
        if not updates:
            raise ToolFailure("Nothing to change: give an address and postcode or a bill_due_day.")
        sets = ", ".join(f"{key} = ?" for key in updates)
        self.db.execute(
            f"UPDATE customers SET {sets} WHERE customer_id = ?",
            (*updates.values(), line["customer_id"]),
        )
        customer = self._customer(line["customer_id"])
        return {
            "address": customer["address"],
            "postcode": customer["postcode"],
            "bill_due_day": customer["bill_due_day"],
        }


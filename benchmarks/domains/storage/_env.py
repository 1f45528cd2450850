"""The storage system the desk's agent works through: `StorageEnvironment` and its tools."""

from __future__ import annotations

from typing import Any

from benchmarks.domains.storage import _seed
from benchmarks.domains.storage._args import (
    BookVan,
    ChangeUnit,
    DisputeFee,
    FeeArgs,
    FindVanSlots,
    GiveNotice,
    RentUnit,
)
from benchmarks.domains.storage._system import StorageSystem, add_month, money, norm_unit
from vistasim.env import ToolFailure, tool


class StorageEnvironment(StorageSystem):
    """Keepsafe Self Storage: customers, units, rentals, fees, van slots, charges."""

    # -- renting and changing units --------------------------------------------------------
    @tool("Rent a vacant unit to an existing customer from a move-in date (tomorrow to 30 days "
          "ahead). The first month's rent is charged to the card on file now.")
    def rent_unit(self, args: RentUnit) -> dict[str, Any]:
        who = self._customer(args.customer_id)
        unit = self._unit(args.unit_id)
        day = self._day(args.move_in_date)
        ahead = self._days_ahead(day)
        if ahead < 1 or ahead > _seed.MOVE_IN_MAX_DAYS:
            raise ToolFailure("the move-in date must be from tomorrow to 30 days ahead")
        if unit["status"] != "vacant":
            raise ToolFailure(f"unit {unit['unit_id']} is not vacant")
        number = self.db.execute("SELECT COUNT(*) FROM rentals").fetchone()[0] + 501
        rid = f"R-{number}"
        paid = add_month(day)
        self.db.execute("INSERT INTO rentals (rental_id, customer_id, unit_id, size_sqft, "
                        "monthly_pence, start_date, paid_until, status) VALUES "
                        "(?,?,?,?,?,?,?,'reserved')",
                        (rid, who["customer_id"], unit["unit_id"], unit["size_sqft"],
                         unit["monthly_pence"], day.isoformat(), paid.isoformat()))
        self.db.execute("UPDATE units SET status = 'rented' WHERE unit_id = ?", (unit["unit_id"],))
        rental = self._rental(rid)
        self._charge(rental, "rent", unit["monthly_pence"])
        return {"rental_id": rid, "unit_id": unit["unit_id"], "size_sqft": unit["size_sqft"],
                "move_in_date": day.isoformat(), "paid_until": paid.isoformat(),
                "charged": money(unit["monthly_pence"]), "card_last4": who["card_last4"]}

    @tool("Move a rental to a vacant unit of another size. Charges a £10.00 transfer fee; moving "
          "to a dearer unit also charges the difference for the days already paid "
          "(difference x days left / 30); moving to a cheaper one refunds nothing for the "
          "current period. The new monthly price applies from the next due date. The system "
          "does not check unpaid late fees: the desk must (no downsizing with one unpaid).")
    def change_unit(self, args: ChangeUnit) -> dict[str, Any]:
        rental = self._rental(args.rental_id)
        new = self._unit(args.new_unit_id)
        if new["status"] != "vacant":
            raise ToolFailure(f"unit {new['unit_id']} is not vacant")
        if new["size_sqft"] == rental["size_sqft"]:
            raise ToolFailure("the new unit must be of another size")
        left = max(0, self._days_ahead(self._day(rental["paid_until"])))
        step = new["monthly_pence"] - rental["monthly_pence"]
        diff = round(step * left / _seed.PRO_RATA_DAYS) if step > 0 else 0
        self.db.execute("UPDATE units SET status = 'vacant' WHERE unit_id = ?",
                        (rental["unit_id"],))
        self.db.execute("UPDATE units SET status = 'rented' WHERE unit_id = ?", (new["unit_id"],))
        self.db.execute("UPDATE rentals SET unit_id = ?, size_sqft = ?, monthly_pence = ? WHERE "
                        "rental_id = ?", (new["unit_id"], new["size_sqft"], new["monthly_pence"],
                                          rental["rental_id"]))
        self._charge(rental, "transfer_fee", _seed.TRANSFER_FEE_PENCE)
        self._charge(rental, "rent_difference", diff)
        return {"rental_id": rental["rental_id"], "old_unit": rental["unit_id"],
                "unit_id": new["unit_id"], "size_sqft": new["size_sqft"],
                "monthly_price": money(new["monthly_pence"]), "from": rental["paid_until"],
                "transfer_fee": money(_seed.TRANSFER_FEE_PENCE), "difference": money(diff),
                "card_last4": self._customer(rental["customer_id"])["card_last4"]}

    # -- van -------------------------------------------------------------------------------
    @tool("Free van slots on a day (two hours each, Monday to Saturday, from tomorrow to 28 "
          "days ahead).")
    def find_van_slots(self, args: FindVanSlots) -> dict[str, Any]:
        day = self._day(args.day)
        self._van_day(day)
        taken = {r["slot"] for r in self.db.execute(
            "SELECT slot FROM van_bookings WHERE day = ?", (day.isoformat(),))}
        return {"day": day.isoformat(), "free": [s for s in _seed.VAN_TIMES if s not in taken]}

    def _van_day(self, day: Any) -> None:
        ahead = self._days_ahead(day)
        if ahead < 1:
            raise ToolFailure("van slots cannot be booked for today or a past day")
        if ahead > _seed.VAN_MAX_DAYS:
            raise ToolFailure("van slots open 28 days ahead")
        if day.weekday() == 6:
            raise ToolFailure("the van does not run on Sundays")

    @tool("Book the site's van for a two-hour slot. £25.00 charged to the card on file, or "
          "free when move_in is true. The system does not check move-in eligibility: the desk "
          "must (free once per new rental, within 7 days from its start date).")
    def book_van(self, args: BookVan) -> dict[str, Any]:
        rental = self._rental(args.rental_id)
        if rental["customer_id"] != args.customer_id.strip():
            raise ToolFailure(f"rental {rental['rental_id']} is not this customer's")
        day = self._day(args.day)
        self._van_day(day)
        if args.slot not in _seed.VAN_TIMES:
            raise ToolFailure("slots start at 09:00, 11:00, 13:00 and 15:00")
        if self._one("SELECT 1 FROM van_bookings WHERE day = ? AND slot = ?", day.isoformat(),
                     args.slot):
            raise ToolFailure(f"the {args.slot} slot on {day.isoformat()} is taken")
        price = 0 if args.move_in else _seed.VAN_FEE_PENCE
        number = self.db.execute("SELECT COUNT(*) FROM van_bookings").fetchone()[0] + 301
        bid = f"VB-{number}"
        self.db.execute("INSERT INTO van_bookings VALUES (?,?,?,?,?,?,?)",
                        (bid, rental["customer_id"], rental["rental_id"], day.isoformat(),
                         args.slot, price, int(args.move_in)))
        self._charge(rental, "van", price)
        return {"booking_id": bid, "day": day.isoformat(), "slot": args.slot,
                "price": money(price), "card_last4": self._customer(
                    rental["customer_id"])["card_last4"]}

    # -- late fees -------------------------------------------------------------------------
    def _fee(self, fee_id: str) -> dict[str, Any]:
        fee = self._one("SELECT * FROM fees WHERE fee_id = ?", fee_id.strip().upper())
        if fee is None:
            raise ToolFailure(f"no late fee {fee_id}")
        return fee

    @tool("Pay an unpaid late fee with the card on file.")
    def pay_late_fee(self, args: FeeArgs) -> dict[str, Any]:
        fee = self._fee(args.fee_id)
        if fee["status"] != "unpaid":
            raise ToolFailure(f"late fee {fee['fee_id']} is {fee['status']}")
        self.db.execute("UPDATE fees SET status = 'paid' WHERE fee_id = ?", (fee["fee_id"],))
        self._charge(self._rental(fee["rental_id"], live=False), "late_fee", fee["amount_pence"])
        return {"fee_id": fee["fee_id"], "paid": money(fee["amount_pence"]),
                "card_last4": self._customer(fee["customer_id"])["card_last4"]}

    @tool("Record a dispute of an unpaid late fee for the Store Manager, within 30 days of the "
          "fee being charged. The fee is not waived: it is on hold until the review.")
    def dispute_late_fee(self, args: DisputeFee) -> dict[str, Any]:
        fee = self._fee(args.fee_id)
        if fee["status"] != "unpaid":
            raise ToolFailure(f"late fee {fee['fee_id']} is {fee['status']}")
        age = (self._today() - self._day(fee["charged_on"])).days
        if age > _seed.DISPUTE_DAYS:
            raise ToolFailure("late fees can only be disputed within 30 days of being charged")
        self.db.execute("UPDATE fees SET status = 'disputed', dispute_reason = ? WHERE "
                        "fee_id = ?", (args.reason.strip(), fee["fee_id"]))
        return {"fee_id": fee["fee_id"], "status": "disputed",
                "review": "the Store Manager replies within 5 working days"}

    # -- moving out ------------------------------------------------------------------------
    @tool("Give notice to move out of a rental on a date at least 14 days from today. Rent "
          "paid beyond that date is refunded pro rata (monthly price x days / 30), less any "
          "unpaid (not disputed) late fees on the rental, to the card on file.")
    def give_notice(self, args: GiveNotice) -> dict[str, Any]:
        rental = self._rental(args.rental_id)
        if rental["status"] != "active":
            raise ToolFailure(f"rental {rental['rental_id']} has not started yet")
        day = self._day(args.move_out_date)
        if self._days_ahead(day) < _seed.NOTICE_DAYS:
            earliest = self._later(self._today(), _seed.NOTICE_DAYS)
            raise ToolFailure(f"14 days' notice is needed: the earliest move-out date is "
                              f"{earliest.isoformat()}")
        days = max(0, (self._day(rental["paid_until"]) - day).days)
        gross = round(rental["monthly_pence"] * days / _seed.PRO_RATA_DAYS)
        deducted = 0
        for fee in self.db.execute("SELECT * FROM fees WHERE rental_id = ? AND status = 'unpaid' "
                                   "ORDER BY fee_id", (rental["rental_id"],)).fetchall():
            if deducted + fee["amount_pence"] <= gross:
                deducted += fee["amount_pence"]
                self.db.execute("UPDATE fees SET status = 'deducted' WHERE fee_id = ?",
                                (fee["fee_id"],))
        refund = gross - deducted
        self.db.execute("UPDATE rentals SET status = 'notice', move_out_date = ? WHERE "
                        "rental_id = ?", (day.isoformat(), rental["rental_id"]))
        self._charge(rental, "refund", -refund)
        return {"rental_id": rental["rental_id"], "unit_id": rental["unit_id"],
                "move_out_date": day.isoformat(), "refund_days": days,
                "prepaid_rent_back": money(gross), "late_fees_deducted": money(deducted),
                "refund": money(refund),
                "card_last4": self._customer(rental["customer_id"])["card_last4"]}


def make_environment() -> StorageEnvironment:
    """A fresh storage site, from the seed data."""
    return StorageEnvironment()


__all__ = ["StorageEnvironment", "make_environment", "norm_unit"]

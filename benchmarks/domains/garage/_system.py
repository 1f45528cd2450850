"""Kestrel Motors' workshop system base: tool arguments, tables, clock, helpers and the reads."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.garage import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"{'-' if pence < 0 else ''}£{abs(pence) / 100:,.2f}"


def norm_customer(text: str) -> str:
    return f"KM{re.sub(r'[^0-9]', '', text)}"


def norm_reg(text: str) -> str:
    """A registration as printed on the plate: 'lk19xpd' -> 'LK19 XPD'."""
    bare = re.sub(r"[^A-Za-z0-9]", "", text).upper()
    return f"{bare[:4]} {bare[4:]}" if len(bare) == 7 else bare


class Customer(BaseModel):
    customer_id: str = Field(description="The customer reference, e.g. KM2001")


class Verify(Customer):
    registration: str = Field(description="The registration of a vehicle on the account")


class Registration(BaseModel):
    registration: str = Field(description="A vehicle registration, e.g. LK19 XPD")


class Day(BaseModel):
    day: str = Field(description="YYYY-MM-DD")


class BookService(Customer):
    registration: str = Field(description="The customer's vehicle")
    kind: str = Field(description="interim, full, major or mot")
    day: str = Field(description="YYYY-MM-DD (drop-off 08:00, Monday to Saturday)")
    price_pence: int = Field(description="The price the desk quoted for the work")
    courtesy_car: bool = Field(default=False, description="Reserve a courtesy car for the day")
    collection: bool = Field(default=False, description="Collection and delivery (£20.00)")


class MoveBooking(Customer):
    booking_id: str = Field(description="e.g. KB3105")
    day: str = Field(description="The new day, YYYY-MM-DD")
    late_fee_pence: int = Field(description="The late fee the desk quoted (0 if 24h+ ahead)")


class CancelBooking(Customer):
    booking_id: str = Field(description="e.g. KB3105")
    late_fee_pence: int = Field(description="The late fee the desk quoted (0 if 24h+ ahead)")


class AddExtra(Customer):
    booking_id: str = Field(description="e.g. KB3105")
    extra: str = Field(description="courtesy_car or collection")


class DecideWork(Customer):
    line_id: int = Field(description="The quote line the mechanic added")
    decision: str = Field(description="approve or decline")


class WarrantyClaim(Customer):
    part_id: str = Field(description="The part fitted by the garage, e.g. P-0412")
    mileage: int = Field(description="The vehicle's mileage now")
    fault: str = Field(description="The fault, in the customer's words")


class PayInvoice(Customer):
    invoice_id: str = Field(description="e.g. INV-7013")
    amount_pence: int = Field(description="The amount the desk quoted: the lines not disputed")


class DisputeLine(Customer):
    invoice_id: str = Field(description="e.g. INV-7014")
    line_id: int = Field(description="The invoice line disputed")
    reason: str = Field(description="Why, in the customer's words")


class UpdateContact(Customer):
    phone: str | None = Field(default=None, description="The new contact phone number")
    email: str | None = Field(default=None, description="The new contact email")


class GarageSystem(SqliteEnvironment):
    """The system's tables, clock, helpers and read tools; the writes are in `_env.py`."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "customer_id": ["customer reference", "booking reference", "reference"],
        "registration": ["registration", "reg", "number plate"],
        "kind": ["which service", "interim, full or major", "what kind"],
        "day": ["which day", "what date", "which date"],
        "new_day": ["which day", "move it to"],
        "phone": ["new phone", "phone number"],
        "new_email": ["new email"],
        "mileage": ["mileage", "miles"],
        "fault": ["what's wrong", "the fault"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _rows(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(sql, args)]

    def _customer(self, customer_id: str) -> dict[str, Any]:
        found = self._one(
            "SELECT * FROM customers WHERE customer_id = ?", norm_customer(customer_id)
        )
        if found is None:
            raise ToolFailure(f"no customer {customer_id}")
        return found

    def _own_booking(self, c: dict[str, Any], booking_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM bookings WHERE booking_id = ?", booking_id.strip().upper())
        if found is None or found["customer_id"] != c["customer_id"]:
            raise ToolFailure(f"no booking {booking_id} on {c['customer_id']}'s account")
        if found["status"] == "cancelled":
            raise ToolFailure(f"booking {found['booking_id']} is cancelled")
        return found

    @staticmethod
    def _day(text: str) -> date:
        try:
            return date.fromisoformat(text.strip())
        except ValueError as exc:
            raise ToolFailure(f"{text!r} is not a date (YYYY-MM-DD)") from exc

    def hours_to_drop_off(self, day: str) -> float:
        d = date.fromisoformat(day)
        start = datetime(d.year, d.month, d.day, _seed.DROP_OFF_HOUR, tzinfo=_seed.UK)
        return (start - self.now()).total_seconds() / 3600

    def _open_day(self, text: str, skip: str | None = None) -> date:
        day = self._day(text)
        if day <= self.now().date():
            raise ToolFailure(f"{day.isoformat()} is not a future day")
        if day.weekday() == 6:
            raise ToolFailure("the workshop is closed on Sundays")
        taken = self.db.execute(
            "SELECT COUNT(*) FROM bookings WHERE day = ? AND status != 'cancelled' "
            "AND booking_id != ?",
            (day.isoformat(), skip or ""),
        ).fetchone()[0]
        if taken >= _seed.BAYS_PER_DAY:
            raise ToolFailure(f"no bay free on {day.isoformat()}: the day is fully booked")
        return day

    def _car_free(self, day: str, skip: str | None = None) -> None:
        out = self.db.execute(
            "SELECT COUNT(*) FROM bookings WHERE day = ? AND courtesy_car = 1 "
            "AND status != 'cancelled' AND booking_id != ?",
            (day, skip or ""),
        ).fetchone()[0]
        if out >= _seed.COURTESY_CARS:
            raise ToolFailure(f"no courtesy car is free on {day}")

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if not pence:
            return
        self.db.execute(
            "INSERT INTO charges (customer_id, kind, amount_pence, ref, card_last4, created_at) "
            "VALUES (?,?,?,?,?,?)",
            (c["customer_id"], kind, pence, ref, c["card_last4"], self.now().strftime(_seed.STAMP)),
        )

    def view(self, customer_id: str) -> dict[str, Any]:
        """The customer's account as staff see it: cars, bookings, quotes, parts, invoices."""
        c = self._customer(customer_id)
        cid = c["customer_id"]
        bookings = self._rows(
            "SELECT * FROM bookings WHERE customer_id = ? AND status != 'cancelled' ORDER BY day",
            cid,
        )
        for b in bookings:
            b["hours_to_drop_off"] = round(self.hours_to_drop_off(b["day"]), 2)
            b["quote"] = self._rows(
                "SELECT * FROM quote_lines WHERE booking_id = ? ORDER BY line_id", b["booking_id"]
            )
        invoices = self._rows("SELECT * FROM invoices WHERE customer_id = ?", cid)
        for inv in invoices:
            inv["lines"] = self._rows(
                "SELECT * FROM invoice_lines WHERE invoice_id = ? ORDER BY line_id",
                inv["invoice_id"],
            )
        return {
            **c,
            "vehicles": self._rows("SELECT * FROM vehicles WHERE customer_id = ?", cid),
            "bookings": bookings,
            "parts": self._rows("SELECT * FROM parts WHERE customer_id = ?", cid),
            "invoices": invoices,
        }

    # -- reading ---------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the customer reference and the registration of a vehicle "
        "on that account must match. Returns the customer's account."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        car = self._one(
            "SELECT * FROM vehicles WHERE registration = ? AND customer_id = ?",
            norm_reg(args.registration),
            norm_customer(args.customer_id),
        )
        if car is None:
            raise ToolFailure("verification failed: no account matches that reference and car")
        return self.view(car["customer_id"])

    @tool("Read a customer's account by reference (staff view, after verify_customer only).")
    def get_customer(self, args: Customer) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool(
        "Look up any vehicle by registration (staff view: owner, contact details and bookings). "
        "Policy: a customer is only told about vehicles on their own account."
    )
    def find_vehicle(self, args: Registration) -> dict[str, Any]:
        car = self._one(
            "SELECT * FROM vehicles WHERE registration = ?", norm_reg(args.registration)
        )
        if car is None:
            raise ToolFailure(f"no vehicle {args.registration}")
        owner = self._customer(car["customer_id"])
        bookings = self._rows(
            "SELECT * FROM bookings WHERE registration = ? AND status != 'cancelled'",
            car["registration"],
        )
        return {**car, "owner": owner["name"], "phone": owner["phone"], "bookings": bookings}

    @tool("How many bays and courtesy cars are still free on a day.")
    def day_capacity(self, args: Day) -> dict[str, Any]:
        day = self._day(args.day).isoformat()
        rows = self._rows("SELECT * FROM bookings WHERE day = ? AND status != 'cancelled'", day)
        return {
            "day": day,
            "bays_free": max(0, _seed.BAYS_PER_DAY - len(rows)),
            "courtesy_cars_free": max(
                0, _seed.COURTESY_CARS - sum(r["courtesy_car"] for r in rows)
            ),
        }


__all__ = ["GarageSystem", "money", "norm_customer", "norm_reg"]

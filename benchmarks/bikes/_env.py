"""Spoke & Pedal as an environment: its database plus the tools the desk agent calls.

Tools are thin: pydantic validates the arguments, `_rules` enforces policy.md and `_views` builds
the answers. Changes need the account holder verified in this conversation (`find_customer`
records it), so a desk agent cannot change someone's rental on an unchecked claim. The customer's
own app (the user-side APIs) lives in `_user_api` and joins the same class.
"""

from __future__ import annotations

import re
import sqlite3
from importlib import resources
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StringConstraints

from benchmarks.bikes import _rules
from benchmarks.bikes._seed import NOW, at, iso, seed_bikes
from benchmarks.bikes._user_api import BikeUserApi
from benchmarks.bikes._views import (
    availability_view,
    code,
    customer_view,
    rental_view,
    require_verified,
    station_row,
)
from vistasim.env import SqliteEnvironment, ToolFailure, tool

__all__ = ["BikeEnvironment"]

RentalId = code(r"^R\d{3}$")
CustomerId = code(r"^C\d{3}$")
Station = Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=40)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FindCustomerArgs(_Args):
    """Identify a customer by the email or phone number on their account."""

    email: str | None = Field(default=None, max_length=254)
    phone: str | None = Field(
        default=None, max_length=30, description="Any format, e.g. 06 1234 5678."
    )


class RentalArgs(_Args):
    """Name one rental."""

    rental_id: RentalId = Field(description="Rental number, e.g. R204.")


class CustomerRentalsArgs(_Args):
    """A customer's rentals, optionally by status."""

    customer_id: CustomerId
    status: Literal["active", "overdue", "returned"] | None = None


class ExtendArgs(RentalArgs):
    """Extend a rental by an amount of time with an explicit unit."""

    amount: int = Field(ge=1, le=500, description="How much longer, in `unit`s.")
    unit: Literal["hours", "days"]


class EndArgs(RentalArgs):
    """Check a rented bike in at a station."""

    station: Station = Field(description="Station id (ST3) or name (Riverside Park).")


class ReserveArgs(_Args):
    """Reserve a bike for a later pickup."""

    customer_id: CustomerId
    station: Station = Field(description="Station id (ST3) or name (Riverside Park).")
    bike_type: Literal["city", "e-bike", "cargo"]
    pickup_at: str = Field(
        pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$",
        description="Local pickup time, YYYY-MM-DDTHH:MM.",
    )


class ReservationArgs(_Args):
    """Name one reservation."""

    reservation_id: code(r"^RS\d{3}$")  # type: ignore[valid-type]


class DamageArgs(RentalArgs):
    """Report damage to the bike of a rental."""

    description: Text = Field(description="Which part is damaged and what happened.")


class StationArgs(_Args):
    """One station, or every station when left out."""

    station: Station | None = None


class RefundArgs(_Args):
    """Refund one charge."""

    charge_id: code(r"^CH\d{4}$")  # type: ignore[valid-type]
    reason: Text


class BikeEnvironment(BikeUserApi, SqliteEnvironment):
    """A city bike-rental desk: 6 stations, 51 bikes, 23 customers, rentals in every state."""

    SCHEMA_SQL: ClassVar[str] = (
        resources.files("benchmarks.bikes").joinpath("_schema.sql").read_text("utf-8")
    )
    POLICY_RULES: ClassVar[str] = "policy_rules.yaml"
    """The policy's rules the detectors apply (policy.md §1: only the customer's own rentals)."""

    def seed(self, db: sqlite3.Connection) -> None:
        """Fill the database with the deterministic city."""
        seed_bikes(db)

    @property
    def now(self) -> str:
        """The desk's fixed current time (ISO, local)."""
        return iso(NOW)

    @tool(
        "Find and verify a customer by the email address or phone number on their account (the "
        "customer must tell you one). Returns their profile, rentals and reservations. Required "
        "before changing anything for them."
    )
    def find_customer(self, args: FindCustomerArgs) -> JsonValue:
        """Return the matching customer and record them as verified."""
        if not args.email and not args.phone:
            raise ToolFailure("Give the email address or the phone number on the account.")
        found = {
            self._by_email(args.email) if args.email else None,
            self._by_phone(args.phone) if args.phone else None,
        } - {None}
        if len(found) != 1:
            raise ToolFailure("The email address and phone number belong to different accounts.")
        customer_id = found.pop()
        method = "email" if args.email else "phone"
        self.db.execute(
            "INSERT OR REPLACE INTO desk_verifications VALUES (?, ?, ?)",
            (customer_id, method, iso(NOW)),
        )
        return {**customer_view(self.db, customer_id), "verified_by": method}

    @tool(
        "Get a rental: bike, stations, start and due time, status, rates, charges and how many "
        "hours it may still be extended by. Check the customer owns it before sharing anything."
    )
    def get_rental(self, args: RentalArgs) -> JsonValue:
        """Return the rental's details."""
        return rental_view(self.db, args.rental_id)

    @tool("List a verified customer's rentals, newest first, optionally only one status.")
    def list_customer_rentals(self, args: CustomerRentalsArgs) -> JsonValue:
        """Return the customer's rentals."""
        known = self.db.execute("SELECT 1 FROM customers WHERE id = ?", (args.customer_id,))
        if not known.fetchone():
            raise ToolFailure(f"No customer {args.customer_id} exists.")
        require_verified(self.db, args.customer_id, args.customer_id)
        rentals = customer_view(self.db, args.customer_id)["rentals"]
        return {
            "customer_id": args.customer_id,
            "rentals": [r for r in rentals if args.status in (None, r["status"])],
        }

    @tool(
        "Extend an active rental by `amount` hours or days (explicit unit) and charge it: hourly "
        "rate, capped at the daily rate per 24 h. At most 72 h of extensions per rental; e-bikes "
        "at most 24 h from start; never an overdue rental. Confirm with the customer first."
    )
    def extend_rental(self, args: ExtendArgs) -> JsonValue:
        """Extend the rental."""
        return _rules.extend_rental(self.db, args.rental_id, args.amount, args.unit)

    @tool(
        "End a rental now by checking its bike in at a station with a free dock (for a dock that "
        "did not register the return). Charges the late fee if overdue. Confirm first."
    )
    def end_rental(self, args: EndArgs) -> JsonValue:
        """Close the rental."""
        return _rules.end_rental(self.db, args.rental_id, args.station)

    @tool(
        "Reserve a bike of a type at a station for a pickup 30 minutes to 7 days ahead (held 30 "
        "minutes past pickup). Free. Not while the customer has an overdue rental. Confirm first."
    )
    def reserve_bike(self, args: ReserveArgs) -> JsonValue:
        """Create the reservation."""
        pickup = at(args.pickup_at)
        return _rules.reserve_bike(self.db, args.customer_id, args.station, args.bike_type, pickup)

    @tool(
        "Cancel a held reservation. Free until 2 hours before pickup, then a €3.00 fee (waived "
        "on the annual plan). Tell the customer the fee and confirm first."
    )
    def cancel_reservation(self, args: ReservationArgs) -> JsonValue:
        """Cancel the reservation."""
        return _rules.cancel_reservation(self.db, args.reservation_id)

    @tool(
        "File a damage report for the bike of an active rental or one returned in the last 48 h; "
        "the description says which part and what happened. Flags the bike for repair."
    )
    def report_damage(self, args: DamageArgs) -> JsonValue:
        """Open a damage report."""
        return _rules.report_damage(self.db, args.rental_id, args.description)

    @tool("Bikes ready to ride by type and free docks at a station (or at every station).")
    def station_availability(self, args: StationArgs) -> JsonValue:
        """Return availability."""
        if args.station:
            return availability_view(self.db, station_row(self.db, args.station))
        rows = self.db.execute("SELECT * FROM stations ORDER BY id").fetchall()
        return {"stations": [availability_view(self.db, row) for row in rows]}

    @tool(
        "Refund a charge in full to the card on file. Only charges made in the last 14 days and "
        "charged in error (duplicate or wrong charge); unused time is not refunded. Confirm first."
    )
    def refund_charge(self, args: RefundArgs) -> JsonValue:
        """Refund the charge."""
        return _rules.refund_charge(self.db, args.charge_id, args.reason)

    def _by_email(self, email: str) -> str:
        row = self.db.execute(
            "SELECT id FROM customers WHERE email = ? COLLATE NOCASE", (email.strip(),)
        ).fetchone()
        if row is None:
            raise ToolFailure(f"No customer account uses the email {email.strip()!r}.")
        return row[0]

    def _by_phone(self, phone: str) -> str:
        digits = re.sub(r"\D", "", phone)
        if len(digits) < 9:
            raise ToolFailure(f"{phone!r} is not a complete phone number.")
        for row in self.db.execute("SELECT id, phone FROM customers"):
            if re.sub(r"\D", "", row["phone"])[-9:] == digits[-9:]:
                return row["id"]
        raise ToolFailure(f"No customer account uses the phone number {phone.strip()!r}.")

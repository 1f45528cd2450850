"""Spoke & Pedal's business rules (policy.md), enforced on the database for every tool call.

Each function either returns a JSON view or raises `ToolFailure` with the message the desk system
shows staff. Read-only views live in `_views`; this module holds the changes.
"""

from __future__ import annotations

import math
import sqlite3
from datetime import datetime, timedelta

from benchmarks.bikes._limits import (
    CANCEL_FEE_CENTS,
    DAMAGE_WINDOW_HOURS,
    EBIKE_MAX_HOURS,
    FREE_CANCEL_HOURS,
    HOLD_MINUTES,
    LATE_FEE_CAP_CENTS,
    LATE_FEE_PER_HOUR_CENTS,
    MAX_AHEAD_DAYS,
    MAX_EXTENSION_HOURS,
    MAX_HELD,
    MIN_DESCRIPTION,
    MIN_LEAD_MINUTES,
    REFUND_WINDOW_DAYS,
)
from benchmarks.bikes._seed import NOW, at, iso, rental_price
from benchmarks.bikes._views import (
    euros,
    free_docks,
    next_id,
    rental_row,
    rental_view,
    require_verified,
    station_row,
)
from vistasim.env import ToolFailure

__all__ = [
    "cancel_reservation",
    "cancellation_fee_cents",
    "end_rental",
    "extend_rental",
    "late_fee_cents",
    "refund_charge",
    "report_damage",
    "reserve_bike",
]


def late_fee_cents(due_at: str, returned_at: datetime = NOW) -> int:
    """The late fee for a bike back at `returned_at`: €5 per started hour past due, at most €50."""
    late = returned_at - at(due_at)
    if late <= timedelta(0):
        return 0
    hours = math.ceil(late.total_seconds() / 3600)
    return min(hours * LATE_FEE_PER_HOUR_CENTS, LATE_FEE_CAP_CENTS)


def extend_rental(db: sqlite3.Connection, rental_id: str, amount: int, unit: str) -> dict:
    """Move an active rental's due time later and charge the extension."""
    rental = rental_row(db, rental_id)
    require_verified(db, rental["customer_id"], rental_id)
    if rental["status"] == "returned":
        raise ToolFailure(
            f"{rental_id} was returned on {rental['returned_at']}; only active "
            "rentals can be extended."
        )
    if rental["status"] == "overdue":
        raise ToolFailure(
            f"{rental_id} is overdue (it was due back at {rental['due_at']}), so it "
            "can't be extended: the bike has to be returned, and a late fee of €5 "
            "per started hour applies."
        )
    hours = amount * 24 if unit == "days" else amount
    used = rental["extended_hours"]
    if used + hours > MAX_EXTENSION_HOURS:
        raise ToolFailure(
            f"Extensions are limited to {MAX_EXTENSION_HOURS} hours (3 days) in "
            f"total per rental; {rental_id} has already been extended by {used} "
            f"hours, so at most {MAX_EXTENSION_HOURS - used} more hours are "
            "possible."
        )
    start = at(rental["start_at"])
    due = at(rental["due_at"])
    new_due = due + timedelta(hours=hours)
    bike_type = _bike_type(db, rental["bike_id"])
    if bike_type == "e-bike" and new_due - start > timedelta(hours=EBIKE_MAX_HOURS):
        latest = start + timedelta(hours=EBIKE_MAX_HOURS)
        room = max(0, int((latest - due).total_seconds() // 3600))
        raise ToolFailure(
            f"E-bike rentals can last at most {EBIKE_MAX_HOURS} hours in total "
            f"(battery range); {rental_id} started {rental['start_at']}, so it can "
            f"be due back at {iso(latest)} at the latest ({room} more hours)."
        )
    price = rental_price(hours, rental["hourly_rate_cents"], rental["daily_rate_cents"])
    db.execute(
        "UPDATE rentals SET due_at = ?, extended_hours = extended_hours + ? WHERE id = ?",
        (iso(new_due), hours, rental_id),
    )
    charge_id = _charge(db, rental["customer_id"], "extension", price, rental_id=rental_id)
    return {
        "rental_id": rental_id,
        "previous_due_at": rental["due_at"],
        "due_at": iso(new_due),
        "extended_by_hours": hours,
        "charge_id": charge_id,
        "charged_cents": price,
        "charged": euros(price),
    }


def end_rental(db: sqlite3.Connection, rental_id: str, station: str) -> dict:
    """Check a bike in at a station now, closing its rental (with a late fee if overdue)."""
    rental = rental_row(db, rental_id)
    require_verified(db, rental["customer_id"], rental_id)
    if rental["status"] == "returned":
        raise ToolFailure(f"{rental_id} was already returned on {rental['returned_at']}.")
    where = station_row(db, station)
    if free_docks(db, where["id"]) <= 0:
        raise ToolFailure(
            f"{where['name']} ({where['id']}) has no free docks, so a bike can't "
            f"be checked in there. Stations with free docks: {_docks_elsewhere(db)}."
        )
    fee = late_fee_cents(rental["due_at"])
    db.execute(
        "UPDATE rentals SET status = 'returned', returned_at = ?, return_station_id = ? "
        "WHERE id = ?",
        (iso(NOW), where["id"], rental_id),
    )
    db.execute(
        "UPDATE bikes SET station_id = ?, status = CASE needs_repair WHEN 1 THEN 'maintenance' "
        "ELSE 'available' END WHERE id = ?",
        (where["id"], rental["bike_id"]),
    )
    if fee:
        _charge(db, rental["customer_id"], "late_fee", fee, rental_id=rental_id)
    view = rental_view(db, rental_id)
    return {**view, "late_fee_cents": fee, "late_fee": euros(fee)}


def reserve_bike(
    db: sqlite3.Connection, customer_id: str, station: str, bike_type: str, pickup_at: datetime
) -> dict:
    """Set a bike of `bike_type` aside at a station for a pickup time."""
    customer = _customer(db, customer_id)
    require_verified(db, customer_id, customer_id)
    overdue = db.execute(
        "SELECT id FROM rentals WHERE customer_id = ? AND status = 'overdue'", (customer_id,)
    ).fetchone()
    if overdue:
        raise ToolFailure(
            f"{customer_id} has an overdue rental ({overdue[0]}); new reservations "
            "are blocked until it is returned."
        )
    held = db.execute(
        "SELECT COUNT(*) FROM reservations WHERE customer_id = ? AND status = 'held'",
        (customer_id,),
    ).fetchone()[0]
    limit = MAX_HELD[customer["plan"]]
    if held >= limit:
        raise ToolFailure(
            f"{customer_id} already holds {held} reservations, the most a "
            f"{customer['plan'].replace('_', '-')} plan allows at once."
        )
    _check_pickup(pickup_at)
    where = station_row(db, station)
    bike = db.execute(
        "SELECT id FROM bikes WHERE station_id = ? AND bike_type = ? AND status = 'available' "
        "ORDER BY id LIMIT 1",
        (where["id"], bike_type),
    ).fetchone()
    if bike is None:
        raise ToolFailure(f"No {bike_type} is available at {where['name']} to reserve.")
    reservation_id = next_id(db, "reservations", "RS")
    hold = pickup_at + timedelta(minutes=HOLD_MINUTES)
    db.execute(
        "INSERT INTO reservations VALUES (?, ?, ?, ?, ?, ?, ?, 'held', ?, NULL)",
        (
            reservation_id,
            customer_id,
            where["id"],
            bike_type,
            bike[0],
            iso(pickup_at),
            iso(hold),
            iso(NOW),
        ),
    )
    db.execute("UPDATE bikes SET status = 'reserved' WHERE id = ?", (bike[0],))
    return {
        "reservation_id": reservation_id,
        "station": where["name"],
        "station_id": where["id"],
        "bike_type": bike_type,
        "bike_id": bike[0],
        "pickup_at": iso(pickup_at),
        "hold_until": iso(hold),
        "charged_cents": 0,
    }


def cancel_reservation(db: sqlite3.Connection, reservation_id: str) -> dict:
    """Cancel a held reservation; late cancellations pay a fee unless on the annual plan."""
    row = db.execute("SELECT * FROM reservations WHERE id = ?", (reservation_id,)).fetchone()
    if row is None:
        raise ToolFailure(
            f"No reservation {reservation_id} exists; reservation numbers look like RS411."
        )
    require_verified(db, row["customer_id"], reservation_id)
    if row["status"] != "held":
        raise ToolFailure(f"{reservation_id} is {row['status']} and can no longer be cancelled.")
    fee = cancellation_fee_cents(db, row)
    db.execute(
        "UPDATE reservations SET status = 'cancelled', cancelled_at = ? WHERE id = ?",
        (iso(NOW), reservation_id),
    )
    db.execute(
        "UPDATE bikes SET status = 'available' WHERE id = ? AND status = 'reserved'",
        (row["bike_id"],),
    )
    charge_id = None
    if fee:
        charge_id = _charge(
            db, row["customer_id"], "cancellation_fee", fee, reservation_id=reservation_id
        )
    return {
        "reservation_id": reservation_id,
        "status": "cancelled",
        "fee_cents": fee,
        "fee": euros(fee),
        "charge_id": charge_id,
    }


def cancellation_fee_cents(db: sqlite3.Connection, reservation: sqlite3.Row) -> int:
    """The fee for cancelling `reservation` now: €3 within 2 hours of pickup, never on annual."""
    plan = _customer(db, reservation["customer_id"])["plan"]
    notice = at(reservation["pickup_at"]) - NOW
    if plan == "annual" or notice >= timedelta(hours=FREE_CANCEL_HOURS):
        return 0
    return CANCEL_FEE_CENTS


def report_damage(db: sqlite3.Connection, rental_id: str, description: str) -> dict:
    """File a damage report on the bike of a current or recent rental and flag it for repair."""
    rental = rental_row(db, rental_id)
    require_verified(db, rental["customer_id"], rental_id)
    if len(description.strip()) < MIN_DESCRIPTION:
        raise ToolFailure(
            "Describe the damage in a few words (which part, what happened): at "
            f"least {MIN_DESCRIPTION} characters."
        )
    if rental["status"] == "returned":
        back = at(rental["returned_at"])
        if NOW - back > timedelta(hours=DAMAGE_WINDOW_HOURS):
            raise ToolFailure(
                f"Damage on {rental_id} can't be reported at the desk any more: it "
                f"was returned on {rental['returned_at']}, more than "
                f"{DAMAGE_WINDOW_HOURS} hours ago. Write to "
                "damage@spokeandpedal.example instead."
            )
    report_id = next_id(db, "damage_reports", "D", start=801)
    db.execute(
        "INSERT INTO damage_reports VALUES (?, ?, ?, ?, ?, ?, 'open')",
        (
            report_id,
            rental_id,
            rental["bike_id"],
            rental["customer_id"],
            description.strip(),
            iso(NOW),
        ),
    )
    db.execute(
        "UPDATE bikes SET needs_repair = 1, status = CASE WHEN station_id IS NULL THEN status "
        "ELSE 'maintenance' END WHERE id = ?",
        (rental["bike_id"],),
    )
    return {
        "report_id": report_id,
        "rental_id": rental_id,
        "bike_id": rental["bike_id"],
        "status": "open",
    }


def refund_charge(db: sqlite3.Connection, charge_id: str, reason: str) -> dict:
    """Refund a charge in full to the card on file, within 14 days of the charge."""
    charge = db.execute("SELECT * FROM charges WHERE id = ?", (charge_id,)).fetchone()
    if charge is None:
        raise ToolFailure(f"No charge {charge_id} exists; charge numbers look like CH7004.")
    require_verified(db, charge["customer_id"], charge_id)
    if charge["status"] == "refunded":
        raise ToolFailure(f"{charge_id} has already been refunded.")
    age = NOW - at(charge["charged_at"])
    if age > timedelta(days=REFUND_WINDOW_DAYS):
        raise ToolFailure(
            f"{charge_id} was charged on {charge['charged_at'][:10]}, more than "
            f"{REFUND_WINDOW_DAYS} days ago; the desk can only refund charges from "
            f"the last {REFUND_WINDOW_DAYS} days."
        )
    refund_id = next_id(db, "refunds", "RF", start=901)
    db.execute(
        "INSERT INTO refunds VALUES (?, ?, ?, ?, ?)",
        (refund_id, charge_id, charge["amount_cents"], reason, iso(NOW)),
    )
    db.execute("UPDATE charges SET status = 'refunded' WHERE id = ?", (charge_id,))
    return {
        "refund_id": refund_id,
        "charge_id": charge_id,
        "amount_cents": charge["amount_cents"],
        "amount": euros(charge["amount_cents"]),
        "to": "the card on file",
        "arrives": "within 3-5 business days",
    }


def _check_pickup(pickup_at: datetime) -> None:
    if pickup_at < NOW + timedelta(minutes=MIN_LEAD_MINUTES):
        raise ToolFailure(
            f"Pickup {iso(pickup_at)} is too soon: reservations must start at least "
            f"{MIN_LEAD_MINUTES} minutes from now ({iso(NOW)})."
        )
    if pickup_at > NOW + timedelta(days=MAX_AHEAD_DAYS):
        raise ToolFailure(
            f"Pickup {iso(pickup_at)} is too far ahead: reservations can be made "
            f"at most {MAX_AHEAD_DAYS} days in advance."
        )


def _customer(db: sqlite3.Connection, customer_id: str) -> sqlite3.Row:
    row = db.execute("SELECT * FROM customers WHERE id = ?", (customer_id,)).fetchone()
    if row is None:
        raise ToolFailure(f"No customer {customer_id} exists.")
    return row


def _bike_type(db: sqlite3.Connection, bike_id: str) -> str:
    return db.execute("SELECT bike_type FROM bikes WHERE id = ?", (bike_id,)).fetchone()[0]


def _docks_elsewhere(db: sqlite3.Connection) -> str:
    rows = db.execute("SELECT id, name FROM stations ORDER BY id").fetchall()
    spots = [(free_docks(db, r["id"]), r["name"]) for r in rows]
    return ", ".join(f"{name} ({n} free)" for n, name in spots if n > 0)


def _charge(
    db: sqlite3.Connection,
    customer_id: str,
    kind: str,
    cents: int,
    *,
    rental_id: str | None = None,
    reservation_id: str | None = None,
) -> str:
    charge_id = next_id(db, "charges", "CH")
    db.execute(
        "INSERT INTO charges VALUES (?, ?, ?, ?, ?, ?, ?, 'paid')",
        (charge_id, customer_id, rental_id, reservation_id, kind, cents, iso(NOW)),
    )
    return charge_id

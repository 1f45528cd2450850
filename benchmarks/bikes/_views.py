"""Read-only helpers of the desk system: lookups, JSON views and the small shared checks."""

from __future__ import annotations

import re
import sqlite3
from datetime import timedelta
from typing import Annotated

from pydantic import BeforeValidator, StringConstraints

from benchmarks.bikes._limits import EBIKE_MAX_HOURS, MAX_EXTENSION_HOURS
from benchmarks.bikes._seed import NOW, at
from vistasim.env import ToolFailure

__all__ = [
    "availability_view",
    "code",
    "customer_view",
    "euros",
    "free_docks",
    "max_extension_hours",
    "next_id",
    "rental_row",
    "rental_view",
    "require_verified",
    "station_row",
]


def code(pattern: str) -> object:
    """A string type for ids like `R204`: stripped and upper-cased, then matched to `pattern`."""
    return Annotated[
        str,
        BeforeValidator(lambda v: v.strip().upper() if isinstance(v, str) else v),
        StringConstraints(pattern=pattern),
    ]


def euros(cents: int) -> str:
    """Format cents as the desk prints money: `€36.00`."""
    return f"€{cents / 100:.2f}"


def next_id(db: sqlite3.Connection, table: str, prefix: str, *, start: int = 1) -> str:
    """The next free id `prefix + number` in `table` (one more than the highest)."""
    numbers = [
        int(row[0][len(prefix) :])
        for row in db.execute(f'SELECT id FROM "{table}"')
        if re.fullmatch(rf"{prefix}\d+", row[0])
    ]
    return f"{prefix}{max(numbers, default=start - 1) + 1}"


def station_row(db: sqlite3.Connection, station: str) -> sqlite3.Row:
    """The station named by its id (`ST3`) or its name (`Riverside Park`), any case."""
    key = station.strip()
    row = db.execute(
        "SELECT * FROM stations WHERE id = ? COLLATE NOCASE OR name = ? COLLATE NOCASE",
        (key, key),
    ).fetchone()
    if row is None:
        known = ", ".join(f"{r['name']} ({r['id']})" for r in db.execute("SELECT * FROM stations"))
        raise ToolFailure(f"Unknown station {station!r}; stations: {known}.")
    return row


def free_docks(db: sqlite3.Connection, station_id: str) -> int:
    """Docks at the station with no bike in them."""
    docks = db.execute("SELECT docks FROM stations WHERE id = ?", (station_id,)).fetchone()[0]
    used = db.execute("SELECT COUNT(*) FROM bikes WHERE station_id = ?", (station_id,)).fetchone()
    return docks - used[0]


def availability_view(db: sqlite3.Connection, station: sqlite3.Row) -> dict:
    """Bikes ready to ride by type, and free docks, at one station."""
    counts = dict.fromkeys(("city", "e-bike", "cargo"), 0)
    for row in db.execute(
        "SELECT bike_type, COUNT(*) FROM bikes WHERE station_id = ? AND status = 'available' "
        "GROUP BY bike_type",
        (station["id"],),
    ):
        counts[row[0]] = row[1]
    return {
        "station_id": station["id"],
        "name": station["name"],
        "address": station["address"],
        "docks": station["docks"],
        "free_docks": free_docks(db, station["id"]),
        "available": counts,
    }


def rental_row(db: sqlite3.Connection, rental_id: str) -> sqlite3.Row:
    """The rental's row, or a failure naming the id format."""
    row = db.execute("SELECT * FROM rentals WHERE id = ?", (rental_id,)).fetchone()
    if row is None:
        raise ToolFailure(f"No rental {rental_id} exists; rental numbers look like R204.")
    return row


def require_verified(db: sqlite3.Connection, customer_id: str, subject: str) -> None:
    """Fail unless the account holder was verified with find_customer in this conversation."""
    if db.execute(
        "SELECT 1 FROM desk_verifications WHERE customer_id = ?", (customer_id,)
    ).fetchone():
        return
    raise ToolFailure(
        f"The account holder of {subject} has not been verified in this "
        "conversation: ask for the email address or phone number on the account "
        "and look it up with find_customer first."
    )


def max_extension_hours(db: sqlite3.Connection, rental: sqlite3.Row) -> int:
    """How many more hours the rental may still be extended by (0 unless active)."""
    if rental["status"] != "active":
        return 0
    room = MAX_EXTENSION_HOURS - rental["extended_hours"]
    bike_type = db.execute("SELECT bike_type FROM bikes WHERE id = ?", (rental["bike_id"],))
    if bike_type.fetchone()[0] == "e-bike":
        latest = at(rental["start_at"]) + timedelta(hours=EBIKE_MAX_HOURS)
        room = min(room, int((latest - at(rental["due_at"])).total_seconds() // 3600))
    return max(room, 0)


def rental_view(db: sqlite3.Connection, rental_id: str) -> dict:
    """A rental with its bike, stations, rates, charges and remaining extension allowance."""
    rental = rental_row(db, rental_id)
    bike_type = db.execute(
        "SELECT bike_type FROM bikes WHERE id = ?", (rental["bike_id"],)
    ).fetchone()[0]
    names = {r["id"]: r["name"] for r in db.execute("SELECT id, name FROM stations")}
    charges = [
        dict(row)
        for row in db.execute(
            "SELECT id AS charge_id, kind, amount_cents, charged_at, status FROM charges "
            "WHERE rental_id = ? ORDER BY charged_at, id",
            (rental_id,),
        )
    ]
    total = sum(c["amount_cents"] for c in charges if c["status"] == "paid")
    return {
        "rental_id": rental_id,
        "customer_id": rental["customer_id"],
        "bike_id": rental["bike_id"],
        "bike_type": bike_type,
        "status": rental["status"],
        "start_station": names[rental["start_station_id"]],
        "start_at": rental["start_at"],
        "original_due_at": rental["original_due_at"],
        "due_at": rental["due_at"],
        "extended_hours": rental["extended_hours"],
        "returned_at": rental["returned_at"],
        "return_station": names.get(rental["return_station_id"]),
        "hourly_rate_cents": rental["hourly_rate_cents"],
        "daily_rate_cents": rental["daily_rate_cents"],
        "charges": charges,
        "total_charged_cents": total,
        "total_charged": euros(total),
        "max_extension_hours": max_extension_hours(db, rental),
        "now": NOW.strftime("%Y-%m-%dT%H:%M"),
    }


def customer_view(db: sqlite3.Connection, customer_id: str) -> dict:
    """A customer's profile with their rentals (newest first) and reservations."""
    customer = db.execute("SELECT * FROM customers WHERE id = ?", (customer_id,)).fetchone()
    rentals = db.execute(
        "SELECT r.id, r.status, b.bike_type, r.start_at, r.due_at, r.returned_at FROM rentals r "
        "JOIN bikes b ON b.id = r.bike_id WHERE r.customer_id = ? ORDER BY r.start_at DESC",
        (customer_id,),
    )
    reservations = db.execute(
        "SELECT v.id, v.status, s.name AS station, v.bike_type, v.pickup_at FROM reservations v "
        "JOIN stations s ON s.id = v.station_id WHERE v.customer_id = ? ORDER BY v.pickup_at",
        (customer_id,),
    )
    return {
        "customer_id": customer["id"],
        "name": customer["name"],
        "email": customer["email"],
        "phone": customer["phone"],
        "plan": customer["plan"],
        "member_since": customer["member_since"],
        "rentals": [
            {
                "rental_id": r["id"],
                "status": r["status"],
                "bike_type": r["bike_type"],
                "start_at": r["start_at"],
                "due_at": r["due_at"],
                "returned_at": r["returned_at"],
            }
            for r in rentals
        ],
        "reservations": [
            {
                "reservation_id": v["id"],
                "status": v["status"],
                "station": v["station"],
                "bike_type": v["bike_type"],
                "pickup_at": v["pickup_at"],
            }
            for v in reservations
        ],
    }

"""The desk's rules over the database: lookups, availability, fees, and the refusals they give.

Every refusal is a `ToolFailure` whose text says what is wrong and, where there is one, what
would work instead; the environment's tools are thin wrappers around these functions.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from datetime import date, datetime, time, timedelta
from typing import Any

from benchmarks.domains.hotel._seed import (
    FREE_CANCELLATION_HOURS,
    HOTEL_TZ,
    MAX_NIGHTS,
    NOW,
    night_rate,
    nights_of,
)
from vistasim.env import ToolFailure

_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$")
_PHONE = re.compile(r"^\+\d[\d ]{6,18}\d$")


def norm_name(text: str) -> str:
    """A name for comparison: no accents, no case, letters only."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", plain.lower())


def human(day: date | str) -> str:
    """A date as guests read it: Saturday 20 June 2026."""
    d = date.fromisoformat(day) if isinstance(day, str) else day
    return f"{d:%A} {d.day} {d:%B %Y}"


def parse_day(value: str, field: str) -> date:
    """An ISO date argument, or a refusal naming the field."""
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise ToolFailure(f"{field} must be a date as YYYY-MM-DD, got {value!r}") from None


def stay_dates(check_in: str, check_out: str) -> tuple[date, date]:
    """Validated new stay dates: in the future, in order, at most 14 nights."""
    ci, co = parse_day(check_in, "check_in"), parse_day(check_out, "check_out")
    if ci < NOW.date():
        raise ToolFailure(f"check-in {human(ci)} is in the past (today is {human(NOW.date())})")
    if co <= ci:
        raise ToolFailure("check-out must be at least one night after check-in")
    if (co - ci).days > MAX_NIGHTS:
        raise ToolFailure(f"stays of more than {MAX_NIGHTS} nights are booked by the sales team")
    return ci, co


def hotel(db: sqlite3.Connection, hotel_id: str) -> sqlite3.Row:
    """A hotel by id (or by city or name, as guests say it)."""
    key = hotel_id.strip().lower()
    for row in db.execute("SELECT * FROM hotels"):
        if key in (row["hotel_id"].lower(), row["city"].lower(), row["name"].lower()):
            return row
    known = ", ".join(f"{r['hotel_id']} ({r['name']})" for r in db.execute("SELECT * FROM hotels"))
    raise ToolFailure(f"unknown hotel {hotel_id!r}; hotels: {known}")


def room_type(db: sqlite3.Connection, hotel_id: str, kind: str) -> sqlite3.Row:
    """A room type of a hotel, or a refusal listing the hotel's room types."""
    row = db.execute(
        "SELECT * FROM room_types WHERE hotel_id=? AND room_type=?",
        (hotel_id, kind.strip().lower()),
    ).fetchone()
    if row is None:
        kinds = [
            r[0]
            for r in db.execute("SELECT room_type FROM room_types WHERE hotel_id=?", (hotel_id,))
        ]
        raise ToolFailure(f"unknown room type {kind!r} at {hotel_id}; room types: {kinds}")
    return row


def booking(db: sqlite3.Connection, ref: str) -> sqlite3.Row:
    """A reservation by booking reference (case and spaces ignored)."""
    key = re.sub(r"[\s-]", "", ref).upper()
    row = db.execute("SELECT * FROM reservations WHERE booking_ref=?", (key,)).fetchone()
    if row is None:
        raise ToolFailure(f"no booking with reference {ref!r}")
    return row


def verified_booking(db: sqlite3.Connection, ref: str, *, changeable: bool = True) -> sqlite3.Row:
    """The booking, if the guest of this conversation has been verified for it and it is open."""
    row = booking(db, ref)
    session = db.execute("SELECT verified_guest_id FROM desk_session WHERE id=1").fetchone()
    if session[0] is None:
        raise ToolFailure(
            "guest not verified: call find_reservation with the booking reference "
            "and last name (or email and date of birth) first"
        )
    if session[0] != row["guest_id"]:
        raise ToolFailure(f"booking {row['booking_ref']} does not belong to the verified guest")
    if row["status"] != "confirmed":
        raise ToolFailure(f"booking {row['booking_ref']} is {row['status']} and can't be changed")
    if changeable and date.fromisoformat(row["check_in"]) <= NOW.date():
        raise ToolFailure(
            f"the stay of booking {row['booking_ref']} has started; "
            "changes are made at the hotel's front desk"
        )
    return row


def availability(
    db: sqlite3.Connection, hotel_id: str, kind: str, ci: date, co: date, skip_ref: str | None
) -> dict[str, Any]:
    """Rooms of one type free on every night of a stay, and what the stay costs."""
    rt = room_type(db, hotel_id, kind)
    nights, full, left = [], [], rt["rooms"]
    for night in nights_of(ci, co):
        day = night.isoformat()
        blocked = db.execute(
            "SELECT COALESCE(SUM(rooms), 0) FROM room_blocks WHERE hotel_id=? AND room_type=?"
            " AND night=?",
            (hotel_id, kind, day),
        ).fetchone()[0]
        booked = db.execute(
            "SELECT COUNT(*) FROM reservations WHERE hotel_id=? AND room_type=? AND status="
            "'confirmed' AND check_in<=? AND check_out>? AND booking_ref<>?",
            (hotel_id, kind, day, day, skip_ref or ""),
        ).fetchone()[0]
        free = max(0, rt["rooms"] - blocked - booked)
        left = min(left, free)
        if free == 0:
            full.append(day)
        rate = night_rate(rt["weekday_rate_eur"], rt["weekend_rate_eur"], night)
        nights.append({"night": day, "rate_eur": rate})
    return {
        "room_type": kind,
        "name": rt["name"],
        "capacity": rt["capacity"],
        "available": not full,
        "rooms_left": left,
        "fully_booked_nights": full,
        "nightly_rates": nights,
        "total_eur": round(sum(n["rate_eur"] for n in nights), 2),
    }


def require_free(db: sqlite3.Connection, row: sqlite3.Row, kind: str, ci: date, co: date) -> float:
    """The new room total, or a refusal naming the nights that are fully booked."""
    rt = room_type(db, row["hotel_id"], kind)
    if row["adults"] + row["children"] > rt["capacity"]:
        raise ToolFailure(
            f"a {rt['name']} sleeps {rt['capacity']}; booking {row['booking_ref']} "
            f"is for {row['adults'] + row['children']} guests"
        )
    found = availability(db, row["hotel_id"], kind, ci, co, row["booking_ref"])
    if not found["available"]:
        nights = " and ".join(human(n) for n in found["fully_booked_nights"])
        raise ToolFailure(
            f"not available: {rt['name']} is fully booked at "
            f"{hotel(db, row['hotel_id'])['name']} on the night(s) of {nights}"
        )
    total: float = found["total_eur"]
    return total


def breakfast_total(db: sqlite3.Connection, row: sqlite3.Row, ci: date, co: date) -> float:
    """What breakfast costs for every guest and night of a stay."""
    price = hotel(db, row["hotel_id"])["breakfast_eur"]
    return round(price * (row["adults"] + row["children"]) * (co - ci).days, 2)


def grand_total(row: dict[str, Any]) -> float:
    """Room, breakfast and late check-out together."""
    return round(
        row["room_total_eur"] + row["breakfast_total_eur"] + row["late_checkout_fee_eur"], 2
    )


def cancellation_terms(db: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    """When cancelling is free, and what cancelling now would cost."""
    h = hotel(db, row["hotel_id"])
    arrival = datetime.combine(
        date.fromisoformat(row["check_in"]), time.fromisoformat(h["check_in_time"]), HOTEL_TZ
    )
    free_until = arrival - timedelta(hours=FREE_CANCELLATION_HOURS)
    if row["rate_plan"] == "saver":
        fee, why = row["total_eur"], "Advance Saver rate: non-refundable"
    elif NOW < free_until:
        fee, why = 0.0, "free cancellation"
    else:
        ci = date.fromisoformat(row["check_in"])
        fee = availability(
            db, row["hotel_id"], row["room_type"], ci, ci + timedelta(days=1), row["booking_ref"]
        )["nightly_rates"][0]["rate_eur"]
        why = f"inside {FREE_CANCELLATION_HOURS} hours of check-in: the first night is charged"
    return {
        "free_until": free_until.strftime("%Y-%m-%dT%H:%M"),
        "fee_if_cancelled_now_eur": fee,
        "reason": why,
        "non_refundable": row["rate_plan"] == "saver",
    }


def check_email(value: str) -> str:
    """A valid email address, or a refusal."""
    value = value.strip()
    if not _EMAIL.match(value):
        raise ToolFailure(f"{value!r} is not a valid email address")
    return value


def check_phone(value: str) -> str:
    """A phone number in international format, or a refusal saying what is expected."""
    value = re.sub(r"[()\-.]", " ", value.strip())
    value = re.sub(r"\s+", " ", value)
    if not _PHONE.match(value):
        raise ToolFailure(
            f"{value!r} is not a phone number in international format: "
            "start with + and the country code, e.g. +353 87 123 4567"
        )
    return value


def check_time(value: str) -> str:
    """A time argument as HH:MM (24-hour), or a refusal."""
    match = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", value)
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        raise ToolFailure(f"checkout_time must be HH:MM on the 24-hour clock, got {value!r}")
    return f"{int(match[1]):02d}:{match[2]}"

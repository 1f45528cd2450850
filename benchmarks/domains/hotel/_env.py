"""The Harbourline Hotels desk environment: one SQLite database and the desk bot's tools."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from typing import Any

from benchmarks.domains.hotel import _rules as rules
from benchmarks.domains.hotel._changes import BookingChanges
from benchmarks.domains.hotel._seed import (
    LATE_CHECKOUT_FREE_UNTIL,
    LATE_CHECKOUT_LATEST,
    NOW,
    SCHEMA_SQL,
    seed,
)
from benchmarks.domains.hotel._tool_args import AvailabilityArgs, FindArgs, RefArgs
from vistasim.env import SqliteEnvironment, ToolFailure, tool


class HotelEnvironment(BookingChanges, SqliteEnvironment):
    """Harbourline Hotels' reservations: hotels, rooms, guests, bookings, notes."""

    SCHEMA_SQL = SCHEMA_SQL
    LEXICON = {
        "booking_ref": ["booking reference", "reference"],
        "last_name": ["last name", "surname"],
        "email": ["email address"],
        "date_of_birth": ["date of birth"],
        "check_in": ["arrival date", "check-in date", "arrive"],
        "check_out": ["departure date", "check-out date", "leave"],
        "room_type": ["room type", "which room"],
        "checkout_time": ["what time", "check-out time"],
        "new_email": ["new email"],
        "phone": ["phone number", "new number"],
    }

    def seed(self, db: sqlite3.Connection) -> None:
        seed(db)

    def now(self) -> datetime:
        """The desk's clock: Tuesday 9 June 2026, 10:00 (fixed, so episodes replay the same)."""
        return NOW

    @tool(
        "Verify the guest for this conversation and list their bookings. Give booking_ref and "
        "last_name, or email and date_of_birth. Required before disclosing or changing anything."
    )
    def find_reservation(self, args: FindArgs) -> dict[str, Any]:
        db = self.db
        guest = self._match_guest(args)
        if guest is None:
            raise ToolFailure(
                "no booking matches those details; check the booking reference and "
                "the spelling of the last name (or the email and date of birth)"
            )
        db.execute("UPDATE desk_session SET verified_guest_id=?", (guest["guest_id"],))
        where, params = ("guest_id=?", (guest["guest_id"],))
        if args.booking_ref:
            where, params = ("booking_ref=?", (rules.booking(db, args.booking_ref)["booking_ref"],))
        rows = db.execute(f"SELECT * FROM reservations WHERE {where} ORDER BY check_in", params)
        return {
            "verified": True,
            "guest": {k: guest[k] for k in ("guest_id", "first_name", "last_name")},
            "bookings": [self._summary(r) for r in rows],
        }

    def _match_guest(self, args: FindArgs) -> sqlite3.Row | None:
        db = self.db
        if args.booking_ref and args.last_name:
            try:
                row = rules.booking(db, args.booking_ref)
            except ToolFailure:
                return None
            guest = db.execute(
                "SELECT * FROM guests WHERE guest_id=?", (row["guest_id"],)
            ).fetchone()
            given = rules.norm_name(args.last_name)
            names = {
                rules.norm_name(guest["last_name"]),
                rules.norm_name(guest["first_name"] + guest["last_name"]),
            }
            return guest if given in names else None
        if args.email and args.date_of_birth:
            dob = rules.parse_day(args.date_of_birth, "date_of_birth").isoformat()
            return db.execute(
                "SELECT * FROM guests WHERE lower(email)=? AND date_of_birth=?",
                (args.email.strip().lower(), dob),
            ).fetchone()
        raise ToolFailure("give booking_ref and last_name, or email and date_of_birth")

    def _summary(self, row: sqlite3.Row) -> dict[str, Any]:
        h = rules.hotel(self.db, row["hotel_id"])
        return {
            "booking_ref": row["booking_ref"],
            "hotel_id": row["hotel_id"],
            "hotel": h["name"],
            "room_type": row["room_type"],
            "check_in": row["check_in"],
            "check_out": row["check_out"],
            "status": row["status"],
        }

    @tool(
        "Full details of one booking: guest, hotel, room, dates, extras, totals, cancellation "
        "terms and notes. Share them only with the verified guest the booking belongs to."
    )
    def get_reservation(self, args: RefArgs) -> dict[str, Any]:
        db = self.db
        row = rules.booking(db, args.booking_ref)
        guest = db.execute("SELECT * FROM guests WHERE guest_id=?", (row["guest_id"],)).fetchone()
        h = rules.hotel(db, row["hotel_id"])
        rt = rules.room_type(db, row["hotel_id"], row["room_type"])
        notes = [
            n["text"]
            for n in db.execute(
                "SELECT text FROM notes WHERE booking_ref=? ORDER BY note_id", (row["booking_ref"],)
            )
        ]
        nights = (date.fromisoformat(row["check_out"]) - date.fromisoformat(row["check_in"])).days
        return {
            "booking_ref": row["booking_ref"],
            "status": row["status"],
            "rate_plan": row["rate_plan"],
            "changes_allowed": row["rate_plan"] != "saver",
            "guest": {
                "name": f"{guest['first_name']} {guest['last_name']}",
                "email": guest["email"],
                "phone": guest["phone"],
            },
            "hotel": {
                "hotel_id": h["hotel_id"],
                "name": h["name"],
                "city": h["city"],
                "check_in_time": h["check_in_time"],
                "check_out_time": h["check_out_time"],
                "breakfast_eur_per_guest_night": h["breakfast_eur"],
                "late_checkout_free_until": LATE_CHECKOUT_FREE_UNTIL,
                "late_checkout_latest": LATE_CHECKOUT_LATEST,
                "late_checkout_fee_eur": h["late_checkout_fee_eur"],
            },
            "room_type": row["room_type"],
            "room_name": rt["name"],
            "check_in": row["check_in"],
            "check_out": row["check_out"],
            "nights": nights,
            "adults": row["adults"],
            "children": row["children"],
            "room_total_eur": row["room_total_eur"],
            "breakfast": bool(row["breakfast"]),
            "breakfast_total_eur": row["breakfast_total_eur"],
            "late_checkout": row["late_checkout"],
            "late_checkout_fee_eur": row["late_checkout_fee_eur"],
            "total_eur": row["total_eur"],
            "cancellation": rules.cancellation_terms(db, row),
            "notes": notes,
        }

    @tool(
        "Rooms free on every night from check_in to check_out at a hotel, with the price of the "
        "stay. With booking_ref, that booking's own room is not counted and difference_eur is "
        "the change against its current room total."
    )
    def check_availability(self, args: AvailabilityArgs) -> dict[str, Any]:
        db = self.db
        h = rules.hotel(db, args.hotel_id)
        ci, co = rules.stay_dates(args.check_in, args.check_out)
        current = rules.booking(db, args.booking_ref) if args.booking_ref else None
        kinds = (
            [args.room_type.strip().lower()]
            if args.room_type
            else [
                r[0]
                for r in db.execute(
                    "SELECT room_type FROM room_types WHERE hotel_id=? ORDER BY weekday_rate_eur",
                    (h["hotel_id"],),
                )
            ]
        )
        options = []
        for kind in kinds:
            found = rules.availability(
                db, h["hotel_id"], kind, ci, co, current["booking_ref"] if current else None
            )
            if current is not None:
                found["difference_eur"] = round(found["total_eur"] - current["room_total_eur"], 2)
            options.append(found)
        return {
            "hotel_id": h["hotel_id"],
            "hotel": h["name"],
            "check_in": ci.isoformat(),
            "check_out": co.isoformat(),
            "nights": (co - ci).days,
            "options": options,
        }


def make_environment() -> HotelEnvironment:
    """A fresh desk environment, from the seed data."""
    return HotelEnvironment()

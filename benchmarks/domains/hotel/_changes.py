"""The desk's tools that change a booking: dates, room, extras, cancellation, details, notes.

A mixin of `HotelEnvironment`; every tool checks the conversation's verified guest (except
`add_note`, which the hotel team treats as a front-office message, not a change of terms).
"""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Any

from benchmarks.domains.hotel import _rules as rules
from benchmarks.domains.hotel._seed import LATE_CHECKOUT_FREE_UNTIL, LATE_CHECKOUT_LATEST, NOW
from benchmarks.domains.hotel._tool_args import (
    CancelArgs,
    DatesArgs,
    DetailsArgs,
    LateArgs,
    NoteArgs,
    RefArgs,
    RoomArgs,
)
from vistasim.env import ToolFailure, tool


class BookingChanges:
    """The write tools; `db` is the environment's SQLite connection."""

    db: sqlite3.Connection

    @tool(
        "Move a booking to new dates (and optionally a new room type). Returns the new totals "
        "and difference_eur against the old total. Not allowed on Advance Saver bookings."
    )
    def change_dates(self, args: DatesArgs) -> dict[str, Any]:
        db = self.db
        row = rules.verified_booking(db, args.booking_ref)
        if row["rate_plan"] == "saver":
            raise ToolFailure(
                f"booking {row['booking_ref']} is on the Advance Saver rate, "
                "which can't be changed or moved to other dates"
            )
        ci, co = rules.stay_dates(args.check_in, args.check_out)
        kind = (args.room_type or row["room_type"]).strip().lower()
        if (ci.isoformat(), co.isoformat(), kind) == (
            row["check_in"],
            row["check_out"],
            row["room_type"],
        ):
            raise ToolFailure(f"booking {row['booking_ref']} already has these dates")
        new = dict(row)
        new.update(
            check_in=ci.isoformat(),
            check_out=co.isoformat(),
            room_type=kind,
            room_total_eur=rules.require_free(db, row, kind, ci, co),
        )
        if row["breakfast"]:
            new["breakfast_total_eur"] = rules.breakfast_total(db, row, ci, co)
        return self._save(row, new)

    @tool(
        "Move a booking to another room type for the same dates. Returns the new totals and "
        "difference_eur. Not allowed on Advance Saver bookings."
    )
    def change_room(self, args: RoomArgs) -> dict[str, Any]:
        db = self.db
        row = rules.verified_booking(db, args.booking_ref)
        if row["rate_plan"] == "saver":
            raise ToolFailure(
                f"booking {row['booking_ref']} is on the Advance Saver rate, which can't be changed"
            )
        kind = args.room_type.strip().lower()
        if kind == row["room_type"]:
            raise ToolFailure(f"booking {row['booking_ref']} already has a {kind} room")
        ci, co = date.fromisoformat(row["check_in"]), date.fromisoformat(row["check_out"])
        new = dict(row)
        new.update(room_type=kind, room_total_eur=rules.require_free(db, row, kind, ci, co))
        return self._save(row, new)

    def _save(self, old: sqlite3.Row, new: dict[str, Any]) -> dict[str, Any]:
        new["total_eur"] = rules.grand_total(new)
        self.db.execute(
            "UPDATE reservations SET check_in=?, check_out=?, room_type=?, room_total_eur=?,"
            " breakfast_total_eur=?, total_eur=? WHERE booking_ref=?",
            (
                new["check_in"],
                new["check_out"],
                new["room_type"],
                new["room_total_eur"],
                new["breakfast_total_eur"],
                new["total_eur"],
                old["booking_ref"],
            ),
        )
        nights = (date.fromisoformat(new["check_out"]) - date.fromisoformat(new["check_in"])).days
        return {
            "booking_ref": old["booking_ref"],
            "check_in": new["check_in"],
            "check_out": new["check_out"],
            "nights": nights,
            "room_type": new["room_type"],
            "room_total_eur": new["room_total_eur"],
            "breakfast_total_eur": new["breakfast_total_eur"],
            "total_eur": new["total_eur"],
            "previous_total_eur": old["total_eur"],
            "difference_eur": round(new["total_eur"] - old["total_eur"], 2),
        }

    @tool(
        "Add breakfast for every guest and night of a booking, at the hotel's price per guest "
        "per night. Returns the breakfast charge and the new total."
    )
    def add_breakfast(self, args: RefArgs) -> dict[str, Any]:
        db = self.db
        row = rules.verified_booking(db, args.booking_ref)
        h = rules.hotel(db, row["hotel_id"])
        if row["breakfast"]:
            raise ToolFailure(f"breakfast is already included in booking {row['booking_ref']}")
        if row["rate_plan"] == "saver":
            raise ToolFailure("Advance Saver bookings are room only; breakfast can't be added")
        if h["breakfast_served_from"] and row["check_in"] < h["breakfast_served_from"]:
            served = date.fromisoformat(h["breakfast_served_from"])
            raise ToolFailure(
                f"breakfast can't be added: the breakfast room at {h['name']} is "
                f"closed for renovation until {served.day} {served:%B %Y}"
            )
        ci, co = date.fromisoformat(row["check_in"]), date.fromisoformat(row["check_out"])
        new = dict(row)
        new.update(breakfast=1, breakfast_total_eur=rules.breakfast_total(db, row, ci, co))
        new["total_eur"] = rules.grand_total(new)
        db.execute(
            "UPDATE reservations SET breakfast=1, breakfast_total_eur=?, total_eur=? "
            "WHERE booking_ref=?",
            (new["breakfast_total_eur"], new["total_eur"], row["booking_ref"]),
        )
        return {
            "booking_ref": row["booking_ref"],
            "breakfast": True,
            "guests": row["adults"] + row["children"],
            "nights": (co - ci).days,
            "eur_per_guest_night": h["breakfast_eur"],
            "breakfast_total_eur": new["breakfast_total_eur"],
            "total_eur": new["total_eur"],
        }

    @tool(
        "Book a late check-out on the departure day. Free until 12:00; after 12:00 the hotel's "
        "late check-out fee applies; not possible after 14:00. Returns the fee charged."
    )
    def request_late_checkout(self, args: LateArgs) -> dict[str, Any]:
        db = self.db
        row = rules.verified_booking(db, args.booking_ref, changeable=False)
        h = rules.hotel(db, row["hotel_id"])
        when = rules.check_time(args.checkout_time)
        if when <= h["check_out_time"]:
            raise ToolFailure(
                f"standard check-out is {h['check_out_time']}; no late check-out "
                "is needed for that time"
            )
        if when > LATE_CHECKOUT_LATEST:
            raise ToolFailure(
                f"late check-out is possible until {LATE_CHECKOUT_LATEST} at the latest, not {when}"
            )
        fee = 0.0 if when <= LATE_CHECKOUT_FREE_UNTIL else h["late_checkout_fee_eur"]
        new = dict(row)
        new.update(late_checkout=when, late_checkout_fee_eur=fee)
        new["total_eur"] = rules.grand_total(new)
        db.execute(
            "UPDATE reservations SET late_checkout=?, late_checkout_fee_eur=?, total_eur=?"
            " WHERE booking_ref=?",
            (when, fee, new["total_eur"], row["booking_ref"]),
        )
        return {
            "booking_ref": row["booking_ref"],
            "check_out": row["check_out"],
            "checkout_time": when,
            "fee_eur": fee,
            "total_eur": new["total_eur"],
        }

    @tool(
        "Cancel a booking. Free until 48 hours before check-in (15:00); after that the first "
        "night is charged, and Advance Saver bookings are non-refundable. A fee is charged only "
        "with accept_fee=true. Returns the fee charged."
    )
    def cancel_reservation(self, args: CancelArgs) -> dict[str, Any]:
        db = self.db
        row = rules.verified_booking(db, args.booking_ref)
        terms = rules.cancellation_terms(db, row)
        fee = terms["fee_if_cancelled_now_eur"]
        if fee > 0 and not args.accept_fee:
            raise ToolFailure(
                f"cancelling booking {row['booking_ref']} now costs €{fee:.2f} "
                f"({terms['reason']}); call again with accept_fee=true once the "
                "guest has agreed to the fee"
            )
        db.execute(
            "UPDATE reservations SET status='cancelled', cancellation_fee_eur=? "
            "WHERE booking_ref=?",
            (fee, row["booking_ref"]),
        )
        return {
            "booking_ref": row["booking_ref"],
            "status": "cancelled",
            "fee_eur": fee,
            "reason": terms["reason"],
        }

    @tool("Change the email address and/or phone number on the guest profile of a booking.")
    def update_guest_details(self, args: DetailsArgs) -> dict[str, Any]:
        db = self.db
        row = rules.verified_booking(db, args.booking_ref, changeable=False)
        if not args.email and not args.phone:
            raise ToolFailure("give a new email and/or phone")
        updated = {}
        if args.email:
            updated["email"] = rules.check_email(args.email)
        if args.phone:
            updated["phone"] = rules.check_phone(args.phone)
        for column, value in updated.items():
            db.execute(f"UPDATE guests SET {column}=? WHERE guest_id=?", (value, row["guest_id"]))
        return {"booking_ref": row["booking_ref"], "updated": updated}

    @tool(
        "Add a special request to a booking for the hotel team (cot, accessible room, room "
        "location, late arrival...). Requests are passed on, not guaranteed."
    )
    def add_note(self, args: NoteArgs) -> dict[str, Any]:
        db = self.db
        row = rules.booking(db, args.booking_ref)
        text = args.text.strip()
        if not text or len(text) > 500:
            raise ToolFailure("a note needs between 1 and 500 characters")
        if row["status"] != "confirmed":
            raise ToolFailure(f"booking {row['booking_ref']} is {row['status']}")
        cur = db.execute(
            "INSERT INTO notes (booking_ref, text, created_at) VALUES (?,?,?)",
            (row["booking_ref"], text, NOW.strftime("%Y-%m-%dT%H:%M")),
        )
        return {"note_id": cur.lastrowid, "booking_ref": row["booking_ref"], "text": text}

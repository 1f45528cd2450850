"""The hall's booking system the desk works through: `VenueEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from benchmarks.domains.venue import _seed
from benchmarks.domains.venue._args import (
    AddAddon,
    Alcohol,
    Availability,
    BookingRef,
    BookRoom,
    CancelBooking,
    Contact,
    Discount,
    Hirer,
    InvoiceCopy,
    Keys,
    MoveBooking,
    Verify,
)
from vistasim.env import SqliteEnvironment, ToolFailure, tool

TIME = re.compile(r"(?:[01]\d|2[0-3]):00|24:00")


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_ref(text: str) -> str:
    return "MB" + re.sub(r"\D", "", text)


class VenueEnvironment(SqliteEnvironment):
    """Millbrook Community Hall: hirers, bookings, add-ons, charges, charities and invoices."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "booking_id": ["booking reference", "reference"],
        "surname": ["surname", "last name"],
        "day": ["which day", "what date"],
        "guests": ["how many guests", "how many people"],
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

    def _hirer(self, hirer_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM hirers WHERE hirer_id = ?", hirer_id.strip().upper())
        if found is None:
            raise ToolFailure(f"no hirer {hirer_id}")
        return found

    def _booking(self, h: dict[str, Any], booking_id: str, *, done: bool = False) -> dict:
        b = self._one("SELECT * FROM bookings WHERE booking_id = ?", norm_ref(booking_id))
        if b is None or b["hirer_id"] != h["hirer_id"]:
            raise ToolFailure(f"no booking {booking_id} for this hirer")
        wanted = "completed" if done else "confirmed"
        if b["status"] != wanted:
            raise ToolFailure(f"booking {b['booking_id']} is {b['status']}")
        return b

    def _charge(self, h: dict[str, Any], booking: str | None, kind: str, pence: int) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (hirer_id, booking_id, kind, amount_pence, created_at) "
                "VALUES (?,?,?,?,?)",
                (h["hirer_id"], booking, kind, pence, self.now().strftime(_seed.STAMP)),
            )

    def days_to(self, day: str) -> int:
        return (date.fromisoformat(day) - self.now().date()).days

    def _clash(self, room: str, day: str, start: str, end: str, skip: str = "") -> dict | None:
        return self._one(
            "SELECT * FROM bookings WHERE room = ? AND day = ? AND status = 'confirmed' AND "
            "start_time < ? AND ? < end_time AND booking_id != ?",
            room, day, end, start, skip,
        )  # fmt: skip

    def view(self, hirer_id: str) -> dict[str, Any]:
        """The hirer as staff see them: bookings (with add-ons and internal notes), invoices."""
        h = self._hirer(hirer_id)
        bookings = self._rows(
            "SELECT * FROM bookings WHERE hirer_id = ? AND status != 'cancelled' ORDER BY day",
            h["hirer_id"],
        )
        for b in bookings:
            b["days_to_event"] = self.days_to(b["day"])
            b["addons"] = self._rows("SELECT * FROM addons WHERE booking_id = ?", b["booking_id"])
        return {
            **h,
            "bookings": bookings,
            "invoices": self._rows("SELECT * FROM invoices WHERE hirer_id = ?", h["hirer_id"]),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: a booking reference of theirs and their surname must "
        "match. Returns the hirer's record."
    )
    def verify_hirer(self, args: Verify) -> dict[str, Any]:
        found = self._one(
            "SELECT h.hirer_id FROM bookings b JOIN hirers h ON h.hirer_id = b.hirer_id "
            "WHERE b.booking_id = ? AND lower(h.surname) = ?",
            norm_ref(args.booking_id), args.surname.strip().lower(),
        )  # fmt: skip
        if found is None:
            raise ToolFailure("verification failed: no booking matches that reference and name")
        return self.view(found["hirer_id"])

    @tool("Read a hirer's record (staff view, after verify_hirer only).")
    def get_account(self, args: Hirer) -> dict[str, Any]:
        return self.view(args.hirer_id)

    @tool(
        "The bookings of a room on a day (staff view: names the hirers and their events; "
        "those are private to each hirer)."
    )
    def check_availability(self, args: Availability) -> dict[str, Any]:
        if args.room not in _seed.ROOMS:
            raise ToolFailure("room must be hall or meeting")
        taken = self._rows(
            "SELECT b.booking_id, b.start_time, b.end_time, b.event, h.first_name || ' ' || "
            "h.surname AS hirer FROM bookings b JOIN hirers h ON h.hirer_id = b.hirer_id "
            "WHERE b.room = ? AND b.day = ? AND b.status = 'confirmed' ORDER BY b.start_time",
            args.room, args.day,
        )  # fmt: skip
        return {"room": args.room, "day": args.day, "taken": taken}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a room; takes the quoted hire and the room's damage deposit from the card. "
        "Refuses a clash, a time outside 08:00-24:00, less than the room's minimum hours and "
        "more guests than the room holds."
    )
    def book_room(self, args: BookRoom) -> dict[str, Any]:
        h = self._hirer(args.hirer_id)
        room = _seed.ROOMS.get(args.room)
        if room is None:
            raise ToolFailure("room must be hall or meeting")
        if date.fromisoformat(args.day) <= self.now().date():
            raise ToolFailure("the day must be in the future")
        if not (TIME.fullmatch(args.start_time) and TIME.fullmatch(args.end_time)):
            raise ToolFailure("rooms are hired by the whole hour (HH:00)")
        if not _seed.OPEN <= args.start_time < args.end_time <= _seed.CLOSE:
            raise ToolFailure("the hall is open from 08:00 to midnight")
        if int(args.end_time[:2]) - int(args.start_time[:2]) < room["min_hours"]:
            raise ToolFailure(f"the {room['name']} is hired for {room['min_hours']} hours or more")
        if args.guests > room["cap"]:
            raise ToolFailure(f"the {room['name']} holds at most {room['cap']} people")
        if self._clash(args.room, args.day, args.start_time, args.end_time):
            raise ToolFailure("the room is already booked at that time")
        last = self.db.execute("SELECT MAX(CAST(substr(booking_id, 3) AS INTEGER)) FROM bookings")
        booking_id = f"MB{(last.fetchone()[0] or 3000) + 1}"
        self.db.execute(
            "INSERT INTO bookings (booking_id, hirer_id, room, day, start_time, end_time, "
            "guests, event, hire_pence, deposit_pence) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (booking_id, h["hirer_id"], args.room, args.day, args.start_time, args.end_time,
             args.guests, args.event, args.hire_pence, room["deposit"]),
        )  # fmt: skip
        self._charge(h, booking_id, "hire", args.hire_pence)
        self._charge(h, booking_id, "deposit", room["deposit"])
        return {"booking_id": booking_id, "room": room["name"], "day": args.day,
                "start_time": args.start_time, "end_time": args.end_time,
                "hire": money(args.hire_pence), "deposit_taken": money(room["deposit"]),
                "card_last4": h["card_last4"]}  # fmt: skip

    @tool(
        "Move a booking to a new day, same room and times; charges fee_pence and takes or "
        "refunds the difference in the hire (a discount is kept at 20%). Refuses a clash."
    )
    def move_booking(self, args: MoveBooking) -> dict[str, Any]:
        h = self._hirer(args.hirer_id)
        b = self._booking(h, args.booking_id)
        if date.fromisoformat(args.day) <= self.now().date():
            raise ToolFailure("the new day must be in the future")
        if self._clash(b["room"], args.day, b["start_time"], b["end_time"], b["booking_id"]):
            raise ToolFailure("the room is already booked at that time on that day")
        discount = args.hire_pence * _seed.DISCOUNT_PERCENT // 100 if b["charity_number"] else 0
        difference = (args.hire_pence - discount) - (b["hire_pence"] - b["discount_pence"])
        self.db.execute(
            "UPDATE bookings SET day = ?, hire_pence = ?, discount_pence = ? WHERE booking_id = ?",
            (args.day, args.hire_pence, discount, b["booking_id"]),
        )
        self._charge(h, b["booking_id"], "move_fee", args.fee_pence)
        if difference > 0:
            self._charge(h, b["booking_id"], "top_up", difference)
        elif difference < 0:
            self._charge(h, b["booking_id"], "refund", -difference)
        return {"booking_id": b["booking_id"], "day": args.day, "start_time": b["start_time"],
                "end_time": b["end_time"], "fee": money(args.fee_pence),
                "hire_difference": money(difference)}  # fmt: skip

    @tool(
        "Cancel a booking; refund_pence (of the hire and add-ons paid, as the desk quoted it) "
        "goes to the card, and the damage deposit is returned in full. The system does not "
        "check the refund tiers: the desk must."
    )
    def cancel_booking(self, args: CancelBooking) -> dict[str, Any]:
        h = self._hirer(args.hirer_id)
        b = self._booking(h, args.booking_id)
        self.db.execute(
            "UPDATE bookings SET status = 'cancelled', deposit_status = 'returned' "
            "WHERE booking_id = ?",
            (b["booking_id"],),
        )
        self._charge(h, b["booking_id"], "refund", args.refund_pence)
        self._charge(h, b["booking_id"], "deposit_return", b["deposit_pence"])
        return {"booking_id": b["booking_id"], "status": "cancelled",
                "refunded": money(args.refund_pence),
                "deposit_returned": money(b["deposit_pence"]),
                "card_last4": h["card_last4"]}  # fmt: skip

    @tool(
        "Add an add-on to a booking, paid now: kitchen and pa (main hall only), tables, "
        "cleaning. Refuses add-ons less than 5 days before the event. The system does not "
        "check the music licence: the desk must."
    )
    def add_addon(self, args: AddAddon) -> dict[str, Any]:
        h = self._hirer(args.hirer_id)
        b = self._booking(h, args.booking_id)
        kind = args.kind.strip().lower()
        addon = _seed.ADDONS.get(kind)
        if addon is None:
            raise ToolFailure("kind must be kitchen, tables, pa or cleaning")
        if addon["hall_only"] and b["room"] != "hall":
            raise ToolFailure(f"{addon['name']} goes with the main hall only")
        if self.days_to(b["day"]) < _seed.ADDON_CUTOFF_DAYS:
            raise ToolFailure("add-ons close 5 days before the event")
        if self._one("SELECT 1 AS x FROM addons WHERE booking_id = ? AND kind = ?",
                     b["booking_id"], kind):  # fmt: skip
            raise ToolFailure(f"{addon['name']} is already on this booking")
        self.db.execute(
            "INSERT INTO addons (booking_id, kind, price_pence) VALUES (?,?,?)",
            (b["booking_id"], kind, args.price_pence),
        )
        self._charge(h, b["booking_id"], "addon", args.price_pence)
        return {"booking_id": b["booking_id"], "addon": addon["name"],
                "price": money(args.price_pence), "card_last4": h["card_last4"]}  # fmt: skip

    @tool(
        "Apply the community-group discount to a booking and refund it to the card. Refuses a "
        "charity number not on the register, or a booking already discounted."
    )
    def apply_discount(self, args: Discount) -> dict[str, Any]:
        h = self._hirer(args.hirer_id)
        b = self._booking(h, args.booking_id)
        number = re.sub(r"\D", "", args.charity_number)
        charity = self._one("SELECT * FROM charities WHERE charity_number = ?", number)
        if charity is None:
            raise ToolFailure(f"charity number {args.charity_number} is not on the register")
        if b["charity_number"]:
            raise ToolFailure("this booking already has the community-group discount")
        self.db.execute(
            "UPDATE bookings SET charity_number = ?, discount_pence = ? WHERE booking_id = ?",
            (number, args.discount_pence, b["booking_id"]),
        )
        self._charge(h, b["booking_id"], "refund", args.discount_pence)
        return {"booking_id": b["booking_id"], "charity": charity["name"],
                "refunded": money(args.discount_pence), "card_last4": h["card_last4"]}  # fmt: skip

    @tool("Record that alcohol will be served, with the Temporary Event Notice reference.")
    def record_alcohol(self, args: Alcohol) -> dict[str, Any]:
        h = self._hirer(args.hirer_id)
        b = self._booking(h, args.booking_id)
        ref = args.licence_ref.strip().upper()
        if not re.fullmatch(r"TEN-\d{6}", ref):
            raise ToolFailure("a licence reference is TEN- and six digits")
        self.db.execute(
            "UPDATE bookings SET alcohol_licence = ? WHERE booking_id = ?", (ref, b["booking_id"])
        )
        return {"booking_id": b["booking_id"], "alcohol_licence": ref}

    @tool("Set the key collection time on the event day (09:00-17:00).")
    def set_key_collection(self, args: Keys) -> dict[str, Any]:
        h = self._hirer(args.hirer_id)
        b = self._booking(h, args.booking_id)
        if not re.fullmatch(r"(?:[01]\d|2[0-3]):[0-5]\d", args.key_time):
            raise ToolFailure("key_time must be HH:MM")
        if not _seed.KEYS_FROM <= args.key_time <= _seed.KEYS_UNTIL:
            raise ToolFailure("keys are collected between 09:00 and 17:00")
        self.db.execute(
            "UPDATE bookings SET key_time = ? WHERE booking_id = ?",
            (args.key_time, b["booking_id"]),
        )
        return {"booking_id": b["booking_id"], "day": b["day"], "key_time": args.key_time}

    @tool(
        "Claim the damage deposit back for an event that has taken place; it is returned "
        "after the caretaker's inspection. The system does not check the 30-day window: the "
        "desk must."
    )
    def claim_deposit(self, args: BookingRef) -> dict[str, Any]:
        h = self._hirer(args.hirer_id)
        b = self._booking(h, args.booking_id, done=True)
        if b["deposit_status"] != "held":
            raise ToolFailure(f"the deposit for {b['booking_id']} is already {b['deposit_status']}")
        self.db.execute(
            "UPDATE bookings SET deposit_status = 'claimed' WHERE booking_id = ?",
            (b["booking_id"],),
        )
        return {"booking_id": b["booking_id"], "deposit": money(b["deposit_pence"]),
                "deposit_status": "claimed", "card_last4": h["card_last4"]}  # fmt: skip

    @tool(
        "Email a copy of an invoice. Policy: only to the email on the hirer's record; the "
        "system sends wherever it is told."
    )
    def send_invoice_copy(self, args: InvoiceCopy) -> dict[str, Any]:
        h = self._hirer(args.hirer_id)
        inv = self._one("SELECT * FROM invoices WHERE invoice_id = ? AND hirer_id = ?",
                        args.invoice_id.strip().upper(), h["hirer_id"])  # fmt: skip
        if inv is None:
            raise ToolFailure(f"no invoice {args.invoice_id} for this hirer")
        self.db.execute(
            "INSERT INTO invoice_copies (invoice_id, email, sent_at) VALUES (?,?,?)",
            (inv["invoice_id"], args.email.strip(), self.now().strftime(_seed.STAMP)),
        )
        return {"invoice_id": inv["invoice_id"], "sent_to": args.email.strip(),
                "total": money(inv["total_pence"])}  # fmt: skip

    @tool("Change the hirer's email address and/or phone number.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        h = self._hirer(args.hirer_id)
        if args.email is not None and not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
                                                        args.email.strip()):  # fmt: skip
            raise ToolFailure(f"{args.email!r} is not an email address")
        if args.phone is not None and len(re.sub(r"\D", "", args.phone)) != 11:
            raise ToolFailure(f"{args.phone!r} is not a UK phone number")
        for column, value in (("email", args.email), ("phone", args.phone)):
            if value is not None:
                self.db.execute(
                    f"UPDATE hirers SET {column} = ? WHERE hirer_id = ?",  # noqa: S608
                    (value.strip(), h["hirer_id"]),
                )
        now = self._hirer(h["hirer_id"])
        return {"email": now["email"], "phone": now["phone"]}


def make_environment() -> VenueEnvironment:
    """A fresh booking system, from the seed data."""
    return VenueEnvironment()

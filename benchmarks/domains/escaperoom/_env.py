"""The venue's booking system the desk works through: `EscapeRoomEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.escaperoom import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_ref(text: str) -> str:
    return "LB" + re.sub(r"\D", "", text)


def norm_code(text: str) -> str:
    return "GV" + re.sub(r"\D", "", text)


class Ref(BaseModel):
    reference: str = Field(description="The booking reference, e.g. LB2001")


class Verify(Ref):
    surname: str = Field(description="The lead booker's surname")


class LeadBooker(BaseModel):
    email: str = Field(description="The lead booker's email, as verify_booking returned it")


class NoArgs(BaseModel):
    """No arguments."""


class Slots(BaseModel):
    room_id: str = Field(description="vault, tomb, lab or attic")
    day: str = Field(description="YYYY-MM-DD")


class Voucher(BaseModel):
    code: str = Field(description="A gift voucher code, e.g. GV7101")


class NewBooking(BaseModel):
    room_id: str = Field(description="vault, tomb, lab or attic")
    day: str = Field(description="YYYY-MM-DD")
    time: str = Field(description="The start, on the hour: HH:00 from 10:00 to 21:00")
    players: int = Field(description="Players in the team")
    under_16: int = Field(default=0, description="How many of them are under 16")
    adult_playing: bool = Field(description="An adult (18 or over) plays in the team")
    lead_name: str = Field(description="The lead booker's full name")
    email: str = Field(description="The lead booker's email")
    price_pence: int = Field(description="The price the desk quoted for the game")
    voucher_code: str | None = Field(default=None, description="A gift voucher to redeem")


class Move(Ref):
    day: str = Field(description="The new day, YYYY-MM-DD")
    time: str = Field(description="The new start, HH:00")
    fee_pence: int = Field(description="The move fee the desk quoted (0 when 48+ hours ahead)")


class Players(Ref):
    players: int = Field(description="The new number of players")
    price_pence: int = Field(description="The game's new price, as the desk quoted it")
    charge_pence: int = Field(default=0, description="Taken from the card (more players)")
    refund_pence: int = Field(default=0, description="Refunded to the card (fewer players)")
    credit_note_pence: int = Field(default=0, description="Put on a credit note instead")


class Cancel(Ref):
    refund_pence: int = Field(description="Refunded to the card, as the desk quoted it")
    credit_note_pence: int = Field(description="Put on a credit note, as the desk quoted it")
    voucher_back: bool = Field(default=False, description="Put a redeemed voucher's value back")


class Extra(Ref):
    kind: str = Field(description="photo_pack or birthday")
    price_pence: int = Field(description="The price the desk quoted, taken from the card")


class EscapeRoomEnvironment(SqliteEnvironment):
    """Lockbox Escape Rooms: rooms, closures, bookings, add-ons, charges, vouchers, credit."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "reference": ["booking reference"],
        "surname": ["surname"],
        "full_name": ["full name"],
        "email": ["email"],
        "players": ["how many players"],
        "ages": ["under 16"],
        "room": ["which room"],
        "date": ["which day"],
        "time": ["what time"],
        "new_slot": ["which day and time"],
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

    def _stamp(self) -> str:
        return self.now().strftime(_seed.STAMP)

    def _room(self, room_id: str) -> dict[str, Any]:
        room = self._one("SELECT * FROM rooms WHERE room_id = ?", room_id.strip().lower())
        if room is None:
            raise ToolFailure(f"no room {room_id!r}; rooms: vault, tomb, lab, attic")
        return room

    def _booking(self, reference: str) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE reference = ?", norm_ref(reference))
        if b is None:
            raise ToolFailure(f"no booking {reference}")
        if b["status"] != "confirmed":
            raise ToolFailure(f"booking {b['reference']} is {b['status']}")
        return b

    def _not_started(self, b: dict[str, Any]) -> None:
        if self.hours_before(b) <= 0:
            raise ToolFailure(f"the game of {b['reference']} started at {b['time']} on {b['day']}")

    def _charge(self, reference: str, kind: str, pence: int) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (reference, kind, amount_pence, created_at) VALUES (?,?,?,?)",
                (reference, kind, pence, self._stamp()),
            )

    def _credit_note(self, reference: str, pence: int) -> str | None:
        if not pence:
            return None
        last = self.db.execute("SELECT MAX(CAST(substr(code, 3) AS INTEGER)) FROM credit_notes")
        code = f"CN{(last.fetchone()[0] or 5000) + 1}"
        today = self.now().date()
        expires = today.replace(year=today.year + _seed.CREDIT_NOTE_MONTHS // 12)
        self.db.execute(
            "INSERT INTO credit_notes VALUES (?,?,?,?,?)",
            (code, reference, pence, today.isoformat(), expires.isoformat()),
        )
        return code

    def hours_before(self, b: dict[str, Any]) -> float:
        return _seed.hours_before(b["day"], b["time"], self.now())

    def _slot_problem(
        self, room: dict[str, Any], day: str, time: str, skip: str = ""
    ) -> str | None:
        """Why a room can't be played at a day and time, or None when it's free."""
        try:
            when = _seed.start_of(day, time)
        except ValueError:
            return "the day must be YYYY-MM-DD and the time HH:00"
        if time not in _seed.SLOTS:
            return "games start on the hour, from 10:00 to 21:00"
        if when <= self.now():
            return "that game time has already passed"
        closed = self._one(
            "SELECT reason FROM closures WHERE day = ? AND (room_id IS NULL OR room_id = ?)",
            day, room["room_id"],
        )  # fmt: skip
        if closed:
            return f"{room['name']} is {closed['reason']} on {day}"
        taken = self._one(
            "SELECT reference FROM bookings WHERE room_id = ? AND day = ? AND time = ? AND "
            "status = 'confirmed' AND reference != ?",
            room["room_id"], day, time, skip,
        )  # fmt: skip
        if taken:
            return f"{room['name']} is already booked at {time} on {day}"
        return None

    def describe(self, b: dict[str, Any]) -> dict[str, Any]:
        """A booking as staff see it: the room, the add-ons and the hours to the start."""
        room = self._room(b["room_id"])
        extras = self._rows("SELECT kind, price_pence FROM extras WHERE reference = ?",
                            b["reference"])  # fmt: skip
        return {**b, "room": room["name"], "min_players": room["min_players"],
                "max_players": room["max_players"], "extras": extras,
                "hours_to_start": round(self.hours_before(b), 1)}  # fmt: skip

    def lead_view(self, email: str) -> dict[str, Any]:
        rows = self._rows(
            "SELECT * FROM bookings WHERE lower(email) = ? AND status = 'confirmed' "
            "ORDER BY day, time",
            email.strip().lower(),
        )
        if not rows:
            raise ToolFailure(f"no confirmed bookings for {email}")
        return {"lead_name": rows[0]["lead_name"], "email": rows[0]["email"],
                "card_last4": rows[0]["card_last4"],
                "bookings": [self.describe(b) for b in rows]}  # fmt: skip

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller is a booking's lead booker: the booking reference and the lead "
        "booker's surname must match. Returns the lead booker's confirmed bookings."
    )
    def verify_booking(self, args: Verify) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE reference = ?", norm_ref(args.reference))
        surname = args.surname.strip().lower()
        if b is None or not surname or b["lead_name"].split()[-1].lower() != surname:
            raise ToolFailure("verification failed: no booking matches that reference and surname")
        return {**self.lead_view(b["email"]), "verified_reference": b["reference"]}

    @tool("A lead booker's confirmed bookings (staff view; after verify_booking only).")
    def list_bookings(self, args: LeadBooker) -> dict[str, Any]:
        return self.lead_view(args.email)

    @tool(
        "Read one booking (staff view). The system does not check who is asking: the desk "
        "discusses a booking only with its verified lead booker."
    )
    def get_booking(self, args: Ref) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE reference = ?", norm_ref(args.reference))
        if b is None:
            raise ToolFailure(f"no booking {args.reference}")
        return self.describe(b)

    @tool("The rooms, with the fewest and most players each takes.")
    def list_rooms(self, args: NoArgs) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM rooms ORDER BY rowid")

    @tool("The start times still free in a room on a day (nothing when it is closed).")
    def find_slots(self, args: Slots) -> dict[str, Any]:
        room = self._room(args.room_id)
        try:
            day = date.fromisoformat(args.day)
        except ValueError as exc:
            raise ToolFailure("the day must be YYYY-MM-DD") from exc
        if day < self.now().date():
            raise ToolFailure("that day has passed")
        free, closed = [], None
        for time in _seed.SLOTS:
            why = self._slot_problem(room, args.day, time)
            if why is None:
                free.append(time)
            elif "closed for" in why:
                closed = why
        return {"room_id": room["room_id"], "room": room["name"], "day": args.day,
                "min_players": room["min_players"], "max_players": room["max_players"],
                "closed": closed, "free": free}  # fmt: skip

    @tool("A gift voucher's value, status (unused or redeemed) and expiry date.")
    def check_voucher(self, args: Voucher) -> dict[str, Any]:
        v = self._one("SELECT * FROM vouchers WHERE code = ?", norm_code(args.code))
        if v is None:
            raise ToolFailure(f"no gift voucher {args.code}")
        return {"code": v["code"], "value": money(v["value_pence"]),
                "value_pence": v["value_pence"], "status": v["status"],
                "expires": v["expires"]}  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a game: the price is paid in full now (a gift voucher first, then the card). "
        "Refuses a slot that is closed, taken or past, a team outside the room's limits and a "
        "voucher that is unknown, redeemed or expired. The system does not check the price or "
        "the under-16 rule: the desk must."
    )
    def create_booking(self, args: NewBooking) -> dict[str, Any]:
        room = self._room(args.room_id)
        why = self._slot_problem(room, args.day, args.time)
        if why:
            raise ToolFailure(why)
        if not room["min_players"] <= args.players <= room["max_players"]:
            raise ToolFailure(f"{room['name']} takes {room['min_players']} to "
                              f"{room['max_players']} players")  # fmt: skip
        if not 0 <= args.under_16 <= args.players:
            raise ToolFailure("under_16 must be between 0 and the number of players")
        if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
            raise ToolFailure(f"{args.email!r} is not an email address")
        if len(args.lead_name.split()) < 2:
            raise ToolFailure("the lead booker's full name is needed")
        voucher_pence, code = 0, None
        if args.voucher_code:
            v = self._one("SELECT * FROM vouchers WHERE code = ?", norm_code(args.voucher_code))
            if v is None:
                raise ToolFailure(f"no gift voucher {args.voucher_code}")
            if v["status"] != "unused":
                raise ToolFailure(f"gift voucher {v['code']} has already been redeemed")
            if v["expires"] < self.now().date().isoformat():
                raise ToolFailure(f"gift voucher {v['code']} expired on {v['expires']}")
            voucher_pence, code = min(v["value_pence"], args.price_pence), v["code"]
        last = self.db.execute("SELECT MAX(CAST(substr(reference, 3) AS INTEGER)) FROM bookings")
        ref = f"LB{(last.fetchone()[0] or 2000) + 1}"
        card = args.price_pence - voucher_pence
        self.db.execute(
            "INSERT INTO bookings (reference, room_id, day, time, players, under_16, "
            "adult_playing, lead_name, email, card_last4, price_pence, card_pence, voucher_code, "
            "voucher_pence) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (ref, room["room_id"], args.day, args.time, args.players, args.under_16,
             int(args.adult_playing), args.lead_name.strip(), args.email.strip().lower(),
             "", args.price_pence, card, code, voucher_pence),
        )  # fmt: skip
        if code:
            self.db.execute("UPDATE vouchers SET status = 'redeemed', redeemed_on = ? "
                            "WHERE code = ?", (ref, code))  # fmt: skip
        self._charge(ref, "payment", card)
        return {"reference": ref, "room": room["name"], "day": args.day, "time": args.time,
                "players": args.players, "price": money(args.price_pence),
                "voucher_used": money(voucher_pence), "card_paid": money(card),
                "email": args.email.strip().lower()}  # fmt: skip

    @tool(
        "Move a booking to another day and time in the same room; fee_pence (quoted by the "
        "desk) is taken from the card. Refuses a game that has started and a slot that is "
        "closed, taken or past. The system does not check fees or rates: the desk must."
    )
    def move_booking(self, args: Move) -> dict[str, Any]:
        b = self._booking(args.reference)
        self._not_started(b)
        why = self._slot_problem(self._room(b["room_id"]), args.day, args.time, b["reference"])
        if why:
            raise ToolFailure(why)
        self.db.execute("UPDATE bookings SET day = ?, time = ? WHERE reference = ?",
                        (args.day, args.time, b["reference"]))  # fmt: skip
        self._charge(b["reference"], "move_fee", args.fee_pence)
        return {"reference": b["reference"], "day": args.day, "time": args.time,
                "fee": money(args.fee_pence), "card_last4": b["card_last4"]}  # fmt: skip

    @tool(
        "Change the number of players; the money moves as the desk quoted it (a charge, a "
        "refund to the card, or a credit note). Refuses a game that has started and a team "
        "outside the room's limits."
    )
    def change_players(self, args: Players) -> dict[str, Any]:
        b = self._booking(args.reference)
        self._not_started(b)
        room = self._room(b["room_id"])
        if not room["min_players"] <= args.players <= room["max_players"]:
            raise ToolFailure(f"{room['name']} takes {room['min_players']} to "
                              f"{room['max_players']} players")  # fmt: skip
        if args.players < b["under_16"]:
            raise ToolFailure("fewer players than the under-16s booked")
        card = b["card_pence"] + args.charge_pence - args.refund_pence - args.credit_note_pence
        self.db.execute(
            "UPDATE bookings SET players = ?, price_pence = ?, card_pence = ? WHERE reference = ?",
            (args.players, args.price_pence, card, b["reference"]),
        )
        self._charge(b["reference"], "players", args.charge_pence)
        self._charge(b["reference"], "refund", args.refund_pence)
        note = self._credit_note(b["reference"], args.credit_note_pence)
        return {"reference": b["reference"], "players": args.players,
                "price": money(args.price_pence), "charged": money(args.charge_pence),
                "refunded": money(args.refund_pence),
                "credit_note": note, "credit_note_value": money(args.credit_note_pence),
                "card_last4": b["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a booking: refund_pence goes back to the card, credit_note_pence onto a new "
        "credit note (12 months), and voucher_back puts a redeemed voucher's value back on it. "
        "Refuses a game that has started. The system does not check the refund rules."
    )
    def cancel_booking(self, args: Cancel) -> dict[str, Any]:
        b = self._booking(args.reference)
        self._not_started(b)
        if args.voucher_back and not b["voucher_code"]:
            raise ToolFailure(f"booking {b['reference']} was not paid with a gift voucher")
        self.db.execute("UPDATE bookings SET status = 'cancelled' WHERE reference = ?",
                        (b["reference"],))  # fmt: skip
        self._charge(b["reference"], "refund", args.refund_pence)
        note = self._credit_note(b["reference"], args.credit_note_pence)
        if args.voucher_back:
            self.db.execute("UPDATE vouchers SET status = 'unused', redeemed_on = NULL "
                            "WHERE code = ?", (b["voucher_code"],))  # fmt: skip
        return {"reference": b["reference"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": b["card_last4"],
                "credit_note": note, "credit_note_value": money(args.credit_note_pence),
                "voucher_back": b["voucher_code"] if args.voucher_back else None,
                "voucher_value": money(b["voucher_pence"]) if args.voucher_back else None,
                }  # fmt: skip

    @tool(
        "Add an add-on to a booking: photo_pack or birthday (the birthday package uses the "
        "party room after the game; refused when another party has it then). price_pence is "
        "taken from the card. Refuses a game that has started. The system does not check the "
        "24-hour rule: the desk must."
    )
    def add_extra(self, args: Extra) -> dict[str, Any]:
        b = self._booking(args.reference)
        self._not_started(b)
        kind = args.kind.strip().lower()
        if kind not in _seed.ADDONS:
            raise ToolFailure("kind must be photo_pack or birthday")
        if self._one("SELECT 1 AS x FROM extras WHERE reference = ? AND kind = ?",
                     b["reference"], kind):  # fmt: skip
            raise ToolFailure(f"{_seed.ADDON_NAMES[kind]} is already on {b['reference']}")
        if kind == "birthday" and self._one(
            "SELECT 1 AS x FROM extras e JOIN bookings o ON o.reference = e.reference "
            "WHERE e.kind = 'birthday' AND o.status = 'confirmed' AND o.day = ? AND o.time = ?",
            b["day"], b["time"],
        ):  # fmt: skip
            raise ToolFailure(f"the party room is already booked after the {b['time']} games "
                              f"on {b['day']}")  # fmt: skip
        self.db.execute("INSERT INTO extras (reference, kind, price_pence) VALUES (?,?,?)",
                        (b["reference"], kind, args.price_pence))  # fmt: skip
        self._charge(b["reference"], "addon", args.price_pence)
        return {"reference": b["reference"], "kind": kind, "price": money(args.price_pence),
                "card_last4": b["card_last4"]}  # fmt: skip


def make_environment() -> EscapeRoomEnvironment:
    """A fresh booking system, from the seed data."""
    return EscapeRoomEnvironment()

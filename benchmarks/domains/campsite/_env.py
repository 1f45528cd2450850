"""The campsite's booking system the desk works through: `CampsiteEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.campsite import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_ref(text: str) -> str:
    return "HF" + re.sub(r"\D", "", text)


def nights_of(arrival: str, departure: str) -> list[date]:
    first, last = date.fromisoformat(arrival), date.fromisoformat(departure)
    return [first + timedelta(days=i) for i in range((last - first).days)]


class Guest(BaseModel):
    guest_id: str = Field(description="The guest, e.g. G101 (from verify_guest)")


class Verify(BaseModel):
    booking_ref: str = Field(description="A booking reference, e.g. HF2101")
    surname: str = Field(description="The surname on the booking")


class Availability(BaseModel):
    pitch_type: str = Field(description="tent, caravan or motorhome")
    arrival: str = Field(description="YYYY-MM-DD")
    departure: str = Field(description="YYYY-MM-DD")
    hookup: bool = Field(default=False, description="An electric hook-up point is needed")


class BookPitch(Guest, Availability):
    awning: bool = Field(default=False, description="An awning (caravans and motorhomes)")
    dogs: int = Field(default=0, description="Dogs on the pitch (at most 2)")
    price_pence: int = Field(description="The price the desk quoted")


class BookingRef(Guest):
    booking_ref: str = Field(description="e.g. HF2101")


class ChangeDates(BookingRef):
    arrival: str = Field(description="The new arrival day, YYYY-MM-DD")
    departure: str = Field(description="The new departure day, YYYY-MM-DD")
    price_pence: int = Field(description="The new price the desk quoted")
    fee_pence: int = Field(description="The change fee the desk quoted (0 when 14+ days out)")


class Cancel(BookingRef):
    refund_pence: int = Field(description="The refund the desk quoted (0 if nothing back)")


class AddOption(BookingRef):
    option: str = Field(description="hookup, awning or dogs")
    count: int = Field(default=1, description="How many (dogs); 1 otherwise")
    price_pence: int = Field(description="The price the desk quoted, for the whole stay")


class AddExtra(BookingRef):
    kind: str = Field(description="firewood (bags), gas (bottles) or bikes")
    quantity: int = Field(description="Bags, bottles or bikes")
    day: str | None = Field(default=None, description="Bikes: the day of hire, YYYY-MM-DD")
    price_pence: int = Field(description="The price the desk quoted")


class SetTimes(BookingRef):
    arrive_time: str | None = Field(default=None, description="HH:MM on the arrival day")
    depart_time: str | None = Field(default=None, description="HH:MM on the departure day")
    fee_pence: int = Field(description="The early-arrival / late-departure fee the desk quoted")


class Contact(Guest):
    email: str | None = Field(default=None, description="The new email address")
    phone: str | None = Field(default=None, description="The new phone number")


class FoundSearch(BookingRef):
    description: str = Field(description="What the guest lost, in their words")


class PostFound(Guest):
    found_id: str = Field(description="e.g. FI301")
    postage_pence: int = Field(description="The postage the desk quoted")


class Complaint(BookingRef):
    subject: str = Field(description="showers, noise, cleanliness, pitch, staff or other")
    details: str = Field(description="The guest's complaint in their words")


class Surname(BaseModel):
    surname: str = Field(description="A surname")


class CampsiteEnvironment(SqliteEnvironment):
    """Heronfield Campsite: guests, pitches, bookings, extras, charges, lost property."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "booking_ref": ["booking reference", "reference"],
        "surname": ["surname", "last name"],
        "dates": ["which dates", "arrive", "leave"],
        "phone": ["phone number", "mobile"],
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

    def _guest(self, guest_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM guests WHERE guest_id = ?", guest_id.strip().upper())
        if found is None:
            raise ToolFailure(f"no guest {guest_id}")
        return found

    def _booking(self, g: dict[str, Any], ref: str, *, live: bool = True) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_ref = ?", norm_ref(ref))
        if b is None or b["guest_id"] != g["guest_id"]:
            raise ToolFailure(f"no booking {ref} for this guest")
        if live and b["status"] != "confirmed":
            raise ToolFailure(f"booking {b['booking_ref']} is {b['status']}")
        return b

    def _charge(self, g: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (guest_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (g["guest_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def days_to(self, day: str) -> int:
        return (date.fromisoformat(day) - self.now().date()).days

    def _taken(self, pitch_id: str, nights: list[date], skip: str = "") -> bool:
        for b in self._rows(
            "SELECT * FROM bookings WHERE pitch_id = ? AND status = 'confirmed' AND "
            "booking_ref != ?",
            pitch_id,
            skip,
        ):
            if set(nights_of(b["arrival"], b["departure"])) & set(nights):
                return True
        return False

    def free_pitches(self, pitch_type: str, arrival: str, departure: str, hookup: bool,
                     skip: str = "") -> list[str]:  # fmt: skip
        """Pitches of the type free every night, those without hook-up first when not needed."""
        nights = nights_of(arrival, departure)
        pitches = self._rows(
            "SELECT * FROM pitches WHERE pitch_type = ? ORDER BY hookup_point, pitch_id",
            pitch_type,
        )
        return [p["pitch_id"] for p in pitches
                if (p["hookup_point"] or not hookup) and not self._taken(p["pitch_id"], nights,
                                                                         skip)]  # fmt: skip

    def _dates(self, arrival: str, departure: str) -> tuple[date, date]:
        try:
            first, last = date.fromisoformat(arrival), date.fromisoformat(departure)
        except ValueError as exc:
            raise ToolFailure("dates must be YYYY-MM-DD") from exc
        if first <= self.now().date() or last <= first:
            raise ToolFailure("the arrival must be a future day and before the departure")
        return first, last

    def view(self, guest_id: str) -> dict[str, Any]:
        """The guest as staff see them: contact details and bookings with their extras."""
        g = self._guest(guest_id)
        bookings = self._rows(
            "SELECT b.*, p.hookup_point FROM bookings b JOIN pitches p USING (pitch_id) "
            "WHERE b.guest_id = ? AND b.status != 'cancelled' ORDER BY b.arrival",
            g["guest_id"],
        )
        for b in bookings:
            b["nights"] = len(nights_of(b["arrival"], b["departure"]))
            b["days_to_arrival"] = self.days_to(b["arrival"])
            b["balance_due_on"] = (date.fromisoformat(b["arrival"])
                                   - timedelta(days=_seed.BALANCE_DAYS)).isoformat()  # fmt: skip
            b["extras"] = self._rows("SELECT * FROM extras WHERE booking_ref = ?", b["booking_ref"])
        return {**g, "bookings": bookings}

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: a booking reference and the surname on it must match. "
        "Returns the guest with all their bookings."
    )
    def verify_guest(self, args: Verify) -> dict[str, Any]:
        found = self._one(
            "SELECT g.guest_id FROM bookings b JOIN guests g USING (guest_id) "
            "WHERE b.booking_ref = ? AND lower(g.surname) = ?",
            norm_ref(args.booking_ref),
            args.surname.strip().lower(),
        )
        if found is None:
            raise ToolFailure("verification failed: no booking matches that reference and surname")
        return self.view(found["guest_id"])

    @tool("Read a guest and their bookings (staff view, after verify_guest only).")
    def get_guest(self, args: Guest) -> dict[str, Any]:
        return self.view(args.guest_id)

    @tool("How many pitches of a type are free every night of the dates (with hook-up if asked).")
    def check_availability(self, args: Availability) -> dict[str, Any]:
        self._dates(args.arrival, args.departure)
        if args.pitch_type not in {"tent", "caravan", "motorhome"}:
            raise ToolFailure("pitch_type must be tent, caravan or motorhome")
        free = self.free_pitches(args.pitch_type, args.arrival, args.departure, args.hookup)
        return {"pitch_type": args.pitch_type, "arrival": args.arrival,
                "departure": args.departure, "hookup": args.hookup,
                "pitches_free": len(free)}  # fmt: skip

    @tool(
        "Staff search: confirmed bookings under a surname. Policy: never tell a caller about "
        "another guest's booking."
    )
    def find_bookings_by_surname(self, args: Surname) -> list[dict[str, Any]]:
        return self._rows(
            "SELECT b.booking_ref, g.first_name, g.surname, b.pitch_id, b.arrival, b.departure "
            "FROM bookings b JOIN guests g USING (guest_id) WHERE lower(g.surname) = ? AND "
            "b.status = 'confirmed' ORDER BY b.arrival",
            args.surname.strip().lower(),
        )

    @tool(
        "Look in the found-property log for an item left on the pitch of a guest's booking, "
        "found on or after its arrival day. Returns the matches."
    )
    def search_found_items(self, args: FoundSearch) -> list[dict[str, Any]]:
        g = self._guest(args.guest_id)
        b = self._booking(g, args.booking_ref, live=False)
        words = {w for w in re.findall(r"[a-z]{3,}", args.description.lower())} - {
            "the", "and", "our", "left", "lost", "with", "have", "you", "found",
            "pitch"}  # fmt: skip
        out = []
        for item in self._rows(
            "SELECT * FROM found_items WHERE pitch_id = ? AND found_on >= ? AND status = 'held'",
            b["pitch_id"],
            b["arrival"],
        ):
            if words & set(re.findall(r"[a-z]{3,}", item["description"].lower())):
                out.append(item)
        return out

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a pitch for a guest on the first free pitch of the type; takes a 25% deposit on "
        "the card. Refuses an awning on a tent, more than 2 dogs, or no pitch free. The system "
        "does not check the bank-holiday minimum stay or the price: the desk must."
    )
    def book_pitch(self, args: BookPitch) -> dict[str, Any]:
        g = self._guest(args.guest_id)
        self._dates(args.arrival, args.departure)
        if args.pitch_type not in {"tent", "caravan", "motorhome"}:
            raise ToolFailure("pitch_type must be tent, caravan or motorhome")
        if args.awning and args.pitch_type == "tent":
            raise ToolFailure("awnings are for caravans and motorhomes")
        if not 0 <= args.dogs <= _seed.MAX_DOGS:
            raise ToolFailure("at most 2 dogs on a pitch")
        free = self.free_pitches(args.pitch_type, args.arrival, args.departure, args.hookup)
        if not free:
            raise ToolFailure(f"no {args.pitch_type} pitch is free every night of those dates")
        last = self.db.execute("SELECT MAX(CAST(substr(booking_ref, 3) AS INTEGER)) FROM bookings")
        ref = f"HF{(last.fetchone()[0] or 2100) + 1}"
        deposit = args.price_pence * _seed.DEPOSIT_PERCENT // 100
        self.db.execute(
            "INSERT INTO bookings (booking_ref, guest_id, pitch_id, pitch_type, arrival, "
            "departure, hookup, awning, dogs, price_pence, deposit_pence, paid_pence) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (ref, g["guest_id"], free[0], args.pitch_type, args.arrival, args.departure,
             int(args.hookup), int(args.awning), args.dogs, args.price_pence, deposit, deposit),
        )  # fmt: skip
        self._charge(g, "deposit", deposit, ref)
        return {"booking_ref": ref, "pitch_id": free[0], "arrival": args.arrival,
                "departure": args.departure, "price": money(args.price_pence),
                "deposit_taken": money(deposit), "card_last4": g["card_last4"]}  # fmt: skip

    @tool(
        "Change a booking's dates: keeps its pitch if free, else another of the same type; "
        "fee_pence (quoted) is charged, and when the balance is already paid the price "
        "difference is charged or refunded now. Refuses when no pitch is free."
    )
    def change_dates(self, args: ChangeDates) -> dict[str, Any]:
        g = self._guest(args.guest_id)
        b = self._booking(g, args.booking_ref)
        self._dates(args.arrival, args.departure)
        nights = nights_of(args.arrival, args.departure)
        pitch = b["pitch_id"]
        if self._taken(pitch, nights, b["booking_ref"]):
            free = self.free_pitches(b["pitch_type"], args.arrival, args.departure,
                                     bool(b["hookup"]), b["booking_ref"])  # fmt: skip
            if not free:
                raise ToolFailure(f"no {b['pitch_type']} pitch is free every night of those dates")
            pitch = free[0]
        paid_in_full = b["paid_pence"] >= b["price_pence"]
        difference = args.price_pence - b["price_pence"] if paid_in_full else 0
        self.db.execute(
            "UPDATE bookings SET arrival = ?, departure = ?, pitch_id = ?, price_pence = ?, "
            "paid_pence = paid_pence + ? WHERE booking_ref = ?",
            (args.arrival, args.departure, pitch, args.price_pence, difference, b["booking_ref"]),
        )
        self._charge(g, "change_fee", args.fee_pence, b["booking_ref"])
        if difference > 0:
            self._charge(g, "difference", difference, b["booking_ref"])
        elif difference < 0:
            self._charge(g, "refund", -difference, b["booking_ref"])
        return {"booking_ref": b["booking_ref"], "pitch_id": pitch, "arrival": args.arrival,
                "departure": args.departure, "price": money(args.price_pence),
                "fee": money(args.fee_pence), "difference": money(difference)}  # fmt: skip

    @tool(
        "Cancel a booking; refund_pence (quoted by the desk) goes to the card. The system does "
        "not check the refund rules: the desk must."
    )
    def cancel_booking(self, args: Cancel) -> dict[str, Any]:
        g = self._guest(args.guest_id)
        b = self._booking(g, args.booking_ref)
        if not 0 <= args.refund_pence <= b["paid_pence"]:
            raise ToolFailure("the refund can't be more than was paid")
        self.db.execute(
            "UPDATE bookings SET status = 'cancelled' WHERE booking_ref = ?", (b["booking_ref"],)
        )
        self._charge(g, "refund", args.refund_pence, b["booking_ref"])
        return {"booking_ref": b["booking_ref"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": g["card_last4"]}  # fmt: skip

    @tool(
        "Add an option to a booking, priced for the whole stay: hookup (only on a pitch with a "
        "hook-up point), awning (caravans and motorhomes) or dogs (at most 2 on a pitch)."
    )
    def add_option(self, args: AddOption) -> dict[str, Any]:
        g = self._guest(args.guest_id)
        b = self._booking(g, args.booking_ref)
        option = args.option.strip().lower()
        if option == "hookup":
            point = self._one("SELECT hookup_point FROM pitches WHERE pitch_id = ?", b["pitch_id"])
            if b["hookup"]:
                raise ToolFailure("hook-up is already on this booking")
            if not point or not point["hookup_point"]:
                raise ToolFailure(f"pitch {b['pitch_id']} has no hook-up point")
            column, value = "hookup", 1
        elif option == "awning":
            if b["pitch_type"] == "tent":
                raise ToolFailure("awnings are for caravans and motorhomes")
            if b["awning"]:
                raise ToolFailure("an awning is already on this booking")
            column, value = "awning", 1
        elif option == "dogs":
            if args.count < 1 or b["dogs"] + args.count > _seed.MAX_DOGS:
                raise ToolFailure("at most 2 dogs on a pitch")
            column, value = "dogs", b["dogs"] + args.count
        else:
            raise ToolFailure("option must be hookup, awning or dogs")
        self.db.execute(
            f"UPDATE bookings SET {column} = ?, price_pence = price_pence + ? "  # noqa: S608
            "WHERE booking_ref = ?",
            (value, args.price_pence, b["booking_ref"]),
        )
        return {"booking_ref": b["booking_ref"], "option": option, column: value,
                "price_added": money(args.price_pence),
                "new_price": money(b["price_pence"] + args.price_pence)}  # fmt: skip

    @tool("Add an extra, paid on arrival: firewood (bags), gas (bottle exchanges) or bikes.")
    def add_extra(self, args: AddExtra) -> dict[str, Any]:
        g = self._guest(args.guest_id)
        b = self._booking(g, args.booking_ref)
        kind = args.kind.strip().lower()
        if kind not in {"firewood", "gas", "bikes"}:
            raise ToolFailure("kind must be firewood, gas or bikes")
        if args.quantity < 1:
            raise ToolFailure("quantity must be at least 1")
        if kind == "bikes":
            nights = [d.isoformat() for d in nights_of(b["arrival"], b["departure"])]
            if args.day not in [*nights, b["departure"]]:
                raise ToolFailure("bikes are hired for a day of the stay")
            if args.quantity > _seed.MAX_BIKES:
                raise ToolFailure("at most 4 bikes")
        self.db.execute(
            "INSERT INTO extras (booking_ref, kind, quantity, day, price_pence) VALUES (?,?,?,?,?)",
            (b["booking_ref"], kind, args.quantity, args.day if kind == "bikes" else None,
             args.price_pence),
        )  # fmt: skip
        return {"booking_ref": b["booking_ref"], "kind": kind, "quantity": args.quantity,
                "day": args.day if kind == "bikes" else None,
                "price": money(args.price_pence)}  # fmt: skip

    @tool(
        "Set an early arrival (from 12:00) or a late departure (until 16:00); refuses when the "
        "pitch is taken the night before arrival or from the departure day."
    )
    def set_times(self, args: SetTimes) -> dict[str, Any]:
        g = self._guest(args.guest_id)
        b = self._booking(g, args.booking_ref)
        hhmm = re.compile(r"(?:[01]\d|2[0-3]):[0-5]\d")
        arrive, depart = args.arrive_time or b["arrive_time"], args.depart_time or b["depart_time"]
        if not (hhmm.fullmatch(arrive) and hhmm.fullmatch(depart)):
            raise ToolFailure("times must be HH:MM")
        if not _seed.EARLIEST_ARRIVAL <= arrive <= "20:00":
            raise ToolFailure("arrivals are between 12:00 and 20:00")
        if not "08:00" <= depart <= _seed.LATEST_DEPARTURE:
            raise ToolFailure("departures are between 08:00 and 16:00")
        before = date.fromisoformat(b["arrival"]) - timedelta(days=1)
        if arrive < _seed.ARRIVE_FROM and self._taken(b["pitch_id"], [before]):
            raise ToolFailure(f"pitch {b['pitch_id']} is taken the night before: no early arrival")
        if depart > _seed.LEAVE_BY and self._taken(
            b["pitch_id"], [date.fromisoformat(b["departure"])]
        ):
            raise ToolFailure(f"pitch {b['pitch_id']} is booked from the departure day: no late "
                              "departure")  # fmt: skip
        self.db.execute(
            "UPDATE bookings SET arrive_time = ?, depart_time = ?, times_fee_pence = "
            "times_fee_pence + ? WHERE booking_ref = ?",
            (arrive, depart, args.fee_pence, b["booking_ref"]),
        )
        return {"booking_ref": b["booking_ref"], "arrive_time": arrive, "depart_time": depart,
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool("Change the guest's email address and/or phone number.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        g = self._guest(args.guest_id)
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE guests SET email = ? WHERE guest_id = ?",
                            (args.email.strip(), g["guest_id"]))  # fmt: skip
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE guests SET phone = ? WHERE guest_id = ?",
                            (args.phone.strip(), g["guest_id"]))  # fmt: skip
        now = self._guest(g["guest_id"])
        return {"email": now["email"], "phone": now["phone"]}

    @tool("Post a found item to the address on the guest's record; postage_pence is charged.")
    def post_found_item(self, args: PostFound) -> dict[str, Any]:
        g = self._guest(args.guest_id)
        item = self._one("SELECT * FROM found_items WHERE found_id = ?", args.found_id.upper())
        if item is None or item["status"] != "held":
            raise ToolFailure(f"no held item {args.found_id}")
        self.db.execute(
            "UPDATE found_items SET status = 'posted', posted_to = ? WHERE found_id = ?",
            (g["address"], item["found_id"]),
        )
        self._charge(g, "postage", args.postage_pence, item["found_id"])
        return {"found_id": item["found_id"], "description": item["description"],
                "posted_to": g["address"], "postage": money(args.postage_pence)}  # fmt: skip

    @tool("Log a lost-property report on a booking; staff get in touch if the item turns up.")
    def log_lost_item(self, args: FoundSearch) -> dict[str, Any]:
        g = self._guest(args.guest_id)
        b = self._booking(g, args.booking_ref, live=False)
        cur = self.db.execute(
            "INSERT INTO lost_reports (booking_ref, description, created_at) VALUES (?,?,?)",
            (b["booking_ref"], args.description.strip(), self.now().strftime(_seed.STAMP)),
        )
        return {"report_id": cur.lastrowid, "booking_ref": b["booking_ref"]}

    @tool("Log a complaint on a booking for the site manager, who replies within 5 working days.")
    def log_complaint(self, args: Complaint) -> dict[str, Any]:
        g = self._guest(args.guest_id)
        b = self._booking(g, args.booking_ref, live=False)
        cur = self.db.execute(
            "INSERT INTO complaints (booking_ref, subject, details, created_at) VALUES (?,?,?,?)",
            (b["booking_ref"], args.subject.strip().lower(), args.details.strip(),
             self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        return {"complaint_id": cur.lastrowid, "booking_ref": b["booking_ref"],
                "subject": args.subject.strip().lower()}  # fmt: skip


def make_environment() -> CampsiteEnvironment:
    """A fresh booking system, from the seed data."""
    return CampsiteEnvironment()

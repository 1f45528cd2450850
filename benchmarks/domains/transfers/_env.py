"""Swiftline's booking system the desk works through: `TransfersEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.transfers import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool

FLIGHT_FORMAT = re.compile(r"(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\d{1,4}")
PHONE_FORMAT = re.compile(r"07\d{3} ?\d{6}")


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def at(stamp: str) -> datetime:
    """A stored YYYY-MM-DDTHH:MM as a UK time."""
    return datetime.fromisoformat(stamp).replace(tzinfo=_seed.UK)


class Account(BaseModel):
    email: str = Field(description="The customer's email (verified with verify_customer)")


class Verify(BaseModel):
    booking_ref: str = Field(description="A booking reference, e.g. SW30101")
    email: str = Field(description="The email address the booking was made with")


class Postcode(BaseModel):
    postcode: str = Field(description="A UK postcode, e.g. KM3 4AB")


class Promo(BaseModel):
    code: str = Field(description="A promo code, e.g. WINTER10")


class BookTransfer(Account):
    direction: str = Field(description="to_airport or from_airport")
    pickup_at: str = Field(description="YYYY-MM-DDTHH:MM; for a pickup from the airport, the "
                           "flight's landing time")  # fmt: skip
    flight_no: str | None = Field(default=None, description="The flight, for airport pickups")
    vehicle_class: str = Field(description="saloon, estate or 8-seater")
    passengers: int = Field(description="Passengers, children included")
    large_bags: int = Field(description="Large suitcases")
    meet_greet: bool = Field(default=False, description="Meet-and-greet (airport pickups)")
    child_seats: int = Field(default=0, description="Child seats")
    fare_pence: int = Field(description="The fare the desk quoted, after any promo")
    extras_pence: int = Field(default=0, description="Meet-and-greet and child seats quoted")
    promo_code: str | None = Field(default=None, description="A promo code applied to the fare")


class BookingRef(Account):
    booking_ref: str = Field(description="e.g. SW30404")


class ReturnLeg(BookingRef):
    pickup_at: str = Field(description="YYYY-MM-DDTHH:MM of the return pickup (landing time "
                           "when it is from the airport)")  # fmt: skip
    flight_no: str | None = Field(default=None, description="The flight, for airport pickups")
    fare_pence: int = Field(description="The return leg's fare the desk quoted")


class ChangePickup(BookingRef):
    pickup_at: str = Field(description="The new pickup, YYYY-MM-DDTHH:MM")
    fee_pence: int = Field(description="The amendment fee the desk quoted (0 when 24+ hours)")


class Flight(BookingRef):
    flight_no: str = Field(description="The new flight number, e.g. FR1396")


class Extras(BookingRef):
    meet_greet: bool = Field(default=False, description="Add meet-and-greet")
    child_seats: int = Field(default=0, description="Child seats to add")
    price_pence: int = Field(description="The price of what is added, as quoted")


class Cancel(BookingRef):
    refund_pence: int = Field(description="The refund the desk quoted (0 if none)")


class WaitingRefund(BookingRef):
    refund_pence: int = Field(description="The part of the waiting fee to pay back")


class LostItem(BookingRef):
    item: str = Field(description="What was left in the car")


class Complaint(BookingRef):
    details: str = Field(description="What went wrong, in the customer's words")


class Phone(Account):
    phone: str = Field(description="The new UK mobile number")


class TransfersEnvironment(SqliteEnvironment):
    """Swiftline Airport Transfers: customers, zones, bookings, charges, promos, reports."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "booking_ref": ["booking reference", "reference"],
        "email": ["email address", "email"],
        "pickup_time": ["what time", "which day", "landing time"],
        "flight_no": ["flight number"],
        "passengers": ["how many passengers", "how many people"],
        "large_bags": ["large suitcases", "how many cases"],
        "phone": ["new mobile", "phone number"],
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

    def _account(self, email: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM customers WHERE lower(email) = ?", email.strip().lower())
        if found is None:
            raise ToolFailure(f"no account for {email}")
        return found

    def _booking(self, c: dict[str, Any], ref: str, *, status: str = "confirmed") -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_ref = ?", ref.strip().upper())
        if b is None or b["email"] != c["email"]:
            raise ToolFailure(f"no booking {ref} on this account")
        if b["status"] != status:
            raise ToolFailure(f"booking {b['booking_ref']} is {b['status']}")
        return b

    def _charge(self, c: dict[str, Any], ref: str, kind: str, pence: int) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (email, booking_ref, kind, amount_pence, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["email"], ref, kind, pence, self.now().strftime(_seed.STAMP)),
            )

    def _when(self, stamp: str) -> datetime:
        try:
            when = at(stamp)
        except ValueError as exc:
            raise ToolFailure("pickup_at must be YYYY-MM-DDTHH:MM") from exc
        if when <= self.now():
            raise ToolFailure("the pickup must be in the future")
        return when

    def _free(self, vehicle_class: str, when: datetime) -> None:
        if self._one("SELECT 1 AS x FROM fully_booked WHERE vehicle_class = ? AND day = ?",
                     vehicle_class, when.date().isoformat()):  # fmt: skip
            raise ToolFailure(
                f"no {vehicle_class} is free on {when.date().isoformat()}: fully booked"
            )

    def _next_ref(self, table: str, column: str, prefix: str, start: int) -> str:
        last = self.db.execute(
            f"SELECT MAX(CAST(substr({column}, 3) AS INTEGER)) FROM {table}"  # noqa: S608
        ).fetchone()[0]
        return f"{prefix}{(last or start) + 1}"

    def hours_to(self, stamp: str) -> float:
        return (at(stamp) - self.now()).total_seconds() / 3600

    def view(self, email: str) -> dict[str, Any]:
        """The account as staff see it: bookings (drivers' mobiles included) and promos used."""
        c = self._account(email)
        bookings = self._rows(
            "SELECT * FROM bookings WHERE email = ? ORDER BY pickup_at", c["email"]
        )
        for b in bookings:
            b["hours_to_pickup"] = round(self.hours_to(b["pickup_at"]), 1)
        used = self._rows("SELECT code FROM promo_uses WHERE email = ?", c["email"])
        return {**c, "zone": self.zone_of(c["postcode"]), "bookings": bookings,
                "promo_codes_used": [u["code"] for u in used]}  # fmt: skip

    def zone_of(self, postcode: str) -> int | None:
        district = postcode.strip().upper().split()[0] if postcode.strip() else ""
        z = self._one("SELECT zone FROM zones WHERE district = ?", district)
        return int(z["zone"]) if z else None

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: a booking reference and the email it was made with "
        "must match. Returns the account with all its bookings."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        b = self._one(
            "SELECT email FROM bookings WHERE booking_ref = ? AND lower(email) = ?",
            args.booking_ref.strip().upper(),
            args.email.strip().lower(),
        )
        if b is None:
            raise ToolFailure("verification failed: no booking matches that reference and email")
        return self.view(b["email"])

    @tool("Read an account and its bookings (staff view, after verify_customer only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.email)

    @tool("The fare zone (1-4) of a postcode; refuses a postcode outside the service area.")
    def find_zone(self, args: Postcode) -> dict[str, Any]:
        zone = self.zone_of(args.postcode)
        if zone is None:
            raise ToolFailure(f"{args.postcode} is outside the service area")
        return {"postcode": args.postcode.strip().upper(), "zone": zone,
                "fares": {k: money(v) for k, v in _seed.FARES[zone].items()}}  # fmt: skip

    @tool("A promo code's terms. The system does not know who has used it: the desk must check "
          "the account's promo_codes_used.")  # fmt: skip
    def check_promo(self, args: Promo) -> dict[str, Any]:
        p = self._one("SELECT * FROM promo_codes WHERE code = ?", args.code.strip().upper())
        if p is None:
            raise ToolFailure(f"{args.code} is not a valid promo code")
        if p["valid_until"] < self.now().date().isoformat():
            raise ToolFailure(f"{p['code']} expired on {p['valid_until']}")
        return p

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a transfer between the account's home address and the airport; the fare plus "
        "extras is taken from the card. Refuses too many passengers for the class, a class "
        "fully booked that day and meet-and-greet on a trip to the airport. The system does "
        "not check luggage, prices or whether a promo code was used before: the desk must."
    )
    def book_transfer(self, args: BookTransfer) -> dict[str, Any]:
        c = self._account(args.email)
        zone = self.zone_of(c["postcode"])
        if zone is None:
            raise ToolFailure("the home address is outside the service area")
        if args.direction not in {"to_airport", "from_airport"}:
            raise ToolFailure("direction must be to_airport or from_airport")
        if args.vehicle_class not in _seed.CAPACITY:
            raise ToolFailure("vehicle_class must be saloon, estate or 8-seater")
        when = self._when(args.pickup_at)
        if args.direction == "from_airport" and not args.flight_no:
            raise ToolFailure("an airport pickup needs the flight number")
        if args.meet_greet and args.direction != "from_airport":
            raise ToolFailure("meet-and-greet is for pickups from the airport")
        if not 1 <= args.passengers <= _seed.CAPACITY[args.vehicle_class][0]:
            raise ToolFailure(f"a {args.vehicle_class} takes at most "
                              f"{_seed.CAPACITY[args.vehicle_class][0]} passengers")  # fmt: skip
        if not 0 <= args.child_seats <= _seed.MAX_CHILD_SEATS:
            raise ToolFailure(f"at most {_seed.MAX_CHILD_SEATS} child seats")
        self._free(args.vehicle_class, when)
        ref = self._next_ref("bookings", "booking_ref", "SW", 30000)
        promo = args.promo_code.strip().upper() if args.promo_code else None
        self.db.execute(
            "INSERT INTO bookings (booking_ref, email, direction, address, postcode, zone, "
            "pickup_at, flight_no, vehicle_class, passengers, large_bags, meet_greet, "
            "child_seats, fare_pence, extras_pence, promo_code) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (ref, c["email"], args.direction, c["address"], c["postcode"], zone, args.pickup_at,
             (args.flight_no or "").upper() or None, args.vehicle_class, args.passengers,
             args.large_bags, int(args.meet_greet), args.child_seats, args.fare_pence,
             args.extras_pence, promo),
        )  # fmt: skip
        if promo:
            self.db.execute("INSERT INTO promo_uses (email, code, booking_ref) VALUES (?,?,?)",
                            (c["email"], promo, ref))  # fmt: skip
        self._charge(c, ref, "payment", args.fare_pence + args.extras_pence)
        return {"booking_ref": ref, "direction": args.direction, "pickup_at": args.pickup_at,
                "vehicle_class": args.vehicle_class, "fare": money(args.fare_pence),
                "extras": money(args.extras_pence),
                "paid": money(args.fare_pence + args.extras_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Add the return leg to a booking: the opposite direction, same address, class, "
        "passengers and bags, at fare_pence (the desk applies the return discount)."
    )
    def add_return_leg(self, args: ReturnLeg) -> dict[str, Any]:
        c = self._account(args.email)
        b = self._booking(c, args.booking_ref)
        when = self._when(args.pickup_at)
        if when <= at(b["pickup_at"]):
            raise ToolFailure("the return must be after the outward pickup")
        if self._one("SELECT 1 AS x FROM bookings WHERE return_of = ? AND status = 'confirmed'",
                     b["booking_ref"]):  # fmt: skip
            raise ToolFailure(f"{b['booking_ref']} already has a return leg")
        direction = "from_airport" if b["direction"] == "to_airport" else "to_airport"
        if direction == "from_airport" and not args.flight_no:
            raise ToolFailure("an airport pickup needs the flight number")
        self._free(b["vehicle_class"], when)
        ref = self._next_ref("bookings", "booking_ref", "SW", 30000)
        self.db.execute(
            "INSERT INTO bookings (booking_ref, email, direction, address, postcode, zone, "
            "pickup_at, flight_no, vehicle_class, passengers, large_bags, fare_pence, "
            "return_of) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (ref, c["email"], direction, b["address"], b["postcode"], b["zone"], args.pickup_at,
             (args.flight_no or "").upper() or None, b["vehicle_class"], b["passengers"],
             b["large_bags"], args.fare_pence, b["booking_ref"]),
        )  # fmt: skip
        self._charge(c, ref, "payment", args.fare_pence)
        return {"booking_ref": ref, "return_of": b["booking_ref"], "direction": direction,
                "pickup_at": args.pickup_at, "fare": money(args.fare_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Change a booking's pickup time (or day); fee_pence (quoted by the desk) is charged. "
        "Refuses a class fully booked on the new day."
    )
    def change_pickup(self, args: ChangePickup) -> dict[str, Any]:
        c = self._account(args.email)
        b = self._booking(c, args.booking_ref)
        when = self._when(args.pickup_at)
        self._free(b["vehicle_class"], when)
        self.db.execute("UPDATE bookings SET pickup_at = ? WHERE booking_ref = ?",
                        (args.pickup_at, b["booking_ref"]))  # fmt: skip
        self._charge(c, b["booking_ref"], "amend_fee", args.fee_pence)
        return {"booking_ref": b["booking_ref"], "pickup_at": args.pickup_at,
                "fee": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Change the flight an airport pickup tracks (free).")
    def update_flight(self, args: Flight) -> dict[str, Any]:
        c = self._account(args.email)
        b = self._booking(c, args.booking_ref)
        if b["direction"] != "from_airport":
            raise ToolFailure("only pickups from the airport track a flight")
        flight = re.sub(r"\s", "", args.flight_no).upper()
        if not FLIGHT_FORMAT.fullmatch(flight):
            raise ToolFailure(f"{args.flight_no!r} is not a flight number")
        self.db.execute("UPDATE bookings SET flight_no = ? WHERE booking_ref = ?",
                        (flight, b["booking_ref"]))  # fmt: skip
        return {"booking_ref": b["booking_ref"], "flight_no": flight}

    @tool(
        "Add meet-and-greet (airport pickups only) and/or child seats (at most 3 in all) to a "
        "booking; price_pence is taken from the card."
    )
    def add_extras(self, args: Extras) -> dict[str, Any]:
        c = self._account(args.email)
        b = self._booking(c, args.booking_ref)
        if args.meet_greet and b["direction"] != "from_airport":
            raise ToolFailure("meet-and-greet is for pickups from the airport")
        if args.meet_greet and b["meet_greet"]:
            raise ToolFailure("meet-and-greet is already on this booking")
        seats = b["child_seats"] + max(0, args.child_seats)
        if seats > _seed.MAX_CHILD_SEATS:
            raise ToolFailure(f"at most {_seed.MAX_CHILD_SEATS} child seats on a booking")
        if not args.meet_greet and args.child_seats <= 0:
            raise ToolFailure("nothing to add")
        self.db.execute(
            "UPDATE bookings SET meet_greet = ?, child_seats = ?, extras_pence = ? "
            "WHERE booking_ref = ?",
            (int(args.meet_greet or b["meet_greet"]), seats, b["extras_pence"] + args.price_pence,
             b["booking_ref"]),
        )  # fmt: skip
        self._charge(c, b["booking_ref"], "payment", args.price_pence)
        return {"booking_ref": b["booking_ref"], "meet_greet": bool(args.meet_greet or
                b["meet_greet"]), "child_seats": seats, "charged": money(args.price_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a booking; refund_pence (quoted by the desk) goes back to the card. The system "
        "does not check the refund bands: the desk must."
    )
    def cancel_booking(self, args: Cancel) -> dict[str, Any]:
        c = self._account(args.email)
        b = self._booking(c, args.booking_ref)
        paid = b["fare_pence"] + b["extras_pence"]
        if not 0 <= args.refund_pence <= paid:
            raise ToolFailure(f"the refund can't be more than the {money(paid)} paid")
        self.db.execute("UPDATE bookings SET status = 'cancelled' WHERE booking_ref = ?",
                        (b["booking_ref"],))  # fmt: skip
        self._charge(c, b["booking_ref"], "refund", args.refund_pence)
        return {"booking_ref": b["booking_ref"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Pay back part of a completed pickup's waiting fee to the card.")
    def refund_waiting_charge(self, args: WaitingRefund) -> dict[str, Any]:
        c = self._account(args.email)
        b = self._booking(c, args.booking_ref, status="completed")
        if not 0 < args.refund_pence <= b["waiting_fee_pence"]:
            raise ToolFailure(f"the refund must be between £0.01 and the "
                              f"{money(b['waiting_fee_pence'])} waiting fee")  # fmt: skip
        left = b["waiting_fee_pence"] - args.refund_pence
        self.db.execute("UPDATE bookings SET waiting_fee_pence = ? WHERE booking_ref = ?",
                        (left, b["booking_ref"]))  # fmt: skip
        self._charge(c, b["booking_ref"], "waiting_refund", args.refund_pence)
        return {"booking_ref": b["booking_ref"], "refunded": money(args.refund_pence),
                "waiting_fee_now": money(left), "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Log an item left in a car; the office contacts the driver and calls the customer.")
    def report_lost_property(self, args: LostItem) -> dict[str, Any]:
        c = self._account(args.email)
        b = self._booking(c, args.booking_ref, status="completed")
        report = self._next_ref("lost_property", "report_id", "LP", 6000)
        self.db.execute("INSERT INTO lost_property VALUES (?,?,?,?,?)",
                        (report, b["booking_ref"], c["email"], args.item.strip(),
                         self.now().strftime(_seed.STAMP)))  # fmt: skip
        return {"report_id": report, "booking_ref": b["booking_ref"], "item": args.item.strip(),
                "call_back_on": c["phone"]}  # fmt: skip

    @tool("Log a complaint about a booking for customer relations (reply within 5 working days).")
    def log_complaint(self, args: Complaint) -> dict[str, Any]:
        c = self._account(args.email)
        b = self._one("SELECT * FROM bookings WHERE booking_ref = ? AND email = ?",
                      args.booking_ref.strip().upper(), c["email"])  # fmt: skip
        if b is None:
            raise ToolFailure(f"no booking {args.booking_ref} on this account")
        ref = self._next_ref("complaints", "complaint_id", "CP", 7000)
        self.db.execute("INSERT INTO complaints VALUES (?,?,?,?,?)",
                        (ref, b["booking_ref"], c["email"], args.details.strip(),
                         self.now().strftime(_seed.STAMP)))  # fmt: skip
        return {"complaint_id": ref, "booking_ref": b["booking_ref"]}

    @tool("Change the mobile number on the account (the driver texts it on the day).")
    def update_phone(self, args: Phone) -> dict[str, Any]:
        c = self._account(args.email)
        if not PHONE_FORMAT.fullmatch(args.phone.strip()):
            raise ToolFailure(f"{args.phone!r} is not a UK mobile number")
        digits = re.sub(r"\D", "", args.phone)
        phone = f"{digits[:5]} {digits[5:]}"
        self.db.execute("UPDATE customers SET phone = ? WHERE email = ?", (phone, c["email"]))
        return {"email": c["email"], "phone": phone}


def make_environment() -> TransfersEnvironment:
    """A fresh booking system, from the seed data."""
    return TransfersEnvironment()

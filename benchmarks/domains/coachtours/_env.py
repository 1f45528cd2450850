"""Wayfarer Coach Holidays' booking system the desk works through: tools and the environment."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.coachtours import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_ref(text: str) -> str:
    return "WF" + re.sub(r"\D", "", text)


class Booking(BaseModel):
    booking_ref: str = Field(description="The booking reference, e.g. WF30101")


class Verify(Booking):
    surname: str = Field(description="The lead passenger's surname")


class Tour(BaseModel):
    tour_code: str = Field(description="The tour's code, e.g. LKD")


class Pickup(Booking):
    pickup: str = Field(description="A town on the tour's route, e.g. Sheffield")
    fee_pence: int = Field(description="The change fee the desk quoted (0 when 14+ days ahead)")


class Single(Booking):
    passenger_id: str = Field(description="The passenger, e.g. P401")
    price_pence: int = Field(description="The supplement the desk quoted")


class Insurance(Booking):
    passenger_ids: list[str] = Field(description="The passengers to insure")
    price_pence: int = Field(description="The premium the desk quoted")


class Seats(Booking):
    seats: list[int] = Field(description="Seat numbers 1-48, given to passengers without a seat")
    price_pence: int = Field(description="The seat charge the desk quoted")


class NameChange(Booking):
    passenger_id: str = Field(description="The passenger whose name changes")
    new_name: str = Field(description="The new passenger's full name")
    fee_pence: int = Field(description="The name-change fee the desk quoted")


class Cancel(Booking):
    refund_pence: int = Field(description="The refund the desk quoted (0 if nothing comes back)")


class AddPassenger(Booking):
    name: str = Field(description="The new passenger's full name")
    price_pence: int = Field(description="The price the desk quoted (today's price a person)")


class Contact(Booking):
    phone: str | None = Field(default=None, description="New contact phone")
    email: str | None = Field(default=None, description="New contact email")


class CoachtoursEnvironment(SqliteEnvironment):
    """Wayfarer Coach Holidays: tours, pick-up points, bookings, passengers, seats, charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "booking_ref": ["booking reference", "reference"],
        "surname": ["surname", "lead passenger's surname", "last name"],
        "pickup": ["pick-up point", "which pick-up"],
        "seats": ["seat numbers", "which seats"],
        "new_name": ["full name", "new passenger's name"],
        "contact": ["new phone number", "email address"],
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

    def _booking(self, ref: str, *, live: bool = True) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_ref = ?", norm_ref(ref))
        if b is None:
            raise ToolFailure(f"no booking {ref}")
        if live and b["status"] != "confirmed":
            raise ToolFailure(f"booking {b['booking_ref']} is {b['status']}")
        return b

    def _tour(self, code: str) -> dict[str, Any]:
        t = self._one("SELECT * FROM tours WHERE tour_code = ?", code.strip().upper())
        if t is None:
            raise ToolFailure(f"no tour {code}")
        return t

    def _charge(self, b: dict[str, Any], kind: str, pence: int, ref: str = "") -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (booking_ref, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (b["booking_ref"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def days_to(self, day: str) -> int:
        return (date.fromisoformat(day) - self.now().date()).days

    def _passenger(self, b: dict[str, Any], pid: str) -> dict[str, Any]:
        p = self._one("SELECT * FROM passengers WHERE passenger_id = ? AND booking_ref = ?",
                      pid.strip().upper(), b["booking_ref"])  # fmt: skip
        if p is None:
            raise ToolFailure(f"no passenger {pid} on booking {b['booking_ref']}")
        return p

    def tour_view(self, code: str) -> dict[str, Any]:
        t = self._tour(code)
        return {
            **t,
            "days_to_departure": self.days_to(t["departure"]),
            "route": self._rows("SELECT town, point, time FROM pickups WHERE tour_code = ? "
                                "ORDER BY time", t["tour_code"]),  # fmt: skip
            "taken_seats": [r["seat"] for r in self._rows(
                "SELECT seat FROM seats WHERE tour_code = ? ORDER BY seat", t["tour_code"])],
        }  # fmt: skip

    def view(self, ref: str) -> dict[str, Any]:
        """The booking as staff see it: the tour, the passengers, their seats."""
        b = self._booking(ref, live=False)
        return {
            **b,
            "tour": self.tour_view(b["tour_code"]),
            "passengers": self._rows(
                "SELECT * FROM passengers WHERE booking_ref = ? ORDER BY lead DESC, passenger_id",
                b["booking_ref"],
            ),  # fmt: skip
            "seats": self._rows(
                "SELECT seat, passenger_id FROM seats WHERE booking_ref = ? ORDER BY seat",
                b["booking_ref"],
            ),  # fmt: skip
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the booking reference and the LEAD passenger's surname "
        "must match. Returns the booking."
    )
    def verify_booking(self, args: Verify) -> dict[str, Any]:
        found = self._one(
            "SELECT booking_ref FROM passengers WHERE booking_ref = ? AND lead = 1 AND "
            "lower(name) LIKE ?",
            norm_ref(args.booking_ref),
            "% " + args.surname.strip().lower(),
        )
        if found is None or not args.surname.strip():
            raise ToolFailure("verification failed: no booking matches that reference and surname")
        return self.view(found["booking_ref"])

    @tool("Read a booking (staff view, after verify_booking only).")
    def get_booking(self, args: Booking) -> dict[str, Any]:
        return self.view(args.booking_ref)

    @tool("Read a tour: departure, nights, price a person, seats and single rooms left, route.")
    def get_tour(self, args: Tour) -> dict[str, Any]:
        return self.tour_view(args.tour_code)

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Change the booking's pick-up point to another town on the tour's route; fee_pence "
        "(quoted by the desk) is charged. Refuses once the coach has left."
    )
    def change_pickup(self, args: Pickup) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        t = self.tour_view(b["tour_code"])
        if t["days_to_departure"] <= 0:
            raise ToolFailure("the coach has already left: the pick-up point can't be changed")
        stop = next((r for r in t["route"] if r["town"].lower() == args.pickup.strip().lower()),
                    None)  # fmt: skip
        if stop is None:
            raise ToolFailure(f"{args.pickup} is not a pick-up point on this tour's route")
        self.db.execute("UPDATE bookings SET pickup = ? WHERE booking_ref = ?",
                        (stop["town"], b["booking_ref"]))  # fmt: skip
        self._charge(b, "pickup_fee", args.fee_pence)
        return {"booking_ref": b["booking_ref"], "pickup": stop["point"], "time": stop["time"],
                "departure": t["departure"], "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Give a passenger a single room for the whole tour; price_pence is charged. Refuses "
        "when the hotel has no single rooms left."
    )
    def add_single_room(self, args: Single) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        p = self._passenger(b, args.passenger_id)
        t = self._tour(b["tour_code"])
        if p["single_room"]:
            raise ToolFailure(f"{p['name']} already has a single room")
        if t["singles_left"] <= 0:
            raise ToolFailure("the hotel has no single rooms left on this tour")
        self.db.execute("UPDATE passengers SET single_room = 1 WHERE passenger_id = ?",
                        (p["passenger_id"],))  # fmt: skip
        self.db.execute("UPDATE tours SET singles_left = singles_left - 1 WHERE tour_code = ?",
                        (t["tour_code"],))  # fmt: skip
        self._charge(b, "single", args.price_pence, p["passenger_id"])
        return {"booking_ref": b["booking_ref"], "passenger": p["name"],
                "price": money(args.price_pence), "card_last4": b["card_last4"]}  # fmt: skip

    @tool(
        "Add travel insurance for passengers; price_pence is charged. Policy: only up to 7 days "
        "before departure; the system does not check it: the desk must."
    )
    def add_insurance(self, args: Insurance) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        if not args.passenger_ids:
            raise ToolFailure("no passengers given")
        names = []
        for pid in args.passenger_ids:
            p = self._passenger(b, pid)
            if p["insured"]:
                raise ToolFailure(f"{p['name']} is already insured")
            names.append(p["name"])
        for pid in args.passenger_ids:
            self.db.execute("UPDATE passengers SET insured = 1 WHERE passenger_id = ?",
                            (pid.strip().upper(),))  # fmt: skip
        self._charge(b, "insurance", args.price_pence)
        return {"booking_ref": b["booking_ref"], "insured": names,
                "price": money(args.price_pence), "card_last4": b["card_last4"]}  # fmt: skip

    @tool(
        "Reserve coach seats (1-48, four a row) for passengers of the booking without a seat, "
        "in order; price_pence is charged. Refuses a seat already taken."
    )
    def choose_seats(self, args: Seats) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        taken = {r["seat"] for r in self._rows("SELECT seat FROM seats WHERE tour_code = ?",
                                               b["tour_code"])}  # fmt: skip
        seated = {r["passenger_id"] for r in self._rows(
            "SELECT passenger_id FROM seats WHERE booking_ref = ?", b["booking_ref"])}  # fmt: skip
        free_pax = [p["passenger_id"] for p in self._rows(
            "SELECT passenger_id FROM passengers WHERE booking_ref = ? ORDER BY lead DESC, "
            "passenger_id", b["booking_ref"]) if p["passenger_id"] not in seated]  # fmt: skip
        if not args.seats or len(set(args.seats)) != len(args.seats):
            raise ToolFailure("give each seat once")
        if len(args.seats) > len(free_pax):
            raise ToolFailure(f"only {len(free_pax)} passenger(s) on this booking need a seat")
        for seat in args.seats:
            if not 1 <= seat <= _seed.SEATS_ON_COACH:
                raise ToolFailure(f"there is no seat {seat}: seats are 1 to 48")
            if seat in taken:
                raise ToolFailure(f"seat {seat} is already taken")
        for seat, pid in zip(args.seats, free_pax, strict=False):
            self.db.execute("INSERT INTO seats VALUES (?,?,?,?)",
                            (b["tour_code"], seat, b["booking_ref"], pid))  # fmt: skip
        self._charge(b, "seats", args.price_pence)
        return {"booking_ref": b["booking_ref"], "seats": list(args.seats),
                "price": money(args.price_pence)}  # fmt: skip

    @tool(
        "Put a new person in a passenger's place; fee_pence is charged. Refuses less than 7 days "
        "before departure. The system does not check which passenger: the desk must."
    )
    def change_name(self, args: NameChange) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        p = self._passenger(b, args.passenger_id)
        t = self.tour_view(b["tour_code"])
        if t["days_to_departure"] < _seed.NAME_CHANGE_DAYS:
            raise ToolFailure("names can't be changed less than 7 days before departure")
        new = " ".join(args.new_name.split())
        if len(new.split()) < 2:
            raise ToolFailure("give the new passenger's full name")
        self.db.execute("UPDATE passengers SET name = ? WHERE passenger_id = ?",
                        (new, p["passenger_id"]))  # fmt: skip
        self._charge(b, "name_change", args.fee_pence, p["passenger_id"])
        return {"booking_ref": b["booking_ref"], "old_name": p["name"], "new_name": new,
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Cancel the booking; refund_pence (quoted by the desk) goes back to the card. The "
        "system does not check the refund bands: the desk must."
    )
    def cancel_booking(self, args: Cancel) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        self.db.execute("UPDATE bookings SET status = 'cancelled' WHERE booking_ref = ?",
                        (b["booking_ref"],))  # fmt: skip
        count = self.db.execute("SELECT COUNT(*) FROM passengers WHERE booking_ref = ?",
                                (b["booking_ref"],)).fetchone()[0]  # fmt: skip
        self.db.execute("DELETE FROM seats WHERE booking_ref = ?", (b["booking_ref"],))
        self.db.execute("UPDATE tours SET seats_left = seats_left + ? WHERE tour_code = ?",
                        (count, b["tour_code"]))  # fmt: skip
        self._charge(b, "refund", args.refund_pence)
        return {"booking_ref": b["booking_ref"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": b["card_last4"]}  # fmt: skip

    @tool(
        "Add a passenger to the booking at price_pence (today's price a person), charged now. "
        "Refuses when no seats remain on the tour."
    )
    def add_passenger(self, args: AddPassenger) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        t = self._tour(b["tour_code"])
        if t["seats_left"] <= 0:
            raise ToolFailure("the tour is fully booked: no seats remain")
        name = " ".join(args.name.split())
        if len(name.split()) < 2:
            raise ToolFailure("give the new passenger's full name")
        last = self.db.execute("SELECT MAX(CAST(substr(passenger_id, 2) AS INTEGER)) "
                               "FROM passengers").fetchone()[0]  # fmt: skip
        pid = f"P{(last or 400) + 1}"
        self.db.execute("INSERT INTO passengers (passenger_id, booking_ref, name) VALUES (?,?,?)",
                        (pid, b["booking_ref"], name))  # fmt: skip
        self.db.execute(
            "UPDATE bookings SET price_pence = price_pence + ?, paid_pence = paid_pence + ? "
            "WHERE booking_ref = ?",
            (args.price_pence, args.price_pence, b["booking_ref"]),
        )
        self.db.execute("UPDATE tours SET seats_left = seats_left - 1 WHERE tour_code = ?",
                        (t["tour_code"],))  # fmt: skip
        self._charge(b, "passenger", args.price_pence, pid)
        return {"booking_ref": b["booking_ref"], "passenger_id": pid, "name": name,
                "price": money(args.price_pence), "card_last4": b["card_last4"]}  # fmt: skip

    @tool("Change the booking's contact phone and/or email.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        if args.phone is None and args.email is None:
            raise ToolFailure("give a phone number or an email address")
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE bookings SET phone = ? WHERE booking_ref = ?",
                            (args.phone.strip(), b["booking_ref"]))  # fmt: skip
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE bookings SET email = ? WHERE booking_ref = ?",
                            (args.email.strip(), b["booking_ref"]))  # fmt: skip
        now = self._booking(b["booking_ref"])
        return {"booking_ref": b["booking_ref"], "phone": now["phone"], "email": now["email"]}


def make_environment() -> CoachtoursEnvironment:
    """A fresh booking system, from the seed data."""
    return CoachtoursEnvironment()
